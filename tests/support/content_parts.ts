/**
 * Message content as text parts (`[{type: "text", text, cache_control?}]`), the form routes to
 * Anthropic models need for prompt-cache breakpoints; validated strictly, as Anthropic does.
 *
 * @module
 */
import { parseImagePart, type WireImage } from "./image_parts.ts";
import { invalidType, isRecord, RequestError, requireString } from "./request_checks.ts";

/** Anthropic's limit on `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * A message's content: a string, or an array of text parts (`{type: "text", text}`, each
 * optionally marked `cache_control: {type: "ephemeral"}` as Anthropic routes accept), read
 * as their texts joined. Strict: an empty text, another part type or key, or another
 * `cache_control` value is rejected.
 */
export function parseContent(value: unknown, param: string): string {
  if (!Array.isArray(value)) return requireString(value, param);
  if (value.length === 0) {
    throw new RequestError(`Invalid '${param}': empty array.`, param, "empty_array");
  }
  return value.map((part: unknown, i) => parseTextPart(part, `${param}[${i}]`)).join("");
}

/**
 * A user message's content: as {@link parseContent} reads it, and `image_url` parts too
 * (checked by `parseImagePart`), the texts joined and the images in order.
 */
export function parseUserContent(
  value: unknown,
  param: string,
): { text: string; images: WireImage[] } {
  if (!Array.isArray(value) || !value.some((part) => isRecord(part) && part.type === "image_url")) {
    return { text: parseContent(value, param), images: [] };
  }
  const texts: string[] = [];
  const images: WireImage[] = [];
  value.forEach((part: unknown, i) => {
    if (isRecord(part) && part.type === "image_url") {
      images.push(parseImagePart(part, `${param}[${i}]`));
    } else texts.push(parseTextPart(part, `${param}[${i}]`));
  });
  return { text: texts.join(""), images };
}

function parseTextPart(part: unknown, param: string): string {
  if (!isRecord(part)) throw invalidType(param, "an object", part);
  if (part.type !== "text") {
    throw new RequestError(
      `Invalid value: '${String(part.type)}'. Supported values are: 'text'.`,
      `${param}.type`,
      "invalid_value",
    );
  }
  const text = requireString(part.text, `${param}.text`);
  if (text === "") {
    throw new RequestError(`Invalid '${param}.text': text content blocks must be non-empty.`);
  }
  for (const key of Object.keys(part)) {
    if (key !== "type" && key !== "text" && key !== "cache_control") {
      throw new RequestError(`Unrecognized request argument supplied: ${param}.${key}`, param);
    }
  }
  const mark = part.cache_control;
  if (
    mark !== undefined &&
    (!isRecord(mark) || mark.type !== "ephemeral" || Object.keys(mark).length !== 1)
  ) {
    throw new RequestError(
      `Invalid '${param}.cache_control': expected {"type": "ephemeral"}.`,
      `${param}.cache_control`,
      "invalid_value",
    );
  }
  return text;
}

/**
 * The number of content parts marked with `cache_control` in a request body.
 * Contract: counts only well-formed requests' marks; 0 for anything else.
 */
export function cacheBreakpoints(raw: unknown): number {
  if (!isRecord(raw) || !Array.isArray(raw.messages)) return 0;
  let marks = 0;
  for (const message of raw.messages) {
    const content = isRecord(message) ? message.content : undefined;
    if (!Array.isArray(content)) continue;
    for (const part of content) if (isRecord(part) && part.cache_control !== undefined) marks++;
  }
  return marks;
}
