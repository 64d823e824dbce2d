/**
 * Estimates how many tokens a BPE tokenizer (o200k, cl100k and their relatives) makes of a
 * text, without a vocabulary: the text is split the way those tokenizers pre-split it (words
 * with one leading space or symbol, runs of up to three digits, runs of symbols, runs of
 * whitespace), and each piece is counted as the tokens it usually becomes.
 *
 * Calibrated against o200k on prose, code, markdown and JSON (see tests/unit/context/tokens_test.ts):
 * 1.0–1.2 times the real count on ordinary text, where ceil(bytes / 4) is 1.4 times on
 * English prose and 0.8 times on JSON. Random strings (hashes, base64) are under-counted
 * by about a quarter, math symbols by about a third.
 *
 * @module
 */
import { LongTextMemo } from "./long_text_memo.ts";

/** Letters a word piece covers in one token (common words are one token). */
const WORD_LETTERS = 7;
/** Letters beyond `WORD_LETTERS` per extra token (long and rare words split). */
const LETTERS_PER_EXTRA_TOKEN = 4;
/** A non-ASCII letter counts as this many ASCII letters (vocabularies favour English). */
const NON_ASCII_LETTER_WEIGHT = 1.5;
const DIGITS_PER_TOKEN = 3;
const SYMBOLS_PER_TOKEN = 3;
/** Tokens per CJK character or emoji. */
const WIDE_CHAR_TOKENS = 0.75;
/** Tokens per other non-ASCII symbol (arrows, box drawing, math): rarely merged. */
const NON_ASCII_SYMBOL_TOKENS = 1.25;
/** Errs on the high side: the estimate guards a window that the real count must not pass. */
const SAFETY_FACTOR = 1.1;

/** Character classes; numbers so that the scan stays a tight loop. */
const UPPER = 0;
const LOWER = 1;
const DIGIT = 2;
const SPACE = 3;
const WIDE = 4;
const SYMBOL = 5;
const NON_ASCII_SYMBOL = 6;
const ASCII_KINDS = Uint8Array.from({ length: 0x80 }, (_, code) => asciiKind(code));

const estimates = new LongTextMemo(countTextTokens);

/**
 * Estimates the tokens of a text.
 * Contract: pure; linear in the text's length; 0 for an empty text. A long text estimated
 * a moment ago (the tool definitions, the system prompt) is not scanned again.
 */
export function estimateTextTokens(text: string): number {
  return estimates.of(text);
}

function countTextTokens(text: string): number {
  let tokens = 0;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const kind = kindAt(text, index);
    if (
      kind <= LOWER ||
      (kind === SYMBOL || text.charCodeAt(index) === 0x20) && kindAt(text, index + 1) <= LOWER
    ) {
      const start = kind <= LOWER ? index : index + 1;
      let end = runEnd(text, start, UPPER);
      end = runEnd(text, end, LOWER);
      if (end === start) end = start + 1;
      const extra = letterUnits(text, start, end) - WORD_LETTERS;
      tokens += 1 + (extra > 0 ? Math.floor(extra / LETTERS_PER_EXTRA_TOKEN) : 0);
      index = end;
    } else if (kind === DIGIT) {
      const end = runEnd(text, index, DIGIT);
      tokens += Math.ceil((end - index) / DIGITS_PER_TOKEN);
      index = end;
    } else if (kind === SPACE) {
      const end = runEnd(text, index, SPACE);
      // One space before symbols joins them ("x = 1" splits as "x", " =", " 1").
      const joins = end === index + 1 && text.charCodeAt(index) === 0x20 &&
        kindAt(text, end) === SYMBOL;
      if (!joins) tokens += 1;
      index = end;
    } else if (kind === WIDE) {
      tokens += WIDE_CHAR_TOKENS;
      index += isHighSurrogate(text.charCodeAt(index)) ? 2 : 1;
    } else if (kind === NON_ASCII_SYMBOL) {
      tokens += NON_ASCII_SYMBOL_TOKENS;
      index++;
    } else {
      const end = runEnd(text, index, SYMBOL);
      tokens += Math.ceil((end - index) / SYMBOLS_PER_TOKEN);
      index = end;
    }
  }
  return Math.ceil(tokens * SAFETY_FACTOR);
}

function letterUnits(text: string, start: number, end: number): number {
  let units = 0;
  for (let index = start; index < end; index++) {
    units += text.charCodeAt(index) < 0x80 ? 1 : NON_ASCII_LETTER_WEIGHT;
  }
  return units;
}

/** The end of the run of `kind` characters starting at `start`. */
function runEnd(text: string, start: number, kind: number): number {
  let index = start;
  while (index < text.length && kindAt(text, index) === kind) index++;
  return index;
}

/**
 * The class of the character at `index`; past the end it is whitespace. Small letters include
 * every non-ASCII letter below the CJK blocks (accents, Cyrillic, Greek).
 */
function kindAt(text: string, index: number): number {
  if (index >= text.length) return SPACE;
  const code = text.charCodeAt(index);
  if (code < 0x80) return ASCII_KINDS[code] ?? SYMBOL;
  if (code < 0xc0 || code === 0xd7 || code === 0xf7) return NON_ASCII_SYMBOL;
  if (code >= 0x2e80) return WIDE;
  return code >= 0x2000 && code < 0x2c00 ? NON_ASCII_SYMBOL : LOWER;
}

function asciiKind(code: number): number {
  if (code >= 0x61 && code <= 0x7a) return LOWER;
  if (code >= 0x41 && code <= 0x5a) return UPPER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d ? SPACE : SYMBOL;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
