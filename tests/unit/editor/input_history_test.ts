import { assertEquals } from "@std/assert";
import { historyFile, InputHistory } from "../../../src/editor/input_history.ts";

Deno.test("historyFile() keeps entries across runs, multi-line ones included", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/history`;
    const first = historyFile(path, 100);
    assertEquals(await first.load(), []);
    await first.append("one");
    await first.append("two\nlines");
    assertEquals(await historyFile(path, 100).load(), ["one", "two\nlines"]);
    assertEquals(await Deno.readTextFile(path), '"one"\n"two\\nlines"\n');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("historyFile() skips damaged lines and caps the file at its limit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/history`;
    await Deno.writeTextFile(path, '"a"\n{broken\n42\n"b"\n');
    const store = historyFile(path, 3);
    assertEquals(await store.load(), ["a", "b"]);
    for (const entry of ["c", "d", "e", "f", "g"]) await store.append(entry);
    assertEquals(await historyFile(path, 3).load(), ["e", "f", "g"]);
    assertEquals((await Deno.readTextFile(path)).split("\n").length - 1 <= 6, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("historyFile() ignores a file it cannot write", async () => {
  const store = historyFile("/nonexistent-dir/history", 10);
  assertEquals(await store.load(), []);
  await store.append("x");
});

Deno.test("InputHistory steps back and forth and returns the draft past the newest", () => {
  const history = new InputHistory(["a", "b"], 10);
  assertEquals(history.previous("draft"), "b");
  assertEquals(history.previous("b"), "a");
  assertEquals(history.previous("a"), undefined);
  assertEquals(history.next(), "b");
  assertEquals(history.next(), "draft");
  assertEquals(history.next(), undefined);
});

Deno.test("InputHistory adds neither blanks nor repeats and drops the oldest past its limit", () => {
  const history = new InputHistory(["a"], 2);
  assertEquals(history.add("  "), false);
  assertEquals(history.add("a"), false);
  assertEquals(history.add("b"), true);
  assertEquals(history.add("c"), true);
  assertEquals(history.previous(""), "c");
  assertEquals(history.previous(""), "b");
  assertEquals(history.previous(""), undefined);
});
