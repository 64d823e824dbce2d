/**
 * Images the person sends with a task: `-i FILE` with `-p`, `@shot.png` in a task, and an
 * image's path pasted on its own. Sent only to a model whose profile says `"vision": true`;
 * for any other, one line says so and nothing is sent.
 *
 * @module
 */
import {
  formatSize,
  imageOf,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  type MessageImage,
} from "../core/mod.ts";

/** Which model the images would go to. */
export interface ImageTarget {
  /** The profile's name, for the line refusing images. */
  profile: string;
  /** The profile says the model takes images. */
  vision: boolean;
}

/** The names an image file may have, for a path pasted on its own. */
const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/**
 * The line refusing to send `path` (an image) to the model of `target`, or undefined when
 * the model takes images.
 * Contract: pure; one line.
 */
export function visionProblem(path: string, target: ImageTarget): string | undefined {
  if (target.vision) return undefined;
  return `Cannot send the image "${path}": profile "${target.profile}" has no "vision": true`;
}

/**
 * The line refusing a message of `count` images, or undefined when they are few enough.
 * Contract: pure.
 */
export function countProblem(count: number): string | undefined {
  if (count <= MAX_IMAGES) return undefined;
  return `Cannot send the message: it has ${count} images, more than the ${MAX_IMAGES} one ` +
    "message may carry; send fewer";
}

/**
 * The image file at `path` as the person named it (`-i`, a pasted path): read directly,
 * not through the workspace, since the person chose it.
 * Contract: throws with a message starting `Cannot attach "<path>":` when the file is
 * missing, no image, or over the size bound (checked before it is read).
 */
export async function readImageFile(path: string): Promise<MessageImage> {
  let size: number;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new TypeError(`Cannot attach "${path}": it is not a regular file`);
    size = info.size;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new Deno.errors.NotFound(`Cannot attach "${path}": no such file`);
  }
  if (size > MAX_IMAGE_BYTES) {
    throw new RangeError(
      `Cannot attach "${path}": the image is ${formatSize(size)}, more than the ` +
        `${formatSize(MAX_IMAGE_BYTES)} one image may be; make it smaller`,
    );
  }
  return await imageOf(await Deno.readFile(path), path);
}

/**
 * The path of an image file when `text` is only that (a file dropped on the terminal
 * pastes its path, quoted or with its spaces escaped, or as a `file://` URL).
 * Contract: pure; undefined unless the text is one path ending in an image file name.
 */
export function pastedImagePath(text: string): string | undefined {
  let path = text.trim();
  const quoted = /^(['"])((?:(?!\1).)*)\1$/.exec(path);
  if (quoted) path = quoted[2] ?? "";
  else {
    if (/(?<!\\)\s/.test(path)) return undefined;
    path = path.replace(/\\(.)/g, "$1");
  }
  if (path.startsWith("file://")) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return undefined;
    }
  }
  return path !== "" && IMAGE_NAME.test(path) && !path.includes("\n") ? path : undefined;
}
