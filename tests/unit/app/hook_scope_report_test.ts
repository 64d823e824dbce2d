import { assertEquals } from "@std/assert";
import { hookScopeRows } from "../../../src/app/hook_scope_report.ts";

const hook = (event: "PreToolUse" | "Stop", command: string, source: string, matcher?: string) => ({
  value: { event, matcher, command, timeoutMs: 60_000 },
  source,
});

Deno.test("hookScopeRows groups the hooks by file and wraps them to a narrow width", () => {
  const hooks = [
    hook("PreToolUse", "./check-the-command.sh --strict\x1b[2J", "/u/settings.json", "bash"),
    hook("Stop", "make lint", "/p/.powercode/settings.json"),
    hook("Stop", "echo done", "/u/settings.json"),
  ];
  assertEquals(hookScopeRows(hooks, 40), [
    "Hooks (each run by bash -c in the",
    "  sandbox above, with this scope):",
    "  from /u/settings.json:",
    "    PreToolUse matching bash:",
    "      ./check-the-command.sh",
    "      --strict^[[2J",
    "    Stop: echo done",
    "  from /p/.powercode/settings.json:",
    "    Stop: make lint",
  ]);
  assertEquals(hookScopeRows([], 40), ["Hooks: none"]);
});

Deno.test("hookScopeRows stays within 80 columns on a wide terminal", () => {
  const rows = hookScopeRows([hook("Stop", "x ".repeat(60), "/u/settings.json")], 200);
  assertEquals(rows.every((row) => row.length <= 80), true);
});
