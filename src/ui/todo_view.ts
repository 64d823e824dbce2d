/**
 * How the todo list and plan mode look: the checklist shown when the list changes (and at
 * start for unfinished work), and the marks of the status line.
 *
 * @module
 */
import { type TodoItem, todoProgress } from "../core/mod.ts";
import { sanitizeLine, type Theme, truncateWidth } from "../terminal/mod.ts";

const INDENT = "    ";

/** What the agent works in, for the status line: plan mode and the todo list. */
export interface WorkState {
  planMode: boolean;
  todo: readonly TodoItem[] | undefined;
  /** The approval mode; marked unless `auto`. */
  approval?: string;
}

/**
 * The list as rows: `✓ done`, `▸ in progress` (highlighted), `○ pending`, each cut to
 * `width`; the texts come from the model and are sanitized.
 */
export function checklistRows(
  items: readonly TodoItem[],
  width: number,
  theme: Theme,
): string[] {
  return items.map(({ text, status }) => {
    const shown = truncateWidth(sanitizeLine(text), Math.max(10, width - 1 - INDENT.length - 2));
    switch (status) {
      case "done":
        return `${INDENT}${theme.green("✓")} ${theme.dim(shown)}`;
      case "in_progress":
        return `${INDENT}${theme.cyan("▸")} ${theme.bold(shown)}`;
      case "pending":
        return `${INDENT}${theme.dim("○")} ${shown}`;
      default: {
        const never: never = status;
        return never;
      }
    }
  });
}

/** The status line's marks: `plan mode` while it is on, `todo 2/5` once there is a list. */
export function statusMarks(state: WorkState): string[] {
  const marks = state.planMode ? ["plan mode"] : [];
  if (state.approval !== undefined && state.approval !== "auto") {
    marks.push(`approval ${state.approval}`);
  }
  if (state.todo && state.todo.length > 0) {
    const { done, total } = todoProgress(state.todo);
    marks.push(`todo ${done}/${total}`);
  }
  return marks;
}
