/**
 * The questions before tool calls, answered at the REPL driven in-process: "no" with a
 * reason, "always" saving the generalized rule, and "preview" with a revert.
 *
 * @module
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { ApprovalSetup } from "../../src/app/assemble.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { skipWithout } from "../support/programs.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";
import { call } from "../support/scripted_model.ts";
import { treeState } from "../support/tree_state.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

const askMode = (dir: string): ApprovalSetup => ({
  mode: "ask",
  rules: { allow: [], ask: [], deny: [] },
  files: { user: `${dir}/config/settings.json` },
});

/** The tool results the model received, in order. */
function results(repl: ReplDouble): string[] {
  const last = repl.model.requests.at(-1)?.messages ?? [];
  return last.flatMap((message) => message.role === "tool" ? [message.content] : []);
}

Deno.test("approval REPL: in ask, no with a reason reaches the model and the tree stays byte-equal", async () => {
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "bash", { command: "echo hi > a.txt" })] },
    "Understood.",
  ], { approval: askMode });
  await Deno.writeTextFile(`${repl.workspace}/keep.txt`, "kept\n");
  const before = await treeState(repl.workspace);
  await repl.type(`write a${KEYS.enter}`);
  await repl.until(screenHas("? bash asks to run: echo hi > a.txt"), "the question");
  await repl.type(`n not in this repo${KEYS.enter}`);
  await repl.until(screenHas("Understood."), "the answer after the refusal");
  assertEquals(results(repl), ["Error: Cannot run bash: the user said no: not in this repo"]);
  assertEquals(await treeState(repl.workspace), before);
  assertEquals(await repl.end(), 0);
});

Deno.test({
  name:
    "approval REPL: always on git status saves bash(git status *) and git status --short then runs unasked",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const repl = await openReplDouble([
      { toolCalls: [call("c1", "bash", { command: "git status" })] },
      { toolCalls: [call("c2", "bash", { command: "git status --short" })] },
      "Both ran.",
    ], { approval: askMode });
    const settings = `${repl.dir}/config/settings.json`;
    await repl.type(`status${KEYS.enter}`);
    await repl.until(screenHas("a always (saves allow bash(git status *))"), "the rule shown");
    await repl.type(`a${KEYS.enter}`);
    await repl.until(screenHas("Both ran."), "the answer");
    const asked = repl.lines().filter((line) => line.includes("? bash asks to run"));
    assertEquals(asked.length, 1, "only the first call asked");
    assertEquals(JSON.parse(await Deno.readTextFile(settings)), {
      permissions: { allow: ["bash(git status *)"] },
    });
    const [first, second] = results(repl);
    assert(!first?.startsWith("Error: Cannot run"), first);
    assert(!second?.startsWith("Error: Cannot run"), second);
    assertEquals(await repl.end(), 0);
  },
});

Deno.test({
  name:
    "approval REPL: a preview of a command writing two files shows both diffs, and revert leaves the tree byte-equal",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const command = "printf 'new\\n' > a.txt && printf 'made\\n' > b.txt";
    const repl = await openReplDouble([
      { toolCalls: [call("c1", "bash", { command })] },
      "Reverted, then.",
    ], { approval: askMode, height: 40 });
    await Deno.writeTextFile(`${repl.workspace}/a.txt`, "old\n");
    const before = await treeState(repl.workspace);
    await repl.type(`write two${KEYS.enter}`);
    await repl.until(screenHas("p preview"), "the question with preview");
    await repl.type(`p${KEYS.enter}`);
    await repl.until(screenHas("k keep · r revert"), "the preview's report");
    const screen = repl.lines().join("\n");
    for (
      const line of ["changed a.txt", "-old", "+new", "created b.txt", "+made", "hosts tried: none"]
    ) {
      assertStringIncludes(screen, line);
    }
    assertEquals(await Deno.readTextFile(`${repl.workspace}/b.txt`), "made\n", "it ran");
    await repl.type(`r${KEYS.enter}`);
    await repl.until(screenHas("Reverted, then."), "the answer");
    assertEquals(await treeState(repl.workspace), before);
    assertStringIncludes(
      results(repl)[0] ?? "",
      "The user previewed what this command did and reverted it: 2 paths",
    );
    assertEquals(await repl.end(), 0);
  },
});
