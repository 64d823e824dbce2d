import { assertEquals, assertMatch } from "@std/assert";
import { launchEntry } from "../../../src/config/launch_entry.ts";
import { PathRecorder } from "../../../src/config/path_record.ts";
import { resolveProject } from "../../../src/config/project.ts";
import { settingsEnvNames } from "../../../src/config/settings_env.ts";

/** Every ancestor of `path` (absolute), from `/`, then `path`. */
function chain(path: string): string[] {
  const parts = path.split("/").filter((part) => part !== "");
  return ["/", ...parts.map((_, index) => `/${parts.slice(0, index + 1).join("/")}`)];
}

Deno.test("PathRecorder records each path the kernel visits: ancestors, links, their targets, missing names", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_record_" }));
  try {
    await Deno.mkdir(`${home}/real/app`, { recursive: true });
    await Deno.symlink("real", `${home}/via`);
    await Deno.mkdir(`${home}/config`);
    await Deno.writeTextFile(`${home}/config/provider.json`, "{}");
    await Deno.symlink(`${home}/config/provider.json`, `${home}/provider-link.json`);
    const recorder = new PathRecorder();
    const env = {
      cwd: `${home}/via/app`,
      home,
      stateHome: undefined,
      configHome: undefined,
      provider: `${home}/provider-link.json`,
    };
    const project = await resolveProject({ addDirs: [] }, env, recorder);
    assertEquals(project.roots, [`${home}/real/app`]);
    assertEquals(await settingsEnvNames(project, recorder), []);
    assertEquals(recorder.directories(), [
      ...chain(home),
      `${home}/real`,
      `${home}/real/app`,
      `${home}/config`,
    ]);
    assertEquals(recorder.others(), [
      `${home}/via`,
      `${home}/provider-link.json`,
      `${home}/config/provider.json`,
      `${home}/config/settings.json`,
      `${home}/real/app/.powercode`,
    ]);
    // One line per existing path that is no directory: mode, device, inode, size, mtime to
    // the millisecond, ctime to the second; none for the missing two.
    const lines = recorder.observed().split("\n");
    assertEquals(lines.length, 3);
    const link = await Deno.lstat(`${home}/via`);
    assertEquals(
      lines[0],
      `a1ff ${link.dev} ${link.ino} 4 ${(link.mtime!.getTime() / 1000).toFixed(3)} ` +
        Math.floor(link.ctime!.getTime() / 1000),
    );
    assertMatch(lines[1] ?? "", /^a1ff \d+ \d+ \d+ \d+\.\d{3} \d+$/);
    assertMatch(lines[2] ?? "", /^81[0-9a-f]{2} \d+ \d+ 2 \d+\.\d{3} \d+$/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("launchEntry() quotes every path and value for sh", () => {
  const recorder = new PathRecorder();
  recorder.record("/no such/it's $HOME\n`x`");
  const entry = launchEntry("exec 'deno'", recorder, ["-p", "fix it"]);
  assertEquals(entry.split("\n")[0], `powercode_command='exec '\\''deno'\\'''`);
  assertMatch(entry, /\{ \[ -d '\/' \] && \[ ! -h '\/' \] && exec stat -c "\$1" -- '\/no such' 2>/);
  assertMatch(entry, /\npowercode_observed=''\n/);
  assertMatch(entry, /\npowercode_cacheable=1\n$/);
  assertEquals(launchEntry("x", recorder, ["-p", " "]).includes("cacheable"), false);
});
