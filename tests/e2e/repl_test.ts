import { assert, assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble } from "../support/repl_double.ts";
import { skipWithout } from "../support/programs.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

Deno.test("the REPL in-process: /help lists every command of the table, then the keys", async () => {
  const repl = await openReplDouble([]);
  await repl.type(`/help${KEYS.enter}`);
  await repl.until(screenHas("Keys:"), "/help");
  for (const name of ["/model", "/undo", "/exit"]) {
    assert(
      repl.lines().some((line) => line.startsWith("  /") && `${line} `.includes(` ${name} `)),
      name,
    );
  }
  assertEquals(await repl.end(), 0);
});

Deno.test("the REPL in-process: Tab completes a command name and its words from the table", async () => {
  const repl = await openReplDouble([]);
  await repl.type(`/mo${KEYS.tab}`);
  await repl.until(screenHas("> /model"), "/model completed");
  await repl.type(`${KEYS.ctrlU}/plan o${KEYS.tab}${KEYS.tab}`);
  await repl.until(screenHas("off"), "the words /plan takes");
  assertEquals(await repl.end(), 0);
});

Deno.test("the REPL in-process: a task's answer is shown and reaches the session", async () => {
  const repl = await openReplDouble(["Hello from the model."]);
  await repl.type(`say hello${KEYS.enter}`);
  await repl.until(screenHas("Hello from the model."), "the answer");
  assertEquals(repl.model.requests.at(-1)?.messages.at(-1), { role: "user", content: "say hello" });
  assertEquals(await repl.end(), 0);
});

Deno.test("the REPL in-process: /undo is refused with the reason when undo is off", async () => {
  const repl = await openReplDouble([], { undo: false });
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until(screenHas("Undo is off in this run"), "the refusal");
  assertEquals(await repl.end(), 0);
});

Deno.test({
  name: "the REPL in-process: a !cmd that made a file is undone by /undo like a task",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const repl = await openReplDouble([]);
    await repl.type(`!echo made > made.txt${KEYS.enter}`);
    await repl.until(screenHas("$ echo made > made.txt"), "the command line");
    const made = `${repl.workspace}/made.txt`;
    await repl.until(() => exists(made), "made.txt");
    await repl.until(screenHas("> "), "the prompt after the command");
    await repl.type(`/undo${KEYS.enter}`);
    await repl.until(screenHas("removed 1"), "the undo");
    assertEquals(exists(made), false, "the file the command made is gone");
    assertEquals(await repl.end(), 0);
  },
});

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
