/**
 * The images of a session's messages, kept beside the session files by content hash
 * (`<dir>/images/<sha256>`), so that the JSONL holds only each image's hash, type and size,
 * and a resumed session sends the very bytes it sent before.
 *
 * @module
 */
import { imageOf, type ImageRef, type UserMessage, writeOnceSync } from "../core/mod.ts";
import { SessionError } from "./session_error.ts";
import type { SessionRecord } from "./session.ts";

/** A record as its line holds it: a user message's images as references to their files. */
export type StoredRecord =
  | SessionRecord
  | { type: "message"; message: Omit<UserMessage, "images"> & { images: ImageRef[] } };

/** The folder of image files beside the session files of `dir`. */
function imagesDir(dir: string): string {
  return `${dir}/images`;
}

/**
 * `record` as its line holds it: a message's images as references, their bytes written to
 * their files under `dir` first (a file already there is the same bytes: its name is their
 * hash).
 * Contract: synchronous, like the append it precedes; a record without images comes back as
 * it is.
 */
export function storeImages(record: SessionRecord, dir: string): StoredRecord {
  if (record.type !== "message" || record.message.role !== "user") return record;
  const { images, ...message } = record.message;
  if (images === undefined) return record;
  const folder = imagesDir(dir);
  const refs = images.map(({ data, ...ref }): ImageRef => {
    writeOnceSync(`${folder}/${ref.hash}`, Uint8Array.fromBase64(data));
    return ref;
  });
  // Spread: the line keeps whatever else the record carries (its `parent`).
  return { ...record, message: { ...message, images: refs } };
}

/**
 * Reads into `records`, in place, the bytes of every image their messages refer to.
 * Contract: throws a `SessionError` naming the session file `path` and the image when its
 * file is missing or no longer holds the bytes its hash names.
 */
export async function loadImages(
  records: readonly SessionRecord[],
  options: { dir: string; path: string },
): Promise<void> {
  for (const record of records) {
    if (record.type !== "message" || record.message.role !== "user") continue;
    const { images } = record.message;
    if (images === undefined) continue;
    record.message.images = await Promise.all(images.map(async (ref) => {
      const file = `${imagesDir(options.dir)}/${ref.hash}`;
      const fail = (why: string) =>
        new SessionError(`Cannot load session "${options.path}": image "${file}" ${why}`);
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await Deno.readFile(file);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) throw fail("is missing");
        throw error;
      }
      const image = await imageOf(bytes, file, { action: "load" }).catch(() => undefined);
      if (image?.hash !== ref.hash) throw fail("does not hold the image its name says");
      return { ...ref, data: image.data };
    }));
  }
}
