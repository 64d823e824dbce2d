import { assertEquals } from "@std/assert";
import { breakText, wrapSpans, wrapText } from "../../../src/terminal/wrap.ts";
import { fitWidth, textWidth, truncateWidth } from "../../../src/terminal/width.ts";

Deno.test("textWidth() counts East Asian wide characters as two columns", () => {
  assertEquals(textWidth("hello"), 5);
  assertEquals(textWidth("天地玄黃"), 8);
  assertEquals(textWidth("ｆｕｌｌ"), 8);
  assertEquals(textWidth("e\u0301"), 1);
  assertEquals(textWidth("한국어 ok"), 9);
});

Deno.test("fitWidth() never splits a wide character at the limit", () => {
  assertEquals(fitWidth("ab天地", 3), { head: "ab", width: 2 });
  assertEquals(fitWidth("ab天地", 4), { head: "ab天", width: 4 });
  assertEquals(truncateWidth("天地玄黃", 6), "天地…");
  assertEquals(truncateWidth("short", 10), "short");
});

Deno.test("wrapText() breaks at spaces and never inside a word that fits a line", () => {
  assertEquals(wrapText("the quick brown fox jumps over the lazy dog", 12), [
    "the quick",
    "brown fox",
    "jumps over",
    "the lazy dog",
  ]);
  assertEquals(wrapText("internationalization is long", 20), [
    "internationalization",
    "is long",
  ]);
});

Deno.test("wrapText() breaks a word longer than the line at the width", () => {
  assertEquals(wrapText("see https://example.com/a/very/long/path ok", 12), [
    "see",
    "https://exam",
    "ple.com/a/ve",
    "ry/long/path",
    "ok",
  ]);
});

Deno.test("wrapText() breaks between CJK characters and keeps them whole", () => {
  assertEquals(wrapText("漢字の文章は空白なしで折り返す", 10), [
    "漢字の文章",
    "は空白なし",
    "で折り返す",
  ]);
  assertEquals(wrapText("ab 漢字漢字", 7), ["ab 漢字", "漢字"]);
  for (const row of wrapText("x漢字の文章は空白なしで折り返す", 7)) {
    assertEquals(textWidth(row) <= 7, true, row);
  }
});

Deno.test("wrapText() keeps leading spaces of the first row and returns one row for empty text", () => {
  assertEquals(wrapText("  indented text", 10), ["  indented", "text"]);
  assertEquals(wrapText("", 10), [""]);
  assertEquals(wrapText("   ", 10), ["   "]);
});

Deno.test("wrapSpans() styles each piece on its row", () => {
  const mark = (text: string) => `<${text}>`;
  assertEquals(
    wrapSpans([{ text: "plain then " }, { text: "marked words here", style: mark }], 17),
    ["plain then <marked>", "<words here>"],
  );
  assertEquals(wrapSpans([{ text: "a" }, { text: "b", style: mark }, { text: "c" }], 5), [
    "a<b>c",
  ]);
});

Deno.test("breakText() keeps every space and breaks anywhere", () => {
  assertEquals(breakText("  if (x) {  }", 5), ["  if ", "(x) {", "  }"]);
  assertEquals(breakText("天地玄", 3), ["天", "地", "玄"]);
  assertEquals(breakText("", 3), [""]);
});
