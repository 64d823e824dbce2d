/**
 * Session files written by hand for the store's tests.
 *
 * @module
 */
import { assertEquals, assertRejects } from "@std/assert";
import { SessionStore } from "../../src/session/store.ts";

/** Runs `test` with a store over `.powercode/sessions` in a fresh temp directory. */
export async function withStore(
  test: (store: SessionStore, dir: string) => void | Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir();
  try {
    const dir = `${root}/.powercode/sessions`;
    await test(new SessionStore(dir), dir);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/**
 * Writes session `id` by hand: a valid header (format version 1 unless `options.version`
 * says otherwise) followed by `body`; returns its path.
 */
export async function writeSession(
  dir: string,
  id: string,
  body: string,
  options: { version?: number } = {},
): Promise<string> {
  const path = `${dir}/${id}.jsonl`;
  await Deno.mkdir(dir, { recursive: true });
  const header = {
    type: "session",
    version: options.version ?? 1,
    id,
    created: "2026-01-01T00:00:00.000Z",
    model: "m",
  };
  await Deno.writeTextFile(path, JSON.stringify(header) + "\n" + body);
  return path;
}

/**
 * Asserts that each `[body, reason]` session is refused on load with an `errorClass` error
 * "Cannot load session "<path>": <reason>", and that the file is left as it was.
 */
export async function assertLoadRefused(
  store: SessionStore,
  dir: string,
  cases: readonly (readonly [string, string])[],
  errorClass: new (message: string) => Error,
): Promise<void> {
  for (const [body, reason] of cases) {
    const path = await writeSession(dir, "bad", body);
    const error = await assertRejects(() => store.load("bad"), errorClass);
    assertEquals(error.message, `Cannot load session "${path}": ${reason}`);
    assertEquals(Deno.readTextFileSync(path).endsWith(body), true);
  }
}
