/**
 * The `todo` tool's arguments: the JSON schema the model reads and the checker of the list it
 * sends, with a problem the model can act on for every list it cannot take.
 *
 * @module
 */
import { isObject, TODO_STATUSES, type TodoItem, type TodoStatus } from "../core/mod.ts";
import type { CheckedArguments, ToolParameters } from "./tool.ts";

/** The `todo` tool's checked arguments. */
export interface TodoArgs {
  items: TodoItem[];
}

/** Most steps a list may have. */
export const MAX_TODO_ITEMS = 100;
/** Longest text of one step, in characters. */
export const MAX_TODO_TEXT = 500;

const SCHEMA = {
  type: "object",
  properties: {
    items: {
      type: "array",
      description: "The whole list, in order; it replaces the previous one",
      items: {
        type: "object",
        properties: {
          text: { type: "string", description: "The step, in one line" },
          status: {
            type: "string",
            enum: [...TODO_STATUSES],
            description: 'At most one step is "in_progress"',
          },
        },
        required: ["text", "status"],
      },
    },
  },
  required: ["items"],
};

/** The schema and parser of the `todo` tool's arguments. */
export const TODO_PARAMETERS: ToolParameters<TodoArgs> = {
  schema: SCHEMA,
  parse: checkTodoArguments,
};

/**
 * Checks the `todo` tool's arguments: `items`, a list of 1 to 100 steps, each one line of
 * text with a known status, at most one of them in progress.
 * Contract: pure; the problem names the argument or the item (counted from 1).
 */
export function checkTodoArguments(args: Record<string, unknown>): CheckedArguments<TodoArgs> {
  const unknown = Object.keys(args).find((name) => name !== "items");
  if (unknown !== undefined) return refuse(`unknown argument ${JSON.stringify(unknown)}`);
  if (!Object.hasOwn(args, "items")) return refuse('missing required argument "items"');
  const { items } = args;
  if (!Array.isArray(items)) {
    return refuse(
      `argument "items" must be an array of {"text", "status"} objects, got ${show(items)}`,
    );
  }
  if (items.length === 0) {
    return refuse(
      'argument "items" is empty: send the whole list, at least one step (mark finished ' +
        'steps "done" instead of leaving them out)',
    );
  }
  if (items.length > MAX_TODO_ITEMS) {
    return refuse(
      `argument "items" has ${items.length} steps, more than ${MAX_TODO_ITEMS}: ` +
        "group them into fewer, larger steps",
    );
  }
  const checked: TodoItem[] = [];
  for (const [index, item] of items.entries()) {
    const step = toItem(item);
    if (typeof step === "string") return refuse(`item ${index + 1} ${step}`);
    checked.push(step);
  }
  const busy = checked.flatMap((item, index) => item.status === "in_progress" ? [index + 1] : []);
  if (busy.length > 1) {
    const which = `items ${busy.slice(0, -1).join(", ")} and ${busy.at(-1)}`;
    return refuse(
      `${which} are ${busy.length === 2 ? "both" : "all"} "in_progress": only one step may be ` +
        "in progress at a time",
    );
  }
  return { ok: true, args: { items: checked } };
}

/** One item as a step, or what is wrong with it. */
function toItem(item: unknown): TodoItem | string {
  if (!isObject(item)) {
    return `must be an object {"text": "...", "status": "pending"}, got ${show(item)}`;
  }
  const extra = Object.keys(item).find((key) => key !== "text" && key !== "status");
  if (extra !== undefined) {
    return `has unknown field ${JSON.stringify(extra)}: give only "text" and "status"`;
  }
  const { text, status } = item;
  if (typeof text !== "string") return `needs "text", a string, got ${show(text)}`;
  if (text.trim() === "") return "has empty text";
  if (/[\n\r]/.test(text)) return "has text of several lines: give each step one line";
  if (text.length > MAX_TODO_TEXT) {
    return `has text of ${text.length} characters, more than ${MAX_TODO_TEXT}: shorten it`;
  }
  if (!isStatus(status)) {
    return `has unknown status ${show(status)}: use ${
      TODO_STATUSES.map((known) => JSON.stringify(known)).join(", ")
    }`;
  }
  return { text, status };
}

function isStatus(value: unknown): value is TodoStatus {
  return TODO_STATUSES.some((status) => status === value);
}

function refuse(problem: string): { ok: false; problem: string } {
  return { ok: false, problem };
}

/** A value as the model wrote it, cut to 100 characters. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
