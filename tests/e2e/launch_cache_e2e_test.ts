/**
 * End-to-end: the installed command's cache of its launch step. A repeated start in the same
 * situation runs no second Deno process (a `deno` on PATH that logs its runs counts the launch
 * steps), and every change the launch step's output depends on makes the next start take the
 * fresh path with the right permission set (as `--scope` prints it).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { createInstalledHome, type InstalledHome } from "../support/installed.ts";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");

/**
 * Runs of the installed command through a logging `deno`: how many launch steps ran, and the
 * program's own command line (its permission set).
 */
async function counted(installed: InstalledHome) {
  const shim = `${installed.home}/shim`;
  const log = `${installed.home}/deno-runs.log`;
  await Deno.mkdir(shim);
  await Deno.writeTextFile(
    `${shim}/deno`,
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${Deno.execPath()}' "$@"\n`,
    { mode: 0o755 },
  );
  await Deno.writeTextFile(log, "");
  const path = `${shim}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  return {
    /** `powercode ...args`, its exit code and output, and whether a launch step ran. */
    async run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
      const before = await launches(log);
      const result = await installed.run(args, { ...options, env: { PATH: path, ...options.env } });
      const runs = (await Deno.readTextFile(log)).trimEnd().split("\n");
      return { ...result, launched: await launches(log) - before, program: runs.at(-1) ?? "" };
    },
  };
}

async function launches(log: string): Promise<number> {
  const lines = (await Deno.readTextFile(log)).split("\n");
  return lines.filter((line) => line.includes("src/config/launch.ts")).length;
}

/** The cache entries under the temp home's state directory. */
async function entries(home: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${home}/.local/state/powercode/launch`)) {
    names.push(entry.name);
  }
  return names;
}

Deno.test("a repeated start runs no launch step, in a directory with spaces, quotes, $ and a newline", async () => {
  await using installed = await createInstalledHome();
  const powercode = await counted(installed);
  const dir = `${installed.project}/it's a "$HOME" \`dir\`\nline`;
  await Deno.mkdir(dir);
  const first = await powercode.run(["--scope"], { cwd: dir });
  assertEquals([first.code, first.launched], [0, 1], first.stderr);
  assertStringIncludes(first.stdout, `read   granted: ${dir.replace("\n", "↵")}, `);
  const second = await powercode.run(["--scope"], { cwd: dir });
  assertEquals([second.code, second.launched, second.stdout], [0, 0, first.stdout]);
  const cache = `${installed.home}/.local/state/powercode/launch`;
  assertEquals((await Deno.stat(cache)).mode! & 0o777, 0o700);
  assertEquals((await entries(installed.home)).length, 1);
  assertEquals(
    (await Array.fromAsync(Deno.readDir(dir))).length,
    0,
    "nothing of the cache inside the project",
  );
});

Deno.test("a malformed entry and a refusal take the launch step, and a refusal is not cached", async () => {
  await using installed = await createInstalledHome();
  const powercode = await counted(installed);
  assertEquals((await powercode.run(["--scope"])).launched, 1);
  const [entry] = await entries(installed.home);
  await Deno.writeTextFile(`${installed.home}/.local/state/powercode/launch/${entry}`, "'x\n");
  const fresh = await powercode.run(["--scope"]);
  assertEquals([fresh.code, fresh.launched, fresh.stderr], [0, 1, ""]);
  assertEquals((await powercode.run(["--scope"])).launched, 0);
  for (let run = 0; run < 2; run++) {
    const refused = await powercode.run(["--dir", "missing", "--scope"]);
    assertEquals([refused.code, refused.launched, refused.stdout], [2, 1, ""]);
    assertStringIncludes(refused.stderr, "no such directory");
  }
  assertEquals((await entries(installed.home)).length, 1);
});

Deno.test("a retargeted link, a renamed or replaced directory take the fresh path", async () => {
  await using installed = await createInstalledHome();
  const powercode = await counted(installed);
  const { home } = installed;
  for (const name of ["a", "b", "p"]) await Deno.mkdir(`${home}/${name}`);
  await Deno.symlink(`${home}/a`, `${home}/link`);
  const scope = async (dir: string) => {
    const result = await powercode.run(["--dir", dir, "--scope"]);
    return [result.code, result.launched, result.stdout.split("\n")[2]?.trim()];
  };
  assertEquals(await scope(`${home}/link`), [0, 1, `${home}/a`]);
  assertEquals(await scope(`${home}/link`), [0, 0, `${home}/a`]);
  await Deno.remove(`${home}/link`);
  await Deno.symlink(`${home}/b`, `${home}/link`);
  assertEquals(await scope(`${home}/link`), [0, 1, `${home}/b`]);
  assertEquals(await scope(`${home}/p`), [0, 1, `${home}/p`]);
  assertEquals(await scope(`${home}/p`), [0, 0, `${home}/p`]);
  await Deno.rename(`${home}/p`, `${home}/p-old`);
  await Deno.symlink(`${home}/a`, `${home}/p`);
  assertEquals(await scope(`${home}/p`), [0, 1, `${home}/a`]);
  await Deno.remove(`${home}/p`);
  const gone = await powercode.run(["--dir", `${home}/p`, "--scope"]);
  assertEquals([gone.code, gone.launched], [2, 1]);
});

