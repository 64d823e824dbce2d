/**
 * The entries of a replayable bundle: its header, the workspace's paths (before the first
 * task, and what changed outside powercode before each later one), the session's records
 * (the model's replies among them), and the tree recorded after each task.
 *
 * @module
 */
import { isCount, isObject, isString, parseJsonObject } from "../core/mod.ts";

/** The bundle format's version. */
export const BUNDLE_VERSION = 1;

/** The first entry: what the bundle holds. */
export interface BundleHeader {
  type: "bundle";
  version: typeof BUNDLE_VERSION;
  /** The session's id. */
  session: string;
  /** How many entries the bundle has, this one included: a cut-off tail is found. */
  entries: number;
}

/** A path of the workspace to put in place before the records that follow it. */
export type PathEntry =
  | { type: "dir"; path: string; mode: number }
  | { type: "file"; path: string; mode: number; text: string }
  | { type: "file"; path: string; mode: number; base64: string }
  | { type: "link"; path: string; target: string }
  | { type: "remove"; path: string };

/** One record of the session (as its file holds it), on the path the bundle follows. */
export interface RecordEntry {
  type: "record";
  record: Record<string, unknown>;
}

/**
 * The workspace after a task: each file's SHA-256, a link as `link:TARGET`, a directory as
 * `dir`; a file kept without content (over the snapshots' size cap) as `?`.
 */
export interface TreeEntry {
  type: "tree";
  files: Record<string, string>;
}

/** One entry of a bundle. */
export type BundleEntry = BundleHeader | PathEntry | RecordEntry | TreeEntry;

/**
 * The entry in `text`.
 * Contract: throws a SyntaxError saying what is wrong when it is no entry of this format;
 * a path that could leave the scratch copy (`..`, absolute, empty) is never valid.
 */
export function parseEntry(text: string): BundleEntry {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) throw new SyntaxError(`not JSON: ${parsed.reason}`);
  const value = parsed.value;
  const path = value.path;
  const pathOk = isString(path) && isSafePath(path);
  switch (value.type) {
    case "bundle":
      if (
        value.version === BUNDLE_VERSION && isString(value.session) && isCount(value.entries)
      ) {
        return value as unknown as BundleHeader;
      }
      break;
    case "dir":
      if (pathOk && isCount(value.mode)) return value as unknown as PathEntry;
      break;
    case "file":
      if (pathOk && isCount(value.mode) && (isString(value.text) || isString(value.base64))) {
        return value as unknown as PathEntry;
      }
      break;
    case "link":
      if (pathOk && isString(value.target)) return value as unknown as PathEntry;
      break;
    case "remove":
      if (pathOk) return value as unknown as PathEntry;
      break;
    case "record":
      if (isObject(value.record) && isString(value.record.type)) {
        return value as unknown as RecordEntry;
      }
      break;
    case "tree":
      if (isObject(value.files) && Object.values(value.files).every(isString)) {
        return value as unknown as TreeEntry;
      }
      break;
  }
  throw new SyntaxError(`not a bundle entry of version ${BUNDLE_VERSION}`);
}

/** Whether `path` is relative and stays below the directory it is joined to. */
export function isSafePath(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.includes("\0") &&
    path.split("/").every((name) => name !== "" && name !== "." && name !== "..");
}
