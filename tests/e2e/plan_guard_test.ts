import { assertEquals } from "@std/assert";
import type { ToolEffect } from "../../src/core/tool_result.ts";
import { PlanGuard } from "../../src/tools/plan_guard.ts";
import type { ToolRequest } from "../../src/tools/policy.ts";
import { Sandbox } from "../../src/sandbox/sandbox.ts";
import { createTools } from "../../src/tools/mod.ts";
import { ToolSet } from "../../src/tools/tool_set.ts";
import { withWorkspace } from "../support/workspace.ts";

const WRITE_REFUSED = "plan mode is on, so only PLAN.md at the workspace root may change; " +
  "write the plan to PLAN.md and ask the user to leave plan mode (/plan off) to make changes";

function request(name: string, effect: ToolEffect, modified: string[] = []): ToolRequest {
  return { name, effect, args: {}, paths: { modified } };
}

Deno.test("PlanGuard lets every call run while off, and by effect and path while on", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.mkdir(`${workspace.root}/docs`);
    await Deno.writeTextFile(`${workspace.root}/main.ts`, "code\n");
    await Deno.symlink("main.ts", `${workspace.root}/link.md`);
    const guard = new PlanGuard(workspace, { confined: ["bash"] });
    const allow = { kind: "allow" };
    const cases: [ToolRequest, string | undefined][] = [
      [request("read_file", "read"), undefined],
      [request("todo", "track", ["TODO.md"]), undefined],
      [request("write_file", "write", ["PLAN.md"]), undefined],
      [request("edit_file", "write", ["./docs/../PLAN.md"]), undefined],
      [request("write_file", "write", [`${workspace.root}/PLAN.md`]), undefined],
      [request("bash", "exec"), undefined],
      [request("write_file", "write", ["x.txt"]), WRITE_REFUSED],
      [request("write_file", "write", ["docs/PLAN.md"]), WRITE_REFUSED],
      [request("write_file", "write", ["plan.md"]), WRITE_REFUSED],
      [request("write_file", "write", ["PLAN.md", "x.txt"]), WRITE_REFUSED],
      [request("write_file", "write", [`${parent}/outside/PLAN.md`]), WRITE_REFUSED],
      [request("write_file", "write", []), WRITE_REFUSED],
      [
        request("mcp__git__commit", "exec"),
        "plan mode is on, and this tool could change files: plan mode makes only bash's " +
        "workspace read-only, and the tool does not declare that it only reads; use bash " +
        "(read-only in plan mode), or ask the user to leave plan mode (/plan off) to make changes",
      ],
      [{ ...request("mcp__git__log", "exec"), readOnly: true }, undefined],
    ];
    for (const [call] of cases) assertEquals(await guard.policy(call), allow, "off");
    guard.set(true);
    assertEquals(guard.on, true);
    for (const [call, reason] of cases) {
      const verdict = reason === undefined ? allow : { kind: "refuse", reason };
      assertEquals(await guard.policy(call), verdict, JSON.stringify(call));
    }
    await Deno.rename(`${workspace.root}/link.md`, `${workspace.root}/PLAN.md`);
    assertEquals(
      await guard.policy(request("write_file", "write", ["PLAN.md"])),
      { kind: "refuse", reason: WRITE_REFUSED },
      "a PLAN.md that links to another file is not the plan",
    );
  });
});

Deno.test("PlanGuard switches its runner's workspace: bash cannot change it in plan mode", async () => {
  await withWorkspace(async (workspace) => {
    const sandbox = new Sandbox(workspace.root, "bwrap");
    const guard = new PlanGuard(workspace, { runner: sandbox, confined: ["bash"] });
    const run = async () => {
      const signal = new AbortController().signal;
      const { output } = await sandbox.run("exec 2>&1; echo x > y.txt", {
        timeoutMs: 10_000,
        signal,
      });
      return output.text;
    };
    guard.set(true);
    assertEquals(sandbox.workspace, "ro");
    assertEquals(await run(), "bash: line 1: y.txt: Read-only file system\n");
    assertEquals(await Array.fromAsync(Deno.readDir(workspace.root)), []);
    guard.set(false);
    assertEquals([sandbox.workspace, await run()], ["rw", ""]);
    assertEquals(await Deno.readTextFile(`${workspace.root}/y.txt`), "x\n");
  });
});

Deno.test("createTools() gives a plan guard whose mode leaves the tool definitions as they are", async () => {
  await withWorkspace(async (workspace) => {
    const { tools, plan } = await createTools(workspace.root, {
      unsandboxedBash: false,
      probe: () => Promise.resolve(true),
    });
    const before = JSON.stringify(new ToolSet(tools).definitions());
    plan.set(true);
    const set = new ToolSet(tools, { policy: plan.policy });
    assertEquals(JSON.stringify(set.definitions()), before);
    const call = { id: "c", name: "bash", arguments: '{"command":"touch z"}' };
    const result = await set.execute(call, new AbortController().signal);
    assertEquals(result.content, "touch: cannot touch 'z': Read-only file system\nexit code 1");
  });
});
