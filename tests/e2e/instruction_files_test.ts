import { assertEquals } from "@std/assert";
import {
  type InstructionFile,
  type InstructionPlaces,
  loadedLine,
  loadInstructionFiles,
} from "../../src/setup/instruction_files.ts";
import type { Workspace } from "../../src/workspace/workspace.ts";
import { makeFifo, within } from "../support/special_files.ts";
import { withWorkspace } from "../support/workspace.ts";

interface Loaded {
  files: InstructionFile[];
  warnings: string[];
}

async function load(
  workspace: Workspace,
  places: Omit<InstructionPlaces, "workspace"> = {},
): Promise<Loaded> {
  const warnings: string[] = [];
  const files = await within(
    5_000,
    loadInstructionFiles({ workspace, ...places }, (line) => warnings.push(line)),
  );
  return { files, warnings };
}

function root(text: string, name = "AGENTS.md"): InstructionFile {
  const bytes = new TextEncoder().encode(text).length;
  const heading = `Project instructions (${name} in the workspace)`;
  return { label: name, heading, text, bytes, truncated: false };
}

function skipped(warning: string): Loaded {
  return { files: [], warnings: [`⚠ AGENTS.md skipped: ${warning}`] };
}

Deno.test("loadInstructionFiles() reads AGENTS.md, else CLAUDE.md, and nothing when there is none", async () => {
  await withWorkspace(async (workspace) => {
    assertEquals(await load(workspace), { files: [], warnings: [] });
    await Deno.writeTextFile(`${workspace.root}/CLAUDE.md`, "Use spaces.\n");
    assertEquals(await load(workspace), {
      files: [root("Use spaces.\n", "CLAUDE.md")],
      warnings: [],
    });
    await Deno.writeTextFile(`${workspace.root}/AGENTS.md`, "Use tabs.\n");
    assertEquals(await load(workspace), { files: [root("Use tabs.\n")], warnings: [] });
  });
});

Deno.test("loadInstructionFiles() reads the user's file, then each directory from the root down to the cwd", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.mkdir(`${workspace.root}/app/pkg/sub`, { recursive: true });
    await Deno.writeTextFile(`${workspace.root}/AGENTS.md`, "root\n");
    await Deno.writeTextFile(`${workspace.root}/app/CLAUDE.md`, "app\n");
    await Deno.writeTextFile(`${workspace.root}/app/pkg/sub/AGENTS.md`, "sub\n");
    await Deno.writeTextFile(`${parent}/outside/AGENTS.md`, "mine\n");
    const { files, warnings } = await load(workspace, {
      cwd: `${workspace.root}/app/pkg/sub`,
      userFile: { path: `${parent}/outside/AGENTS.md`, label: "~/AGENTS.md" },
    });
    assertEquals(warnings, []);
    assertEquals(files.map((file) => [file.label, file.heading, file.text]), [
      ["~/AGENTS.md", "The user's own instructions (for every project)", "mine\n"],
      ["AGENTS.md", "Project instructions (AGENTS.md in the workspace)", "root\n"],
      ["app/CLAUDE.md", "Project instructions (app/CLAUDE.md, for work in app/)", "app\n"],
      [
        "app/pkg/sub/AGENTS.md",
        "Project instructions (app/pkg/sub/AGENTS.md, for work in app/pkg/sub/)",
        "sub\n",
      ],
    ]);
    assertEquals(
      loadedLine(files.slice(1, 3)),
      "Loaded AGENTS.md (5 bytes), app/CLAUDE.md (4 bytes)",
    );
    const outside = await load(workspace, { cwd: `${parent}/outside` });
    assertEquals(outside.files.map((file) => file.label), ["AGENTS.md"]);
  });
});

Deno.test("loadInstructionFiles() skips a FIFO, a directory and binary text with a warning, and then no CLAUDE.md", async () => {
  await withWorkspace(async (workspace) => {
    const path = `${workspace.root}/AGENTS.md`;
    await Deno.writeTextFile(`${workspace.root}/CLAUDE.md`, "Not read.\n");
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

Deno.test("loadInstructionFiles() skips AGENTS.md linked out of the workspace, and a user's file that is a FIFO", async () => {
  await withWorkspace(async (workspace, parent) => {
    await Deno.writeTextFile(`${parent}/outside/secret.md`, "secret\n");
    await Deno.symlink(`${parent}/outside/secret.md`, `${workspace.root}/AGENTS.md`);
    assertEquals(await load(workspace), skipped("path escapes the workspace"));
    await Deno.remove(`${workspace.root}/AGENTS.md`);
    await Deno.symlink("/dev/zero", `${workspace.root}/AGENTS.md`);
    assertEquals(await load(workspace), skipped("path escapes the workspace"));
    await Deno.remove(`${workspace.root}/AGENTS.md`);
    await makeFifo(`${parent}/outside/AGENTS.md`);
    const userFile = { path: `${parent}/outside/AGENTS.md`, label: "~/AGENTS.md" };
    assertEquals(await load(workspace, { userFile }), {
      files: [],
      warnings: ["⚠ ~/AGENTS.md skipped: it is not a regular file"],
    });
  });
});

Deno.test("loadInstructionFiles() reads only the first 32 KB of a huge AGENTS.md", async () => {
  await withWorkspace(async (workspace) => {
    const path = `${workspace.root}/AGENTS.md`;
    await Deno.writeTextFile(path, `${"é".repeat(20_000)}\n`);
    // 20 GB, sparse: the rest reads as NUL bytes, which are never reached.
    await Deno.truncate(path, 20 * 1024 ** 3);
    const { files, warnings } = await load(workspace);
    assertEquals(warnings, []);
    assertEquals(files, [{
      ...root(""),
      text: `${"é".repeat(16_384)}\n[AGENTS.md was cut here: only its first 32 KB are included]`,
      bytes: 20 * 1024 ** 3,
      truncated: true,
    }]);
  });
});
