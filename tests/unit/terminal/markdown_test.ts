import { assertEquals } from "@std/assert";
import { MarkdownStream } from "../../../src/terminal/markdown.ts";
import { stripStyles } from "../../../src/terminal/theme.ts";
import { textWidth } from "../../../src/terminal/width.ts";

function render(text: string, width = 40, color = false): string[] {
  const stream = new MarkdownStream({ width, color });
  return [...stream.push(text), ...stream.end()];
}

/** Rows without powercode's own SGR colour sequences. */
function plain(rows: string[]): string[] {
  return rows.map(stripStyles);
}

Deno.test("MarkdownStream renders headings, emphasis, code, links and word-wraps paragraphs; without colour every mark stays", () => {
  assertEquals(
    render(
      "# Title\nSome **bold**, *italic*, `code` and [docs](https://x.dev) in a long paragraph.\n",
      30,
    ),
    [
      "# Title",
      "Some **bold**, *italic*,",
      "`code` and docs",
      "(https://x.dev) in a long",
      "paragraph.",
    ],
  );
});

Deno.test("MarkdownStream shows block quotes with a bar, never like the `> ` prompt", () => {
  const rows = render("> quoted text that wraps here\n>> nested\n", 20);
  assertEquals(rows, ["│ quoted text that", "│ wraps here", "│ │ nested"]);
  assertEquals(rows.some((row) => row.startsWith(">")), false);
  assertEquals(render("> quoted\n", 20, true), [
    "\x1b[2m\x1b[3m│\x1b[23m\x1b[22m \x1b[2m\x1b[3mquoted\x1b[23m\x1b[22m",
  ]);
});

Deno.test("MarkdownStream renders lists with hanging indents, nesting and tasks", () => {
  assertEquals(
    render(
      "- first item wraps onto a second row\n  - nested\n3. third\n- [ ] open\n- [x] done\n",
      20,
    ),
    [
      "• first item wraps",
      "  onto a second row",
      "  ◦ nested",
      "3. third",
      "☐ open",
      "☑ done",
    ],
  );
});

Deno.test("MarkdownStream keeps fenced code verbatim, indented, styled and broken at the width", () => {
  const source = "```ts\nif (a) {\n\treturn `**not bold**`;\n}\n```\nafter\n";
  assertEquals(render(source, 20), [
    "  ```ts",
    "  if (a) {",
    "      return `**not ",
    "  bold**`;",
    "  }",
    "  ```",
    "after",
  ]);
  assertEquals(render("```\nx = 1\n```\n", 20, true), [
    "\x1b[2m  ```\x1b[22m",
    "\x1b[33m  x = 1\x1b[39m",
    "\x1b[2m  ```\x1b[22m",
  ]);
});

Deno.test("MarkdownStream colours headings, bold, italic and inline code when told", () => {
  assertEquals(render("## Plan\n**b** *i* `c`\n", 40, true), [
    "\x1b[1m\x1b[35mPlan\x1b[39m\x1b[22m",
    "\x1b[1mb\x1b[22m \x1b[3mi\x1b[23m \x1b[36mc\x1b[39m",
  ]);
});

Deno.test("MarkdownStream leaves unmatched and intraword markers as text", () => {
  assertEquals(render("2 * 3 * 4, snake_case_name, **open, a\\*b\n"), [
    "2 * 3 * 4, snake_case_name, **open, a*b",
  ]);
});

Deno.test("MarkdownStream draws tables with aligned columns and shrinks them to fit", () => {
  const table = "| Name | Size |\n|:-----|-----:|\n| a.ts | 12 |\n| b.ts | 1234 |\n\nend\n";
  assertEquals(render(table, 40), [
    "┌──────┬──────┐",
    "│ Name │ Size │",
    "├──────┼──────┤",
    "│ a.ts │   12 │",
    "│ b.ts │ 1234 │",
    "└──────┴──────┘",
    "",
    "end",
  ]);
  const wide = "| Column | Text |\n|---|---|\n| x | a rather long cell text |\n";
  const rows = render(wide, 24);
  assertEquals(rows, [
    "┌────────┬─────────────┐",
    "│ Column │ Text        │",
    "├────────┼─────────────┤",
    "│ x      │ a rather    │",
    "│        │ long cell   │",
    "│        │ text        │",
    "└────────┴─────────────┘",
  ]);
  assertEquals(rows.every((row) => textWidth(row) <= 24), true);
});

