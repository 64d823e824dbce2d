/**
 * Helpers for end-to-end session tests: a fake server whose script can be swapped between
 * powercode runs, and readers for `.powercode/sessions/*.jsonl`.
 *
 * @module
 */
import {
  type FakeServer,
  type Handler,
  type RecordedRequest,
  type Reply,
  startFakeServer,
} from "./fake_server.ts";
import { answerSummaries, type ScriptStep, sequence } from "./scripts.ts";

/**
 * The warning for a literal key in ./provider.json; it claims no git tracking, since the
 * program may not look for `.git` (the temp projects are no repositories).
 */
export const LITERAL_KEY_WARNING = "⚠ provider.json holds a literal API key, which a commit or " +
  'a copy of this directory shares: use "env:NAME", or a personal copy in .powercode/ ' +
  "(--provider .powercode/provider.json)";

/** The API key the tests configure; it must never reach a session file. */
export const KEY = "sk-test-secret-4242";

/** provider.json for the fake server at `url`, reading the key from POWERCODE_TEST_KEY. */
export function provider(url: string, extra: Record<string, unknown> = {}) {
  return {
    baseURL: url,
    apiKey: "env:POWERCODE_TEST_KEY",
    model: "fake-model",
    contextWindow: 32768,
    ...extra,
  };
}

/** The environment every run gets besides the harness's own. */
export const ENV = { POWERCODE_TEST_KEY: KEY };

/** A fake server whose script is chosen per powercode run. */
export interface ScriptedServer extends AsyncDisposable {
  server: FakeServer;
  /**
   * Answers the following requests with `steps` in order (summary requests are answered
   * by `summarizeFacts` and use no step); returns the requests of this script so far.
   */
  play(steps: readonly ScriptStep[]): () => RecordedRequest[];
  /** A step that answers `reply` once `release()` is called, or when the server is disposed. */
  hold(reply: Reply): { step: ScriptStep; release: () => void };
}

/** Starts a strict fake server that checks the API key and serves only "fake-model". */
export async function startScriptedServer(
  options: { contextWindow?: number } = {},
): Promise<ScriptedServer> {
  let current: Handler = sequence([]);
  const held: (() => void)[] = [];
  const server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: (request, index) => current(request, index),
    ...options,
  });
  return {
    server,
    play(steps) {
      current = answerSummaries(sequence(steps));
      const from = server.requests.length;
      return () => server.requests.slice(from);
    },
    hold(reply) {
      const gate = Promise.withResolvers<void>();
      held.push(gate.resolve);
      return { step: () => gate.promise.then(() => reply), release: gate.resolve };
    },
    async [Symbol.asyncDispose]() {
      // The server waits for pending replies when it closes: release any still held.
      for (const release of held) release();
      await server.close();
    },
  };
}

/**
 * Ids of the session files in project `dir`, oldest first by their header's `created`
 * (ids alone sort only to the second).
 */
export async function sessionIds(dir: string): Promise<string[]> {
  const found: { id: string; created: string }[] = [];
  try {
    for await (const entry of Deno.readDir(`${dir}/.powercode/sessions`)) {
      if (!entry.name.endsWith(".jsonl")) continue;
      const id = entry.name.slice(0, -".jsonl".length);
      const [header] = await sessionLines(dir, id);
      found.push({ id, created: String(header?.created) });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  found.sort((a, b) => a.created < b.created ? -1 : a.created > b.created ? 1 : 0);
  return found.map((entry) => entry.id);
}

/** The path of session `id` in project `dir`. */
export function sessionPath(dir: string, id: string): string {
  return `${dir}/.powercode/sessions/${id}.jsonl`;
}

/** The lines of session `id`, parsed; throws on a line that is not JSON. */
export async function sessionLines(dir: string, id: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(sessionPath(dir, id));
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** Every session file's text in project `dir`. */
export async function allSessionText(dir: string): Promise<string> {
  const texts = [];
  for (const id of await sessionIds(dir)) texts.push(await Deno.readTextFile(sessionPath(dir, id)));
  return texts.join("\n");
}
