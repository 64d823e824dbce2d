/**
 * `/export`: the session written to a file as Markdown, HTML or its JSONL records, checked
 * for secrets first; found ones refuse the export, or are replaced when asked to.
 *
 * @module
 */
import type { Message } from "../core/mod.ts";
import { type ExportConversation, renderHtml, renderMarkdown } from "./export_render.ts";
import { findSecret, type NamedSecrets, type RedactText, scrubSecrets } from "./secret_scan.ts";

/** The formats, by the file's extension. */
export type ExportFormat = "md" | "html" | "jsonl";

/** What an export works from. */
export interface ExportSource extends ExportConversation {
  /** The session file, for the JSONL format. */
  sessionFile: string;
  /** Replaces the provider secrets the run knows (`Redactor.redact`). */
  redact: RedactText;
  /** Further values it must not hold (the ignored files' lines), by kind. */
  named?: NamedSecrets;
}

/** What an export did. */
export interface ExportResult {
  path: string;
  format: ExportFormat;
  bytes: number;
  /** How many messages or lines had secrets replaced (`redact` only). */
  redacted: number;
}

/** An export refused because the result would hold a secret; nothing was written. */
export class SecretFoundError extends Error {
  /** A refusal naming the secret's kind and where it is. */
  constructor(message: string) {
    super(message);
    this.name = "SecretFoundError";
  }
}

/** The format a file name asks for, undefined for an extension of none of them. */
export function exportFormat(path: string): ExportFormat | undefined {
  const extension = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension === "md" || extension === "markdown") return "md";
  if (extension === "html" || extension === "htm") return "html";
  if (extension === "jsonl") return "jsonl";
  return undefined;
}

/**
 * Writes the session to `path` in the format its extension names, after checking every
 * message (or record line) and the whole result for secrets.
 * Contract: throws {@linkcode SecretFoundError} naming the kind and the place (message or
 * line number) of the first secret found, and writes nothing, unless `options.redact`: then
 * each one is replaced. Messages name the file by `options.label` (as the user typed it).
 * The file is written whole (a temporary file renamed) or not at all.
 */
export async function exportSession(
  source: ExportSource,
  path: string,
  options: { redact?: boolean; label?: string } = {},
): Promise<ExportResult> {
  const label = options.label ?? path;
  const format = exportFormat(path);
  if (format === undefined) {
    throw new TypeError(`Cannot export to "${label}": name a .md, .html or .jsonl file`);
  }
  const redact = options.redact === true;
  const named = source.named ?? new Map();
  const scan: Scan = {
    find: (text) => findSecret(text, source.redact, named),
    scrub: (text) => scrubSecrets(text, source.redact, named),
  };
  const { text, redacted } = format === "jsonl"
    ? checkLines(await Deno.readTextFile(source.sessionFile), scan, redact, label)
    : checkConversation(source, scan, { format, redact, path: label });
  const whole = scan.find(text);
  if (whole !== undefined && !redact) {
    throw new SecretFoundError(refusal(label, whole, "the export"));
  }
  const bytes = new TextEncoder().encode(
    whole === undefined ? text : scan.scrub(text),
  );
  await writePrivately(path, bytes);
  return { path, format, bytes: bytes.length, redacted };
}

/**
 * Writes `bytes` to `path` readable by the user alone (0600), through a temp file renamed
 * over it.
 * Contract: on failure the temp file is removed and `path` is untouched; errors propagate.
 */
export async function writePrivately(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeFile(temporary, bytes, { mode: 0o600 });
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/** Finds and replaces the secrets an export must not hold. */
interface Scan {
  find(text: string): string | undefined;
  scrub(text: string): string;
}

function checkConversation(
  source: ExportSource,
  scan: Scan,
  options: { format: "md" | "html"; redact: boolean; path: string },
): { text: string; redacted: number } {
  const { format, redact, path } = options;
  let redacted = 0;
  const history = source.history.map((message, index) => {
    const kind = scan.find(JSON.stringify(message));
    if (kind === undefined) return message;
    if (!redact) {
      throw new SecretFoundError(
        refusal(path, kind, `message ${index + 1} (${MESSAGE_NAMES[message.role]})`),
      );
    }
    redacted++;
    return scrubAll(message, scan);
  });
  const conversation = { ...source, history };
  const text = format === "md" ? renderMarkdown(conversation) : renderHtml(conversation);
  return { text, redacted };
}

function checkLines(
  file: string,
  scan: Scan,
  redact: boolean,
  path: string,
): { text: string; redacted: number } {
  let redacted = 0;
  const lines = file.split("\n").map((line, index) => {
    const kind = scan.find(line);
    if (kind === undefined) return line;
    if (!redact) {
      throw new SecretFoundError(refusal(path, kind, `line ${index + 1} of the records`));
    }
    redacted++;
    try {
      return JSON.stringify(scrubAll(JSON.parse(line), scan));
    } catch {
      return scan.scrub(line);
    }
  });
  return { text: lines.join("\n"), redacted };
}

const MESSAGE_NAMES: Record<Message["role"], string> = {
  user: "a task",
  assistant: "a reply",
  tool: "a tool result",
};

function refusal(path: string, kind: string, where: string): string {
  return `Cannot export to "${path}": ${where} holds ${kind}; nothing was written ` +
    `(/export --redact ${path} replaces it)`;
}

/** A copy of JSON-like `value` with secrets replaced in every string. */
function scrubAll<T>(value: T, scan: Scan): T {
  return JSON.parse(
    JSON.stringify(value, (_key, field) => typeof field === "string" ? scan.scrub(field) : field),
  );
}
