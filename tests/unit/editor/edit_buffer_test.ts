import { assertEquals } from "@std/assert";
import { EditBuffer, isLarge, pasteLabel } from "../../../src/editor/edit_buffer.ts";

Deno.test("EditBuffer keeps a large paste as one character and expands it in value()", () => {
  const buffer = new EditBuffer();
  const paste = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
  buffer.insert("fix: ");
  buffer.insertPaste(paste);
  buffer.insert(" now");
  assertEquals(buffer.text.length, "fix: ".length + 1 + " now".length);
  assertEquals(buffer.value(), `fix: ${paste} now`);
  assertEquals(pasteLabel(buffer.paste(buffer.text[5] ?? "") ?? ""), "[pasted 12 lines]");
});

Deno.test("EditBuffer inserts small pastes inline", () => {
  const buffer = new EditBuffer();
  buffer.insertPaste("two\nlines");
  assertEquals(buffer.text, "two\nlines");
  assertEquals(buffer.cursor, 9);
});

Deno.test("EditBuffer gives two pastes two placeholders, also when one was typed literally", () => {
  const buffer = new EditBuffer();
  buffer.insert("\ue000");
  buffer.insertPaste("a".repeat(1001));
  buffer.insertPaste("b".repeat(1001));
  assertEquals(buffer.value(), `\ue000${"a".repeat(1001)}${"b".repeat(1001)}`);
});

Deno.test("EditBuffer moves and deletes whole surrogate pairs", () => {
  const buffer = new EditBuffer();
  buffer.insert("a🦕b");
  buffer.move(-1);
  buffer.move(-1);
  assertEquals(buffer.cursor, 1);
  buffer.deleteForward();
  assertEquals(buffer.text, "ab");
  buffer.set("x🦕");
  buffer.backspace();
  assertEquals(buffer.text, "x");
});

Deno.test("EditBuffer moves by words and between lines keeping the column", () => {
  const buffer = new EditBuffer();
  buffer.insert("alpha beta\nxy\nlonger line");
  buffer.moveVertical(-1);
  assertEquals(buffer.cursor, "alpha beta\nxy".length);
  buffer.moveVertical(-1);
  assertEquals(buffer.cursor, 2);
  assertEquals(buffer.moveVertical(-1), false);
  buffer.moveWord(1);
  assertEquals(buffer.cursor, 5);
  buffer.moveWord(1);
  assertEquals(buffer.cursor, 10);
  buffer.moveWord(-1);
  assertEquals(buffer.cursor, 6);
});

Deno.test("isLarge() and pasteLabel() count lines and characters", () => {
  assertEquals(isLarge("a\n".repeat(9) + "a"), false);
  assertEquals(isLarge("a\n".repeat(10) + "a"), true);
  assertEquals(isLarge("天".repeat(1000)), false);
  assertEquals(isLarge("天".repeat(1001)), true);
  assertEquals(pasteLabel("x".repeat(7209)), "[pasted 7209 chars]");
  assertEquals(pasteLabel("🦕🦕"), "[pasted 2 chars]");
});
