import { assertEquals, assertRejects } from "@std/assert";
import denoConfig from "../../deno.json" with { type: "json" };
import { ConfigError } from "../../src/config/config_error.ts";
import { launchCommand } from "../../src/config/launch.ts";
import { startFlags } from "../../src/config/permission_set.ts";
import { stateName } from "../../src/config/project.ts";

const CHECKOUT = { config: "/opt/pc/deno.json", main: "/opt/pc/main.ts" };

/** A temp home with a project whose name needs quoting, and a fake `deno` that prints its argv. */
async function withHome(fn: (home: string, bin: string) => Promise<void>): Promise<void> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_launch_" }));
  try {
    await Deno.mkdir(`${home}/my 'app'`);
    await Deno.mkdir(`${home}/bin`);
    await Deno.writeTextFile(
      `${home}/bin/deno`,
      '#!/bin/sh\necho "PROJECT=${POWERCODE_PROJECT-unset}"\nprintf "%s\\n" "$@"\n',
      { mode: 0o755 },
    );
    await fn(home, `${home}/bin`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/** What the launcher does with `command`: `eval "$command"' "$@"'`, here with a fake deno. */
async function evaluate(command: string, bin: string, args: string[]): Promise<string[]> {
  const { stdout, code } = await new Deno.Command("sh", {
    args: ["-c", `eval "$0"' "$@"'`, command, ...args],
    env: { PATH: `${bin}:/usr/bin:/bin`, POWERCODE_PROJECT: "stale" },
  }).output();
  assertEquals(code, 0);
  return new TextDecoder().decode(stdout).trimEnd().split("\n");
}

function env(home: string, cwd: string) {
  return { cwd, home, stateHome: undefined, configHome: undefined, provider: undefined };
}

Deno.test("launchCommand() starts project mode with its permission set and project", async () => {
  await withHome(async (home, bin) => {
    const root = `${home}/my 'app'`;
    const args = ["-p", "it's done"];
    const command = await launchCommand(args, {
      env: env(home, root),
      checkout: CHECKOUT,
      startTask: denoConfig.tasks.start,
    });
    const state = `${home}/.local/state/powercode/projects/${await stateName(root)}`;
    const provider = `${home}/.config/powercode/provider.json`;
    assertEquals(await evaluate(command, bin, args), [
      `PROJECT=${JSON.stringify({ roots: [root], providerFile: provider, stateDir: state, home })}`,
      "run",
      "--config",
      "/opt/pc/deno.json",
      `--allow-read=${root},${provider},${home}/.config/powercode/mcp.json,` +
      `${home}/.config/powercode/settings.json,` +
      `${home}/.config/powercode/skills,${home}/.config/powercode/commands,` +
      `${home}/.config/powercode/agents,` +
      `${home}/.config/powercode/AGENTS.md,${state}`,
      `--allow-write=${root},${state}`,
      ...startFlags(denoConfig.tasks.start).filter((flag) => !/^--allow-(read|write)=/.test(flag)),
      "/opt/pc/main.ts",
      "-p",
      "it's done",
    ]);
  });
});

Deno.test("launchCommand() works on the project also where workspace/ is, and refuses --workspace-layout", async () => {
  await withHome(async (home, bin) => {
    const dir = `${home}/my 'app'`;
    await Deno.mkdir(`${dir}/workspace`);
    const options = { env: env(home, dir), checkout: CHECKOUT, startTask: denoConfig.tasks.start };
    const [project] = await evaluate(await launchCommand([], options), bin, ["-c"]);
    assertEquals(JSON.parse(project?.slice("PROJECT=".length) ?? "").roots, [dir]);
    await assertRejects(
      () => launchCommand(["--workspace-layout"], options),
      ConfigError,
      "Cannot use --workspace-layout: the installed command works on the directory it is " +
        'started in (or --dir); the workspace layout is "deno task start" in powercode\'s checkout',
    );
  });
});

Deno.test("launchCommand() runs -h, -V and bad flags with no permission at all", async () => {
  await withHome(async (home, bin) => {
    for (const args of [["-h"], ["-V"], ["--frobnicate"], ["--dir"]]) {
      const command = await launchCommand(args, {
        env: env(home, "/"),
        checkout: CHECKOUT,
        startTask: denoConfig.tasks.start,
      });
      assertEquals(await evaluate(command, bin, args), [
        "PROJECT=unset",
        "run",
        "--config",
        "/opt/pc/deno.json",
        "--no-prompt",
        "/opt/pc/main.ts",
        ...args,
      ]);
    }
  });
});

Deno.test("launchCommand() refuses / and the home directory with a ConfigError", async () => {
  await withHome(async (home) => {
    for (const [args, cwd] of [[[], "/"], [[], home], [["-C", "/"], home]] as const) {
      await assertRejects(
        () =>
          launchCommand([...args], {
            env: env(home, cwd),
            checkout: CHECKOUT,
            startTask: denoConfig.tasks.start,
          }),
        ConfigError,
        "Cannot work on",
      );
    }
  });
});
