/**
 * Recorded provider traffic, which is not part of this repository: it lives beside the
 * checkout in `../shared/provider-traffic/` (`corpus/` with its PROVENANCE.json, `fixtures/`
 * described in SOURCES.md). Tests that replay it run only where it exists and say so when it
 * does not ({@linkcode trafficTest}); every quirk also has a small fixture of the tests' own.
 *
 * A corpus `.chunks.jsonl` file is one recorded chunk payload per line (framed here as SSE
 * events ending with `[DONE]`), a `.sse` file a whole SSE body sent as it is, a `.json` file
 * an error body sent with the status its PROVENANCE.json entry records. A `fixtures/` `.sse`
 * file is an SSE body, a `.http` file a whole response (status line, headers, body).
 *
 * @module
 */
import type { RawReply, ReplyTiming } from "./replies.ts";

const REPOSITORY = new URL("../../", import.meta.url);
/** `../shared/provider-traffic/` relative to the repository root. */
export const TRAFFIC = new URL("../shared/provider-traffic/", REPOSITORY);
const CORPUS = new URL("corpus/", TRAFFIC);
/** The recorded fixtures of SOURCES.md. */
export const FIXTURES = new URL("fixtures/", TRAFFIC);

function exists(url: URL): boolean {
  try {
    return Deno.statSync(url).isDirectory;
  } catch {
    return false;
  }
}

/** Whether the recorded traffic is there to replay. */
export const TRAFFIC_PRESENT = exists(CORPUS) && exists(FIXTURES);

let reported = false;

/**
 * A test that replays recorded traffic: ignored, with one line saying it did not run and
 * why, when `../shared/provider-traffic/` is absent (a clone without it).
 */
export function trafficTest(name: string, fn: (t: Deno.TestContext) => Promise<void>): void {
  if (!TRAFFIC_PRESENT && !reported) {
    reported = true;
    console.log(
      `did not run: the tests replaying recorded provider traffic: ` +
        `${decodeURIComponent(TRAFFIC.pathname)} not found`,
    );
  }
  Deno.test({ name, ignore: !TRAFFIC_PRESENT, fn });
}

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
  provenance ??= Deno.readTextFile(new URL("PROVENANCE.json", CORPUS)).then((text) =>
    (JSON.parse(text) as { files: Record<string, Provenance> }).files
  );
  return provenance;
}

/** The names of the corpus files, `provider/file`, sorted. */
export function corpusFiles(): string[] {
  const files: string[] = [];
  for (const provider of Deno.readDirSync(CORPUS)) {
    if (!provider.isDirectory) continue;
    for (const file of Deno.readDirSync(new URL(`${provider.name}/`, CORPUS))) {
      files.push(`${provider.name}/${file.name}`);
    }
  }
  return files.sort();
}

/**
 * A reply replaying the corpus file `name`.
 * Contract: throws when the file has no provenance entry, so nothing unsourced is replayed.
 */
export async function replay(name: string, timing: ReplyTiming = {}): Promise<RawReply> {
  const entry = (await readProvenance())[name];
  if (entry === undefined) throw new Error(`Cannot replay "${name}": no PROVENANCE.json entry`);
  const text = await Deno.readTextFile(new URL(name, CORPUS));
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

/** The `fixtures/` files, sorted. */
export function fixtureFiles(): string[] {
  return [...Deno.readDirSync(FIXTURES)].filter((entry) => entry.isFile)
    .map((entry) => entry.name).sort();
}

/**
 * A reply replaying `fixtures/NAME`: an `.sse` body in its events, or an `.http` response
 * with its status and headers.
 */
export async function replayFixture(name: string): Promise<RawReply> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  if (name.endsWith(".sse")) {
    const parts = text.split(/(?<=\n\n|\r\n\r\n)/);
    return { type: "raw", status: 200, contentType: "text/event-stream", parts };
  }
  const blank = /\r?\n\r?\n/.exec(text);
  const head = blank ? text.slice(0, blank.index) : text;
  const body = blank ? text.slice(blank.index + blank[0].length) : "";
  const [statusLine = "", ...fields] = head.split(/\r?\n/);
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(":");
    if (colon > 0) {
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
    }
  }
  const status = Number(statusLine.split(" ")[1]);
  const { "content-type": contentType = "", ...others } = headers;
  return { type: "raw", status, contentType, headers: others, parts: [body] };
}
