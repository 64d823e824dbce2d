import { assertEquals } from "@std/assert";
import { parseSettings } from "../../../src/settings/mod.ts";

const CONTEXT = { home: "/home/u", firstRoot: "/w" };

Deno.test("parseSettings() reads hooks in Claude Code's shape, each sourced to its file, timeout in seconds", () => {
  const text = JSON.stringify({
    hooks: {
      PostToolUse: [{
        matcher: "edit_file|write_file",
        hooks: [{ type: "command", command: "deno fmt", timeout: 30 }],
      }],
      Stop: [{ hooks: [{ type: "command", command: "make check" }] }],
    },
    notifications: "bell",
  });
  const { settings, problems } = parseSettings(text, "s.json", CONTEXT);
  assertEquals(problems, []);
  assertEquals(settings.hooks, [
    {
      value: {
        event: "PostToolUse",
        matcher: "edit_file|write_file",
        command: "deno fmt",
        timeoutMs: 30_000,
      },
      source: "s.json",
    },
    {
      value: { event: "Stop", matcher: undefined, command: "make check", timeoutMs: 60_000 },
      source: "s.json",
    },
  ]);
  assertEquals(settings.notifications, "bell");
});

Deno.test("parseSettings() names every bad hook entry and notifications value with file, field and value", () => {
  const text = JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: 3, hooks: [] },
        { hooks: [{ type: "command", command: "x", timeout: 601, extra: 1 }] },
        "nope",
      ],
      Later: [],
      Stop: {},
    },
    notifications: "loud",
  });
  const { settings, problems } = parseSettings(text, "s.json", CONTEXT);
  assertEquals(settings.hooks, []);
  assertEquals(problems, [
    `"s.json": field "hooks.PreToolUse[0].matcher" 3 must be a string (a regular expression ` +
    "on the tool name)",
    `"s.json": field "hooks.PreToolUse[1].hooks[0].extra" is unknown (known: type, command, ` +
    "timeout)",
    `"s.json": field "hooks.PreToolUse[1].hooks[0].timeout" 601 must be a number of seconds ` +
    "above 0, at most 600",
    `"s.json": field "hooks.PreToolUse[2]" "nope" must be an object {matcher, hooks}`,
    `"s.json": field "hooks.Later" is unknown (known: PreToolUse, PostToolUse, ` +
    "UserPromptSubmit, Stop, SessionStart, PreCompact, Notification)",
    `"s.json": field "hooks.Stop" {} must be an array of {matcher, hooks}`,
    `"s.json": field "notifications" "loud" must be "off", "bell" or "osc"`,
  ]);
});
