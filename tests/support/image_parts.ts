/**
 * `image_url` content parts as the fake server accepts them: a base64 data URL of a PNG,
 * JPEG, GIF or WebP image whose bytes really are that type, checked as strictly as OpenAI's
 * API checks them, with its size in pixels read from the image's own header for counting.
 * Independent of powercode's own image code, so that a test can catch it sending wrong bytes.
 *
 * @module
 */
import { invalidType, isRecord, RequestError, requireString } from "./request_checks.ts";

/** An image a request carried. */
export interface WireImage {
  /** The media type the data URL names. */
  mediaType: string;
  /** The base64 text of the data URL, as sent. */
  data: string;
  /** The image's size in pixels, from its header. */
  width: number;
  height: number;
  /** `image_url.detail`, `auto` when absent. */
  detail: "auto" | "low" | "high";
}

const DATA_URL = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/;
const SUPPORTED = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/**
 * Reads an `{type: "image_url", image_url: {url, detail?}}` part.
 * Contract: throws a {@link RequestError} worded like the real API's for another key, a URL
 * that is no base64 data URL, an unsupported type, or bytes that are no such image.
 */
export function parseImagePart(part: Record<string, unknown>, param: string): WireImage {
  for (const key of Object.keys(part)) {
    if (key !== "type" && key !== "image_url") {
      throw new RequestError(`Unrecognized request argument supplied: ${param}.${key}`, param);
    }
  }
  const image = part.image_url;
  if (!isRecord(image)) throw invalidType(`${param}.image_url`, "an object", image);
  for (const key of Object.keys(image)) {
    if (key !== "url" && key !== "detail") {
      throw new RequestError(`Unrecognized request argument supplied: ${param}.image_url.${key}`);
    }
  }
  const detail = image.detail ?? "auto";
  if (detail !== "auto" && detail !== "low" && detail !== "high") {
    throw new RequestError(
      `Invalid value: '${String(detail)}'. Supported values are: 'auto', 'low', and 'high'.`,
      `${param}.image_url.detail`,
      "invalid_value",
    );
  }
  const url = requireString(image.url, `${param}.image_url.url`);
  const match = DATA_URL.exec(url);
  if (!match || match[2] === "") {
    throw new RequestError(
      `Invalid image URL: '${param}.image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got an invalid value.`,
      `${param}.image_url.url`,
      "invalid_value",
    );
  }
  const [, mediaType = "", data = ""] = match;
  const bytes = decode(data);
  const size = bytes && SUPPORTED.includes(mediaType) ? sizeOf(mediaType, bytes) : undefined;
  if (size === undefined) {
    throw new RequestError(
      "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
      `${param}.image_url.url`,
      "invalid_image_format",
    );
  }
  return { mediaType, data, ...size, detail };
}

/**
 * The prompt tokens of an image by OpenAI's published rule: 85 at `low`; otherwise scaled to
 * fit 2048×2048 and its shorter side to 768, 85 plus 170 per 512-pixel tile.
 */
export function imagePromptTokens(image: WireImage): number {
  if (image.detail === "low") return 85;
  const fit = Math.min(1, 2048 / Math.max(image.width, image.height));
  const [w, h] = [image.width * fit, image.height * fit];
  const short = Math.min(1, 768 / Math.min(w, h));
  return 85 + 170 * Math.ceil((w * short) / 512) * Math.ceil((h * short) / 512);
}

function decode(data: string): Uint8Array | undefined {
  try {
    return Uint8Array.fromBase64(data);
  } catch {
    return undefined;
  }
}

function sizeOf(type: string, b: Uint8Array): { width: number; height: number } | undefined {
  const be16 = (i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
  const le16 = (i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
  const ascii = (i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));
  let size: { width: number; height: number } | undefined;
  if (type === "image/png" && ascii(1, 3) === "PNG" && ascii(12, 4) === "IHDR") {
    size = { width: be16(16) * 65536 + be16(18), height: be16(20) * 65536 + be16(22) };
  } else if (type === "image/gif" && ascii(0, 4) === "GIF8") {
    size = { width: le16(6), height: le16(8) };
  } else if (type === "image/webp" && ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP") {
    size = webpSize(b, ascii(12, 4), le16);
  } else if (type === "image/jpeg" && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 8 < b.length; i += 2 + be16(i + 2)) {
      if (b[i] !== 0xff) break;
      const marker = b[i + 1] ?? 0;
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        size = { width: be16(i + 7), height: be16(i + 5) };
        break;
      }
    }
  }
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

function webpSize(
  b: Uint8Array,
  chunk: string,
  le16: (i: number) => number,
): { width: number; height: number } | undefined {
  if (chunk === "VP8 ") return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
  if (chunk === "VP8X") {
    const le24 = (i: number) => le16(i) + (b[i + 2] ?? 0) * 65536;
    return { width: le24(24) + 1, height: le24(27) + 1 };
  }
  if (chunk === "VP8L") {
    const bits = le16(21) + le16(23) * 65536;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}
