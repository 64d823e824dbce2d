/**
 * The REPL in-process while a task takes its time (issue 36.10, 36.12, 36.13): Alt+Up takes
 * the queued messages back into the input, a queued message's `@path` file goes with it, Tab
 * offers no name `.powercodeignore` ignores, and Ctrl+Z erases the live rows, which `fg` draws
 * again under the task's line.
 */
import { assert, assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble } from "../support/repl_double.ts";
import { skipWithout } from "../support/programs.ts";

const ALT_UP = "\x1b[1;3A";
const CTRL_Z = "\x1a";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));
const lastIs = (text: string) => (lines: string[]) => lines.at(-1) === text;

Deno.test("Alt+Up during a task takes the queued messages back into the input; none is sent", async () => {
  const repl = await openReplDouble(["First done.", "Edited done."]);
  const release = repl.model.hold();
  await repl.type(`first task${KEYS.enter}`);
  await repl.until(() => repl.model.requests.length === 1, "the held request");
  await repl.type(`fix the typo${KEYS.enter}and the test${KEYS.altEnter}`);
  await repl.until(screenHas("queued for after the task: and the test"), "both queued");
  await repl.type(ALT_UP);
  await repl.until((lines) => !lines.some((line) => line.startsWith("queued")), "the queue empty");
  const input = repl.lines().filter((line) => /^(>| {2})/.test(line));
  assertEquals(input.slice(-2), ["> fix the typo", "  and the test"]);
  release();
  await repl.until(screenHas("First done."), "the first answer");
  await repl.until(screenHas("> fix the typo"), "the input kept at the prompt");
  assertEquals(repl.model.requests.length, 1, "no queued message reached the model");
  await repl.type(` now${KEYS.enter}`);
  await repl.until(screenHas("Edited done."), "the edited message sent");
  assertEquals(repl.model.requests.at(-1)?.messages.at(-1), {
    role: "user",
    content: "fix the typo\nand the test now",
  });
  assertEquals(await repl.end(), 0);
});

Deno.test("a queued message's @path file goes with it to the model, as a typed task's does", async () => {
  const repl = await openReplDouble(["First done.", "Read it."], {
    files: { "notes.txt": "alpha\nbeta\n" },
  });
  const release = repl.model.hold();
  await repl.type(`first task${KEYS.enter}`);
  await repl.until(() => repl.model.requests.length === 1, "the held request");
  await repl.type(`now read @notes.txt${KEYS.enter}`);
  await repl.until(screenHas("queued: now read @notes.txt"), "the queued message");
  release();
  await repl.until(screenHas("Read it."), "the answer to the queued message");
  const sent = repl.model.requests[1]?.messages.at(-1);
  assertEquals(sent?.role, "user");
  assertEquals(
    sent?.content,
    'now read @notes.txt\n\n<attached-file path="notes.txt">\n1\talpha\n2\tbeta\n</attached-file>',
  );
  const lines = repl.lines();
  const at = lines.indexOf("› now read @notes.txt");
  assert(at > 0, lines.join("\n"));
  assertEquals(lines[at + 1], "  attached notes.txt (2 lines)");
  assertEquals(await repl.end(), 0);
});

Deno.test("a queued message with an ignored @path file is not sent; it goes back into the input", async () => {
  const repl = await openReplDouble(["First done."], {
    files: { ".powercodeignore": "secret.txt\n", "secret.txt": "key=1\n" },
  });
  const release = repl.model.hold();
  await repl.type(`first task${KEYS.enter}`);
  await repl.until(() => repl.model.requests.length === 1, "the held request");
  await repl.type(`show @secret.txt${KEYS.enter}`);
  await repl.until(screenHas("queued: show @secret.txt"), "the queued message");
  release();
  await repl.until(screenHas("First done."), "the first answer");
  await repl.until(screenHas("> show @secret.txt"), "the message back in the input");
  assert(
    repl.lines().some((line) =>
      line.startsWith('✗ Cannot access "secret.txt": "secret.txt" is ignored')
    ),
    repl.lines().join("\n"),
  );
  assertEquals(repl.model.requests.length, 1, "nothing more was sent");
  assert(!JSON.stringify(repl.model.requests).includes("key=1"));
  assertEquals(await repl.end(), 0);
});

Deno.test("Tab completion of a path offers no name that .powercodeignore ignores", async () => {
  const repl = await openReplDouble([], {
    listPaths: true,
    files: {
      ".powercodeignore": "secrets.env\nbuild/\n",
      "secrets.env": "k=1\n",
      "setup.ts": "",
      "server.ts": "",
    },
  });
  await Deno.mkdir(`${repl.workspace}/build`);
  await Deno.mkdir(`${repl.workspace}/bin`);
  await repl.type(`read @se${KEYS.tab}`);
  await repl.until(screenHas("server.ts  setup.ts"), "the choices");
  assert(!repl.lines().some((line) => line.includes("secrets.env")), repl.lines().join("\n"));
  await repl.type(`${KEYS.ctrlU}read @b${KEYS.tab}`);
  await repl.until(lastIs("> read @bin/"), "the one directory left completed");
  assertEquals(await repl.end(), 0);
});

Deno.test("Ctrl+Z during a task erases its live rows; fg draws them again under the task's line", async () => {
  let fg = () => {};
  let stops = 0;
  const stopProgram = () => {
    stops++;
    return new Promise<void>((resolve) => fg = resolve);
  };
  const repl = await openReplDouble(["Done after fg."], { stopProgram });
  const release = repl.model.hold();
  await repl.type(`a long task${KEYS.enter}`);
  await repl.until((lines) => /thinking/.test(lines.at(-1) ?? ""), "the status line");
  await repl.type(`queued one${KEYS.enter}half`);
  await repl.until(screenHas("> half"), "the input below the task");
  await repl.type(CTRL_Z);
  await repl.until(() => stops === 1, "the program stopped");
  assertEquals(repl.lines(), ["> a long task"], "no live row is left behind");
  fg();
  await repl.until((lines) => /thinking/.test(lines.at(-1) ?? ""), "the status line again");
  assertEquals(repl.lines().slice(0, -1), [
    "> a long task",
    "› a long task",
    "queued: queued one",
    "> half",
  ]);
  release();
  await repl.until(screenHas("Done after fg."), "the answer");
  await repl.until(screenHas("› queued one"), "the queued message delivered");
  assertEquals(await repl.end(), 0);
});

Deno.test({
  name: "Ctrl+Z during a !command erases its live rows; fg draws them again under `› !command`",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    let fg = () => {};
    const stopProgram = () => new Promise<void>((resolve) => fg = resolve);
    const repl = await openReplDouble([], { stopProgram });
    const command = "!echo started; while [ ! -e go ]; do sleep 0.1; done; echo ran";
    await repl.type(`${command}${KEYS.enter}`);
    await repl.until((lines) => lines.includes("    started"), "the command's output");
    await repl.type(CTRL_Z);
    await repl.until((lines) => !lines.some((line) => /running a command/.test(line)), "erased");
    assertEquals(repl.lines().at(-1), `$ ${command.slice(1)}`);
    fg();
    await repl.until((lines) => /running a command/.test(lines.at(-1) ?? ""), "the status line");
    const lines = repl.lines();
    assertEquals(lines.at(-3), `› ${command}`);
    assertEquals(lines.at(-2), "    started");
    await Deno.writeTextFile(`${repl.workspace}/go`, "");
    await repl.until(screenHas("ran"), "the command's end");
    assertEquals(await repl.end(), 0);
  },
});
