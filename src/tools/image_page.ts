/**
 * Pictures in the workspace: a PNG, JPEG, GIF or WebP file is read whole as an image, by
 * `read_file` (the agent sends it to a model that takes images, and refuses it for any
 * other) and for an `@shot.png` mention.
 *
 * @module
 */
import {
  describeImage,
  formatSize,
  imageOf,
  looksLikeImage,
  MAX_IMAGE_BYTES,
  type MessageImage,
} from "../core/mod.ts";
import { RegularFile, type Workspace } from "../workspace/mod.ts";
import type { ToolOutput } from "./tool.ts";

/**
 * The image `file` (named `path`) holds; undefined when it does not start like an image.
 * Contract: throws a RangeError over the size bound and a TypeError for an image whose
 * header cannot be read, each starting `Cannot <action> "<path>":`.
 */
async function imageIn(
  file: RegularFile,
  path: string,
  action: string,
): Promise<MessageImage | undefined> {
  if (!looksLikeImage(await file.read(0, 12))) return undefined;
  const bytes = await file.readAll(MAX_IMAGE_BYTES);
  if (bytes === undefined) {
    throw new RangeError(
      `Cannot ${action} "${path}": the image is more than the ${
        formatSize(MAX_IMAGE_BYTES)
      } one image may be; make it smaller`,
    );
  }
  return await imageOf(new Uint8Array(bytes), path, { action });
}

/**
 * The image `file` holds, as read_file returns it; undefined when it does not start like
 * an image, so that it is read as text.
 * Contract: as `imageIn`, naming `path`.
 */
export async function readImage(file: RegularFile, path: string): Promise<ToolOutput | undefined> {
  const image = await imageIn(file, path, "read");
  if (image === undefined) return undefined;
  const what = `${describeImage(image)}, ${formatSize(file.size)}`;
  return {
    content: `Image "${path}" (${what}): it follows in the next message`,
    summary: what,
    image,
  };
}

/**
 * The image `path` names in `workspace` (an `@` mention), read like read_file reads
 * (escapes and `.powercodeignore` refused); undefined when the file is no image.
 * Contract: throws `Deno.errors.NotFound` for a missing file, and for an image that cannot
 * be sent an error whose message starts `Cannot attach "<path>":`.
 */
export async function workspaceImage(
  workspace: Workspace,
  path: string,
): Promise<MessageImage | undefined> {
  await using file = await RegularFile.open(workspace, path, "attach");
  return await imageIn(file, path, "attach");
}
