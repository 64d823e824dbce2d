/**
 * Undo by task in process, through the one assembly with the real tools (bash sandboxed)
 * and a scripted model: interrupted and failed tasks are undoable, /rewind takes back files
 * or conversation alone, and the commands say what they did.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import type { Agent } from "../../src/agent/mod.ts";
import type { Undo } from "../../src/undo/mod.ts";
import { assemble } from "../../src/app/assemble.ts";
import { rewindCommand, undoCommand } from "../../src/commands/undo.ts";
import type { App } from "../../src/app/mod.ts";
import { ChatError, type ChatModel } from "../../src/model/chat_model.ts";
import { PlainOutput } from "../../src/ui/plain_output.ts";
import { Renderer } from "../../src/ui/renderer.ts";
import { waitUntil } from "../support/processes.ts";
import { call, ScriptedModel } from "../support/scripted_model.ts";
import type { ScriptStep } from "../support/scripts.ts";
import { treeState } from "../support/tree_state.ts";

/** What each test works with. */
interface Setup {
  agent: Agent;
  undo: Undo;
  ws: string;
  renderer: Renderer;
  /** What the renderer printed so far. */
  out: () => string;
}

/** An agent over a temp workspace holding a.txt, with snapshots in a temp state directory. */
async function withAgent(
  steps: ScriptStep[],
  test: (setup: Setup) => Promise<void>,
  /** Runs before each reply of the model: something changing files while a task runs. */
  meanwhile: (ws: string) => Promise<void> = () => Promise.resolve(),
) {
  const dir = await Deno.makeTempDir({ prefix: "powercode-undo-" });
  try {
    const ws = `${dir}/workspace`;
    await Deno.mkdir(ws);
    await Deno.writeTextFile(`${ws}/a.txt`, "alpha\n");
    await Deno.writeTextFile(`${ws}/.powercodeignore`, "cache/\n");
    const { agent, undo } = await assemble({
      config: { baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", contextWindow: 32000 },
      workspaceDir: ws,
      maxSteps: 5,
      model: meddling(new ScriptedModel(steps), () => meanwhile(ws)),
      bash: { unsandboxedBash: false },
      undo: { dir: `${dir}/state` },
    });
    let written = "";
    const write = (text: string) => written += text;
    const renderer = new Renderer({
      output: new PlainOutput({ answer: write, status: write }),
      color: false,
      streamAnswer: true,
    });
    assert(undo);
    await test({ agent, undo, ws, renderer, out: () => written });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `model`, running `before` ahead of each reply. */
function meddling(model: ChatModel, before: () => Promise<void>): ChatModel {
  return {
    complete: async (request, options) => {
      await before();
      return await model.complete(request, options);
    },
  };
}

Deno.test("an interrupted task is undoable: files its bash made before Ctrl+C go", async () => {
  const steps = [{ toolCalls: [call("c1", "bash", { command: "echo x > made.txt; sleep 30" })] }];
  await withAgent(steps, async ({ agent, ws }) => {
    const before = await treeState(ws);
    const controller = new AbortController();
    const running = agent.run("make a file", controller.signal);
    await waitUntil(async () => (await treeState(ws))["made.txt"] !== undefined, "made.txt");
    controller.abort();
    assertEquals((await running).status, "interrupted");
    const outcome = await agent.undoTasks(1, { files: true, chat: true, force: false });
    assertEquals(outcome.type === "done" && [outcome.task, outcome.removed], [
      "make a file",
      ["made.txt"],
    ]);
    assertEquals(await treeState(ws), before);
    assertEquals(agent.view.history, []);
  });
});

Deno.test("a failed task is undoable: its write goes, and the note that it failed too", async () => {
  const steps: ScriptStep[] = [
    { toolCalls: [call("c1", "write_file", { path: "a.txt", content: "changed\n" })] },
    new ChatError("server", "The server failed"),
  ];
  await withAgent(steps, async ({ agent, ws }) => {
    const result = await agent.run("change a", new AbortController().signal);
    assertEquals(result.status, "failed");
    await agent.undoTasks(1, { files: true, chat: true, force: false });
    assertEquals(await Deno.readTextFile(`${ws}/a.txt`), "alpha\n");
    assertEquals(agent.view.history, []);
  });
});

Deno.test("/rewind lists tasks; --files keeps the conversation, --chat keeps the files", async () => {
  const steps: ScriptStep[] = [
    { toolCalls: [call("c1", "write_file", { path: "b.txt", content: "b\n" })] },
    "Made b.",
    "Only talk.",
  ];
  await withAgent(steps, async ({ agent, ws, renderer, out }) => {
    const context = {
      app: { agent } as unknown as App,
      screen: renderer,
      signal: new AbortController().signal,
    };
    await agent.run("make b", new AbortController().signal);
    await agent.run("just talk\nsecond line", new AbortController().signal);
    await rewindCommand.run(context, "");
    assertEquals(
      out().split("\n").slice(-4, -1),
      [
        `    1  ${"make b".padEnd(50)}  1 file`,
        `    2  ${"just talk".padEnd(50)}  0 files`,
        "/rewind N goes back to before task N (files and conversation; --files or --chat for one)",
      ],
    );
    await rewindCommand.run(context, "1 --files");
    assertEquals([(await treeState(ws))["b.txt"], agent.view.history.length], [undefined, 6]);
    await Deno.writeTextFile(`${ws}/mine.txt`, "by hand\n");
    const files = await treeState(ws);
    await rewindCommand.run(context, "2 --chat");
    assertEquals(agent.view.history.length, 4);
    assertEquals(await treeState(ws), files, "--chat leaves the files alone");
    await assertRejects(
      async () => await rewindCommand.run(context, "7"),
      RangeError,
      "No task 7: this session has 1 (/rewind lists them)",
    );
    await assertRejects(
      async () => await rewindCommand.run(context, "1 --files --chat"),
      TypeError,
      "Invalid /rewind: --files and --chat exclude each other; give neither for both",
    );
    await assertRejects(
      async () => {
        const { agent: unrecorded } = await assemble({
          config: {
            baseURL: "http://127.0.0.1:9/v1",
            apiKey: "k",
            model: "m",
            contextWindow: 32000,
          },
          workspaceDir: ws,
          maxSteps: 1,
          model: new ScriptedModel([]),
        });
        await undoCommand.run({ ...context, app: { agent: unrecorded } as unknown as App }, "");
      },
      Error,
      "Undo is off in this run: tasks are not snapshotted",
    );
  });
});

Deno.test("a task whose calls only read is not scanned again at its end", async () => {
  const steps: ScriptStep[] = [
    { toolCalls: [call("c1", "read_file", { path: "a.txt" })] },
    "Read it.",
    { toolCalls: [call("c2", "bash", { command: "true" })] },
    "Ran it.",
  ];
  await withAgent(steps, async ({ agent }) => {
    await agent.run("read a", new AbortController().signal);
    await agent.run("run true", new AbortController().signal);
    const [reading, running] = agent.view.tasks;
    assertEquals(reading?.after, reading?.before);
    assert(running?.after !== running?.before, "a command may change files: scanned again");
  });
});

Deno.test("what .powercodeignore ignores is neither snapshotted nor touched by an undo", async () => {
  const steps: ScriptStep[] = [
    { toolCalls: [call("c1", "write_file", { path: "b.txt", content: "b\n" })] },
    "Wrote b.",
  ];
  const build = (ws: string) => Deno.writeTextFile(`${ws}/cache/new.bin`, "built\n");
  await withAgent(steps, async ({ agent, ws }) => {
    await Deno.mkdir(`${ws}/cache`);
    await Deno.writeTextFile(`${ws}/cache/old.bin`, "old\n");
    await agent.run("write b", new AbortController().signal);
    assertEquals(agent.tasks().map((task) => task.files), [1], "b.txt alone");
    const outcome = await agent.undoTasks(1, { files: true, chat: true, force: false });
    assertEquals(outcome.type === "done" && outcome.removed, ["b.txt"]);
    assertEquals(Object.keys(await treeState(`${ws}/cache`)), ["new.bin", "old.bin"]);
  }, build);
});
