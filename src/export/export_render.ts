/**
 * The conversation of an export as text: Markdown as the screen showed it, and one
 * self-contained HTML page with each tool's output folded under its line.
 *
 * @module
 */
import type { CallDescription, Message, ToolCall } from "../core/mod.ts";
import { createTheme, sanitize } from "../terminal/mod.ts";
import { loadTranscript, type TranscriptEntry, transcriptLine } from "../ui/mod.ts";

/** What an export shows of a session. */
export interface ExportConversation {
  /** The session's id, in the title. */
  id: string;
  history: readonly Message[];
  /** Messages before this index are summarized for the model (0 without a summary). */
  compactedUntil: number;
  /** How a tool call is shown (`Agent.describeCall`). */
  describe: (call: ToolCall) => CallDescription;
}

const PLAIN = createTheme(false);
const buildTranscript = await loadTranscript();

/** Every entry of the conversation, no task left out and no answer cut. */
function entriesOf(conversation: ExportConversation): TranscriptEntry[] {
  return buildTranscript(conversation.history, conversation.compactedUntil, {
    describe: conversation.describe,
    maxTasks: Infinity,
    maxAnswerLines: Infinity,
  });
}

/**
 * The conversation as Markdown: each task as a quote under a heading, each answer as the
 * model wrote it, tool lines with their outcomes in a text block.
 * Contract: pure; no escape sequence or other control character but newline and tab.
 */
export function renderMarkdown(conversation: ExportConversation): string {
  const blocks: string[] = [`# powercode session ${conversation.id}`];
  let lines: string[] = [];
  const closeLines = () => {
    if (lines.length === 0) return;
    blocks.push(["```text", ...lines, "```"].join("\n"));
    lines = [];
  };
  let task = 0;
  for (const entry of entriesOf(conversation)) {
    if (entry.kind === "task") {
      closeLines();
      task++;
      blocks.push(`## Task ${task}`, quote(sanitize(entry.text)));
    } else if (entry.kind === "answer") {
      closeLines();
      blocks.push(sanitize(entry.text));
    } else {
      lines.push(sanitize(transcriptLine(entry, PLAIN)));
    }
  }
  closeLines();
  return `${blocks.join("\n\n")}\n`;
}

/**
 * The conversation as one HTML page: no script, no link, nothing loaded from anywhere (its
 * content security policy forbids it), each tool's output folded under its line.
 * Contract: pure; every text from the session is escaped.
 */
export function renderHtml(conversation: ExportConversation): string {
  const results = new Map<string, string>();
  for (const message of conversation.history) {
    if (message.role === "tool") results.set(message.toolCallId, message.content);
  }
  const body = entriesOf(conversation).map((entry) => {
    switch (entry.kind) {
      case "task":
        return `<div class="task"><pre>${escapeHtml(entry.text)}</pre></div>`;
      case "answer":
        return `<div class="answer"><pre>${escapeHtml(entry.text)}</pre></div>`;
      case "tool": {
        const line = escapeHtml(transcriptLine(entry, PLAIN));
        const output = escapeHtml(results.get(entry.call.id) ?? "(no result)");
        return `<details class="tool"><summary>${line}</summary><pre>${output}</pre></details>`;
      }
      default:
        return `<div class="line"><pre>${escapeHtml(transcriptLine(entry, PLAIN))}</pre></div>`;
    }
  });
  const title = escapeHtml(`powercode session ${conversation.id}`);
  return [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${title}</title>`,
    `<style>${STYLE}</style>`,
    `</head><body><h1>${title}</h1>`,
    ...body,
    "</body></html>",
    "",
  ].join("\n");
}

const STYLE = "body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}" +
  "pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0}" +
  ".task{border-left:4px solid #36c;padding-left:.6rem;margin-top:1.5rem;font-weight:bold}" +
  ".tool summary,.line pre{font-family:monospace;color:#555;cursor:pointer}" +
  ".tool pre{background:#f4f4f4;padding:.5rem;max-height:30rem;overflow:auto}";

/** `text` for HTML: control characters (escape sequences) dropped, markup characters escaped. */
export function escapeHtml(text: string): string {
  return sanitize(text).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function quote(text: string): string {
  return text.split("\n").map((line) => line === "" ? ">" : `> ${line}`).join("\n");
}
