/**
 * `/tree [ID]` and `/fork [ID]`: the session's branches, continuing from any entry in place,
 * and a new session file from one.
 *
 * @module
 */
import { isNote } from "../agent/mod.ts";
import { ROOT_ENTRY, type SessionEntry, type SessionRecord } from "../session/mod.ts";
import { sanitizeLine, truncateWidth } from "../terminal/mod.ts";
import type { Command } from "./command.ts";

type Entry = SessionEntry<SessionRecord>;

/** `/tree`. */
export const treeCommand: Command = {
  name: "/tree",
  usage: "/tree [ID]",
  help: "the session's branches, one line per task; with ID, continue after that entry",
  run: ({ app, screen }, args) => {
    const { all, current } = app.agent.view.entries;
    if (args.trim() === "") {
      const inView = new Set<unknown>(app.agent.view.history);
      const lines = treeLines(all, current, {
        width: screen.width,
        inView: (message) => inView.has(message),
      });
      screen.line(lines.length === 0 ? "No tasks in this session yet" : lines.join("\n"));
      return;
    }
    const id = entryId(args, "/tree ID");
    app.agent.continueFrom(id);
    screen.say(
      `Continuing from entry ${id} (${app.agent.view.history.length} messages); ` +
        "the entries after it stay in the file as a branch (/tree lists them)",
    );
  },
};

/** `/fork`. */
export const forkCommand: Command = {
  name: "/fork",
  usage: "/fork [ID]",
  help: "a new session file holding the conversation up to here (or entry ID)",
  run: ({ app, screen }, args) => {
    const before = app.agent.view.id;
    app.agent.fork(args.trim() === "" ? undefined : entryId(args, "/fork ID"));
    const id = app.agent.view.id;
    screen.say(
      `Forked into session ${id ?? "(new, empty)"} (${app.agent.view.history.length} ` +
        `messages); ${before ? `session ${before}` : "the old one"} stays as it was`,
    );
  },
};

function entryId(args: string, usage: string): number {
  const text = args.trim();
  if (!/^\d+$/.test(text)) throw new TypeError(`Cannot use "${text}": ${usage} takes a number`);
  return Number(text);
}

/** One task of the tree: where it starts, the entry after its answer, its first line. */
interface TaskNode {
  message: number;
  undone: boolean;
  end: number;
  text: string;
  children: TaskNode[];
}

/** How `/tree` lays out its lines. */
export interface TreeOptions {
  width?: number;
  /** Whether a message is in the conversation now (an undo takes tasks out of it). */
  inView?: (message: unknown) => boolean;
}

/**
 * The lines of `/tree`: each task with the entry its answer ends on (what `/tree ID`
 * continues after), the branches indented under the task they leave, the current one marked,
 * a task an undo took out of the conversation marked `(undone)`.
 * Contract: pure.
 */
export function treeLines(
  entries: readonly Entry[],
  current: number,
  options: TreeOptions = {},
): string[] {
  const { width = 80, inView = () => true } = options;
  const byId = (id: number) => entries[id - ROOT_ENTRY - 1];
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    children.set(entry.parent, [...children.get(entry.parent) ?? [], entry.id]);
  }
  const isTask = (entry: Entry | undefined) =>
    entry?.record.type === "message" && entry.record.message.role === "user" &&
    !isNote(entry.record.message.content);
  const startsTask = (id: number) => byId(id)?.record.type === "task_start" || isTask(byId(id));
  const root: TaskNode = {
    message: ROOT_ENTRY,
    undone: false,
    end: ROOT_ENTRY,
    text: "",
    children: [],
  };
  const nodes = new Map<number, TaskNode>([[ROOT_ENTRY, root]]);
  const onPath = new Set<number>();
  for (let at = current; at !== ROOT_ENTRY; at = byId(at)?.parent ?? ROOT_ENTRY) onPath.add(at);
  // What an undo went back before: the branch it left, up to where it leaves the path.
  const left = new Set<number>();
  for (const { record } of entries) {
    if (record.type !== "undo" || record.from === undefined) continue;
    for (let at = record.from; at !== ROOT_ENTRY && !onPath.has(at);) {
      left.add(at);
      at = byId(at)?.parent ?? ROOT_ENTRY;
    }
  }
  for (const entry of entries) {
    if (!isTask(entry) || entry.record.type !== "message") continue;
    let end = entry.id;
    for (;;) {
      // An undo ends a task's line too: continuing after the task brings it back.
      const next = (children.get(end) ?? []).filter((id) =>
        !startsTask(id) && byId(id)?.record.type !== "undo"
      );
      if (next.length === 0) break;
      end = Math.max(...next);
    }
    const message = entry.record.message;
    const text = (message.role === "user" ? message.shown ?? message.content : "").split("\n")[0];
    const node: TaskNode = {
      message: entry.id,
      undone: (onPath.has(entry.id) && !inView(message)) || left.has(entry.id),
      end,
      text: text ?? "",
      children: [],
    };
    nodes.set(entry.id, node);
    let up = entry.parent;
    while (up !== ROOT_ENTRY && !nodes.has(up)) up = byId(up)?.parent ?? ROOT_ENTRY;
    nodes.get(up)?.children.push(node);
  }
  const currentTask = Math.max(
    ROOT_ENTRY,
    ...[...nodes.values()].filter((node) => onPath.has(node.message) && !node.undone)
      .map((node) => node.message),
  );
  const lines: string[] = [];
  const show = (node: TaskNode, depth: number) => {
    const mark = node.message === currentTask ? "▶" : " ";
    const head = `${mark} ${"  ".repeat(depth)}${node.end}  `;
    const tail = node.undone ? " (undone)" : "";
    const room = Math.max(1, width - head.length - tail.length - 1);
    lines.push(head + truncateWidth(sanitizeLine(node.text), room) + tail);
    const indent = node.children.length > 1 ? depth + 1 : depth;
    for (const child of node.children) show(child, indent);
  };
  const top = root.children.length > 1 ? 1 : 0;
  for (const node of root.children) show(node, top);
  return lines;
}
