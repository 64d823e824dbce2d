import { assert, assertEquals, assertMatch } from "@std/assert";
import { formatSessionsTable } from "../../../src/ui/sessions_table.ts";

function local(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

Deno.test("formatSessionsTable() shows when each session was last used, the order it lists them in", () => {
  const sessions = [
    {
      id: "20260101-000000-aaaaaa",
      created: "2026-01-01T00:00:00.000Z",
      lastUsed: "2026-06-15T12:34:00.000Z",
      firstTask: "old but used today",
      messages: 12,
    },
    {
      id: "20260301-000000-bbbbbb",
      created: "2026-03-01T00:00:00.000Z",
      lastUsed: "2026-03-01T00:05:00.000Z",
      firstTask: "newer, idle",
      messages: 2,
    },
  ];
  const [header, first, second] = formatSessionsTable(sessions).split("\n");
  assertMatch(header ?? "", /^ {3}ID {22}LAST USED \(UTC[+-]\d\d:\d\d\) {2}MSGS {2}FIRST TASK$/);
  assert(first?.includes(`aaaaaa  ${local(sessions[0]!.lastUsed)}`), first);
  assert(second?.includes(`bbbbbb  ${local(sessions[1]!.lastUsed)}`), second);
  assertEquals(first?.includes(local(sessions[0]!.created)), false);
});

Deno.test("formatSessionsTable() marks the first task of a session a -p run made", () => {
  const info = {
    id: "20260101-000000-aaaaaa",
    created: "2026-01-01T00:00:00.000Z",
    lastUsed: "2026-01-01T00:00:00.000Z",
    messages: 2,
  };
  const table = formatSessionsTable([
    { ...info, firstTask: "by hand" },
    { ...info, firstTask: "scripted", print: true as const },
  ]).split("\n");
  assertEquals([table[1]?.endsWith("  by hand"), table[2]?.endsWith("  -p: scripted")], [
    true,
    true,
  ]);
});

Deno.test("formatSessionsTable() marks a subagent's session, listed under its parent's", () => {
  const at = "2026-06-15T12:34:00.000Z";
  const table = formatSessionsTable([
    { id: "20260615-123400-aaaaaa", created: at, lastUsed: at, firstTask: "fan out", messages: 5 },
    {
      id: "20260615-123401-bbbbbb",
      created: at,
      lastUsed: at,
      firstTask: "job A",
      messages: 2,
      parent: "20260615-123400-aaaaaa",
    },
  ]);
  const [, parent, child] = table.split("\n");
  assertMatch(parent ?? "", /aaaaaa .* fan out$/);
  assertMatch(child ?? "", /bbbbbb .* ↳ task: job A$/);
});
