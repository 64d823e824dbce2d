/**
 * The shapes of tool-call ids: the ids powercode makes up for calls a server sent without
 * one, and the 9 letters and digits some endpoints (Mistral) accept and no other.
 *
 * @module
 */

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ID_LENGTH = 9;
const ALNUM9 = /^[A-Za-z0-9]{9}$/;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;
const BASE = BigInt(ID_ALPHABET.length);

/**
 * A fresh tool-call id of 9 letters and digits, the only form Mistral accepts and one
 * every other provider accepts too.
 */
export function newToolCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_LENGTH));
  return Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

/**
 * `id` as 9 letters and digits: itself when it has that shape, else 9 characters derived
 * from it (64-bit FNV-1a), so a call and its result keep matching and every request sends
 * the same id.
 * Contract: pure.
 */
export function alnum9ToolCallId(id: string): string {
  if (ALNUM9.test(id)) return id;
  let hash = FNV_OFFSET;
  for (let index = 0; index < id.length; index++) {
    hash = ((hash ^ BigInt(id.charCodeAt(index))) * FNV_PRIME) & MASK_64;
  }
  let result = "";
  for (let index = 0; index < ID_LENGTH; index++) {
    result += ID_ALPHABET[Number(hash % BASE)];
    hash /= BASE;
  }
  return result;
}
