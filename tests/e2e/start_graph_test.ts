import { assert, assertEquals } from "@std/assert";

/**
 * The modules a `-p` run loads before it needs them: main.ts and the `-p` mode with what they
 * import statically (Deno's own graph, `deno info`), the dynamic imports left out.
 */
const ROOT = new URL("../../", import.meta.url);
const PRINT_ROOTS = ["main.ts", "src/modes/print.ts"];

/** Modules only other modes or later events use: each must stay out of a `-p` start. */
const LOADED_WHEN_USED = [
  "src/terminal/live_region.ts",
  "src/terminal/markdown.ts",
  "src/terminal/plain_stream.ts",
  "src/context/summarizer.ts",
  "src/context/cut_point.ts",
  "src/context/shrink.ts",
  "src/undo/restore.ts",
  "src/permissions/decide.ts",
  "src/permissions/shell_commands.ts",
  "src/permissions/needs.ts",
  "src/permissions/question.ts",
  "src/permissions/preview.ts",
  "src/permissions/host_question.ts",
  "src/permissions/settings_file.ts",
  "src/app/scope_report.ts",
  "src/app/approval_prompt.ts",
  "src/app/settings_prompt.ts",
  "src/ui/script_output.ts",
  "src/ui/sessions_table.ts",
  "src/ui/transcript.ts",
  "src/session/parse.ts",
  "src/session/records.ts",
  "src/hooks/hook_run.ts",
  "src/tools/line_pages.ts",
  "src/workspace/tree_walk.ts",
  "src/workspace/path_glob.ts",
  "src/undo/snapshot_files.ts",
  "src/modes/interactive.ts",
];

/**
 * The most modules the `-p` start's static graph may hold (204 when set; 242 before the lazy
 * loads; 206 with the request deadlines' watchdog, the stores' write-once and the lazy
 * sandbox setup). A new module a start needs raises it on purpose, with the reason in the
 * commit.
 */
const PRINT_START_BUDGET = 206;

/**
 * The most modules `--version` (main.ts's static graph) may hold: 76 when set, 225 before, 77
 * with core's two new files; the run's parts (src/app/) load only once a mode runs.
 */
const VERSION_START_BUDGET = 77;

interface Graph {
  /** Every module of the program, reachable statically or by `import()`. */
  all: Set<string>;
  /** Each module's static imports of code. */
  staticImports: Map<string, string[]>;
}

async function programGraph(): Promise<Graph> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=tests/deno.lock", "main.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(info.success, new TextDecoder().decode(info.stderr));
  const { modules } = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const all = new Set<string>();
  const staticImports = new Map<string, string[]>();
  for (const module of modules) {
    all.add(module.specifier);
    staticImports.set(
      module.specifier,
      (module.dependencies ?? []).flatMap((dependency) =>
        dependency.code && !dependency.isDynamic ? [dependency.code.specifier] : []
      ),
    );
  }
  return { all, staticImports };
}

function staticClosure(graph: Graph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module)) return;
    seen.add(module);
    for (const next of graph.staticImports.get(module) ?? []) visit(next);
  };
  for (const root of roots) visit(root);
  return seen;
}

const fileUrl = (path: string) => new URL(path, ROOT).href;

Deno.test("a -p start loads no module that only other modes or later events use", async () => {
  const graph = await programGraph();
  const start = staticClosure(graph, PRINT_ROOTS.map(fileUrl));
  // Each module is still in the program (loaded by `import()`), so a rename cannot pass here.
  assertEquals(LOADED_WHEN_USED.filter((path) => !graph.all.has(fileUrl(path))), []);
  assertEquals(LOADED_WHEN_USED.filter((path) => start.has(fileUrl(path))), []);
  assert(
    start.size <= PRINT_START_BUDGET,
    `a -p start loads ${start.size} modules statically, over the budget of ${PRINT_START_BUDGET}`,
  );
});

Deno.test("--version and --help load main.ts's graph without the run's parts", async () => {
  const graph = await programGraph();
  const start = staticClosure(graph, [fileUrl("main.ts")]);
  assert(graph.all.has(fileUrl("src/app/mod.ts")));
  assert(!start.has(fileUrl("src/app/mod.ts")), "main.ts imports src/app/ statically");
  assert(
    start.size <= VERSION_START_BUDGET,
    `--version loads ${start.size} modules statically, over the budget of ${VERSION_START_BUDGET}`,
  );
});
