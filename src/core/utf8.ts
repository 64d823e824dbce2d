/**
 * UTF-8 sizes of JavaScript strings, without encoding them.
 *
 * @module
 */

/**
 * Number of bytes `new TextEncoder().encode(text)` would produce.
 * Contract: a lone surrogate counts 3 bytes, as the encoder writes U+FFFD for it.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
