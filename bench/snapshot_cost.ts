/**
 * Benchmark 7: what undo costs a task. A workspace of many files (10 000 files, 100 MB) is
 * snapshotted around each task the way the REPL does it (one scan before, one after, the
 * records in an in-memory session); with nothing changed, a scan is one `lstat` per entry.
 * Also measured: the first snapshot (every file read, hashed and stored), how the state
 * directory grows per task, and what it grows by when a task changes some files.
 *
 * @module
 */
import { Session } from "../src/session/mod.ts";
import { Snapshots, TaskUndo } from "../src/undo/mod.ts";
import { formatBytes, formatSpread, type Spread, spread } from "./stats.ts";

/** The tree and how often to measure. */
export interface SnapshotCostOptions {
  /** Files in the workspace, spread over directories of `filesPerDir`. */
  files: number;
  filesPerDir: number;
  /** Bytes per file (files × bytes is the tree's size). */
  fileBytes: number;
  /** Tasks with nothing changed, each timed. */
  tasks: number;
  /** Files the last task rewrites (new content, same size). */
  changedFiles: number;
}

/** What the benchmark measured. */
export interface SnapshotCostResult {
  files: number;
  treeBytes: number;
  /** The first snapshot of the tree: every file read, hashed and stored. */
  firstMs: number;
  /** The state directory after the first snapshot. */
  firstStateBytes: number;
  /** A task that ran a command (both snapshots), nothing changed. */
  perTaskMs: Spread;
  /** A task whose calls only read (the snapshot before it alone), nothing changed. */
  perReadingTaskMs: Spread;
  /** One snapshot, nothing changed. */
  perScanMs: Spread;
  /** State directory growth per unchanged task. */
  unchangedGrowthBytes: number;
  /** The bytes the changing task rewrote, and what the state directory grew by. */
  changedBytes: number;
  changedGrowthBytes: number;
  /** `/undo` of the changing task: the check scan, the restore and the scan after. */
  undoMs: number;
}

