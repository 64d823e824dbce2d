import { assertEquals } from "@std/assert";
import {
  expandArguments,
  loadCustomCommands,
  PROJECT_COMMAND_DIRS,
} from "../../../src/setup/custom_commands.ts";
import { parseFrontmatter } from "../../../src/setup/frontmatter.ts";
import { projectDir, userDir } from "../../../src/setup/setup_dir.ts";
import { withWorkspace } from "../../support/workspace.ts";

Deno.test("parseFrontmatter() reads key: value lines, quoted values and lists, and keeps the body", () => {
  const text = [
    "---",
    'description: "Review: a file"',
    "allowed-tools: [read_file, 'bash']",
    "tools:",
    "  - grep",
    "  - glob",
    "argument-hint: <file>",
    "---",
    "Body $ARGUMENTS",
    "",
  ].join("\n");
  assertEquals(parseFrontmatter(text), {
    fields: {
      description: "Review: a file",
      "allowed-tools": ["read_file", "bash"],
      tools: ["grep", "glob"],
      "argument-hint": "<file>",
    },
    body: "Body $ARGUMENTS\n",
  });
  assertEquals(parseFrontmatter("no frontmatter\n---\n"), {
    fields: {},
    body: "no frontmatter\n---\n",
  });
  assertEquals(parseFrontmatter("---\nunclosed: yes\n").fields, {});
});

Deno.test("expandArguments() fills $ARGUMENTS and $1…$9, quoted words as one; appends the arguments to a body without placeholders", () => {
  assertEquals(
    expandArguments("Fix $1 in $2 ($ARGUMENTS), not $3.", ` "a b.ts" c.ts `),
    'Fix a b.ts in c.ts ("a b.ts" c.ts), not .',
  );
  assertEquals(expandArguments("Review the diff.", "carefully"), "Review the diff.\n\ncarefully");
  assertEquals(expandArguments("Review the diff.", ""), "Review the diff.");
});

Deno.test("loadCustomCommands() reads *.md commands sorted, the earlier directory winning a name, and warns once per bad file", async () => {
  await withWorkspace(async (workspace, parent) => {
    const at = (dir: string) => `${workspace.root}/${dir}`;
    await Deno.mkdir(at(".powercode/commands"), { recursive: true });
    await Deno.mkdir(at(".claude/commands/sub"), { recursive: true });
    await Deno.mkdir(`${parent}/outside/commands`);
    await Deno.writeTextFile(
      at(".claude/commands/review.md"),
      "---\ndescription: Review\nargument-hint: <file>\nmodel: big\nallowed-tools: read_file grep\n---\n\nReview $1.\n",
    );
    await Deno.writeTextFile(at(".powercode/commands/review.md"), "Mine first.\n");
    await Deno.writeTextFile(at(".claude/commands/notes.txt"), "not a command\n");
    await Deno.writeFile(at(".claude/commands/bin.md"), new Uint8Array([0, 1]));
    await Deno.writeTextFile(at(".claude/commands/huge.md"), "x".repeat(40_000));
    await Deno.writeTextFile(`${parent}/outside/commands/a b.md`, "spaces\n");
    await Deno.writeTextFile(`${parent}/outside/commands/deploy.md`, "Deploy.\n");
    const warnings: string[] = [];
    const dirs = [
      ...PROJECT_COMMAND_DIRS.map((dir) => projectDir(workspace, dir)),
      userDir(`${parent}/outside/commands`, "~/cfg/commands"),
    ];
    const commands = await loadCustomCommands(dirs, (line) => warnings.push(line));
    assertEquals(commands.map(({ name, source, body }) => ({ name, source, body })), [
      { name: "deploy", source: "~/cfg/commands", body: "Deploy." },
      { name: "review", source: ".powercode/commands", body: "Mine first." },
    ]);
    assertEquals(warnings, [
      "⚠ Command .claude/commands/bin.md skipped: binary file (it contains NUL bytes)",
      "⚠ Command .claude/commands/huge.md skipped: it is larger than 32 KB",
      "⚠ Command .claude/commands/review.md skipped: .powercode/commands has /review",
      "⚠ Command ~/cfg/commands/a b.md skipped: its name is not letters, digits, _, . and -",
    ]);
    await Deno.remove(at(".powercode/commands/review.md"));
    const [review] = await loadCustomCommands(dirs.slice(1, 2), () => {});
    assertEquals(review, {
      name: "review",
      description: "Review",
      argumentHint: "<file>",
      model: "big",
      allowedTools: ["read_file", "grep"],
      body: "Review $1.",
      source: ".claude/commands",
      origin: "project",
    });
  });
});
