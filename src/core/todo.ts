/**
 * The todo list: the steps of a task and how far each is, as the todo tool receives them,
 * `TODO.md` holds them (a Markdown checklist), the working memory pins them after a
 * compaction and the terminal draws them.
 *
 * @module
 */

/** How far one step is. */
export type TodoStatus = "pending" | "in_progress" | "done";

/** The statuses, in the order a step goes through them. */
export const TODO_STATUSES: readonly [TodoStatus, ...TodoStatus[]] = [
  "pending",
  "in_progress",
  "done",
];

/** One step of the list. */
export interface TodoItem {
  /** One line of text. */
  text: string;
  status: TodoStatus;
}

/** The file the list is kept in, at the workspace root. */
export const TODO_FILE = "TODO.md";

/** Marks the step in progress in the checklist, after its text. */
const IN_PROGRESS_MARK = " (in progress)";
const CHECKLIST_LINE = /^\s*[-*+] \[([ xX])\] (.*)$/;

/**
 * The list as checklist lines: `- [x] text` for a done step, `- [ ] text` for the others,
 * the one in progress followed by ` (in progress)`.
 * Contract: pure; {@linkcode parseChecklist} reads the lines back as they were.
 */
export function checklistLines(items: readonly TodoItem[]): string[] {
  return items.map(({ text, status }) =>
    status === "done"
      ? `- [x] ${text}`
      : `- [ ] ${text}${status === "in_progress" ? IN_PROGRESS_MARK : ""}`
  );
}

/** The content of `TODO.md` for the list: a heading, then the checklist. */
export function todoFileText(items: readonly TodoItem[]): string {
  return `# TODO\n\n${checklistLines(items).join("\n")}\n`;
}

/**
 * The checklist items of Markdown `text` (`- [ ]`, `- [x]`, also with `*` or `+`), in order;
 * other lines are skipped.
 * Contract: pure; an unchecked item whose text ends with ` (in progress)` is in progress.
 */
export function parseChecklist(text: string): TodoItem[] {
  const items: TodoItem[] = [];
  for (const line of text.split("\n")) {
    const match = CHECKLIST_LINE.exec(line.replace(/\r$/, ""));
    if (!match) continue;
    const [, mark = " ", rest = ""] = match;
    if (mark !== " ") items.push({ text: rest, status: "done" });
    else if (rest.endsWith(IN_PROGRESS_MARK)) {
      items.push({ text: rest.slice(0, -IN_PROGRESS_MARK.length), status: "in_progress" });
    } else items.push({ text: rest, status: "pending" });
  }
  return items;
}

/** How many steps are done, of how many. */
export function todoProgress(items: readonly TodoItem[]): { done: number; total: number } {
  return { done: items.filter((item) => item.status === "done").length, total: items.length };
}
