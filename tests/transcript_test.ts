import { assertEquals } from "@std/assert";
import type { Message } from "../src/core/messages.ts";
import { buildTranscript } from "../src/ui/transcript.ts";
import { transcriptLine } from "../src/ui/transcript_view.ts";
import { createTheme } from "../src/terminal/theme.ts";
import {
  interruptedNote,
  NO_REPLY,
  planOffNote,
  planOnNote,
  unfinishedTodoNote,
} from "../src/agent/task_notes.ts";

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
  const entries = buildTranscript(history, 0, { describe: () => ({ kind: "malformed" }) });
  assertEquals(entries.map((entry) => transcriptLine(entry, createTheme(false))), [
    "· TODO.md holds unfinished work",
    "· plan mode on",
    "› plan it",
    "⏹ task interrupted",
    "· plan mode off",
    "› do it",
    "Done.",
  ]);
});
