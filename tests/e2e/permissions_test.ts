import { assert, assertEquals } from "@std/assert";
import { createTempProject } from "../support/project.ts";

const deno = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));

function flagsOf(task: string, command: string): string[] {
  const words = task.trim().split(/\s+/);
  assertEquals(words.slice(0, 2), ["deno", command], `task does not start with deno ${command}`);
  return words.filter((word) => word.startsWith("--allow-") || word === "--no-prompt");
}

const EXPECTED_FLAGS = [
  "--allow-read=./workspace,./provider.json,./.powercode",
  "--allow-write=./workspace,./.powercode",
  "--allow-net",
  "--allow-run=bwrap,bash",
  "--allow-env=OPENAI_*,POWERCODE_*,NO_COLOR,NODE_V8_COVERAGE",
  "--no-prompt",
];

Deno.test("deno.json start and compile share one permission flag list without -A", () => {
  const start = flagsOf(deno.tasks.start, "run");
  const compile = flagsOf(deno.tasks.compile, "compile");
  assertEquals(start, EXPECTED_FLAGS);
  assertEquals(compile, start);
  for (const task of [deno.tasks.start, deno.tasks.compile, deno.tasks.demo]) {
    assert(!/\s(-A|--allow-all)(\s|$)/.test(task), `task grants everything: ${task}`);
  }
  assertEquals(flagsOf(deno.tasks.demo, "run"), start);
});

Deno.test("deno task compile bakes the same permissions into the binary", async () => {
  await using project = await createTempProject();
  const denoPath = new Deno.Command("bash", { args: ["-c", "command -v deno"] }).outputSync();
  const denortStandIn = new TextDecoder().decode(denoPath.stdout).trim();
  const result = await project.run([], {
    task: "compile",
    env: { DENORT_BIN: denortStandIn },
  });
  assertEquals(result.code, 0, result.stderr);
  const binary = new TextDecoder().decode(await Deno.readFile(`${project.dir}/powercode`));
  const baked = JSON.parse(binary.match(/"permissions":(\{[^{}]*\})/)?.[1] ?? "null");
  assertEquals(
    {
      allow_read: baked.allow_read,
      allow_write: baked.allow_write,
      allow_net: baked.allow_net,
      allow_run: baked.allow_run,
      allow_env: baked.allow_env,
      allow_all: baked.allow_all,
    },
    {
      allow_read: ["./workspace", "./provider.json", "./.powercode"],
      allow_write: ["./workspace", "./.powercode"],
      allow_net: [],
      allow_run: ["bwrap", "bash"],
      allow_env: ["OPENAI_*", "POWERCODE_*", "NO_COLOR", "NODE_V8_COVERAGE"],
      allow_all: undefined,
    },
  );
  assert(!binary.includes("gpt-tokenizer"), "a test-only npm package was bundled");
  // The binary is the workspace layout: the argument that chooses it is baked in.
  assertEquals(JSON.parse(binary.match(/"argv":(\[[^\]]*\])/)?.[1] ?? "null"), [
    "--workspace-layout",
  ]);
});