Deno.test("MarkdownStream prints a line with pipes as text when no delimiter row follows", () => {
  assertEquals(render("use a | b here\nnext line\n"), ["use a | b here", "next line"]);
});

Deno.test("MarkdownStream wraps East Asian text within the width", () => {
  const rows = render("- 日本語の文章はスペースなしでも正しく折り返されます\n", 16);
  assertEquals(rows, ["• 日本語の文章は", "  スペースなしで", "  も正しく折り返", "  されます"]);
  assertEquals(rows.every((row) => textWidth(row) <= 16), true);
});

Deno.test("MarkdownStream never lets an escape sequence through, in any block", () => {
  const attack = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r\x1b[2K\x1b[1A\x9b31m";
  const source = `# ${attack}\ntext ${attack}\n> ${attack}\n- ${attack}\n\`${attack}\`\n` +
    `\`\`\`\n${attack}\n\`\`\`\n| a | b |\n|---|---|\n| ${attack} | x |\n`;
  for (const color of [false, true]) {
    const rows = plain(render(source, 200, color));
    for (const row of rows) {
      // deno-lint-ignore no-control-regex
      assertEquals(/[\x00-\x08\x0a-\x1f\x7f-\x9f]/.test(row), false, JSON.stringify(row));
    }
    assertEquals(rows.filter((row) => row.includes("^[]0;pwned^G")).length, 7);
  }
});

Deno.test("MarkdownStream renders completed lines as they stream and keeps the open line pending", () => {
  const stream = new MarkdownStream({ width: 20, color: false });
  assertEquals(stream.push("# Head"), []);
  assertEquals(stream.pending(), ["# Head"]);
  assertEquals(stream.push("ing\nsome text that"), ["# Heading"]);
  assertEquals(stream.pending(), ["some text that"]);
  assertEquals(stream.push(" keeps growing"), []);
  assertEquals(stream.pending(), ["some text that keeps", "growing"]);
  stream.setWidth(12);
  assertEquals(stream.pending(), ["some text", "that keeps", "growing"]);
  assertEquals(stream.end(), ["some text", "that keeps", "growing"]);
  assertEquals(stream.pending(), []);
});

Deno.test("MarkdownStream shows a table as it grows and renders it whole at its end", () => {
  const stream = new MarkdownStream({ width: 40, color: false });
  assertEquals(stream.push("| a | b |\n|---|---|\n| 1 | 2 |\n"), []);
  assertEquals(stream.pending(), ["┌───┬───┐", "│ a │ b │", "├───┼───┤", "│ 1 │ 2 │", "└───┴───┘"]);
  stream.push("| 3 | 4");
  assertEquals(stream.pending().length, 6);
  assertEquals(stream.push(" |\ndone\n"), [
    "┌───┬───┐",
    "│ a │ b │",
    "├───┼───┤",
    "│ 1 │ 2 │",
    "│ 3 │ 4 │",
    "└───┴───┘",
    "done",
  ]);
});

Deno.test("MarkdownStream gives the same rows however the text is split into chunks", () => {
  const source =
    "# T\n\npara with **bold** text\n\n```\ncode\n```\n| a | b |\n|--|--|\n| 1 | 2 |\n> q\n";
  const whole = render(source, 30, true);
  const stream = new MarkdownStream({ width: 30, color: true });
  const rows: string[] = [];
  for (const char of source) rows.push(...stream.push(char));
  rows.push(...stream.end());
  assertEquals(rows, whole);
});

Deno.test("MarkdownStream collapses runs of blank lines and drops a CR before a newline", () => {
  assertEquals(render("\n\na\r\n\r\n\n\nb\r\n"), ["a", "", "b"]);
});
