/**
 * Hostile answers through the markdown renderer: nothing crashes it, and its cost stays
 * linear in the text streamed.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import {
  MarkdownStream,
  MAX_PREVIEW_CHARS,
  MAX_TABLE_LINES,
} from "../../../src/terminal/markdown.ts";
import { MAX_QUOTE_DEPTH } from "../../../src/terminal/markdown_block.ts";
import { PREVIEW_ROWS } from "../../../src/terminal/open_line.ts";
import { PlainStream } from "../../../src/terminal/plain_stream.ts";
import type { TextStream } from "../../../src/terminal/plain_stream.ts";

function render(text: string, width = 40): string[] {
  const stream = new MarkdownStream({ width, color: false });
  return [...stream.push(text), ...stream.end()];
}

/** Streams `text` in `size`-character chunks, asking for the pending rows after each, as the REPL would without its frame limit. */
function stream(target: TextStream, text: string, size = 4): { rows: number; ms: number } {
  const started = performance.now();
  let rows = 0;
  for (let at = 0; at < text.length; at += size) {
    rows += target.push(text.slice(at, at + size)).length;
    rows += target.pending().length;
  }
  rows += target.end().length;
  return { rows, ms: performance.now() - started };
}

/** The line: glob patterns, each `*` an emphasis opener that never closes. */
function globLine(bytes: number): string {
  const words: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const word = ["*.ts", "*.tsx", "*.js", "*_test.ts", "*.md"][i % 5] ?? "";
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ").slice(0, bytes);
}

Deno.test("MarkdownStream shows a block quote nested 4000 deep: 16 bars, then the text as written", () => {
  const rows = render(`${"> ".repeat(4000)}end\n`, 80);
  const bars = "│ ".repeat(MAX_QUOTE_DEPTH);
  assert(rows.every((row) => row.startsWith(bars)), rows[0]);
  assertEquals(
    rows.map((row) => row.slice(bars.length)).join("").replaceAll(" ", ""),
    `${">".repeat(4000 - MAX_QUOTE_DEPTH)}end`,
  );
  assertEquals(render(`${"> ".repeat(3)}deep\n`), ["│ │ │ deep"]);
});

Deno.test("MarkdownStream shows a table of 150 000 rows as written past its line limit", () => {
  const body = Array.from({ length: 150_000 }, (_, i) => `| ${i} | y |`);
  const rows = render(["| a | b |", "|---|---|", ...body, "after", ""].join("\n"));
  assertEquals(rows.length, 150_003);
  assertEquals(rows.slice(0, 3), ["| a | b |", "|---|---|", "| 0 | y |"]);
  assertEquals(rows.slice(-2), ["| 149999 | y |", "after"]);
  const boxed = render(["| a |", "|---|", ...body.slice(0, MAX_TABLE_LINES - 2), ""].join("\n"));
  assertEquals(boxed.length, MAX_TABLE_LINES + 2);
  assertEquals([boxed[0], boxed.at(-1)], ["┌─────┐", "└─────┘"]);
});

Deno.test("MarkdownStream renders a 200 000-character line in a 1-column terminal", () => {
  const rows = render(`${"x".repeat(200_000)}\n`, 1);
  assertEquals(rows.length, 200_000);
  assertEquals(render(`\`\`\`\n${"y".repeat(200_000)}\n\`\`\`\n`, 3).length, 200_002);
});

Deno.test("MarkdownStream streams a 24 KB line of unmatched `*` in a fraction of a second", () => {
  const line = globLine(24 * 1024);
  const { rows, ms } = stream(new MarkdownStream({ width: 80, color: true }), `${line}\n`);
  assert(rows > 0);
  assert(ms < 1000, `took ${ms.toFixed(0)} ms`);
  assertEquals(render(`${line}\n`, 80).join(" ").replaceAll("  ", " "), line);
});

Deno.test("MarkdownStream previews an open line longer than its limit by its last rows, as written", () => {
  const target = new MarkdownStream({ width: 10, color: false });
  target.push(`**${"a".repeat(MAX_PREVIEW_CHARS)}`);
  const pending = target.pending();
  assertEquals(pending.length, PREVIEW_ROWS);
  assertEquals(pending.slice(-2), ["aaaaaaaaaa", "aaaaaaaa"]);
  target.push("**");
  assertEquals(target.pending().at(-1), "aaaaaaaa**");
  // Once the line ends it is rendered in full: bold, which without colour keeps its markers.
  assertEquals(target.end().slice(-2), ["aaaaaaaaaa", "aaaaaaaa**"]);
});

Deno.test("MarkdownStream and PlainStream stream 1 MB on one line in linear time", () => {
  const line = globLine(1024 * 1024);
  for (const target of [new MarkdownStream({ width: 80, color: true }), new PlainStream(80)]) {
    const { ms } = stream(target, `${line}\n`, 16);
    assert(ms < 10_000, `${target.constructor.name} took ${ms.toFixed(0)} ms`);
  }
});
