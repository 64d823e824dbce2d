import { assertEquals } from "@std/assert";
import { Hooks } from "../../../src/hooks/mod.ts";
import type { CommandRunner, RunEnd } from "../../../src/sandbox/mod.ts";
import type { HookCommand } from "../../../src/settings/mod.ts";
import { type ToolRequest, USER_COMMAND_ID } from "../../../src/tools/mod.ts";

/** A runner that answers each hook command from `answers` and records what it was given. */
function fakeRunner(answers: Record<string, { text: string; end: RunEnd }>) {
  const runs: { command: string; input: unknown; timeoutMs: number }[] = [];
  const runner: CommandRunner = {
    mode: "bwrap",
    gitControl: "protected",
    workspace: "rw",
    run(script, options) {
      // The script is "(", the command, ") <<'END'", the input's JSON line, "END".
      const lines = script.split("\n");
      const command = lines[1] ?? "";
      runs.push({ command, input: JSON.parse(lines[3] ?? "null"), timeoutMs: options.timeoutMs });
      const answer = answers[command] ?? { text: "", end: { kind: "exit", code: 0 } };
      const output = {
        text: answer.text,
        note: "",
        truncated: false,
        keptLines: 0,
        totalLines: 0,
        keptBytes: 0,
        totalBytes: 0,
      };
      return Promise.resolve({ output, end: answer.end });
    },
  };
  return { runner, runs };
}

function hook(event: HookCommand["event"], command: string, matcher?: string) {
  return { value: { event, matcher, command, timeoutMs: 5000 }, source: "settings.json" };
}

const exit = (code: number): RunEnd => ({ kind: "exit", code });

function request(name: string, args: unknown): ToolRequest {
  return { name, effect: "write", args, paths: {}, signal: new AbortController().signal };
}

Deno.test("Hooks.policy() matches the whole tool name, refuses on exit 2 or a block decision, and passes the event on stdin", async () => {
  const { runner, runs } = fakeRunner({
    "exit-two": { text: "not here", end: exit(2) },
    "json": { text: 'note\n{"decision": "block", "reason": "frozen"}', end: exit(0) },
  });
  const warnings: string[] = [];
  const hooks = new Hooks([
    hook("PreToolUse", "exit-two", "write_file"),
    hook("PreToolUse", "json", "edit_.*"),
  ], { runner, sessionId: () => "s1", cwd: "/w", warn: (line) => warnings.push(line) });
  const policy = hooks.policy();
  assertEquals(await policy(request("write_file", { path: "a" })), {
    kind: "refuse",
    reason: "not here",
  });
  assertEquals(await policy(request("edit_file", { path: "b" })), {
    kind: "refuse",
    reason: "frozen",
  });
  assertEquals(await policy(request("write_files", {})), { kind: "allow" });
  assertEquals(runs.map((run) => run.input), [
    {
      session_id: "s1",
      cwd: "/w",
      hook_event_name: "PreToolUse",
      tool_name: "write_file",
      tool_input: { path: "a" },
    },
    {
      session_id: "s1",
      cwd: "/w",
      hook_event_name: "PreToolUse",
      tool_name: "edit_file",
      tool_input: { path: "b" },
    },
  ]);
  assertEquals(warnings, []);
});

Deno.test("Hooks.policy(): PostToolUse output follows the result; a failing or slow hook warns once and the call goes on", async () => {
  const { runner } = fakeRunner({
    "fmt": { text: "formatted a.ts\n", end: exit(0) },
    "broken": { text: "oops\nmore", end: exit(1) },
    "slow": { text: "", end: { kind: "timeout", timeoutMs: 5000 } },
  });
  const warnings: string[] = [];
  const hooks = new Hooks([
    hook("PostToolUse", "fmt"),
    hook("PostToolUse", "broken"),
    hook("PreToolUse", "slow"),
  ], { runner, sessionId: () => undefined, cwd: "/w", warn: (line) => warnings.push(line) });
  const verdict = await hooks.policy()(request("edit_file", {}));
  if (verdict.kind !== "allow" || !verdict.around) throw new Error("expected an around");
  const output = await verdict.around(() =>
    Promise.resolve({ content: "Edited a.ts", summary: "" })
  );
  assertEquals(output, {
    content: "Edited a.ts\n[PostToolUse hook]\nformatted a.ts",
    summary: "",
  });
  assertEquals(warnings, [
    'PreToolUse hook "slow" took longer than 5 s and was stopped; going on',
    'PostToolUse hook "broken" failed (exit 1): oops; going on',
  ]);
});

Deno.test("Hooks without a runner warn that they did not run and block nothing", async () => {
  const warnings: string[] = [];
  const hooks = new Hooks([hook("UserPromptSubmit", "x")], {
    runner: undefined,
    sessionId: () => undefined,
    cwd: "/w",
    warn: (line) => warnings.push(line),
  });
  const signal = new AbortController().signal;
  assertEquals(await hooks.promptSubmitted("hi", signal), { kind: "go", context: [] });
  assertEquals(warnings, ["UserPromptSubmit hook did not run: this run has no bash tool"]);
});

Deno.test("Hooks.stopping() gives a block's reason and says whether a Stop hook asked before", async () => {
  const { runner, runs } = fakeRunner({ "stop": { text: "run the tests", end: exit(2) } });
  const hooks = new Hooks([hook("Stop", "stop")], {
    runner,
    sessionId: () => "s",
    cwd: "/w",
    warn: () => {},
  });
  const signal = new AbortController().signal;
  assertEquals(await hooks.stopping(true, signal), "run the tests");
  assertEquals((runs[0]?.input as Record<string, unknown>).stop_hook_active, true);
});

Deno.test("Hooks.policy() runs no hook for a command the user typed (!cmd)", async () => {
  const { runner, runs } = fakeRunner({ "block": { text: "no", end: exit(2) } });
  const hooks = new Hooks([hook("PreToolUse", "block"), hook("PostToolUse", "block")], {
    runner,
    sessionId: () => "s",
    cwd: "/w",
    warn: () => {},
  });
  const typed = { ...request("bash", { command: "ls" }), id: USER_COMMAND_ID };
  assertEquals(await hooks.policy()(typed), { kind: "allow" });
  assertEquals(runs, []);
});
