/**
 * The last resort when a request does not fit even after compaction (the summary failed, or
 * there was nothing left to fold): a shorter request built from the working memory, for this
 * request only. Unlike the working memory it depends on the request size, so it breaks the
 * prompt-cache prefix; the Compactor warns whenever it uses it.
 *
 * @module
 */
import type { Message } from "../core/mod.ts";
import { estimateRequestTokens, type RequestOverhead } from "./tokens.ts";
import {
  buildWorkingMemory,
  TOOL_OUTPUT_LIMIT,
  truncateMiddle,
  type WorkingMemorySource,
} from "./working_memory.ts";

/** Why and how far a request must be shortened, for `shortenRequest`. */
export interface ShortenOptions {
  /** The most tokens the request may take. */
  threshold: number;
  /** The estimate of the whole working memory, for the warning. */
  estimate: number;
  /** Why compaction did not help, e.g. "and compaction failed", for the warning. */
  why: string;
}

/** A shortened request and the warning that says so, or why no request fits. */
export type ShortenedRequest =
  | { type: "shortened"; messages: Message[]; warning: string }
  | { type: "too_long"; reason: string };

/**
 * The working memory of `source` shortened (by `shrinkToFit`) until its request estimate is
 * at most `options.threshold`, and a one-line warning saying what was cut and why.
 * Contract: never changes history; "too_long" when even the shortest request is over the
 * threshold.
 */
export function shortenRequest(
  source: WorkingMemorySource,
  overhead: RequestOverhead,
  { threshold, estimate, why }: ShortenOptions,
): ShortenedRequest {
  const shrunk = shrinkToFit(
    source,
    (messages) => estimateRequestTokens({ ...overhead, messages }) <= threshold,
  );
  if (!shrunk) {
    return {
      type: "too_long",
      reason:
        `Cannot fit the request into the context window: even the shortest working memory is over ${threshold} tokens`,
    };
  }
  const cuts = [`cut older tool outputs to ${shrunk.toolOutputLimit} chars`];
  if (shrunk.omitted > 0) cuts.push(`left ${shrunk.omitted} older messages out`);
  if (shrunk.messageLimit !== undefined) {
    cuts.push(`cut each message to ${shrunk.messageLimit} chars`);
  }
  const warning = `Context still too long (approx ${estimate} / ${threshold} tokens) ${why}: ${
    cuts.join(", ")
  } in this request only; the session history keeps everything`;
  return { type: "shortened", messages: shrunk.messages, warning };
}

/** A working memory shortened to fit, and how. */
export interface ShrunkMemory {
  messages: Message[];
  /** Tool outputs before the newest assistant message were cut to this many characters. */
  toolOutputLimit: number;
  /** How many older messages were left out of the request. */
  omitted: number;
  /** Every message's content was cut to this many characters, when it came to that. */
  messageLimit?: number;
}

const HARDER_TOOL_OUTPUT_LIMITS = [4000, 2000, 1000, 500];
const MESSAGE_LIMITS = [2000, 1000, 500, 250];

/**
 * Shortens the working memory of `source` until `fits` accepts it: tool outputs cut to
 * 4000, 2000, 1000 and 500 characters, except the results of the newest assistant message;
 * then the oldest messages left out a turn piece at a time (a user message, or an assistant
 * message with its results), keeping the summary message, the last user message and the
 * newest piece, with a note saying how many were left out; then every message's content,
 * the newest results' too, cut to 2000, 1000, 500 and 250 characters.
 * Contract: never changes history; the result stays paired; undefined when nothing fits.
 * The results the model is about to read are cut only when nothing else helps, so it is
 * not left re-reading a file whose middle it cannot see while older outputs could go.
 */
export function shrinkToFit(
  source: WorkingMemorySource,
  fits: (messages: Message[]) => boolean,
): ShrunkMemory | undefined {
  const memory = buildWorkingMemory(source);
  const newest = memory.findLastIndex((message) => message.role === "assistant");
  let toolOutputLimit = TOOL_OUTPUT_LIMIT;
  let messages: Message[] = [];
  for (toolOutputLimit of HARDER_TOOL_OUTPUT_LIMITS) {
    // Same history, same pairing repair: the two memories line up message for message.
    messages = buildWorkingMemory(source, { toolOutputLimit }).map((message, index) =>
      index > newest ? memory[index] ?? message : message
    );
    if (fits(messages)) return { messages, toolOutputLimit, omitted: 0 };
  }
  const trimmed = omitOldest(messages, source.compaction ? 1 : 0, fits);
  if (fits(trimmed.messages)) return { ...trimmed, toolOutputLimit };
  for (const messageLimit of MESSAGE_LIMITS) {
    const cut = trimmed.messages.map((message) =>
      message.content.length > messageLimit
        ? { ...message, content: truncateMiddle(message.content, messageLimit) }
        : message
    );
    if (fits(cut)) {
      return { messages: cut, toolOutputLimit, omitted: trimmed.omitted, messageLimit };
    }
  }
  return undefined;
}

function omitOldest(
  messages: readonly Message[],
  keepLeading: number,
  fits: (messages: Message[]) => boolean,
): { messages: Message[]; omitted: number } {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const pieces = pieceStarts(messages, keepLeading);
  let result: Message[] = [...messages];
  let omitted = 0;
  for (let piece = 0; piece < pieces.length - 1 && !fits(result); piece++) {
    const start = pieces[piece] ?? 0;
    const end = pieces[piece + 1] ?? messages.length;
    if (start === lastUser) continue;
    omitted += end - start;
    const kept = messages.filter((_, index) =>
      index < keepLeading || index === lastUser || index >= end
    );
    result = withNote(kept, keepLeading, omitted);
  }
  return { messages: result, omitted };
}

function pieceStarts(messages: readonly Message[], from: number): number[] {
  const starts: number[] = [];
  for (let index = from; index < messages.length; index++) {
    if (messages[index]?.role !== "tool") starts.push(index);
  }
  return starts;
}

function withNote(messages: Message[], keepLeading: number, omitted: number): Message[] {
  const note = `(${omitted} earlier messages were left out of this request to fit the ` +
    "context window.)";
  const first = messages[0];
  if (keepLeading > 0 && first?.role === "user") {
    const images = first.images ? { images: first.images } : {};
    return [
      { role: "user", content: `${first.content}\n\n${note}`, ...images },
      ...messages.slice(1),
    ];
  }
  return [{ role: "user", content: note }, ...messages];
}
