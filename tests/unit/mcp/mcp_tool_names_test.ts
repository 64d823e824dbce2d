import { assert, assertEquals } from "@std/assert";
import { mcpToolNames } from "../../../src/mcp/tool_names.ts";

/** The strictest rule among providers: OpenAI's, with Gemini's first letter. */
const VALID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

Deno.test("mcpToolNames() prefixes server and tool and replaces characters providers refuse", () => {
  assertEquals(
    mcpToolNames([
      { server: "git", tool: "git_status" },
      { server: "fs", tool: "read.file" },
      { server: "my-server", tool: "ask/ä question" },
    ]),
    ["mcp__git__git_status", "mcp__fs__read_file", "mcp__my-server__ask___question"],
  );
});

Deno.test("mcpToolNames() keeps names unique, at most 64 characters and the same every time", () => {
  const keys = [
    { server: "fs", tool: "read.file" },
    { server: "fs", tool: "read_file" },
    { server: "docs", tool: "x".repeat(80) },
  ];
  const names = mcpToolNames(keys);
  assertEquals(new Set(names).size, 3);
  for (const name of names) assert(VALID.test(name), name);
  assertEquals(names[0]?.slice(0, 19), "mcp__fs__read_file_");
  assertEquals(names[2]?.length, 64);
  assertEquals(mcpToolNames(keys), names);
  assertEquals(mcpToolNames([keys[0]!])[0], "mcp__fs__read_file");
});
