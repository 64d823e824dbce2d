/**
 * `@path` in a task: the file's text, with line numbers and bounded, goes with the message,
 * read through the workspace like read_file (escapes and `.powercodeignore` refused), a
 * binary file refused; an image (`@shot.png`) goes as an image to a model that takes them.
 *
 * @module
 */
import { estimateImageTokens, estimateTextTokens } from "../context/mod.ts";
import type { MessageImage } from "../core/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";
import { formatSize, readTextHead, type Workspace, workspaceImage } from "../tools/mod.ts";
import { countProblem, type ImageTarget, visionProblem } from "./image_input.ts";

/** Most bytes and lines of one attached file, as one read_file call returns. */
const MAX_BYTES = 50 * 1024;
const MAX_LINES = 2000;
/** Starts every attachment block; the typed text ends before the first. */
const BLOCK_START = '\n\n<attached-file path="';
/** A mention: `@` at the start or after a space, then a path; trailing punctuation is not in it. */
const MENTION = /(?<=^|\s)@([^\s@]+?)[,;:!?)\].]*(?=\s|$)/g;

/** One attached file, for the line the terminal shows. */
export interface Attached {
  path: string;
  lines: number;
  bytes: number;
  cut: boolean;
}

/** One attached image, as mentioned. */
export interface AttachedImage {
  path: string;
  image: MessageImage;
}

/** The message with its attachments, or why a file was refused. */
export type Attachment =
  | { ok: true; text: string; files: Attached[]; images: AttachedImage[] }
  | { ok: false; error: string };

/**
 * The paths `text` mentions with `@`, in order, each once.
 * Contract: pure.
 */
export function mentions(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((match) => match[1] ?? ""))].filter((p) =>
    p !== ""
  );
}

/** What bounds a message with its attachments. */
export interface AttachOptions {
  /** The most tokens the message may take, attachments included (`messageRoom`). */
  maxTokens?: number;
  /** The model an image would go to; without it, a mentioned image is refused. */
  target?: ImageTarget;
}

/**
 * `text` with each file it mentions as `@path` attached after it. A mention of nothing that
 * exists stays plain text (`@decorator`, an address); a file that cannot be attached refuses
 * the whole message: outside the workspace, ignored by `.powercodeignore`, binary, not a
 * regular file; and so does a message (typed, pasted or with its files) over
 * `options.maxTokens`, with one line saying how much fits. An image goes in `images` when
 * `options.target` takes images and is refused otherwise, as are more than eight of them.
 * Contract: never throws for a file; reads at most 50 KB of each text, 5 MB of each image.
 */
export async function attachFiles(
  text: string,
  workspace: Workspace,
  options: AttachOptions = {},
): Promise<Attachment> {
  const blocks: string[] = [];
  const files: Attached[] = [];
  const images: AttachedImage[] = [];
  const target = options.target ?? { profile: "default", vision: false };
  for (const path of mentions(text)) {
    try {
      const image = await workspaceImage(workspace, path);
      if (image) {
        const refused = visionProblem(path, target);
        if (refused !== undefined) return { ok: false, error: refused };
        images.push({ path, image });
        continue;
      }
      const head = await readTextHead(workspace, path, { action: "attach", limit: MAX_BYTES });
      const { block, attached } = fileBlock(path, head.text, { size: head.size, cut: head.cut });
      blocks.push(block);
      files.push(attached);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
  const message = `${text}${blocks.join("")}`;
  const tooMany = countProblem(images.length);
  if (tooMany !== undefined) return { ok: false, error: tooMany };
  const imageTokens = images.reduce((sum, { image }) => sum + estimateImageTokens(image), 0);
  const tooLarge = sizeProblem(message, files, options.maxTokens, imageTokens);
  return tooLarge === undefined
    ? { ok: true, text: message, files, images }
    : { ok: false, error: tooLarge };
}

/** The line refusing a message over `maxTokens`, or undefined when it fits. */
function sizeProblem(
  message: string,
  files: readonly Attached[],
  maxTokens: number | undefined,
  imageTokens: number,
): string | undefined {
  if (maxTokens === undefined) return undefined;
  const tokens = estimateTextTokens(message) + imageTokens;
  if (tokens <= maxTokens) return undefined;
  const what = files.length === 0
    ? "it is"
    : `with ${files.map((file) => `"${file.path}"`).join(", ")} attached it is`;
  const less = files.length === 0
    ? "send less of it"
    : "attach less (read_file reads a file in parts)";
  return `Cannot send the message: ${what} about ${tokens} tokens, more than fits the ` +
    `context window (at most ${maxTokens} tokens for one message); ${less}`;
}

/** The line saying that `file` goes with the message: `  attached a.txt (2 lines)`. */
export function attachedLine(file: Attached): string {
  const lines = `${file.lines} ${file.lines === 1 ? "line" : "lines"}${file.cut ? ", cut" : ""}`;
  return `  attached ${sanitizeLine(file.path)} (${lines})`;
}

/** `content` without the attachment blocks `attachFiles` added: the text as typed. */
export function withoutAttachments(content: string): string {
  const at = content.indexOf(BLOCK_START);
  return at < 0 ? content : content.slice(0, at);
}

/** The block for one file: its lines numbered, at most {@linkcode MAX_LINES}, and a note when cut. */
function fileBlock(
  path: string,
  text: string,
  file: { size: number; cut: boolean },
): { block: string; attached: Attached } {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const shown = lines.slice(0, MAX_LINES);
  const cut = file.cut || lines.length > MAX_LINES;
  const width = String(shown.length).length;
  const numbered = shown.map((line, index) => `${String(index + 1).padStart(width)}\t${line}`);
  const note = cut
    ? [
      `(cut: lines 1-${shown.length} of a ${formatSize(file.size)} file; read_file with ` +
      `offset ${shown.length + 1} reads on)`,
    ]
    : [];
  const body = [...numbered, ...note].join("\n");
  return {
    block: `${BLOCK_START}${path}">\n${body}\n</attached-file>`,
    attached: { path, lines: shown.length, bytes: file.size, cut },
  };
}
