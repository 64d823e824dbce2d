/**
 * `powercode replay FILE`: a bundle's tool calls run again, in order, against its recorded
 * replies, and each result and each task's tree compared byte for byte with the recorded
 * ones; the first difference, or the first entry whose hash does not chain, ends it.
 *
 * @module
 */
import type { ToolCall, ToolResult } from "../core/mod.ts";
import { readChain } from "./bundle_chain.ts";
import { type BundleEntry, parseEntry, type PathEntry } from "./bundle_entries.ts";

/** Where a replay runs: the scratch copy and the tools working on it. */
export interface ReplayHost {
  /** Puts a path of the bundle in place in the scratch copy. */
  put(entry: PathEntry): Promise<void>;
  /** Runs `call` in the scratch copy; undefined for a tool that does not run offline. */
  run(call: ToolCall): Promise<ToolResult | undefined>;
  /** The scratch copy's tree, as a tree entry's `files`. */
  tree(): Promise<Record<string, string>>;
}

/** How a replay ended. */
export type ReplayOutcome =
  | { type: "same"; entries: number; calls: number; skipped: string[]; trees: number }
  /** A result or a tree differed at `entry` (numbered from 1, as the bundle's lines). */
  | { type: "differs"; entry: number; what: string }
  /** The bundle cannot be trusted from `entry` on: its chain breaks, or it is no entry. */
  | { type: "broken"; entry: number; what: string };

/**
 * Replays bundle `text` through `host`.
 * Contract: never throws for a damaged bundle (that is `broken`); what `host` throws
 * passes on.
 */
export async function replayBundle(text: string, host: ReplayHost): Promise<ReplayOutcome> {
  const chain = await readChain(text);
  if (chain.broken) return { type: "broken", ...chain.broken, what: chain.broken.reason };
  const entries: BundleEntry[] = [];
  for (const [index, body] of chain.entries.entries()) {
    try {
      entries.push(parseEntry(body));
    } catch (error) {
      return { type: "broken", entry: index + 1, what: (error as Error).message };
    }
  }
  const header = entries[0];
  if (header?.type !== "bundle") {
    return { type: "broken", entry: 1, what: "the bundle's header is missing" };
  }
  if (header.entries !== entries.length) {
    return {
      type: "broken",
      entry: entries.length + 1,
      what: `the bundle ends after ${entries.length} of its ${header.entries} entries`,
    };
  }
  const pending = new Map<string, ToolCall>();
  const skipped: string[] = [];
  let calls = 0;
  let trees = 0;
  for (const [index, entry] of entries.entries()) {
    const number = index + 1;
    let what: string | undefined;
    switch (entry.type) {
      case "bundle":
        continue;
      case "tree":
        trees++;
        what = compareTrees(entry.files, await host.tree());
        break;
      case "record": {
        const message = entry.record.message;
        if (entry.record.type !== "message" || !isMessage(message)) continue;
        for (const call of message.toolCalls ?? []) pending.set(call.id, call);
        const call = message.role === "tool" ? pending.get(message.toolCallId ?? "") : undefined;
        if (call === undefined || message.role !== "tool") continue;
        pending.delete(call.id);
        const result = await host.run(call);
        if (result === undefined) {
          skipped.push(call.name);
          continue;
        }
        calls++;
        what = compareResults(call, message, result);
        break;
      }
      default:
        await host.put(entry);
        continue;
    }
    if (what !== undefined) return { type: "differs", entry: number, what };
  }
  return { type: "same", entries: entries.length, calls, skipped, trees };
}

/** The fields of a recorded message a replay reads. */
interface RecordedMessage {
  role: string;
  content?: unknown;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  isError?: boolean;
}

function isMessage(value: unknown): value is RecordedMessage {
  return typeof value === "object" && value !== null && "role" in value;
}

function compareResults(
  call: ToolCall,
  recorded: RecordedMessage,
  result: ToolResult,
): string | undefined {
  const content = typeof recorded.content === "string" ? recorded.content : "";
  // Records of format 1 have no isError: a failed call's text starts with "Error:".
  const failed = recorded.isError ?? content.startsWith("Error:");
  const name = `tool call ${call.id} (${call.name} ${call.arguments})`;
  if (content !== result.content) {
    return `${name}: the result differs ${firstDifference(content, result.content)}`;
  }
  if (failed !== result.isError) {
    return `${name}: it ${failed ? "failed" : "succeeded"} then, and ` +
      `${result.isError ? "failed" : "succeeded"} now`;
  }
  return undefined;
}

/** Where two texts first differ: the line, and that line in each. */
export function firstDifference(recorded: string, replayed: string): string {
  const a = recorded.split("\n");
  const b = replayed.split("\n");
  let line = 0;
  while (line < a.length && a[line] === b[line]) line++;
  const show = (text: string | undefined) =>
    text === undefined
      ? "(no line)"
      : JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text);
  return `at line ${line + 1}: recorded ${show(a[line])}, replayed ${show(b[line])}`;
}

function compareTrees(
  recorded: Record<string, string>,
  replayed: Record<string, string>,
): string | undefined {
  const paths = [...new Set([...Object.keys(recorded), ...Object.keys(replayed)])].sort();
  for (const path of paths) {
    const then = recorded[path];
    const now = replayed[path];
    if (then === "?" || then === now) continue;
    return `the tree after the task differs at "${path}": recorded ${shown(then)}, ` +
      `replayed ${shown(now)}`;
  }
  return undefined;
}

function shown(value: string | undefined): string {
  if (value === undefined) return "no such path";
  if (value === "dir") return "a directory";
  if (value.startsWith("link:")) return `a link to ${JSON.stringify(value.slice(5))}`;
  return `a file of sha-256 ${value.slice(0, 12)}…`;
}
