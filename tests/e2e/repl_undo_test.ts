import { assert, assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble } from "../support/repl_double.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

Deno.test("/undo after a plan-mode task gives back what the user typed, not the plan note", async () => {
  const repl = await openReplDouble(["Here is a plan.", "The plan again."]);
  await repl.type(`/plan on${KEYS.enter}`);
  await repl.type(`plan the refactor${KEYS.enter}`);
  await repl.until(screenHas("Here is a plan."), "the answer");
  await repl.type(`/rewind${KEYS.enter}`);
  await repl.until(screenHas("  1  plan the refactor"), "/rewind's list");
  await repl.type(`/sessions${KEYS.enter}`);
  await repl.until(
    (lines) => lines.some((line) => line.startsWith(" *") && line.endsWith("  plan the refactor")),
    "/sessions' first task",
  );
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until(screenHas("Undone: plan the refactor"), "the Undone line");
  assert(!repl.lines().some((line) => line.includes("[powercode]")), repl.lines().join("\n"));
  assertEquals(repl.lines().at(-1), "plan > plan the refactor");
  await repl.type(KEYS.enter);
  await repl.until(screenHas("The plan again."), "the second answer");
  const sent = repl.model.requests.at(-1)?.messages.filter((m) => m.role === "user");
  assert(sent?.[0]?.content.startsWith("[powercode] Plan mode is on"), "the model is told again");
  assertEquals(await repl.end(), 0);
});

Deno.test("/undo of a new session's first task with TODO.md unfinished gives back the task", async () => {
  const repl = await openReplDouble(["Done."], { files: { "TODO.md": "- [ ] write tests\n" } });
  await repl.type(`fix the parser${KEYS.enter}`);
  await repl.until(screenHas("Done."), "the answer");
  assert(
    repl.model.requests[0]?.messages.some((m) => m.role === "user" && m.content.includes("TODO")),
    "the model got the TODO.md note",
  );
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until(screenHas("Undone: fix the parser"), "the Undone line");
  assertEquals(repl.lines().at(-1), "> fix the parser");
  assertEquals(await repl.end(), 0);
});

Deno.test("/undo typed twice takes back two tasks: the second is a command, not a task", async () => {
  const repl = await openReplDouble(["First done.", "Second done."]);
  await repl.type(`first task${KEYS.enter}`);
  await repl.until(screenHas("First done."), "the first answer");
  await repl.type(`second task${KEYS.enter}`);
  await repl.until(screenHas("Second done."), "the second answer");
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until(screenHas("Undone: second task"), "the first undo");
  assertEquals(repl.lines().at(-1), "> second task");
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until(screenHas("Undone: first task"), "the second undo");
  assertEquals(repl.lines().at(-1), "> first task");
  assertEquals(repl.model.requests.length, 2, "nothing was sent to the model");
  await repl.type(" again");
  assertEquals(repl.lines().at(-1), "> first task again", "other keys edit the filled text");
  assertEquals(await repl.end(), 0);
});
