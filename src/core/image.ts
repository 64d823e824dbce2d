/**
 * Images that go with a message: what a PNG, JPEG, GIF or WebP file is (its type and size in
 * pixels, read from its header), the bounds on one, and the hash that names its bytes.
 *
 * @module
 */
import { formatSize } from "./truncate.ts";

/** The image types powercode sends (those the chat-completions providers accept). */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** What a session record keeps of an image: its bytes are in a file named by `hash`. */
export interface ImageRef {
  /** SHA-256 of the bytes, 64 hex digits. */
  hash: string;
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/** An image with its bytes (base64), as a message in memory carries it. */
export interface MessageImage extends ImageRef {
  data: string;
}

/** The most bytes of one image: Anthropic's limit, the lowest of the common providers. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The most images one message may carry. */
export const MAX_IMAGES = 8;

/** The type and size in pixels of an image file's bytes. */
export interface ImageHeader {
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/**
 * The type and size of the image `bytes` hold, read from its header; undefined when the
 * bytes are no PNG, JPEG, GIF or WebP whose size the header gives.
 * Contract: pure; never throws.
 */
export function imageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = (offset: number, text: string) =>
    [...text].every((char, index) => bytes[offset + index] === char.charCodeAt(0));
  const sized = (mediaType: ImageMediaType, width: number, height: number) =>
    width > 0 && height > 0 ? { mediaType, width, height } : undefined;
  try {
    if (at(0, "\x89PNG\r\n\x1a\n") && at(12, "IHDR")) {
      return sized("image/png", view.getUint32(16), view.getUint32(20));
    }
    if (at(0, "GIF87a") || at(0, "GIF89a")) {
      return sized("image/gif", view.getUint16(6, true), view.getUint16(8, true));
    }
    if (at(0, "RIFF") && at(8, "WEBP")) return webpHeader(bytes, view, at);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes, view);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return undefined;
}

/** Whether `bytes` start like an image file, however short they are. */
export function looksLikeImage(bytes: Uint8Array): boolean {
  const at = (offset: number, text: string) =>
    [...text].every((char, index) => bytes[offset + index] === char.charCodeAt(0));
  return at(0, "\x89PNG") || at(0, "GIF8") || (at(0, "RIFF") && at(8, "WEBP")) ||
    at(0, "\xff\xd8\xff");
}

/**
 * The image `bytes` hold, named `name` in errors, with its hash and base64 data.
 * Contract: throws a RangeError over {@linkcode MAX_IMAGE_BYTES} and a TypeError for bytes
 * that are no PNG, JPEG, GIF or WebP; each message starts `Cannot <action> "<name>":`
 * (`options.action`, default `attach`).
 */
export async function imageOf(
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  options: { action?: string } = {},
): Promise<MessageImage> {
  const { action = "attach" } = options;
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new RangeError(
      `Cannot ${action} "${name}": the image is ${formatSize(bytes.length)}, more than the ` +
        `${formatSize(MAX_IMAGE_BYTES)} one image may be; make it smaller`,
    );
  }
  const header = imageHeader(bytes);
  if (!header) {
    throw new TypeError(
      `Cannot ${action} "${name}": it is no PNG, JPEG, GIF or WebP image that can be read`,
    );
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hash = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return { hash, ...header, data: bytes.toBase64() };
}

/** `PNG 640×480`: an image's type and size, for the terminal and the model. */
export function describeImage(image: ImageHeader): string {
  return `${image.mediaType.slice("image/".length).toUpperCase()} ${image.width}×${image.height}`;
}

function webpHeader(
  bytes: Uint8Array,
  view: DataView,
  at: (offset: number, text: string) => boolean,
): ImageHeader | undefined {
  const sized = (width: number, height: number) =>
    width > 0 && height > 0 ? { mediaType: "image/webp" as const, width, height } : undefined;
  if (at(12, "VP8 ")) {
    return sized(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  if (at(12, "VP8L")) {
    const bits = view.getUint32(21, true);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (at(12, "VP8X")) {
    const u24 = (offset: number) =>
      (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16);
    if (bytes.length < 30) return undefined;
    return sized(u24(24) + 1, u24(27) + 1);
  }
  return undefined;
}

/** A JPEG's size, from its first start-of-frame segment. */
function jpegHeader(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      const height = view.getUint16(offset + 5);
      const width = view.getUint16(offset + 7);
      return width > 0 && height > 0 ? { mediaType: "image/jpeg", width, height } : undefined;
    }
    offset += 2 + view.getUint16(offset + 2);
  }
  return undefined;
}
