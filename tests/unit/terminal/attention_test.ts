import { assertEquals } from "@std/assert";
import { attentionBytes } from "../../../src/terminal/mod.ts";

Deno.test("attentionBytes() writes OSC 9 and a bell, a bell alone, or nothing", () => {
  assertEquals(attentionBytes("osc", "task ended"), "\x1b]9;task ended\x07\x07");
  assertEquals(attentionBytes("bell", "task ended"), "\x07");
  assertEquals(attentionBytes("off", "task ended"), "");
});

Deno.test("attentionBytes() keeps control characters out of the notification text", () => {
  assertEquals(attentionBytes("osc", "a\x07b\x1b]9;x\nc\x9b"), "\x1b]9;a b ]9;x c \x07\x07");
});
