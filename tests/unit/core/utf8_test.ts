import { assertEquals } from "@std/assert";
import { utf8Length } from "../../../src/core/utf8.ts";

Deno.test("utf8Length() counts what TextEncoder writes, lone surrogates included", () => {
  const samples = [
    "",
    "ascii",
    "é",
    "日本語",
    "🦕",
    "a\uD83Db",
    "\uDE00x",
    "end\uD83D",
    "\uD83D\uD83D🦕",
  ];
  for (const sample of samples) {
    assertEquals(utf8Length(sample), new TextEncoder().encode(sample).length, sample);
  }
});
