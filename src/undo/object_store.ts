/**
 * Content-addressed objects in powercode's state directory: each object is stored once,
 * under the SHA-256 of its bytes (`objects/ab/cdef…`), so an unchanged file costs nothing
 * however many snapshots hold it.
 *
 * @module
 */
import { writeOnceSync } from "../core/mod.ts";

/** A SHA-256 digest in lowercase hex: an object's name. */
export type Hash = string;

const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** The SHA-256 of `bytes`, in lowercase hex. */
export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Hash> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether `value` can name an object. */
export function isHash(value: unknown): value is Hash {
  return typeof value === "string" && HASH_PATTERN.test(value);
}

/**
 * The objects under `<dir>/objects/`.
 * Contract: an object appears whole or not at all (written to a temp file, then renamed);
 * writing one that exists writes nothing; several processes may share the directory.
 * Objects are private to the user (0600, in 0700 directories), whatever the original's mode.
 */
export class ObjectStore {
  readonly dir: string;
  #known = new Set<string>();

  /** A store in `dir` (created on the first write). */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Stores `bytes`; returns its hash. */
  async put(bytes: Uint8Array<ArrayBuffer>): Promise<Hash> {
    const hash = await sha256(bytes);
    if (this.#known.has(hash)) return hash;
    const path = this.#path(hash);
    writeOnceSync(path, bytes);
    this.#known.add(hash);
    return hash;
  }

  /** Stores `text` as UTF-8; returns its hash. */
  putText(text: string): Promise<Hash> {
    return this.put(new TextEncoder().encode(text));
  }

  /**
   * The bytes of object `hash`.
   * Contract: throws a `Deno.errors.NotFound` naming the object when it is missing.
   */
  read(hash: Hash): Uint8Array {
    if (!isHash(hash)) throw new TypeError(`Cannot read object "${hash}": not a SHA-256 hash`);
    try {
      return Deno.readFileSync(this.#path(hash));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new Deno.errors.NotFound(`Cannot read snapshot object "${hash}": it is missing`);
    }
  }

  /** Object `hash` as text. */
  readText(hash: Hash): string {
    return new TextDecoder().decode(this.read(hash));
  }

  #path(hash: Hash): string {
    return `${this.dir}/objects/${hash.slice(0, 2)}/${hash.slice(2)}`;
  }
}
