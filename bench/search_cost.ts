/**
 * Benchmark 8: what the search tools cost on a tree of many files (10 000 files of about
 * 1 KB in directories of 100, with a `.gitignore`): `grep` with a match in every file and
 * with one rare match, `glob` of every `.ts` file, and `ls` to depth 2, each through the tool
 * as the model calls it.
 *
 * @module
 */
import { Workspace } from "../src/workspace/mod.ts";
import { createGlobTool } from "../src/tools/glob.ts";
import { createGrepTool } from "../src/tools/grep.ts";
import { createLsTool } from "../src/tools/ls.ts";
import { formatSpread, type Spread, spread } from "./stats.ts";

/** The tree and how often to measure. */
export interface SearchCostOptions {
  files: number;
  filesPerDir: number;
  /** Runs of each search, after one warm-up run. */
  runs: number;
}

/** Milliseconds per search, by what was searched. */
export interface SearchCostResult {
  files: number;
  grepEveryFileMs: Spread;
  grepRareMs: Spread;
  globMs: Spread;
  lsMs: Spread;
}

/** The goal: a search of the whole tree well under a second. */
const GOAL_MS = 500;

/** Runs the benchmark in a temp directory, removed afterwards. */
export async function benchSearchCost(options: SearchCostOptions): Promise<SearchCostResult> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-bench-search-" });
  try {
    writeTree(dir, options);
    const workspace = await Workspace.open(dir);
    const signal = new AbortController().signal;
    const grep = createGrepTool(workspace);
    const glob = createGlobTool(workspace);
    const ls = createLsTool(workspace);
    const time = async (run: () => Promise<unknown>): Promise<Spread> => {
      await run();
      const times: number[] = [];
      for (let index = 0; index < options.runs; index++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      return spread(times);
    };
    return {
      files: options.files,
      grepEveryFileMs: await time(() =>
        grep.execute({ pattern: "export function \\w+" }, { signal })
      ),
      grepRareMs: await time(() => grep.execute({ pattern: "rare_marker_\\d+" }, { signal })),
      globMs: await time(() => glob.execute({ pattern: "**/*.ts" }, { signal })),
      lsMs: await time(() => ls.execute({ depth: 2 }, { signal })),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function writeTree(dir: string, options: SearchCostOptions): void {
  const body = Array.from({ length: 30 }, (_, line) => `  const value${line} = ${line} * 2;`)
    .join("\n");
  Deno.writeTextFileSync(`${dir}/.gitignore`, "build/\n*.log\n");
  for (let index = 0; index < options.files; index++) {
    const sub = `${dir}/d${Math.floor(index / options.filesPerDir)}`;
    if (index % options.filesPerDir === 0) Deno.mkdirSync(sub);
    const marker = index === options.files - 1 ? "\n// rare_marker_1\n" : "\n";
    Deno.writeTextFileSync(
      `${sub}/f${index}.ts`,
      `export function f${index}() {\n${body}\n}${marker}`,
    );
  }
}

/** The report's section. */
export function searchCostSection(options: SearchCostOptions, result: SearchCostResult): string[] {
  const slowest = Math.max(
    result.grepEveryFileMs.median,
    result.grepRareMs.median,
    result.globMs.median,
    result.lsMs.median,
  );
  return [
    "## 8. Search tools on a large tree",
    "",
    `A workspace of ${result.files.toLocaleString("en-US")} files of about 1 KB in directories ` +
    `of ${options.filesPerDir}, with a \`.gitignore\`; each search through its tool as the ` +
    `model calls it, ${options.runs} runs after a warm-up.`,
    "",
    "| Search | ms |",
    "| --- | ---: |",
    `| grep, a match in every file (100 listed, all counted) | ${
      formatSpread(result.grepEveryFileMs, 1)
    } |`,
    `| grep, one match in the last file | ${formatSpread(result.grepRareMs, 1)} |`,
    `| glob \`**/*.ts\` | ${formatSpread(result.globMs, 1)} |`,
    `| ls, depth 2 | ${formatSpread(result.lsMs, 1)} |`,
    "",
    `**Goal** (every search of the tree under ${GOAL_MS} ms): ${
      slowest <= GOAL_MS ? "met" : "NOT met"
    }.`,
    "",
  ];
}

if (import.meta.main) {
  const options = { files: 10_000, filesPerDir: 100, runs: 5 };
  console.log(searchCostSection(options, await benchSearchCost(options)).join("\n"));
}
