/**
 * The redraw of a resumed session (issue 19.2) on a virtual 80-column terminal: answers
 * rendered as they were live, a cut that never stops inside a code fence, a paste as its
 * label, each tool call's real outcome, and commands run with `!`.
 */
import { assertEquals } from "@std/assert";
import type { Message } from "../../../src/core/messages.ts";
import { INTERRUPTED_RESULT } from "../../../src/agent/agent.ts";
import { shellNote } from "../../../src/agent/shell_note.ts";
import {
  interruptedNote,
  NO_REPLY,
  planOffNote,
  planOnNote,
  unfinishedTodoNote,
} from "../../../src/agent/task_notes.ts";
import { buildTranscript } from "../../../src/ui/transcript.ts";
import { Renderer } from "../../../src/ui/renderer.ts";
import { TaskView } from "../../../src/ui/task_view.ts";
import { VirtualScreen } from "../../support/screen.ts";

/** The lines a resumed `history` redraws on an 80×24 terminal in colour (styles not shown). */
function redraw(history: Message[], width = 80): string[] {
  const screen = new VirtualScreen(width, 24);
  const renderer = new Renderer({
    output: new TaskView({
      io: { write: (text) => screen.write(text), columns: () => width, rows: () => 24 },
      color: true,
      markdown: true,
      tickMs: 0,
    }),
    color: true,
    streamAnswer: true,
  });
  const describe = (call: { arguments: string }) =>
    ({ kind: "text", text: String(JSON.parse(call.arguments).command ?? "") }) as const;
  renderer.transcript(buildTranscript(history, 0, { describe }));
  return screen.lines();
}

const bash = (id: string, command: string) => ({
  id,
  name: "bash",
  arguments: JSON.stringify({ command }),
});

Deno.test("buildTranscript() redraws an answer rendered, as the live session showed it", () => {
  const answer = "## Plan\nFirst **read** the `parser`, then fix it.";
  assertEquals(
    redraw([
      { role: "user", content: "plan it" },
      { role: "assistant", content: answer, toolCalls: [] },
    ]),
    ["› plan it", "Plan", "First read the parser, then fix it."],
  );
});

Deno.test("buildTranscript() cuts a long answer outside a code fence", () => {
  const code = Array.from({ length: 20 }, (_, i) => `const v${i} = ${i};`);
  const answer = ["Here:", "```ts", ...code, "```", "Done."].join("\n");
  const lines = redraw([
    { role: "user", content: "code" },
    { role: "assistant", content: answer, toolCalls: [] },
  ]);
  assertEquals(lines, [
    "› code",
    "Here:",
    "  ```ts",
    ...code.slice(0, 10).map((line) => `  ${line}`),
    "  ```",
    "  … 12 more lines",
  ]);
});

Deno.test("buildTranscript() shows one line more rather than `… 1 more lines` in its place", () => {
  // An answer of 13 lines, one over the 12 a redraw shows.
  const lines = Array.from({ length: 13 }, (_, i) => `- item ${i + 1}`);
  assertEquals(
    redraw([
      { role: "user", content: "count" },
      { role: "assistant", content: lines.join("\n"), toolCalls: [] },
    ]),
    ["› count", ...lines.map((line) => line.replace("- ", "• "))],
  );
});

Deno.test("buildTranscript() shows a pasted task as its placeholder", () => {
  const paste = Array.from({ length: 901 }, (_, i) => `row ${i}`).join("\n");
  const lines = redraw([
    { role: "user", content: `fix this\n${paste}`, shown: "fix this\n[pasted 901 lines]" },
    { role: "assistant", content: "Fixed.", toolCalls: [] },
  ]);
  assertEquals(lines, ["› fix this", "  [pasted 901 lines]", "Fixed."]);
});

Deno.test("buildTranscript() gives each tool call its real outcome", () => {
  const lines = redraw([
    { role: "user", content: "try" },
    {
      role: "assistant",
      content: "",
      toolCalls: [bash("1", "true"), bash("2", "exit 2"), bash("3", "sleep 9"), bash("4", "ls")],
    },
    { role: "tool", toolCallId: "1", content: "(no output)\nexit code 0", isError: false },
    { role: "tool", toolCallId: "2", content: "(no output)\nexit code 2", isError: true },
    {
      role: "tool",
      toolCallId: "3",
      content: `interrupted by the user\n${INTERRUPTED_RESULT}`,
      isError: true,
    },
  ]);
  assertEquals(lines, [
    "› try",
    "● bash true ✓",
    "● bash exit 2 ✗",
    "● bash sleep 9 ✗ interrupted",
    "● bash ls ✗ interrupted",
  ]);
});

Deno.test("buildTranscript() shows a command run with ! as `$ command` with its mark", () => {
  const lines = redraw([
    { role: "user", content: shellNote("ls", "a.txt\nexit code 0") },
    { role: "user", content: shellNote("false", "(no output)\nexit code 1") },
    { role: "user", content: "what is there?" },
  ]);
  assertEquals(lines, ["$ ls ✓", "$ false ✗", "› what is there?"]);
});

Deno.test("buildTranscript() shows powercode's notes apart from tasks: ⏹ for a stopped task, · for the others", () => {
  const history: Message[] = [
    { role: "user", content: unfinishedTodoNote([{ text: "Test", status: "pending" }]) },
    { role: "user", content: planOnNote() },
    { role: "user", content: "plan it" },
    { role: "assistant", content: NO_REPLY, toolCalls: [] },
    { role: "user", content: interruptedNote() },
    { role: "user", content: planOffNote() },
    { role: "user", content: "do it" },
    { role: "assistant", content: "Done.", toolCalls: [] },
  ];
  assertEquals(redraw(history), [
    "· TODO.md holds unfinished work",
    "· plan mode on",
    "› plan it",
    "⏹ task interrupted",
    "· plan mode off",
    "› do it",
    "Done.",
  ]);
});

Deno.test("buildTranscript() cuts a tool's line to a narrow terminal, keeping its mark", () => {
  const command = "for i in 1 2 3 4 5; do echo line $i; sleep 1; done";
  const lines = redraw([
    { role: "user", content: "run it" },
    { role: "assistant", content: "", toolCalls: [bash("1", command), bash("2", command)] },
    { role: "tool", toolCallId: "1", content: "line 1\nexit code 0", isError: false },
  ], 40);
  assertEquals(lines, [
    "› run it",
    "● bash for i in 1 2 3 4 5; do echo l… ✓",
    "● bash for i in 1 2 3 4 … ✗ interrupted",
  ]);
});

Deno.test("a resumed task call that a subagent ran names the child's session file", () => {
  const lines = redraw([
    { role: "user", content: "fan out" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "task", arguments: '{"command":"explore · job A"}' }],
    },
    {
      role: "tool",
      toolCallId: "c1",
      content: "answer A",
      isError: false,
      session: "20261205-120000-abcdef",
    },
    { role: "assistant", content: "Done.", toolCalls: [] },
  ]);
  assertEquals(lines.slice(0, 3), [
    "› fan out",
    "● task explore · job A ✓ · session 20261205-120000-abcdef",
    "Done.",
  ]);
});
