/**
 * Replies in a shape no client can use, and how to name the offending value briefly.
 *
 * @module
 */
import { ChatError } from "./chat_model.ts";
import { isObject } from "../core/mod.ts";

/** A reply the provider sent in a shape no client can use; retried like a server failure. */
export function invalidReply(what: string): ChatError {
  return new ChatError("server", `Invalid reply from the provider: ${what}`);
}

/** A value from a reply, named in a few characters whatever its size. */
export function brief(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isObject(value)) return "an object";
  return (JSON.stringify(value) ?? String(value)).slice(0, 40);
}
