import { assertEquals } from "@std/assert";
import { agentFromFrontmatter } from "../../../src/subagents/agent_definition.ts";
import { parseFrontmatter } from "../../../src/setup/frontmatter.ts";

const FILE = { name: "reviewer.md", source: ".powercode/agents/reviewer.md" };

function agentOf(text: string) {
  return agentFromFrontmatter(parseFrontmatter(text), FILE);
}

Deno.test("agentFromFrontmatter() reads every field and the body as instructions", () => {
  assertEquals(
    agentOf(
      "---\ndescription: reviews\ntools: [read_file, bash]\nprofile: fast\nmaxSteps: 7\n" +
        "budget: { tokens: 20000 }\nroots: [src/api, docs]\nreadOnly: true\n---\nReview it.\n",
    ),
    {
      name: "reviewer",
      description: "reviews",
      instructions: "Review it.",
      tools: ["read_file", "bash"],
      profile: "fast",
      maxSteps: 7,
      budget: { tokens: 20000 },
      roots: ["src/api", "docs"],
      readOnly: true,
      source: FILE.source,
    },
  );
  assertEquals(
    (agentOf("---\nname: cheap\ndescription: d\nbudget: { cost: 0.05 }\n---\n") as {
      budget: unknown;
    }).budget,
    { cost: 0.05 },
  );
});

Deno.test("agentFromFrontmatter() refuses a bad field with one line naming it", () => {
  const where = 'Cannot load agent file ".powercode/agents/reviewer.md"';
  assertEquals(agentOf("---\nname: x\n---\n"), `${where}: field "description" is missing`);
  assertEquals(
    agentOf("---\ndescription: d\nbudget: 500\n---\n"),
    `${where}: field "budget" "500" is not { tokens: N } or { cost: N }`,
  );
  assertEquals(
    agentOf("---\ndescription: d\nmaxSteps: 0\n---\n"),
    `${where}: field "maxSteps" "0" is not a positive integer`,
  );
  assertEquals(
    agentOf("---\nname: Bad Name\ndescription: d\n---\n"),
    `${where}: field "name" "Bad Name" is not lower-case letters, digits, - and _`,
  );
});
