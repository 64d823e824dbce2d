/**
 * How much of a reply powercode keeps, and how long it waits for an error body: every value
 * that enters from the provider is bounded in size and depth, so no reply can exhaust memory,
 * pin a core or overflow the stack later (the README's limits table lists these).
 *
 * @module
 */

/** The caps a reply is read under. */
export interface ReplyLimits {
  /** Bytes of an error body read (HTTP 4xx/5xx, or a 200 that is not a stream); the rest is dropped. */
  errorBodyBytes: number;
  /** Milliseconds allowed to read an error body; what came by then is used. */
  errorBodyMs: number;
  /** Characters of one stream line or one event's data (a whole tool call may come in one). */
  sseLineChars: number;
  /** Characters of answer text and reasoning together in one reply. */
  replyTextChars: number;
  /** Characters of one tool call's arguments (a 10 MB write_file, JSON-escaped, fits). */
  argumentsChars: number;
  /** Characters of a tool-call id or function name. */
  nameChars: number;
  /** Nesting depth of a provider value kept with a tool call (`extra_content`). */
  keptDepth: number;
  /** Approximate serialized size of such a value, in characters. */
  keptChars: number;
  /** Characters of a provider's error message shown, and searched for overflow wordings. */
  messageChars: number;
}

const MIB = 1024 * 1024;

/** The caps every client uses unless a test passes smaller ones. */
export const REPLY_LIMITS: ReplyLimits = {
  errorBodyBytes: 64 * 1024,
  errorBodyMs: 10_000,
  sseLineChars: 32 * MIB,
  replyTextChars: 8 * MIB,
  argumentsChars: 16 * MIB,
  nameChars: 256,
  keptDepth: 16,
  keptChars: 256 * 1024,
  messageChars: 1000,
};

/** A count of characters in a few words: `32M characters`, `1000 characters`. */
export function characters(count: number): string {
  const mi = 1024 * 1024;
  if (count >= mi && count % mi === 0) return `${count / mi}M characters`;
  if (count >= 1024 && count % 1024 === 0) return `${count / 1024}K characters`;
  return `${count} characters`;
}
