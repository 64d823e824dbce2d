/**
 * `powercode export --bundle FILE`: a session as a replayable bundle: the workspace it
 * started from (out of the undo snapshots), its records with the model's replies, the tree
 * after each task, each entry chained to the one before by hash, and checked for secrets
 * like `/export` before anything is written.
 *
 * @module
 */
import { chainLines } from "./bundle_chain.ts";
import {
  BUNDLE_VERSION,
  type BundleEntry,
  type BundleHeader,
  type PathEntry,
} from "./bundle_entries.ts";
import { SecretFoundError, writePrivately } from "./export_session.ts";
import { findSecret, type NamedSecrets, type RedactText } from "./secret_scan.ts";

/** A path of an undo snapshot (the undo layer's `SnapshotPath`). */
export type SnapshotPath =
  | { kind: "dir"; path: string; mode: number }
  | { kind: "file"; path: string; mode: number; hash: string | null }
  | { kind: "link"; path: string; target: string };

/** What a bundle is made from. */
export interface BundleSource {
  /** The session's id. */
  id: string;
  /** The records on the path to the session's current entry, as its file holds them. */
  records: readonly { type: string }[];
  /** The undo snapshots the records name. */
  snapshots: { list(id: string): SnapshotPath[]; read(hash: string): Uint8Array };
  /** Replaces the provider secrets the run knows (`Redactor.redact`). */
  redact: RedactText;
  /** Further values it must not hold (the ignored files' lines), by kind. */
  named?: NamedSecrets;
}

/** What writing a bundle did. */
export interface BundleResult {
  entries: number;
  bytes: number;
  tasks: number;
}

/**
 * Writes the bundle of `source` to `path`.
 * Contract: throws {@linkcode SecretFoundError} naming the entry and the kind of the first
 * secret found, and writes nothing (a bundle is never redacted: its replay would differ);
 * throws an Error when no task of the session has a snapshot. Written whole or not at all,
 * mode 600. Messages name the file by `label`.
 */
export async function writeBundle(
  source: BundleSource,
  path: string,
  label = path,
): Promise<BundleResult> {
  const entries = bundleEntries(source);
  const texts = entries.map((entry) => JSON.stringify(entry));
  const named = source.named ?? new Map();
  for (const [index, text] of texts.entries()) {
    const kind = findSecret(text, source.redact, named);
    if (kind === undefined) continue;
    throw new SecretFoundError(
      `Cannot bundle to "${label}": entry ${index + 1} (${where(entries[index])}) holds ` +
        `${kind}; nothing was written`,
    );
  }
  const bytes = new TextEncoder().encode(await chainLines(texts));
  await writePrivately(path, bytes);
  const tasks = entries.filter((entry) => entry.type === "tree").length;
  return { entries: entries.length, bytes: bytes.length, tasks };
}

/** The entries of the bundle, in order. */
function bundleEntries(source: BundleSource): BundleEntry[] {
  const header: BundleHeader = {
    type: "bundle",
    version: BUNDLE_VERSION,
    session: source.id,
    entries: 0,
  };
  const entries: BundleEntry[] = [header];
  let known: Map<string, SnapshotPath> | undefined;
  const listed = (tree: string) =>
    new Map(source.snapshots.list(tree).map((item) => [item.path, item]));
  for (const record of source.records) {
    const tree = (record as { tree?: unknown }).tree;
    if (record.type === "task_start" && typeof tree === "string") {
      const now = listed(tree);
      entries.push(...pathChanges(known ?? new Map(), now, source.snapshots));
      known = now;
    }
    entries.push({ type: "record", record: { ...record } });
    if (record.type === "task_end" && typeof tree === "string") {
      known = listed(tree);
      entries.push({ type: "tree", files: treeFiles(known) });
    }
  }
  if (known === undefined) {
    throw new Error(
      `Cannot bundle session "${source.id}": none of its tasks has a workspace snapshot ` +
        "(undo was off, or no task ran)",
    );
  }
  header.entries = entries.length;
  return entries;
}

/** The entries that turn the tree `before` into `after`: removals first, then what is new. */
function pathChanges(
  before: ReadonlyMap<string, SnapshotPath>,
  after: ReadonlyMap<string, SnapshotPath>,
  snapshots: BundleSource["snapshots"],
): PathEntry[] {
  const removed: PathEntry[] = [...before.keys()].filter((path) =>
    after.get(path)?.kind !== before.get(path)?.kind
  ).reverse().map((path) => ({ type: "remove", path }));
  const added: PathEntry[] = [];
  for (const [path, item] of after) {
    if (describe(item) === describe(before.get(path))) continue;
    if (item.kind === "dir") added.push({ type: "dir", path, mode: item.mode });
    else if (item.kind === "link") added.push({ type: "link", path, target: item.target });
    else if (item.hash !== null) added.push(fileEntry(path, item.mode, snapshots.read(item.hash)));
  }
  return [...removed, ...added];
}

function fileEntry(path: string, mode: number, bytes: Uint8Array): PathEntry {
  try {
    return {
      type: "file",
      path,
      mode,
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    };
  } catch {
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { type: "file", path, mode, base64: btoa(binary) };
  }
}

/** A tree entry's `files` for a snapshot's paths. */
function treeFiles(paths: ReadonlyMap<string, SnapshotPath>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, item] of paths) {
    files[path] = item.kind === "dir"
      ? "dir"
      : item.kind === "link"
      ? `link:${item.target}`
      : item.hash ?? "?";
  }
  return files;
}

/** What a path holds, to compare two snapshots' (mode included). */
function describe(item: SnapshotPath | undefined): string {
  if (item === undefined) return "";
  if (item.kind === "link") return `link:${item.target}`;
  return `${item.kind}:${item.mode}:${item.kind === "file" ? item.hash : ""}`;
}

/** Where an entry is, for a refusal. */
function where(entry: BundleEntry | undefined): string {
  switch (entry?.type) {
    case "file":
    case "dir":
    case "link":
    case "remove":
      return `the file "${entry.path}"`;
    case "record": {
      const message = entry.record.message as { role?: string } | undefined;
      const role = message?.role;
      return role === "tool"
        ? "a tool result"
        : role === "assistant"
        ? "a reply"
        : role === "user"
        ? "a task"
        : `a ${String(entry.record.type)} record`;
    }
    default:
      return "the bundle";
  }
}
