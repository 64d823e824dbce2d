/**
 * Notifications at the REPL driven in-process: focus reporting is asked for, and a task that
 * ends or a question that waits while the terminal reported a focus-out writes OSC 9 and a
 * bell; nothing while focused, nothing with `notifications: "off"`, a bell alone with `bell`.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble } from "../support/repl_double.ts";
import { call } from "../support/scripted_model.ts";

const FOCUS_OUT = "\x1b[O";
const FOCUS_IN = "\x1b[I";
const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));
const TASK_ENDED = "\x1b]9;powercode: the task ended\x07\x07";

Deno.test("notifications REPL: a task ending while unfocused writes OSC 9 and a bell; focused, nothing", async () => {
  const repl = await openReplDouble(["First answer.", "Second answer."]);
  assert(repl.written().includes("\x1b[?1004h"), "focus reporting is asked for");
  await repl.type(`one${KEYS.enter}`);
  await repl.until(screenHas("First answer."), "the first answer");
  assertEquals(repl.written().includes("\x07"), false, "no bell while focused");
  await repl.type(FOCUS_OUT);
  await repl.type(`two${KEYS.enter}`);
  await repl.until(screenHas("Second answer."), "the second answer");
  await repl.until(() => repl.written().includes(TASK_ENDED), "the notification");
  assertEquals(repl.written().split(TASK_ENDED).length, 2, "one notification");
  await repl.type(FOCUS_IN);
  assertEquals(await repl.end(), 0);
  assert(repl.written().includes("\x1b[?1004l"), "focus reporting is turned off at the end");
});

Deno.test("notifications REPL: a question waiting while unfocused calls the user back", async () => {
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "write_file", { path: "a.txt", content: "x\n" })] },
    "Stopped.",
  ], {
    approval: (dir) => ({
      mode: "ask",
      rules: { allow: [], ask: [], deny: [] },
      files: { user: `${dir}/config/settings.json` },
    }),
  });
  await repl.type(FOCUS_OUT);
  await repl.type(`write a${KEYS.enter}`);
  await repl.until(screenHas("? write_file asks to run"), "the question");
  await repl.until(
    () => repl.written().includes("\x1b]9;powercode: a question waits for your answer\x07\x07"),
    "the notification of the question",
  );
  await repl.type(`n${KEYS.enter}`);
  await repl.until(screenHas("Stopped."), "the answer");
  assertEquals(await repl.end(), 0);
});

Deno.test('notifications REPL: "bell" writes a bell alone; "off" writes nothing and asks for no focus reports', async () => {
  for (const style of ["bell", "off"] as const) {
    const repl = await openReplDouble(["Done."], { notifications: style });
    await repl.type(FOCUS_OUT);
    await repl.type(`go${KEYS.enter}`);
    await repl.until(screenHas("Done."), "the answer");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const written = repl.written();
    assertEquals(await repl.end(), 0);
    assertEquals(
      [written.includes("\x07"), written.includes("\x1b]9;"), written.includes("\x1b[?1004h")],
      style === "bell" ? [true, false, true] : [false, false, false],
      style,
    );
  }
});
