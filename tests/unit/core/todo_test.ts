import { assertEquals } from "@std/assert";
import {
  checklistLines,
  parseChecklist,
  todoFileText,
  type TodoItem,
  todoProgress,
} from "../../../src/core/todo.ts";

const ITEMS: TodoItem[] = [
  { text: "Read the parser", status: "done" },
  { text: "Write the test", status: "in_progress" },
  { text: "Run the suite", status: "pending" },
];

Deno.test("todoFileText() writes a heading and a checklist, the step in progress marked", () => {
  assertEquals(
    todoFileText(ITEMS),
    "# TODO\n\n- [x] Read the parser\n- [ ] Write the test (in progress)\n- [ ] Run the suite\n",
  );
  assertEquals(checklistLines(ITEMS.slice(2)), ["- [ ] Run the suite"]);
});

Deno.test("parseChecklist() reads back what todoFileText() wrote, and a checklist written by hand", () => {
  assertEquals(parseChecklist(todoFileText(ITEMS)), ITEMS);
  const byHand = "Notes\r\n* [X] Done by hand\r\n  + [ ] Nested step\r\n- [] not an item\n- [ ]\n";
  assertEquals(parseChecklist(byHand), [
    { text: "Done by hand", status: "done" },
    { text: "Nested step", status: "pending" },
  ]);
});

Deno.test("todoProgress() counts the steps done", () => {
  assertEquals(todoProgress(ITEMS), { done: 1, total: 3 });
  assertEquals(todoProgress([]), { done: 0, total: 0 });
});
