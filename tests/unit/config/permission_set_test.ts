import { assertEquals, assertThrows } from "@std/assert";
import denoConfig from "../../../deno.json" with { type: "json" };
import { projectFlags, startFlags } from "../../../src/config/permission_set.ts";

const PROJECT = {
  roots: ["/src/app", "/src/lib dir"],
  providerFile: "/home/u/.config/powercode/provider.json",
  stateDir: "/home/u/.local/state/powercode/projects/app-0123456789ab",
};

Deno.test("projectFlags() grants read and write exactly, and start's net, run and env", () => {
  assertEquals(projectFlags(PROJECT, startFlags(denoConfig.tasks.start)), [
    "--allow-read=/src/app,/src/lib dir,/home/u/.config/powercode/provider.json," +
    "/home/u/.config/powercode/mcp.json,/home/u/.config/powercode/settings.json," +
    "/home/u/.config/powercode/skills," +
    "/home/u/.config/powercode/commands,/home/u/.config/powercode/agents," +
    "/home/u/.config/powercode/AGENTS.md," +
    "/home/u/.local/state/powercode/projects/app-0123456789ab",
    "--allow-write=/src/app,/src/lib dir,/home/u/.local/state/powercode/projects/app-0123456789ab",
    "--v8-flags=--min-semi-space-size=16",
    "--allow-net",
    "--allow-run=bwrap,bash",
    "--allow-env=OPENAI_*,POWERCODE_*,NO_COLOR,NODE_V8_COVERAGE",
    "--no-prompt",
  ]);
});

Deno.test("projectFlags() adds the names of shell.env to start's env grant, nothing else", () => {
  const flags = projectFlags(PROJECT, startFlags(denoConfig.tasks.start), ["GOPATH", "JAVA_HOME"]);
  assertEquals(
    flags.filter((flag) => flag.startsWith("--allow-env")),
    ["--allow-env=OPENAI_*,POWERCODE_*,NO_COLOR,NODE_V8_COVERAGE,GOPATH,JAVA_HOME"],
  );
});

Deno.test("projectFlags() refuses a start flag it does not know", () => {
  for (
    const flag of [
      "-A",
      "--allow-all",
      "--allow-sys",
      "--allow-ffi",
      "--unstable-net",
      "--v8-flags=--allow-natives-syntax",
    ]
  ) {
    assertThrows(
      () => projectFlags(PROJECT, [flag, "--allow-read=./workspace"]),
      TypeError,
      `Cannot compute the project's permissions: the start task's flag "${flag}" is not one ` +
        "project mode knows",
    );
  }
});

Deno.test("startFlags() reads the flags of deno run FLAGS main.ts", () => {
  assertEquals(startFlags("deno run --allow-net --no-prompt main.ts"), [
    "--allow-net",
    "--no-prompt",
  ]);
  assertThrows(() => startFlags("deno run -A other.ts"), TypeError, "Cannot read the start task");
});
