import { assertEquals } from "@std/assert";
import { Renderer } from "../../../src/ui/renderer.ts";
import { PlainOutput } from "../../../src/ui/plain_output.ts";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";
import { emptyTally } from "../../../src/core/spend.ts";

const ERROR = 'Cannot reach the model server at "http://127.0.0.1:11434/v1" (connection ' +
  'refused): is the server running, and is "baseURL" in provider.json right?';

const CONTEXT = () => ({ estimatedTokens: 1200, contextWindow: 32000 });

/** A renderer drawing on a virtual terminal `width` columns wide (with a context use, if given). */
function onTerminal(width: number, context?: typeof CONTEXT) {
  const terminal = new VirtualScreen(width, 12);
  const renderer = new Renderer({
    output: new TaskView({
      io: { write: (text) => terminal.write(text), columns: () => terminal.width },
      color: false,
      markdown: false,
      tickMs: 0,
    }),
    color: false,
    streamAnswer: true,
    ...(context ? { context } : {}),
  });
  return { terminal, renderer };
}

/** A renderer writing plain lines, as on a pipe. */
function onPipe() {
  const written = { text: "" };
  const write = (text: string) => written.text += text;
  const renderer = new Renderer({
    output: new PlainOutput({ answer: write, status: write }),
    color: false,
    streamAnswer: true,
    context: CONTEXT,
  });
  return { written, renderer };
}

/** A bash call that printed three lines and exited 0, then the task's end. */
function commandTask(renderer: Renderer): void {
  const call = { id: "c", name: "bash", arguments: JSON.stringify({ command: "seq 3" }) };
  renderer.startTask();
  renderer.render({ type: "tool_start", call, description: { kind: "text", text: "seq 3" } });
  renderer.render({ type: "tool_output", call, text: "1\n2\n3\n" });
  renderer.render({
    type: "tool_end",
    call,
    isError: false,
    summary: "exit 0",
    details: { kind: "command", command: "seq 3", end: { kind: "exit", code: 0 } },
  });
  renderer.finish({ status: "done", answer: "Counted." });
}

Deno.test("Renderer word-wraps its own lines on a terminal, so no word is broken", () => {
  const { terminal, renderer } = onTerminal(40);
  renderer.finish({ status: "failed", error: ERROR });
  const rows = terminal.lines();
  assertEquals(rows.join(" ").replace(/\s+/g, " "), `✗ ${ERROR}`);
  for (const row of rows) assertEquals(row.length <= 40, true, row);
  assertEquals(rows[0], "✗ Cannot reach the model server at");
});

Deno.test("Renderer leaves its lines whole on a pipe", () => {
  const { written, renderer } = onPipe();
  renderer.finish({ status: "failed", error: ERROR });
  assertEquals(written.text, `✗ ${ERROR}\n`);
});

Deno.test("Renderer shows a command's output and the context use on a terminal only", () => {
  const { terminal, renderer } = onTerminal(60, CONTEXT);
  commandTask(renderer);
  const [head, ...rest] = terminal.lines();
  assertEquals(head, "● bash seq 3");
  assertEquals(rest[0]?.replace(/\d+\.\d s$/, "T"), "  ✓ exit 0 · 3 lines · T");
  assertEquals(rest.slice(1), ["    1", "    2", "    3", "context 1.2k / 32k tokens (4%)"]);
  const pipe = onPipe();
  commandTask(pipe.renderer);
  assertEquals(pipe.written.text, "● bash seq 3\n  ✓ exit 0\n");
});

