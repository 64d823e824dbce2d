/**
 * The table of recent sessions shown by `/sessions`, `--sessions` and `-r` without an id.
 *
 * @module
 */
import { unicodeWidth } from "@std/cli/unicode-width";
import type { SessionInfo } from "../session/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";

const ID_WIDTH = 22;
const MESSAGES_WIDTH = 4;

/** How to lay out the table. */
export interface SessionsTableOptions {
  /** Marked with `*`. */
  currentId?: string | undefined;
  /** Columns available (default 80; infinite on a pipe); the first task is cut to fit. */
  width?: number;
}

/**
 * Formats sessions as a table with a header, the time each was last used in local time (the
 * zone in the header; the list is in that order, as `--continue` chooses), the current
 * session marked, the first task of a session a `-p` run made after `-p: `, and that of a
 * subagent's session (listed under its parent's) after `↳ task: `.
 * Contract: every line fits `width` columns (at least 60 are assumed); ids and first tasks
 * (from session files) show their control characters visibly.
 */
export function formatSessionsTable(
  sessions: readonly SessionInfo[],
  options: SessionsTableOptions = {},
): string {
  if (sessions.length === 0) return "No saved sessions yet";
  const width = Math.max(60, options.width ?? 80);
  const used = `LAST USED (${zoneName(new Date(sessions[0]?.lastUsed ?? Date.now()))})`;
  const timeWidth = used.length;
  const taskWidth = width - 3 - ID_WIDTH - 2 - timeWidth - 2 - MESSAGES_WIDTH - 2;
  const row = (mark: string, id: string, time: string, messages: string, task: string) =>
    `${mark} ${id.padEnd(ID_WIDTH)}  ${time.padEnd(timeWidth)}  ${
      messages.padStart(MESSAGES_WIDTH)
    }  ${cut(task, taskWidth)}`.trimEnd();
  const lines = [row(" ", "ID", used, "MSGS", "FIRST TASK")];
  for (const info of sessions) {
    const mark = info.id === options.currentId ? "*" : " ";
    lines.push(
      row(
        mark,
        sanitizeLine(info.id),
        localTime(new Date(info.lastUsed)),
        String(info.messages),
        `${info.parent !== undefined ? "↳ task: " : info.print ? "-p: " : ""}${
          sanitizeLine(info.firstTask)
        }`,
      ),
    );
  }
  return lines.map((line) => ` ${line}`).join("\n");
}

/** `YYYY-MM-DD HH:MM` in the machine's local time zone. */
function localTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The local zone as an offset, e.g. `UTC+01:00`. */
function zoneName(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offset) % 60).padStart(2, "0");
  return `UTC${sign}${hours}:${minutes}`;
}

/** `text` cut to at most `width` terminal columns, with `…` when cut. */
function cut(text: string, width: number): string {
  if (unicodeWidth(text) <= width) return text;
  let kept = "";
  for (const char of text) {
    if (unicodeWidth(kept + char) > width - 1) break;
    kept += char;
  }
  return `${kept}…`;
}
