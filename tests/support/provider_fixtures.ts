/**
 * Replays the corpus of recorded provider traffic in tests/fixtures/providers: a
 * `.chunks.jsonl` file is one recorded chunk payload per line (framed here as SSE events
 * ending with `[DONE]`), a `.sse` file is a whole SSE body sent as it is, and a `.json`
 * file is an error body sent with the status its PROVENANCE.json entry records.
 *
 * @module
 */
import type { RawReply, ReplyTiming } from "./replies.ts";

const ROOT = new URL("../fixtures/providers/", import.meta.url);

/** One PROVENANCE.json entry: where a corpus file came from. */
export interface Provenance {
  /** recorded, reported, derived, from docs, or from source. */
  source: string;
  /** HTTP status an error body is sent with. */
  status?: number;
  repository?: string;
  path?: string;
  commit?: string;
  url?: string;
  note?: string;
}

let provenance: Promise<Record<string, Provenance>> | undefined;

/** The PROVENANCE.json entries by corpus file name (e.g. `"deepseek/text.chunks.jsonl"`). */
export function readProvenance(): Promise<Record<string, Provenance>> {
  provenance ??= Deno.readTextFile(new URL("PROVENANCE.json", ROOT)).then((text) =>
    (JSON.parse(text) as { files: Record<string, Provenance> }).files
  );
  return provenance;
}

/** The text of a corpus file. */
export function readFixture(name: string): Promise<string> {
  return Deno.readTextFile(new URL(name, ROOT));
}

/**
 * A reply replaying the corpus file `name`.
 * Contract: throws when the file has no provenance entry, so nothing unsourced is replayed.
 */
export async function replay(name: string, timing: ReplyTiming = {}): Promise<RawReply> {
  const entry = (await readProvenance())[name];
  if (entry === undefined) throw new Error(`Cannot replay "${name}": no PROVENANCE.json entry`);
  const text = await readFixture(name);
  if (name.endsWith(".json")) {
    return {
      type: "raw",
      status: entry.status ?? 400,
      contentType: "application/json",
      parts: [text],
      ...timing,
    };
  }
  const parts = name.endsWith(".chunks.jsonl")
    ? [
      ...text.split("\n").filter((line) => line.trim()).map((line) => `data: ${line}\n\n`),
      "data: [DONE]\n\n",
    ]
    : text.split(/(?<=\n\n)/);
  return { type: "raw", status: 200, contentType: "text/event-stream", parts, ...timing };
}
