import { assertEquals } from "@std/assert";
import { loadSkills, PROJECT_SKILL_DIRS, skillsSection } from "../../../src/setup/skills.ts";
import { projectDir, userDir } from "../../../src/setup/setup_dir.ts";
import { withWorkspace } from "../../support/workspace.ts";

async function skill(dir: string, frontmatter: string, body = "Body.\n"): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/SKILL.md`, `---\n${frontmatter}\n---\n${body}`);
}

Deno.test("loadSkills() lists skills sorted by name, the earlier directory winning a name, and warns of unusable ones", async () => {
  await withWorkspace(async (workspace, parent) => {
    const root = workspace.root;
    await skill(`${root}/.claude/skills/pdf`, "name: pdf\ndescription: PDF files,\n  forms");
    await skill(`${root}/.agents/skills/pdf-first`, "name: pdf\ndescription: The first pdf");
    await skill(`${root}/.powercode/skills/Bad Name`, "description: a bad name");
    await skill(`${root}/.powercode/skills/empty`, "name: empty");
    await Deno.mkdir(`${root}/.agents/skills/no-file`);
    await skill(`${parent}/outside/skills/zeta`, "description: Last one");
    const warnings: string[] = [];
    const skills = await loadSkills([
      ...PROJECT_SKILL_DIRS.map((dir) => projectDir(workspace, dir)),
      userDir(`${parent}/outside/skills`, "~/cfg/skills"),
    ], (line) => warnings.push(line));
    assertEquals(skills.map(({ name, description, folder }) => ({ name, description, folder })), [
      { name: "pdf", description: "The first pdf", folder: "pdf-first" },
      { name: "zeta", description: "Last one", folder: "zeta" },
    ]);
    assertEquals(warnings, [
      '⚠ Skill "pdf" in .claude/skills skipped: .agents/skills has one of that name',
      '⚠ Skill .powercode/skills/Bad Name/SKILL.md skipped: its name "Bad Name" is not ' +
      "lowercase letters, digits and -",
      '⚠ Skill .powercode/skills/empty/SKILL.md skipped: its frontmatter has no "description"',
    ]);
    assertEquals(
      skillsSection(skills)?.split("\n").slice(-2),
      [
        "- pdf: The first pdf (.agents/skills/pdf-first/SKILL.md)",
        `- zeta: Last one (${parent}/outside/skills/zeta/SKILL.md)`,
      ],
    );
    assertEquals(skillsSection([]), undefined);
  });
});
