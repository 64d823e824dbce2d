/**
 * Synthetic session histories of any length, shaped like real coding sessions: each task is
 * a user request, a read_file call and its result (~2.4 KB of code), a write_file call and
 * its result, and a short answer.
 *
 * @module
 */
import type { CompactionState, SessionRecord } from "../src/session/session.ts";
import type { SessionStore } from "../src/session/store.ts";
import { estimateRequestTokens, type RequestOverhead } from "../src/context/tokens.ts";
import { buildWorkingMemory, withFileLists } from "../src/context/working_memory.ts";
import type { Message } from "../src/core/messages.ts";

/** Messages per synthetic task. */
export const TASK_MESSAGES = 6;
/** The model name written into bench session files. */
export const BENCH_MODEL = "bench-model";

/** The six messages of task number `task`. */
export function taskMessages(task: number): Message[] {
  // Fixed-width numbers keep every task the same size, whatever its position in history.
  const label = String(task).padStart(6, "0");
  const path = `src/module_${String(task % 97).padStart(2, "0")}.ts`;
  const code = moduleText(label);
  const patch = code.slice(0, 400);
  return [
    { role: "user", content: `Task ${label}: make compute${label}() in ${path} reject NaN input.` },
    {
      role: "assistant",
      content: "",
      toolCalls: [{
        id: `call_${label}_r`,
        name: "read_file",
        arguments: JSON.stringify({ path }),
      }],
    },
    { role: "tool", toolCallId: `call_${label}_r`, content: code, isError: false },
    {
      role: "assistant",
      content: `I will add the check to compute${label}().`,
      toolCalls: [{
        id: `call_${label}_w`,
        name: "write_file",
        arguments: JSON.stringify({ path, content: patch }),
      }],
    },
    {
      role: "tool",
      toolCallId: `call_${label}_w`,
      content: `Wrote ${patch.length} bytes to ${path}`,
      isError: false,
    },
    {
      role: "assistant",
      content: `compute${label}() in ${path} now throws a RangeError for NaN; the other ` +
        `functions in the module are unchanged and the existing callers keep working.`,
      toolCalls: [],
    },
  ];
}

/**
 * A history of exactly `count` messages (even) ending with a finished task; the first
 * `count % 6` messages are short greetings so that tasks start at `count - 6k`.
 */
export function syntheticHistory(count: number): Message[] {
  if (count % 2 !== 0) throw new RangeError(`Cannot build history: count ${count} is odd`);
  const messages: Message[] = [];
  for (let index = 0; index < count % TASK_MESSAGES; index += 2) {
    messages.push({ role: "user", content: `hello ${index}` });
    messages.push({ role: "assistant", content: "Hello! What shall we work on?", toolCalls: [] });
  }
  for (let task = 0; messages.length < count; task++) messages.push(...taskMessages(task));
  return messages;
}

/** A previous summary of about 1 000 tokens under the six headings, the same for every history. */
export function syntheticSummary(): string {
  const done = Array.from(
    { length: 40 },
    (_, index) => `- Task ${index}: compute${index}() rejects NaN input; tests pass.`,
  );
  const text = [
    "## User Goal",
    "Harden every compute function in src/ against NaN input, one module at a time.",
    "## Constraints and Key Decisions",
    "- Throw RangeError with a message naming the function; keep signatures unchanged.",
    "## Completed",
    ...done,
    "## Current Issues",
    "(none)",
    "## Files Read or Modified",
    "See the lists below.",
    "## Next Steps",
    "Continue with the next task.",
  ].join("\n");
  const paths = Array.from({ length: 40 }, (_, index) => `src/module_${index}.ts`);
  return withFileLists(text, { filesRead: paths, filesModified: paths });
}

/**
 * The records of a session with `history`, compacted so that the working memory is the
 * summary plus the last `recentMessages` messages, and with a usage snapshot of that
 * working memory (as after a reply).
 */
export function compactedSessionRecords(
  history: readonly Message[],
  recentMessages: number,
  overhead: RequestOverhead,
): SessionRecord[] {
  const compactedUntil = Math.max(0, history.length - recentMessages);
  const state: CompactionState = {
    summary: syntheticSummary(),
    compactedUntil,
  };
  const memory = buildWorkingMemory({ history, compaction: state });
  const tokens = estimateRequestTokens({ ...overhead, messages: memory });
  return [
    ...history.map((message): SessionRecord => ({ type: "message", message })),
    { type: "compaction", state, tokensBefore: tokens * 4, tokensAfter: tokens },
    { type: "usage", usage: { totalTokens: tokens, historyLength: history.length } },
  ];
}

/** Writes `records` as a new session file in `store`; returns its id and size in bytes. */
export function writeSessionFile(
  store: SessionStore,
  records: readonly SessionRecord[],
): { id: string; bytes: number } {
  using file = store.create({ model: BENCH_MODEL });
  for (const record of records) file.write(record);
  return { id: file.id, bytes: Deno.statSync(file.path).size };
}

/** Copies session `id` to a fresh id in the same store, so a run can append to its own copy. */
export async function copySession(store: SessionStore, id: string, copyId: string): Promise<void> {
  await Deno.copyFile(`${store.dir}/${id}.jsonl`, `${store.dir}/${copyId}.jsonl`);
}

function moduleText(label: string): string {
  let text = `// module for task ${label}`;
  for (let index = 0; text.length < 2400; index++) {
    text += `\nexport function compute${label}_${index}(value: number): number {\n` +
      `  return value * ${index + 3} + ${label.slice(-3)};\n}`;
  }
  return text;
}
