import { assertEquals } from "@std/assert";
import { defineParams } from "../../../src/tools/params.ts";

const PARAMS = {
  path: { type: "string", description: "A path" },
  depth: { type: "integer", description: "How deep", optional: true },
  ratio: { type: "number", description: "A share", optional: true },
  mode: { type: "enum", values: ["fast", "exact"], description: "How", optional: true },
  globs: { type: "string[]", description: "Patterns", optional: true },
  force: { type: "boolean", description: "Overwrite", optional: true },
} as const;

Deno.test("defineParams() gives the JSON schema of strings, numbers, enums and string arrays", () => {
  assertEquals(defineParams(PARAMS).schema, {
    type: "object",
    properties: {
      path: { type: "string", description: "A path" },
      depth: { type: "integer", description: "How deep" },
      ratio: { type: "number", description: "A share" },
      mode: { type: "string", enum: ["fast", "exact"], description: "How" },
      globs: { type: "array", items: { type: "string" }, description: "Patterns" },
      force: { type: "boolean", description: "Overwrite" },
    },
    required: ["path"],
  });
});

Deno.test("defineParams() parses arguments of every type into typed values", () => {
  const args = {
    path: "a",
    depth: 2,
    ratio: 0.5,
    mode: "exact" as const,
    globs: ["*.ts"],
    force: true,
  };
  const parsed = defineParams(PARAMS).parse(args);
  assertEquals(parsed, { ok: true, args });
  if (parsed.ok) {
    const typed: { mode?: "fast" | "exact"; globs?: string[]; ratio?: number } = parsed.args;
    assertEquals(typed.mode, "exact");
  }
});

Deno.test("defineParams() names the argument and the type it must have", () => {
  const { parse } = defineParams(PARAMS);
  const problems = [
    { path: "a", ratio: "1" },
    { path: "a", ratio: Infinity },
    { path: "a", depth: 1.5 },
    { path: "a", mode: "slow" },
    { path: "a", globs: ["a", 1] },
    { path: "a", globs: "*.ts" },
    {},
  ].map((args) => {
    const result = parse(args);
    return result.ok ? "accepted" : result.problem;
  });
  assertEquals(problems, [
    'argument "ratio" must be number, got "1"',
    'argument "ratio" must be number, got null',
    'argument "depth" must be integer, got 1.5',
    'argument "mode" must be one of "fast", "exact", got "slow"',
    'argument "globs" must be an array of strings, got ["a",1]',
    'argument "globs" must be an array of strings, got "*.ts"',
    'missing required argument "path"',
  ]);
});
