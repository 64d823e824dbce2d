import { assertEquals } from "@std/assert";
import { LongTextMemo } from "../../../src/context/long_text_memo.ts";
import { estimateTextTokens } from "../../../src/context/text_tokens.ts";

/** A memo of the text's length that counts how often it computed. */
function countingMemo() {
  const computed: number[] = [];
  const memo = new LongTextMemo((text) => {
    computed.push(text.length);
    return text.length;
  });
  return { memo, computed };
}

Deno.test("LongTextMemo computes a long text once, however often it is asked, even as a new string", () => {
  const { memo, computed } = countingMemo();
  const text = "word ".repeat(1000);
  assertEquals([memo.of(text), memo.of(text), memo.of(`${"word ".repeat(999)}word `)], [
    5000,
    5000,
    5000,
  ]);
  assertEquals(computed, [5000]);
});

Deno.test("LongTextMemo computes short and very long texts each time", () => {
  const { memo, computed } = countingMemo();
  const short = "x".repeat(100);
  const huge = "x".repeat(300 * 1024);
  memo.of(short);
  memo.of(short);
  memo.of(huge);
  memo.of(huge);
  assertEquals(computed, [100, 100, 300 * 1024, 300 * 1024]);
});

Deno.test("LongTextMemo keeps the last four long texts and drops the oldest", () => {
  const { memo, computed } = countingMemo();
  const texts = [1, 2, 3, 4, 5].map((n) => "y".repeat(4000 + n));
  for (const text of texts) memo.of(text);
  memo.of(texts[4]!);
  memo.of(texts[1]!);
  memo.of(texts[0]!);
  assertEquals(computed, [4001, 4002, 4003, 4004, 4005, 4001]);
});

Deno.test("estimateTextTokens() gives a remembered long text the estimate a first scan gives", () => {
  const text = "The quick brown fox, 12345 times: jumps over the lazy dog.\n".repeat(80);
  const first = estimateTextTokens(text);
  assertEquals(estimateTextTokens(text.slice(0)), first);
  assertEquals(estimateTextTokens(`${text}${" word".repeat(100)}`) > first + 100, true);
});
