/**
 * Writing into a content-addressed store, where a file's name is its content's hash.
 *
 * @module
 */

/**
 * Writes `bytes` to `path` unless something is there already (under a hash's name it holds
 * the same bytes), through a new temp file beside it and a rename, so that no reader ever
 * sees part of a file.
 * Contract: synchronous; the file gets mode 0600 and a missing directory 0700; a link at
 * `path` counts as present.
 */
export function writeOnceSync(path: string, bytes: Uint8Array): void {
  if (exists(path)) return;
  const dir = path.slice(0, path.lastIndexOf("/"));
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${dir}/.tmp-${crypto.randomUUID()}`;
  Deno.writeFileSync(temp, bytes, { createNew: true, mode: 0o600 });
  Deno.renameSync(temp, path);
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
