/**
 * What the benchmark's fake model answers: a short text to every task, or one file tool
 * call per task followed by a short answer. Summary requests get a deterministic summary.
 *
 * @module
 */
import type { Handler } from "../tests/support/fake_server.ts";
import {
  answerSummaries,
  lastMessage,
  lastUserText,
  text,
  toolCall,
} from "../tests/support/scripts.ts";

/** The scripts a bench server can play. */
export type ScriptName = "answer" | "file_tasks";

/** A handler for `script`. */
export function createHandler(script: ScriptName): Handler {
  switch (script) {
    case "answer":
      return answerSummaries(() => text("Done."));
    case "file_tasks":
      return answerSummaries(fileTask);
    default: {
      const unknown: never = script;
      throw new TypeError(`Cannot create handler: unknown script ${JSON.stringify(unknown)}`);
    }
  }
}

/** The n-th piped task line, numbered from 0. */
export function fileTaskLine(task: number): string {
  return `Task ${task}: ${task % 2 === 0 ? "write" : "read back"} the note for step ${
    task - task % 2
  }`;
}

/**
 * Even tasks write `notes/n<task>.txt`, odd tasks read the note the task before wrote;
 * after the tool result the model answers in one line.
 */
const fileTask: Handler = (request) => {
  const task = Number(/^Task (\d+):/.exec(lastUserText(request))?.[1] ?? "0");
  if (lastMessage(request)?.role === "tool") return text(`Done with task ${task}.`);
  const even = task - task % 2;
  const path = `notes/n${even}.txt`;
  return task % 2 === 0
    ? toolCall("write_file", { path, content: `Note ${even}: remember the value ${even * 7}.\n` })
    : toolCall("read_file", { path });
};