/** Runs the benchmark in a temp directory, removed afterwards. */
export async function benchSnapshotCost(options: SnapshotCostOptions): Promise<SnapshotCostResult> {
  const dir = await Deno.makeTempDir({ prefix: "powercode-bench-snapshots-" });
  try {
    const ws = `${dir}/workspace`;
    const state = `${dir}/state`;
    const paths = writeTree(ws, options);
    const undo = new TaskUndo(new Snapshots({ dir: state, roots: [ws] }));
    const session = new Session();
    let started = performance.now();
    await undo.beforeTask(session);
    const firstMs = performance.now() - started;
    const firstStateBytes = sizeOf(state);
    session.append({ role: "user", content: "warm-up" });
    await undo.afterTask(session);
    // Files written just before a scan are read again by the next (same timestamp tick).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await task(undo, session, "settle", () => 0);
    const scans: number[] = [];
    const tasks: number[] = [];
    const readingTasks: number[] = [];
    const stateBefore = sizeOf(state);
    for (let index = 0; index < options.tasks; index++) {
      started = performance.now();
      await undo.beforeTask(session);
      const scanned = performance.now();
      session.append({ role: "user", content: `task ${index}` });
      undo.noteCall({ id: `call_${index}`, name: "bash", arguments: '{"command":"true"}' });
      await undo.afterTask(session);
      const ended = performance.now();
      scans.push(scanned - started, ended - scanned);
      tasks.push(ended - started);
      started = performance.now();
      await task(undo, session, `question ${index}`);
      readingTasks.push(performance.now() - started);
    }
    const unchangedGrowthBytes = (sizeOf(state) - stateBefore) / options.tasks / 2;
    const beforeChange = sizeOf(state);
    const changedBytes = await task(undo, session, "change", () => {
      for (const path of paths.slice(0, options.changedFiles)) {
        Deno.writeFileSync(path, content(`${path} changed`, options.fileBytes));
      }
      return options.changedFiles * options.fileBytes;
    });
    const changedGrowthBytes = sizeOf(state) - beforeChange;
    started = performance.now();
    await undo.back(session, session.tasks.length, { files: true, chat: true, force: false });
    const undoMs = performance.now() - started;
    return {
      files: paths.length,
      treeBytes: paths.length * options.fileBytes,
      firstMs,
      firstStateBytes,
      perTaskMs: spread(tasks),
      perReadingTaskMs: spread(readingTasks),
      perScanMs: spread(scans),
      unchangedGrowthBytes,
      changedBytes,
      changedGrowthBytes,
      undoMs,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * One task between its snapshots; `work`, when given, is a command that changes files and
 * returns the bytes it wrote. Without it the task only reads.
 */
async function task(
  undo: TaskUndo,
  session: Session,
  text: string,
  work?: () => number,
): Promise<number> {
  await undo.beforeTask(session);
  session.append({ role: "user", content: text });
  if (work) undo.noteCall({ id: "call_work", name: "bash", arguments: "{}" });
  const written = work?.() ?? 0;
  await undo.afterTask(session);
  return written;
}

/** Writes the tree; returns its file paths. Every file's content is its own. */
function writeTree(ws: string, options: SnapshotCostOptions): string[] {
  const paths: string[] = [];
  for (let index = 0; index < options.files; index++) {
    const dir = `${ws}/d${Math.floor(index / options.filesPerDir)}`;
    if (index % options.filesPerDir === 0) Deno.mkdirSync(dir, { recursive: true });
    const path = `${dir}/f${index}.txt`;
    Deno.writeFileSync(path, content(path, options.fileBytes));
    paths.push(path);
  }
  return paths;
}

/** `bytes` of text that differs for every `seed`. */
function content(seed: string, bytes: number): Uint8Array<ArrayBuffer> {
  const line = `${seed} ${"lorem ipsum dolor sit amet ".repeat(3)}\n`;
  return new TextEncoder().encode(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
}

/** Bytes of the regular files below `dir`. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) total += sizeOf(path);
    else if (entry.isFile) total += Deno.statSync(path).size;
  }
  return total;
}

/** The report's section for benchmark 7. */
export function snapshotCostSection(
  options: SnapshotCostOptions,
  result: SnapshotCostResult,
): string[] {
  const goal = result.perTaskMs.median <= 100 ? "met" : "NOT met";
  return [
    "## 7. Undo: snapshots around each task",
    "",
    `A workspace of ${result.files.toLocaleString("en-US")} files in directories of ` +
    `${options.filesPerDir} (${formatBytes(result.treeBytes)}, every file different), ` +
    "snapshotted as the REPL does around a task: one scan before, and one after when a call " +
    "of the task could change files (a command, a write), recorded in a session; " +
    `${options.tasks} tasks of each kind with nothing changed. A scan trusts a file whose ` +
    "size, mtime, ctime, inode and mode match the previous snapshot (one `lstat` each) and " +
    "reads only the rest.",
    "",
    "| What | Result |",
    "| --- | ---: |",
    `| per task that ran a command, nothing changed (two scans), ms | ${
      formatSpread(result.perTaskMs, 1)
    } |`,
    `| per task whose calls only read (one scan), ms | ${
      formatSpread(result.perReadingTaskMs, 1)
    } |`,
    `| per scan, nothing changed, ms | ${formatSpread(result.perScanMs, 1)} |`,
    `| first snapshot (every file read, hashed, stored), ms | ${result.firstMs.toFixed(0)} |`,
    `| state directory after the first snapshot | ${formatBytes(result.firstStateBytes)} |`,
    `| state directory growth per unchanged task | ${formatBytes(result.unchangedGrowthBytes)} |`,
    `| a task rewrites ${options.changedFiles} files (${formatBytes(result.changedBytes)}): ` +
    `growth | ${formatBytes(result.changedGrowthBytes)} |`,
    `| /undo of that task (check, restore, scan after), ms | ${result.undoMs.toFixed(0)} |`,
    "",
    `**Goal** (at most 100 ms per task with nothing changed, taken as the task that ran a ` +
    `command): ${goal}. An unchanged task adds its snapshot records (the snapshot object, ` +
    "about 200 bytes, per scan); a changed one adds its new file contents and the tree objects " +
    "of the directories on their paths.",
    "",
  ];
}
