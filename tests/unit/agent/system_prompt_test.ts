import { assertEquals } from "@std/assert";
import { buildSystemPrompt } from "../../../src/agent/system_prompt.ts";
import { createTools } from "../../../src/tools/mod.ts";
import { ToolSet } from "../../../src/tools/tool_set.ts";

const INTRO = [
  "You are powercode, a coding agent working in a terminal for the person you talk with.",
  "Your tools act only inside the workspace directory /ws; every path is relative to it, and " +
  "nothing outside it can be read, written or run.",
];
const END = [
  "When the task is done, answer briefly with what you did and what you found.",
  "Answer in the language the user writes in.",
];

Deno.test("buildSystemPrompt() names the standard tools only through their guidance, as before", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { tools } = await createTools(dir, { unsandboxedBash: true });
    const toolGuidance = new ToolSet(tools).guidance();
    assertEquals(
      buildSystemPrompt("/ws", { toolGuidance, instructions: "Use tabs." }),
      [
        ...INTRO,
        "Read a file before you change it. Prefer edit_file for small changes and write_file " +
        "for new files.",
        "After changing code, run commands with bash to verify that it works (bash runs " +
        "sandboxed, without network access).",
        "For a task of several steps, keep its todo list with the todo tool as you go.",
        ...END,
      ].join("\n") + "\n\n# Project instructions (AGENTS.md in the workspace)\n\nUse tabs.",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildSystemPrompt() without tool guidance names no tool", () => {
  assertEquals(buildSystemPrompt("/ws"), [...INTRO, ...END].join("\n"));
});
