import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import denoConfig from "../../deno.json" with { type: "json" };
import { installDir, launcherScript } from "../../src/app/install.ts";
import { createTempProject } from "../support/project.ts";

Deno.test("launcherScript() always runs the launch step or its cached output, never the workspace layout", async () => {
  const script = launcherScript("/opt/power 'code'");
  assert(
    script.startsWith(
      "#!/bin/sh\n" +
        `# powercode, installed by "deno task install" from /opt/power 'code'\n`,
    ),
  );
  assertStringIncludes(
    script,
    "\npowercode_launch=$(deno run --config '/opt/power '\\''code'\\''/deno.json' --allow-read " +
      "--allow-env=HOME,XDG_STATE_HOME,XDG_CONFIG_HOME,POWERCODE_PROVIDER --no-prompt " +
      `'/opt/power '\\''code'\\''/src/config/launch.ts' "$@") || exit\n`,
  );
  assert(script.endsWith(`\neval "$powercode_command"' "$@"'\n`));
  assertEquals(script.includes("workspace"), false);
  const syntax = await new Deno.Command("sh", { args: ["-n", "-c", script] }).output();
  assertEquals(syntax.code, 0, new TextDecoder().decode(syntax.stderr));
});

Deno.test("deno task install writes a launcher that works on a project holding workspace/", async () => {
  const bin = await Deno.makeTempDir();
  const project = await Deno.makeTempDir();
  try {
    const root = new URL("../..", import.meta.url).pathname;
    const install = await new Deno.Command("deno", {
      args: ["task", "--quiet", "install", bin],
      cwd: root,
    }).output();
    assertEquals(install.code, 0, new TextDecoder().decode(install.stderr));
    await Deno.mkdir(`${project}/workspace`);
    const run = await new Deno.Command(`${bin}/powercode`, { args: ["-V"], cwd: project })
      .output();
    assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
    assertStringIncludes(new TextDecoder().decode(run.stdout), `powercode ${denoConfig.version}`);
    const scope = await new Deno.Command(`${bin}/powercode`, { args: ["--scope"], cwd: project })
      .output();
    const report = new TextDecoder().decode(scope.stdout);
    assertStringIncludes(report, "(project mode)\n");
    assertStringIncludes(report, `\n  ${await Deno.realPath(project)}\n`);
  } finally {
    await Deno.remove(bin, { recursive: true });
    await Deno.remove(project, { recursive: true });
  }
});

Deno.test("installDir() takes the directory after a leading --, else the first argument or ~/.local/bin", () => {
  assertEquals(installDir(["--", "/opt/bin"], "/home/u"), "/opt/bin");
  assertEquals(installDir(["/opt/bin"], "/home/u"), "/opt/bin");
  assertEquals(installDir(["--"], "/home/u"), "/home/u/.local/bin");
  assertEquals(installDir([], undefined), undefined);
});

Deno.test("deno task install -- DIR, as the README writes it, installs into DIR and creates no --", async () => {
  await using project = await createTempProject();
  const bin = await Deno.makeTempDir();
  try {
    const install = await new Deno.Command("deno", {
      args: ["task", "--quiet", "install", "--", bin],
      cwd: project.dir,
    }).output();
    assertEquals(install.code, 0, new TextDecoder().decode(install.stderr));
    assertEquals((await Deno.stat(`${bin}/powercode`)).isFile, true);
    assertEquals(await Deno.stat(`${project.dir}/--`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(bin, { recursive: true });
  }
});
