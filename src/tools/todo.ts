/**
 * The `todo` tool: the model keeps the task's list of steps, powercode writes it to `TODO.md`
 * at the workspace root as a Markdown checklist, and the terminal shows it when it changes.
 *
 * @module
 */
import {
  parseChecklist,
  parseToolArguments,
  TODO_FILE,
  todoFileText,
  type TodoItem,
  todoProgress,
  type ToolCall,
} from "../core/mod.ts";
import { readTextHead, writeFileAtomic } from "../workspace/mod.ts";
import type { Tool } from "./tool.ts";
import { TODO_PARAMETERS, type TodoArgs } from "./todo_list.ts";
import type { Workspace } from "../workspace/mod.ts";

/** The tool's name, which its calls in history carry. */
const NAME = "todo";
/** Most bytes of `TODO.md` read for unfinished work at start. */
const MAX_TODO_FILE_BYTES = 64 * 1024;

/**
 * Creates the `todo` tool for `workspace`.
 * Contract: writes `TODO.md` at the workspace root (atomically, only when its text changes)
 * and refuses when that name is a symbolic link or a directory, so no other file is ever
 * written; details carry the list only when the file changed. Its effect is `track`: plan
 * mode lets it run.
 */
export function createTodoTool(workspace: Workspace): Tool<TodoArgs> {
  return {
    name: NAME,
    effect: "track",
    description: "Keep the todo list of the task: send the whole list every time (it " +
      "replaces the previous one), each step with its status: pending, in_progress or done; " +
      "at most one step is in_progress. powercode writes the list to TODO.md at the workspace " +
      "root as a Markdown checklist and shows it to the user. Use it for tasks of several " +
      "steps: write the list before you start, mark a step in_progress when you begin it and " +
      "done as soon as it is finished. It works in plan mode too.",
    parameters: TODO_PARAMETERS,
    guidance: "For a task of several steps, keep its todo list with the todo tool as you go.",
    describe: ({ items }) => {
      const { done, total } = todoProgress(items);
      const current = items.find((item) => item.status === "in_progress");
      return `${done}/${total}${current ? ` · ${current.text}` : ""}`;
    },
    paths: () => ({ modified: [TODO_FILE] }),
    async execute({ items }) {
      const text = todoFileText(items);
      const changed = await writeTodoFile(workspace, text);
      const { done, total } = todoProgress(items);
      const current = items.find((item) => item.status === "in_progress");
      const state = `${done} of ${total} done${current ? `; in progress: ${current.text}` : ""}`;
      return {
        content: changed ? `Wrote ${TODO_FILE}: ${state}` : `${TODO_FILE} is unchanged: ${state}`,
        summary: `${done}/${total} done${changed ? "" : ", unchanged"}`,
        ...(changed ? { details: { kind: "checklist" as const, items } } : {}),
      };
    },
  };
}

/**
 * The list a call of the `todo` tool sets, or undefined for any other call and for arguments
 * the tool refuses.
 * Contract: pure; never throws.
 */
export function todoItemsOf(call: ToolCall): TodoItem[] | undefined {
  if (call.name !== NAME) return undefined;
  const parsed = parseToolArguments(call.arguments);
  if (!parsed.ok) return undefined;
  const checked = TODO_PARAMETERS.parse(parsed.args);
  return checked.ok ? checked.args.items : undefined;
}

/**
 * The steps of `TODO.md` at the workspace root that are not done (its first 64 KB).
 * Contract: never throws; empty when there is no such file or it cannot be read as text.
 */
export async function unfinishedTodo(workspace: Workspace): Promise<TodoItem[]> {
  try {
    const head = await readTextHead(workspace, TODO_FILE, {
      action: "read",
      limit: MAX_TODO_FILE_BYTES,
    });
    return parseChecklist(head.text).filter((item) => item.status !== "done");
  } catch {
    return [];
  }
}

/** Writes `text` to TODO.md unless it holds that already; whether it wrote. */
async function writeTodoFile(workspace: Workspace, text: string): Promise<boolean> {
  const data = new TextEncoder().encode(text);
  const { absolute, existing } = await workspace.resolveWrite(TODO_FILE, {
    action: "write",
    bytes: data.length,
  });
  if (absolute !== `${workspace.path}/${TODO_FILE}`) {
    throw new Error(
      `Cannot write "${TODO_FILE}": it is a symbolic link to "${workspace.relative(absolute)}"; ` +
        "ask the user to remove the link",
    );
  }
  if (existing?.isDirectory) {
    throw new Deno.errors.IsADirectory(`Cannot write "${TODO_FILE}": it is a directory`);
  }
  if (existing && await holds(workspace, text, data.length)) return false;
  await writeFileAtomic(absolute, data);
  return true;
}

async function holds(workspace: Workspace, text: string, bytes: number): Promise<boolean> {
  try {
    const head = await readTextHead(workspace, TODO_FILE, { action: "read", limit: bytes });
    return !head.cut && head.text === text;
  } catch {
    return false;
  }
}
