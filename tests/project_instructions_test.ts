import { assertEquals } from "@std/assert";
import {
  loadProjectInstructions,
  type ProjectInstructions,
} from "../src/agent/project_instructions.ts";
import type { Workspace } from "../src/workspace/workspace.ts";
import { makeFifo, within } from "./support/special_files.ts";
import { withWorkspace } from "./support/workspace.ts";

interface Loaded {
  instructions: ProjectInstructions | undefined;
  warnings: string[];
}

async function load(workspace: Workspace): Promise<Loaded> {
  const warnings: string[] = [];
  const instructions = await within(
    5_000,
    loadProjectInstructions(workspace, { warn: (line) => warnings.push(line) }),
  );
  return { instructions, warnings };
}

function skipped(warning: string): Loaded {
  return { instructions: undefined, warnings: [`⚠ AGENTS.md skipped: ${warning}`] };
}

Deno.test("loadProjectInstructions() reads AGENTS.md, and nothing when there is none", async () => {
  await withWorkspace(async (workspace) => {
    assertEquals(await load(workspace), { instructions: undefined, warnings: [] });
    await Deno.writeTextFile(`${workspace.root}/AGENTS.md`, "Use tabs.\n");
    assertEquals(await load(workspace), {
      instructions: { text: "Use tabs.\n", bytes: 10, truncated: false },
      warnings: [],
    });
  });
});

Deno.test("loadProjectInstructions() skips a FIFO, a directory and binary text with a warning", async () => {
  await withWorkspace(async (workspace) => {
    const path = `${workspace.root}/AGENTS.md`;
    await makeFifo(path);
    assertEquals(await load(workspace), skipped("it is a FIFO (named pipe), not a regular file"));
    await Deno.remove(path);
    await Deno.mkdir(path);
    assertEquals(await load(workspace), skipped("it is a directory"));
    await Deno.remove(path);
    await Deno.writeFile(path, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1]));
    assertEquals(await load(workspace), skipped("binary file (it contains NUL bytes)"));
  });
});

Deno.test("loadProjectInstructions() skips AGENTS.md linked out of the workspace", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.writeTextFile(`${parent}/outside/secret.md`, "secret\n");
    await Deno.symlink(`${parent}/outside/secret.md`, `${workspace.root}/AGENTS.md`);
    assertEquals(await load(workspace), skipped("path escapes the workspace"));
    await Deno.remove(`${workspace.root}/AGENTS.md`);
    await Deno.symlink("/dev/zero", `${workspace.root}/AGENTS.md`);
    assertEquals(await load(workspace), skipped("path escapes the workspace"));
  });
});

Deno.test("loadProjectInstructions() reads only the first 32 KB of a huge AGENTS.md", async () => {
  await withWorkspace(async (workspace) => {
    const path = `${workspace.root}/AGENTS.md`;
    await Deno.writeTextFile(path, `${"é".repeat(20_000)}\n`);
    // 20 GB, sparse: the rest reads as NUL bytes, which are never reached.
    await Deno.truncate(path, 20 * 1024 ** 3);
    const { instructions, warnings } = await load(workspace);
    assertEquals(warnings, []);
    assertEquals(instructions, {
      text: `${"é".repeat(16_384)}\n[AGENTS.md was cut here: only its first 32 KB are included]`,
      bytes: 20 * 1024 ** 3,
      truncated: true,
    });
  });
});
