/**
 * Benchmark 6: what an answer costs to render on a terminal, for the shape that made it
 * quadratic before issue 18: glob patterns (`*.ts *.tsx …`), every `*` an emphasis
 * opener that never closes, streamed in token-sized chunks through the REPL's own task
 * view (markdown, colours, live region, its frame limit and timer).
 *
 * @module
 */
import { TaskView } from "../src/ui/task_view.ts";
import { formatBytes, formatSpread, type Spread, spread } from "./stats.ts";

/** What to stream and how often. */
export interface RenderCostOptions {
  /** Answer sizes in bytes. */
  sizes: number[];
  /** Bytes per streamed chunk (a model token is about 4). */
  chunkBytes: number;
  /** Lines of the second shape, in bytes. */
  lineBytes: number;
  runs: number;
}

/** One answer's rendering time. */
export interface RenderCostRow {
  shape: "one line" | "lines";
  bytes: number;
  ms: Spread;
  /** Bytes the view wrote to the terminal in the last run. */
  written: number;
}

const COLUMNS = 100;
const ROWS = 40;
const GLOBS = ["*.ts", "*.tsx", "*.js", "*_test.ts", "*.md"];

/** Renders each size in both shapes `runs` times. */
export function benchRenderCost(options: RenderCostOptions): RenderCostRow[] {
  const rows: RenderCostRow[] = [];
  for (const bytes of options.sizes) {
    for (const shape of ["one line", "lines"] as const) {
      const text = globAnswer(bytes, shape === "lines" ? options.lineBytes : bytes);
      const times: number[] = [];
      let written = 0;
      for (let run = 0; run < options.runs; run++) {
        const measured = renderOnce(text, options.chunkBytes);
        times.push(measured.ms);
        written = measured.written;
      }
      rows.push({ shape, bytes, ms: spread(times), written });
    }
  }
  return rows;
}

/** `bytes` of glob patterns, in lines of `lineBytes` (the last may be shorter). */
export function globAnswer(bytes: number, lineBytes: number): string {
  let text = "";
  let line = "";
  for (let i = 0; text.length + line.length < bytes; i++) {
    line += `${GLOBS[i % GLOBS.length]} `;
    if (line.length >= lineBytes) {
      text += `${line.slice(0, lineBytes - 1)}\n`;
      line = "";
    }
  }
  return (text + line).slice(0, bytes);
}

function renderOnce(text: string, chunkBytes: number): { ms: number; written: number } {
  let written = 0;
  const view = new TaskView({
    io: { write: (out) => written += out.length, columns: () => COLUMNS, rows: () => ROWS },
    color: true,
    markdown: true,
  });
  const started = performance.now();
  view.start({ model: "bench" }, "writing");
  for (let at = 0; at < text.length; at += chunkBytes) view.text(text.slice(at, at + chunkBytes));
  view.stop();
  return { ms: performance.now() - started, written };
}

/** The report's section for benchmark 6. */
export function renderCostSection(options: RenderCostOptions, rows: RenderCostRow[]): string[] {
  const lines = (shape: RenderCostRow["shape"]) =>
    shape === "one line" ? "one line" : `lines of ${options.lineBytes / 1024} KB`;
  const table = rows.map((row) => {
    const mbPerS = row.bytes / 1024 / 1024 / (row.ms.median / 1000);
    return `| ${formatBytes(row.bytes)} | ${lines(row.shape)} | ${formatSpread(row.ms, 0)} | ` +
      `${mbPerS.toFixed(1)} | ${formatBytes(row.written)} |`;
  });
  return [
    "## 6. Rendering a hostile answer",
    "",
    "An answer of glob patterns (`*.ts *.tsx *.js *_test.ts *.md …`: every `*` opens emphasis " +
    `that never closes) streamed in ${options.chunkBytes}-byte chunks through the REPL's task ` +
    `view (markdown, colours, a ${COLUMNS}×${ROWS} terminal, its frame limit and timer), from ` +
    `the first chunk to the end of the answer; ${options.runs} runs. Before issue 18 (commit ` +
    "1104453) the open line was rendered in full on every chunk and emphasis parsing was " +
    "quadratic in the unmatched markers: one 24 KB line of this shape took 290 s (4-byte " +
    "chunks, the open line's rows asked for after each), growing with the cube of its length.",
    "",
    "| Answer | Shape | Time, ms | MB/s | Written to the terminal |",
    "| ---: | --- | ---: | ---: | ---: |",
    ...table,
    "",
  ];
}
