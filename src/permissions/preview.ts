/**
 * "Approve what it did, not what it says": a command runs first between two snapshots,
 * the user sees what it changed (created, changed, deleted files with their diffs, the exit,
 * the hosts it tried) and keeps it, or has it reverted exactly through the snapshots.
 *
 * @module
 */
import { changedLines, type ToolOutput } from "../tools/mod.ts";
import type { Change, MoveOutcome } from "../undo/mod.ts";
import type { Asker, PreviewChange, PreviewReport } from "./question.ts";

/** The snapshots a preview takes and moves back (the undo layer's `Snapshots`). */
export interface PreviewSnapshots {
  take(): Promise<string>;
  changes(a: string, b: string): Change[];
  move(
    expected: string | undefined,
    target: string,
    options: { force: boolean },
  ): Promise<MoveOutcome>;
  read(hash: string): Uint8Array;
  display(change: { root: string; path: string }): string;
}

/** Lines of one file's diff shown at most. */
const DIFF_LINES = 40;

/** What a preview works with besides the command's run. */
export interface PreviewContext {
  snapshots: PreviewSnapshots;
  asker: Asker;
  command: string;
  signal: AbortSignal;
  /** Hosts the command tried to reach while it ran (none without a network proxy). */
  hosts?: () => string[];
  /** Records the user's verdict. */
  record: (verdict: "keep" | "revert", report: PreviewReport) => void;
}

/**
 * Runs `run` between snapshots, shows what it did and keeps or reverts it.
 * Contract: a revert puts every path the command changed back byte for byte (the moves of
 * `/undo`); the model then reads that the user reverted it, with the command's output.
 */
export async function previewRun(
  run: () => Promise<ToolOutput>,
  context: PreviewContext,
): Promise<ToolOutput> {
  const { snapshots } = context;
  const before = await snapshots.take();
  const output = await run();
  const after = await snapshots.take();
  const report: PreviewReport = {
    command: context.command,
    end: output.summary,
    changes: snapshots.changes(before, after).flatMap((change) => describe(change, snapshots)),
    hosts: context.hosts?.() ?? [],
  };
  const verdict = await context.asker.review(report, context.signal);
  context.record(verdict, report);
  if (verdict === "keep") {
    return {
      ...output,
      content: `${output.content}\n(The user previewed this command's effect and kept it.)`,
    };
  }
  const moved = await snapshots.move(after, before, { force: false });
  if (moved.type === "conflict") {
    throw new Error(
      `Cannot revert the preview: ${moved.paths.join(", ")} changed since the command ran; ` +
        "/undo can take the whole task back",
    );
  }
  const count = moved.restored.length + moved.removed.length;
  return {
    content: `${output.content}\nThe user previewed what this command did and reverted it: ` +
      `${count} ${count === 1 ? "path is" : "paths are"} as before the command. Do not run it ` +
      "again unchanged; ask the user what they want instead.",
    summary: "reverted after preview",
    isError: true,
  };
}

function describe(change: Change, snapshots: PreviewSnapshots): PreviewChange[] {
  const { before, after } = change;
  if ((before ?? after)?.kind === "dir" && (after === undefined || before === undefined)) return [];
  if (before?.kind === "dir" && after?.kind === "dir") return [];
  const kind = before === undefined ? "created" : after === undefined ? "deleted" : "changed";
  const text = (entry: typeof before) =>
    entry?.kind === "file" && entry.hash !== null ? textOf(snapshots.read(entry.hash)) : "";
  const lines = changedLines(text(before), text(after), DIFF_LINES);
  const more = lines.removedCount + lines.addedCount - lines.removed.length - lines.added.length;
  const diff = [
    ...lines.removed.map((line) => `-${line}`),
    ...lines.added.map((line) => `+${line}`),
    ...(more > 0 ? [`… ${more} more changed lines`] : []),
  ];
  return [{ path: snapshots.display(change), kind, diff }];
}

function textOf(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return "(binary)";
  }
}
