/**
 * The long-session benchmark's markdown section, with the recorded "before" run (the context
 * engine before issue 13) beside the current one, and the baseline file that holds it.
 *
 * @module
 */
import type { LongSessionOptions, LongSessionRow, LongSessionRun } from "./long_session.ts";

/** A recorded run to compare against. */
export interface LongSessionBaseline {
  /** What was measured, e.g. "before: commit 14a9c30 (context engine v1)". */
  label: string;
  rows: LongSessionRow[];
}

/** Where the "before" run is kept. */
export const BASELINE_FILE = new URL("./long_session_before.json", import.meta.url);

/** The recorded baseline, or undefined when none was saved. */
export async function loadBaseline(): Promise<LongSessionBaseline | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(BASELINE_FILE);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const data: unknown = JSON.parse(text);
  if (!isBaseline(data)) {
    throw new TypeError(`Cannot read baseline "${BASELINE_FILE.pathname}": unexpected shape`);
  }
  return data;
}

/** Records `rows` as the baseline later runs are compared against. */
export async function saveBaseline(baseline: LongSessionBaseline): Promise<void> {
  await Deno.writeTextFile(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** Issue 34's goals for the default mode on its fidelity run, per window. */
export const FIDELITY_GOALS = [
  { contextWindow: 16_000, cacheableShare: 0.95, weightedCost: 56_000 },
  { contextWindow: 32_000, cacheableShare: 0.95, weightedCost: 124_000 },
] as const;

/**
 * One line per goal window: the run's facts, rejected requests, cacheable share and cost,
 * each marked met or not met against `FIDELITY_GOALS`.
 * Contract: pure; windows without a row are left out.
 */
export function goalLines(rows: readonly LongSessionRow[]): string[] {
  const lines = ["Against the goals of issue 34:", ""];
  for (const goal of FIDELITY_GOALS) {
    const row = rows.find((candidate) => candidate.contextWindow === goal.contextWindow);
    if (!row) continue;
    const { cacheableShare, weightedCost } = row.cache;
    lines.push(
      `- ${thousands(goal.contextWindow)}: facts ${row.factsRecalled}/${row.facts} ` +
        `${met(row.factsRecalled === row.facts)}, rejected ${row.rejected} ` +
        `${met(row.rejected === 0)}, cacheable share ${percent(cacheableShare)} ` +
        `(goal ≥ ${percent(goal.cacheableShare)}) ${met(cacheableShare >= goal.cacheableShare)}, ` +
        `cost ${thousands(Math.round(weightedCost))} (goal ≤ ${thousands(goal.weightedCost)}) ` +
        met(weightedCost <= goal.weightedCost),
    );
  }
  return lines;
}

function met(ok: boolean): string {
  return ok ? "met" : "NOT met";
}

/** The section: what the benchmark does, the baseline table, this run's table, the change. */
export function longSessionSection(
  options: LongSessionOptions,
  runs: readonly LongSessionRun[],
  baseline: LongSessionBaseline | undefined,
): string[] {
  const lines = [
    "## 5. Long-session fidelity and prompt-cache reuse",
    "",
    `One session of ${options.tasks} tasks, each reading a workspace file of about 5–6.5 KB ` +
    "of ordinary English prose that holds one unique fact in its middle (the model answers " +
    `"I read <path>." without repeating it), then a recall task; the real agent, compactor and ` +
    "chat client against the strict fake server (real BPE token counts, requests over the " +
    `window rejected), \`maxOutputTokens\` ${options.maxOutputTokens}. Facts: how many of the ` +
    "facts appear anywhere in the recall request. Cacheable share: each request is taken as " +
    "[tools, message 1, message 2, …]; its shared part is the longest run of leading " +
    "elements equal to those of an earlier accepted request, of which OpenAI's rule caches " +
    "nothing below 1,024 tokens and then whole 128-token steps; share = cacheable tokens / " +
    "all input tokens (summary requests included). The ceiling in brackets counts as uncached " +
    "only the elements no earlier request carried (each file's text, new answers, tasks and " +
    "summaries, and any earlier message sent re-worded), which no cache can serve. Cost = " +
    "uncached + 0.1 × cached input tokens.",
    "",
  ];
  if (baseline) {
    lines.push(`### ${baseline.label}`, "", BASELINE_RULE, "", ...table(baseline.rows), "");
  }
  for (const run of runs) {
    lines.push(`### ${run.label}`, "", ...table(run.rows), "");
    if (run.against === "goals") lines.push(...goalLines(run.rows), "");
    else if (baseline) lines.push(...comparison(run.rows, baseline.rows), "");
  }
  return lines;
}

const BASELINE_RULE = "Recorded before the cacheable share followed OpenAI's 1,024/128-token " +
  "rule: its share counts every shared token, so it is up to about 1 point higher, and its " +
  "cost lower, than the same run counted by the rule.";

function table(rows: readonly LongSessionRow[]): string[] {
  return [
    "| Window (threshold) | Facts in recall request | Rejected | Summary calls | Task requests (min between summaries) | Requests with cut tool outputs | Peak prompt | Total prompt tokens | Cacheable share (ceiling) | Cache-weighted cost |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((row) =>
      cells([
        `${thousands(row.contextWindow)} (${thousands(row.threshold)})`,
        `${row.factsRecalled}/${row.facts}`,
        String(row.rejected),
        String(row.summaryCalls),
        `${row.taskRequests} (${row.minTaskRequestsBetweenSummaries ?? "–"})`,
        String(row.requestsWithCutOutputs),
        thousands(row.peakPromptTokens),
        thousands(row.totalPromptTokens),
        `${percent(row.cache.cacheableShare)} (${ceiling(row)})`,
        thousands(Math.round(row.cache.weightedCost)),
      ])
    ),
  ];
}

function comparison(rows: readonly LongSessionRow[], before: readonly LongSessionRow[]): string[] {
  const lines = ["Change against the baseline:", ""];
  for (const row of rows) {
    const old = before.find((candidate) => candidate.contextWindow === row.contextWindow);
    if (!old) continue;
    const cost = row.cache.weightedCost / old.cache.weightedCost - 1;
    lines.push(
      `- ${thousands(row.contextWindow)}: facts ${old.factsRecalled} → ${row.factsRecalled}, ` +
        `cacheable share ${percent(old.cache.cacheableShare)} → ` +
        `${percent(row.cache.cacheableShare)}, cache-weighted cost ${cost <= 0 ? "−" : "+"}${
          (Math.abs(cost) * 100).toFixed(1)
        } %`,
    );
  }
  return lines;
}

function isBaseline(value: unknown): value is LongSessionBaseline {
  if (!isRecord(value) || typeof value.label !== "string" || !Array.isArray(value.rows)) {
    return false;
  }
  const numbers = ["contextWindow", "threshold", "factsRecalled", "facts", "rejected"];
  return value.rows.every((row) =>
    isRecord(row) && isRecord(row.cache) && numbers.every((key) => typeof row[key] === "number")
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The most a prompt cache could serve: all but the content no earlier request carried. */
function ceiling(row: LongSessionRow): string {
  const { firstSeenTokens, inputTokens } = row.cache;
  return inputTokens === 0 ? "–" : percent(1 - firstSeenTokens / inputTokens);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

function thousands(value: number): string {
  return value.toLocaleString("en-US");
}

function cells(values: readonly string[]): string {
  return `| ${values.join(" | ")} |`;
}