Deno.test("Renderer adds what the task and the session spent to the context line, as fits", () => {
  const tally = {
    ...emptyTally(),
    requests: 2,
    steps: 2,
    promptTokens: 9000,
    completionTokens: 400,
  };
  const task = { ...tally, cachedTokens: 5400 };
  const session = { ...tally, promptTokens: 30000, cachedTokens: 21000, completionTokens: 1000 };
  const spend = { task, session, limits: {}, taskCost: 0.0123, sessionCost: 0.05 };
  const lineAt = (width: number) => {
    const terminal = new VirtualScreen(width, 12);
    const renderer = new Renderer({
      output: new TaskView({
        io: { write: (text) => terminal.write(text), columns: () => terminal.width },
        color: false,
        markdown: false,
        tickMs: 0,
      }),
      color: false,
      streamAnswer: true,
      context: CONTEXT,
      spend: () => spend,
    });
    renderer.startTask();
    renderer.finish({ status: "done", answer: "" });
    return terminal.lines().at(-1);
  };
  const parts = [
    "context 1.2k / 32k tokens (4%)",
    "task 9.4k tokens, 60% cached, $0.0123",
    "session 31k tokens, 70% cached, $0.0500",
  ];
  assertEquals(lineAt(200), parts.join(" · "));
  assertEquals(lineAt(75), parts.slice(0, 2).join(" · "));
  assertEquals(lineAt(40), parts[0]);
});

Deno.test("Renderer keeps a retry line in place on a terminal and prints it on a pipe", () => {
  const retry = { type: "retry", attempt: 1, delayMs: 500, reason: "overloaded" } as const;
  const { terminal, renderer } = onTerminal(60);
  renderer.startTask();
  renderer.render(retry);
  assertEquals(terminal.lines()[0], "↻ overloaded; retrying in 0.5 s (attempt 1)");
  renderer.render({ type: "text", text: "Hi" });
  assertEquals(terminal.lines()[0], "Hi");
  const pipe = onPipe();
  pipe.renderer.render(retry);
  pipe.renderer.render({ type: "text", text: "Hi" });
  pipe.renderer.endTask();
  assertEquals(pipe.written.text, "↻ overloaded; retrying in 0.5 s (attempt 1)\nHi\n");
});

Deno.test("Renderer cuts a tool line to the terminal's width instead of letting it wrap", () => {
  const { terminal, renderer } = onTerminal(30);
  const command = "for i in $(seq 1 20); do echo line $i; done";
  renderer.render({
    type: "tool_start",
    call: { id: "c", name: "bash", arguments: JSON.stringify({ command }) },
    description: { kind: "text", text: command },
  });
  assertEquals(terminal.lines()[0], "● bash for i in $(seq 1 20);…");
});

Deno.test("Renderer draws a changed todo list as a checklist, on a terminal and on a pipe, from its details", () => {
  const items = [
    { text: "Read the parser", status: "done" },
    { text: "Write the test for the \x1b[31mparser\x1b[0m", status: "in_progress" },
    { text: "Run the suite", status: "pending" },
  ] as const;
  const todoTask = (renderer: Renderer) => {
    const call = { id: "t", name: "todo", arguments: "{}" };
    renderer.render({ type: "tool_start", call, description: { kind: "text", text: "1/3" } });
    renderer.render({
      type: "tool_end",
      call,
      isError: false,
      summary: "1/3 done",
      details: { kind: "checklist", items: [...items] },
    });
  };
  const { terminal, renderer } = onTerminal(30);
  todoTask(renderer);
  assertEquals(terminal.lines(), [
    "● todo 1/3",
    "  ✓ 1/3 done",
    "    ✓ Read the parser",
    "    ▸ Write the test for the…",
    "    ○ Run the suite",
  ]);
  const pipe = onPipe();
  todoTask(pipe.renderer);
  pipe.renderer.unfinishedTodo(items.slice(1));
  assertEquals(
    pipe.written.text,
    "● todo 1/3\n  ✓ 1/3 done\n    ✓ Read the parser\n" +
      "    ▸ Write the test for the ^[[31mparser^[[0m\n    ○ Run the suite\n" +
      "TODO.md holds unfinished work from an earlier session:\n" +
      "    ▸ Write the test for the ^[[31mparser^[[0m\n    ○ Run the suite\n",
  );
});
