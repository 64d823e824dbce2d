import { assertEquals } from "@std/assert";
import { checkTodoArguments, MAX_TODO_ITEMS } from "../../../src/tools/todo_list.ts";

const STEP = { text: "Write the test", status: "in_progress" } as const;

Deno.test("checkTodoArguments() takes a list of steps with at most one in progress", () => {
  const items = [
    { text: "Read", status: "done" },
    STEP,
    { text: "Ship", status: "pending" },
  ] as const;
  assertEquals(checkTodoArguments({ items: [...items] }), {
    ok: true,
    args: { items: [...items] },
  });
});

Deno.test("checkTodoArguments() refuses every list it cannot take with a problem the model can act on", () => {
  const long = "x".repeat(501);
  const many = Array.from({ length: MAX_TODO_ITEMS + 1 }, () => ({ text: "a", status: "done" }));
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'missing required argument "items"'],
    [{ items: [STEP], done: true }, 'unknown argument "done"'],
    [
      { items: "a, b" },
      'argument "items" must be an array of {"text", "status"} objects, got "a, b"',
    ],
    [
      { items: [] },
      'argument "items" is empty: send the whole list, at least one step (mark finished steps ' +
      '"done" instead of leaving them out)',
    ],
    [
      { items: many },
      `argument "items" has 101 steps, more than 100: group them into fewer, larger steps`,
    ],
    [{ items: ["a"] }, 'item 1 must be an object {"text": "...", "status": "pending"}, got "a"'],
    [
      { items: [{ content: "a", status: "pending" }] },
      'item 1 has unknown field "content": give only "text" and "status"',
    ],
    [{ items: [{ status: "pending" }] }, 'item 1 needs "text", a string, got undefined'],
    [{ items: [{ text: " ", status: "pending" }] }, "item 1 has empty text"],
    [
      { items: [{ text: "a\nb", status: "done" }] },
      "item 1 has text of several lines: give each step one line",
    ],
    [
      { items: [{ text: long, status: "done" }] },
      "item 1 has text of 501 characters, more than 500: shorten it",
    ],
    [
      { items: [STEP, { text: "b", status: "doing" }] },
      'item 2 has unknown status "doing": use "pending", "in_progress", "done"',
    ],
    [
      { items: [STEP, STEP] },
      'items 1 and 2 are both "in_progress": only one step may be in progress at a time',
    ],
    [
      { items: [STEP, STEP, STEP] },
      'items 1, 2 and 3 are all "in_progress": only one step may be in progress at a time',
    ],
  ];
  for (const [args, problem] of cases) {
    assertEquals(checkTodoArguments(args), { ok: false, problem }, JSON.stringify(args));
  }
});
