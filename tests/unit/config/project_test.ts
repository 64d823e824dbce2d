import { assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import { ConfigError } from "../../../src/config/config_error.ts";
import {
  encodeProject,
  type ProjectEnvironment,
  resolveProject,
  stateName,
} from "../../../src/config/project.ts";
import { decodeProject } from "../../../src/config/locations.ts";

/** A temp home holding `app/` and `lib/`, and the environment of a run started in `app/`. */
async function withHome(
  fn: (home: string, env: ProjectEnvironment) => Promise<void>,
): Promise<void> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_home_" }));
  try {
    await Deno.mkdir(`${home}/app`);
    await Deno.mkdir(`${home}/lib`);
    await fn(home, {
      cwd: `${home}/app`,
      home,
      stateHome: undefined,
      configHome: undefined,
      provider: undefined,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("resolveProject() works on the current directory with XDG defaults under HOME", async () => {
  await withHome(async (home, env) => {
    const project = await resolveProject({ addDirs: [] }, env);
    assertEquals(project, {
      roots: [`${home}/app`],
      providerFile: `${home}/.config/powercode/provider.json`,
      stateDir: `${home}/.local/state/powercode/projects/${await stateName(`${home}/app`)}`,
      home,
    });
    assertMatch(await stateName(`${home}/app`), /^app-[0-9a-f]{12}$/);
  });
});

Deno.test("resolveProject() takes --dir, --add-dir, --provider and the XDG variables", async () => {
  await withHome(async (home, env) => {
    await Deno.symlink(`${home}/lib`, `${home}/app/lib-link`);
    const project = await resolveProject(
      { dir: "../lib", addDirs: [`${home}/app`], provider: "p.json" },
      { ...env, stateHome: "/state", configHome: "/config" },
    );
    assertEquals(project, {
      roots: [`${home}/lib`, `${home}/app`],
      providerFile: `${home}/app/p.json`,
      stateDir: `/state/powercode/projects/${await stateName(`${home}/lib`)}`,
      home,
    });
    const linked = await resolveProject({ dir: "lib-link", addDirs: [] }, {
      ...env,
      stateHome: "relative/ignored",
      configHome: "/config",
      provider: "/etc/p.json",
    });
    assertEquals(linked.roots, [`${home}/lib`]);
    assertEquals(linked.providerFile, "/etc/p.json");
    assertEquals(linked.stateDir.startsWith(`${home}/.local/state/powercode/projects/lib-`), true);
  });
});

Deno.test("resolveProject() refuses /, the home directory, missing paths, files and overlaps", async () => {
  await withHome(async (home, env) => {
    await Deno.writeTextFile(`${home}/file.txt`, "");
    const refusal = (dir: string | undefined, addDirs: string[], message: string) =>
      assertRejects(
        () => resolveProject({ ...(dir === undefined ? {} : { dir }), addDirs }, env),
        ConfigError,
        message,
      );
    await refusal("/", [], `Cannot work on "/" (--dir): it is the root of the file system`);
    await refusal(home, [], `Cannot work on "${home}" (--dir): it is your home directory`);
    await refusal("..", [], `Cannot work on ".." (--dir): it is your home directory`);
    await refusal("nope", [], `Cannot work on "nope" (--dir): no such directory`);
    await refusal(`${home}/file.txt`, [], `(--dir): not a directory`);
    await refusal(undefined, [`${home}/app/..`], `(--add-dir): it is your home directory`);
    await Deno.mkdir(`${home}/app/sub`);
    await refusal(
      undefined,
      ["sub"],
      `Cannot work on "sub" (--add-dir): it overlaps the directory "${home}/app" already given`,
    );
    await refusal("sub", [".."], `Cannot work on ".." (--add-dir): it is your home directory`);
    await refusal("sub", ["."], `Cannot work on "." (--add-dir): it overlaps the directory`);
  });
});

Deno.test("resolveProject() refuses paths a permission flag cannot carry", async () => {
  await withHome(async (home, env) => {
    await Deno.mkdir(`${home}/a,b`);
    await assertRejects(
      () => resolveProject({ dir: `${home}/a,b`, addDirs: [] }, env),
      ConfigError,
      `Cannot work on "${home}/a,b" (--dir): its path holds a comma, which Deno's permission ` +
        "flags (--allow-read=A,B) cannot carry; rename or move it",
    );
    await assertRejects(
      () => resolveProject({ addDirs: [], provider: "x,y.json" }, env),
      ConfigError,
      `Cannot use the provider file "${home}/app/x,y.json": its path holds a comma`,
    );
    await assertRejects(
      () => resolveProject({ addDirs: [] }, { ...env, stateHome: "/s,t" }),
      ConfigError,
      `Cannot use the state directory "/s,t/powercode/projects/`,
    );
  });
});

Deno.test("resolveProject() needs HOME or the XDG variables", async () => {
  await withHome(async (_, env) => {
    await assertRejects(
      () => resolveProject({ addDirs: [] }, { ...env, home: undefined }),
      ConfigError,
      "Cannot find powercode's files: neither XDG_STATE_HOME nor HOME is set",
    );
    const project = await resolveProject(
      { addDirs: [] },
      { ...env, home: undefined, stateHome: "/s", configHome: "/c" },
    );
    assertEquals(project.providerFile, "/c/powercode/provider.json");
  });
});

Deno.test("decodeProject() reads what encodeProject() wrote and refuses anything else", () => {
  const project = { roots: ["/a", "/b"], providerFile: "/p.json", stateDir: "/s" };
  assertEquals(decodeProject(encodeProject(project)), project);
  for (const text of ["", "{}", '{"roots":[],"providerFile":"/p","stateDir":"/s"}', "[1]"]) {
    assertThrows(
      () => decodeProject(text),
      ConfigError,
      "Invalid POWERCODE_PROJECT: expected the project the powercode launcher sets; unset it",
    );
  }
  assertThrows(
    () => decodeProject('{"roots":["rel"],"providerFile":"/p","stateDir":"/s"}'),
    ConfigError,
  );
});