Deno.test("settings files created, edited, removed and .powercode/ appearing take the fresh path", async () => {
  await using installed = await createInstalledHome();
  const powercode = await counted(installed);
  const userSettings = `${installed.home}/.config/powercode/settings.json`;
  const settings = (name: string) => JSON.stringify({ shell: { env: [name] } });
  const envLine = async (launched: number) => {
    const result = await powercode.run(["--scope"]);
    assertEquals([result.code, result.launched], [0, launched], result.stderr);
    return result.program.split(" ").find((flag) => flag.startsWith("--allow-env="));
  };
  const none = await envLine(1);
  assertEquals(await envLine(0), none);
  await installed.writeProvider({});
  await Deno.writeTextFile(userSettings, settings("ONE_NAME"));
  assertStringIncludes(await envLine(1) ?? "", "ONE_NAME");
  assertStringIncludes(await envLine(0) ?? "", "ONE_NAME");
  await Deno.writeTextFile(userSettings, settings("TWO_NAME"));
  const edited = await envLine(1) ?? "";
  assert(edited.includes("TWO_NAME") && !edited.includes("ONE_NAME"), edited);
  await Deno.remove(userSettings);
  assertEquals(await envLine(1), none);
  await Deno.mkdir(`${installed.project}/.powercode`);
  assertEquals(await envLine(1), none);
  await Deno.writeTextFile(
    `${installed.project}/.powercode/settings.json`,
    settings("PROJECT_NAME"),
  );
  assertStringIncludes(await envLine(1) ?? "", "PROJECT_NAME");
  assertStringIncludes(await envLine(0) ?? "", "PROJECT_NAME");
});

Deno.test("other arguments, variables or an updated checkout take the fresh path", async () => {
  const checkout = await Deno.makeTempDir({ prefix: "powercode-checkout-" });
  try {
    for (const name of ["deno.json", "deno.lock", "main.ts", "src", "vendor"]) {
      const copy = await new Deno.Command("cp", { args: ["-R", `${ROOT}/${name}`, checkout] })
        .output();
      assert(copy.success);
    }
    await using installed = await createInstalledHome({ checkout });
    const powercode = await counted(installed);
    const provider = async (env: Record<string, string>, launched: number) => {
      const result = await powercode.run(["--scope"], { env });
      assertEquals([result.code, result.launched], [0, launched], result.stderr);
      return result.stdout.split("\n").find((line) => line.startsWith("Provider file:"));
    };
    const home = installed.home;
    assertEquals(await provider({}, 1), `Provider file:   ${installed.providerFile}`);
    assertEquals(await provider({}, 0), `Provider file:   ${installed.providerFile}`);
    assertEquals(
      await provider({ XDG_CONFIG_HOME: `${home}/other` }, 1),
      `Provider file:   ${home}/other/powercode/provider.json`,
    );
    assertEquals(
      await provider({ POWERCODE_PROVIDER: `${home}/p.json` }, 1),
      `Provider file:   ${home}/p.json`,
    );
    await Deno.mkdir(`${home}/lib`);
    const added = await powercode.run(["--scope", "--add-dir", `${home}/lib`]);
    assertEquals([added.code, added.launched], [0, 1]);
    assertStringIncludes(added.stdout, `${home}/lib`);
    await Deno.writeTextFile(`${checkout}/src/config/permission_set.ts`, "\n", { append: true });
    assertEquals(await provider({}, 1), `Provider file:   ${installed.providerFile}`);
    assertEquals(await provider({}, 0), `Provider file:   ${installed.providerFile}`);
  } finally {
    await Deno.remove(checkout, { recursive: true });
  }
});

Deno.test("one entry serves every -p prompt, and a prompt that does not parse is never cached", async () => {
  await using installed = await createInstalledHome();
  const powercode = await counted(installed);
  const empty = await powercode.run(["-p", " ", "--scope"]);
  assertEquals([empty.code, empty.launched], [2, 1]);
  assertEquals(await entries(installed.home).catch(() => []), []);
  const first = await powercode.run(["-p", "fix the tests", "--scope"]);
  assertEquals([first.code, first.launched], [0, 1], first.stderr);
  assertStringIncludes(first.stdout, `read   granted: ${installed.project}, `);
  const other = await powercode.run(["-p", "now the docs", "--scope"]);
  assertEquals([other.code, other.launched, other.stdout], [0, 0, first.stdout]);
  // A prompt that starts with "-" is keyed as it is: it might be a flag.
  assertEquals((await powercode.run(["-p", "-x", "--scope"])).launched, 1);
  assertEquals((await entries(installed.home)).length, 1);
});
