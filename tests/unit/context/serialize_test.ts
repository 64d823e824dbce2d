import { assertEquals } from "@std/assert";
import type { Message } from "../../../src/core/messages.ts";
import {
  buildSummaryRequest,
  formatToolCall,
  serializeMessages,
  SUMMARY_SYSTEM_PROMPT,
} from "../../../src/context/serialize.ts";
import { estimateRequestTokens } from "../../../src/context/tokens.ts";

const HEADINGS = `Write the summary under exactly these six headings, in this order:

## User Goal
What the user asked for, in their words where it matters.
## Constraints and Key Decisions
Requirements, preferences and decisions made so far, with their reasons.
## Completed
What is done, with concrete results (names, values, outcomes).
## Current Issues
Errors and open problems, and what was tried.
## Files Read or Modified
Each path and what matters about it.
## Next Steps
What remains to do, in order; "None" when the work is finished.

Keep exact file paths, names, numbers, commands and error messages.`;

const CONVERSATION: Message[] = [
  { role: "user", content: "Fix the bug in notes.md" },
  {
    role: "assistant",
    content: "I will read it.",
    toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"notes.md"}' }],
  },
  { role: "tool", toolCallId: "c1", content: "line 1\nline 2", isError: false },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      {
        id: "c2",
        name: "edit_file",
        arguments: '{"path":"notes.md","old_string":"a","new_string":"b"}',
      },
      { id: "c3", name: "bash", arguments: '{"command":"deno test","timeout_seconds":60}' },
    ],
  },
  { role: "tool", toolCallId: "c2", content: "ok", isError: false },
  { role: "tool", toolCallId: "c3", content: "exit 0", isError: false },
  { role: "assistant", content: "Done.", toolCalls: [] },
];

const SERIALIZED = `[User]: Fix the bug in notes.md

[Assistant]: I will read it.
[Tool call] read_file(path=notes.md)

[Tool result]: line 1
line 2

[Tool call] edit_file(path=notes.md, old_string=a, new_string=b)
[Tool call] bash(command=deno test, timeout_seconds=60)

[Tool result]: ok

[Tool result]: exit 0

[Assistant]: Done.`;

function step(index: number, resultChars: number): Message[] {
  const id = `c${index}`;
  return [
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id, name: "read_file", arguments: `{"path":"${id}.txt"}` }],
    },
    { role: "tool", toolCallId: id, content: `${id}:` + "r".repeat(resultChars), isError: false },
  ];
}

function requestTokens(request: ReturnType<typeof buildSummaryRequest>): number {
  return estimateRequestTokens({ system: request.system, messages: request.messages });
}

Deno.test("serializeMessages() writes user, assistant, tool call and tool result lines", () => {
  assertEquals(serializeMessages(CONVERSATION), SERIALIZED);
});

Deno.test("formatToolCall() cuts long values and shows non-object arguments raw", () => {
  const content = "x".repeat(500);
  assertEquals(
    formatToolCall({
      id: "c1",
      name: "write_file",
      arguments: JSON.stringify({ path: "a.txt", content }),
    }),
    `write_file(path=a.txt, content=${"x".repeat(200)}... [300 more characters])`,
  );
  assertEquals(formatToolCall({ id: "c2", name: "bash", arguments: "not json" }), "bash(not json)");
  assertEquals(formatToolCall({ id: "c3", name: "bash", arguments: "{}" }), "bash()");
});

Deno.test("buildSummaryRequest() asks to update the previous summary, with the focus", () => {
  const request = buildSummaryRequest({
    previousSummary: "## User Goal\nfix notes",
    messages: CONVERSATION.slice(0, 3),
    focus: "the notes file",
    budgetTokens: 10_000,
    splitTurn: true,
    maxSummaryTokens: 1000,
  });
  const content = `<previous-summary>
## User Goal
fix notes
</previous-summary>

The conversation below continues after that summary. Update the summary with these newly folded messages: keep what still holds, add what is new, drop what is no longer true.

<conversation>
[User]: Fix the bug in notes.md

[Assistant]: I will read it.
[Tool call] read_file(path=notes.md)

[Tool result]: line 1
line 2
</conversation>

The conversation stops in the middle of a task that is still in progress; the agent will go on with it after this summary.

${HEADINGS} Be concise: at most about 750 words.

Focus the summary on: the notes file`;
  assertEquals(request, {
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: "user", content }],
    folded: 3,
  });
});

Deno.test("buildSummaryRequest() summarizes from scratch without a previous summary", () => {
  const request = buildSummaryRequest({ messages: CONVERSATION, budgetTokens: 10_000 });
  const content =
    `Summarize the conversation below.\n\n<conversation>\n${SERIALIZED}\n</conversation>\n\n${HEADINGS}`;
  assertEquals(request, {
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: "user", content }],
    folded: 7,
  });
});

Deno.test("buildSummaryRequest() cuts the largest results before folding fewer messages", () => {
  const messages: Message[] = [
    { role: "user", content: "Read the logs" },
    ...step(1, 40_000),
    ...step(2, 100),
    ...step(3, 20_000),
    ...step(4, 3000),
    { role: "assistant", content: "Read them all.", toolCalls: [] },
  ];
  const request = buildSummaryRequest({ messages, budgetTokens: 5000 });
  const content = request.messages[0]?.content ?? "";
  assertEquals(request.folded, messages.length);
  assertEquals(requestTokens(request) <= 5000 && requestTokens(request) > 4800, true);
  assertEquals(content.includes(`[Tool result]: c2:${"r".repeat(100)}\n`), true);
  assertEquals(content.includes(`[Tool result]: c4:${"r".repeat(3000)}\n`), true);
  assertEquals(content.match(/characters omitted/g)?.length, 2);
});

Deno.test("buildSummaryRequest() folds fewer messages only when cut results still do not fit", () => {
  const messages: Message[] = [{ role: "user", content: "Read the logs" }];
  for (let index = 1; index <= 10; index++) messages.push(...step(index, 4000));
  const request = buildSummaryRequest({ messages, budgetTokens: 2500 });
  // At MIN_RESULT_CHARS per result, the user message and 7 steps fit; step 8 begins the kept part.
  assertEquals(request.folded, 15);
  assertEquals(messages[request.folded]?.role, "assistant");
  assertEquals(requestTokens(request) <= 2500, true);
  const content = request.messages[0]?.content ?? "";
  assertEquals([content.includes("(path=c7.txt)"), content.includes("(path=c8.txt)")], [
    true,
    false,
  ]);
  assertEquals(content.match(/characters omitted/g)?.length, 7);
});

Deno.test("buildSummaryRequest() cuts a first message that alone exceeds the budget", () => {
  const messages: Message[] = [
    { role: "user", content: "u".repeat(100_000) },
    { role: "assistant", content: "ok", toolCalls: [] },
  ];
  const request = buildSummaryRequest({ messages, budgetTokens: 2000 });
  assertEquals(request.folded, 1);
  assertEquals(requestTokens(request) <= 2000, true);
  assertEquals(buildSummaryRequest({ messages, budgetTokens: 100 }).folded, 0);
});
