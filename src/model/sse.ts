/**
 * Reads a server-sent-events body into events, tolerantly and within bounds: lines end in LF,
 * CRLF or CR (also split across reads), `data:` with or without its space, comment lines, and
 * the `error:` field older llama-server sent an error in after HTTP 200.
 *
 * @module
 */
import { ChatError } from "./chat_model.ts";
import { characters } from "./limits.ts";

/** One dispatched event: its `data` lines joined, and its `event` and `error` fields. */
export interface SseEvent {
  event: string | undefined;
  data: string;
  /** The non-standard `error:` field (old llama-server's in-stream error), when sent. */
  error: string | undefined;
}

/**
 * The events of an SSE body, in order; an event still open when the body ends is dispatched.
 * Contract: throws ChatError("limit") as soon as one line or one event's data passes
 * `maxChars`; the body is cancelled when the reader stops early or fails.
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  maxChars: number,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const parser = new SseParser(maxChars);
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      yield* parser.push(decoder.decode(read.value, { stream: true }));
    }
    yield* parser.end(decoder.decode());
  } finally {
    reader.cancel().catch(() => {});
  }
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** The line and event state between two reads. */
class SseParser {
  #maxChars: number;
  #partial = "";
  /** The last read ended in CR: a LF starting the next read belongs to it. */
  #afterCr = false;
  #data: string[] = [];
  #dataChars = 0;
  #event: string | undefined;
  #error: string | undefined;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** Reads decoded text; returns the events it completed. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let start = this.#afterCr && text.startsWith("\n") ? 1 : 0;
    this.#afterCr = false;
    LINE_BREAK.lastIndex = start;
    for (let found = LINE_BREAK.exec(text); found; found = LINE_BREAK.exec(text)) {
      const line = this.#partial + text.slice(start, found.index);
      this.#partial = "";
      start = found.index + found[0].length;
      if (found[0] === "\r" && start === text.length) this.#afterCr = true;
      this.#line(line, events);
    }
    this.#partial += text.slice(start);
    this.#check(this.#partial.length, "one line of the stream");
    return events;
  }

  /** The body ended: the last line and the event still open, if any. */
  end(text: string): SseEvent[] {
    const events = this.push(text);
    if (this.#partial !== "") this.#line(this.#partial, events);
    this.#partial = "";
    this.#line("", events);
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    this.#check(line.length, "one line of the stream");
    if (line === "") return this.#dispatch(events);
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      this.#data.push(value);
      this.#dataChars += value.length + 1;
      this.#check(this.#dataChars, "one event of the stream");
    } else if (field === "event") this.#event = value;
    else if (field === "error") this.#error = value;
  }

  #dispatch(events: SseEvent[]): void {
    if (this.#data.length > 0 || this.#error !== undefined) {
      events.push({ event: this.#event, data: this.#data.join("\n"), error: this.#error });
    }
    this.#data = [];
    this.#dataChars = 0;
    this.#event = undefined;
    this.#error = undefined;
  }

  #check(chars: number, what: string): void {
    if (chars <= this.#maxChars) return;
    throw new ChatError(
      "limit",
      `Invalid reply from the provider: ${what} passed ${characters(this.#maxChars)} ` +
        "(the limit); the stream was stopped",
    );
  }
}
