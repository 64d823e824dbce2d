import { assertEquals } from "@std/assert";
import { createTools } from "../../src/tools/mod.ts";
import { importSpecifiers, LAYERS, layoutViolations } from "../support/layout.ts";

const ROOT = new URL("../../", import.meta.url);

async function typeScriptFiles(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for await (const entry of Deno.readDir(new URL(`${dir}/`, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) paths.push(...await typeScriptFiles(path));
    else if (entry.name.endsWith(".ts")) paths.push(path);
  }
  return paths;
}

async function sourceModules() {
  const paths = ["main.ts", ...await typeScriptFiles("src")];
  return await Promise.all(paths.map(async (path) => ({
    path,
    imports: importSpecifiers(await Deno.readTextFile(new URL(path, ROOT))),
  })));
}

Deno.test("src/ keeps its layout: doors, layers, no cycles, openai only in model/", async () => {
  assertEquals(layoutViolations(await sourceModules()), []);
});

Deno.test("no module outside src/tools/ names a tool in a string (the sandbox runs the bash program)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { tools } = await createTools(dir, { unsandboxedBash: true });
    const names = new RegExp(`["'\`](${tools.map((tool) => tool.name).join("|")})["'\`]`);
    const paths = ["main.ts", ...await typeScriptFiles("src")].filter((path) =>
      !path.startsWith("src/tools/") && !path.startsWith("src/sandbox/")
    );
    const naming = [];
    for (const path of paths) {
      // Running the bash program is not naming the bash tool.
      const source = (await Deno.readTextFile(new URL(path, ROOT))).replaceAll(
        'new Deno.Command("bash"',
        "",
      );
      const match = source.match(names);
      if (match) naming.push(`${path}: ${match[0]}`);
    }
    assertEquals(naming, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every folder of src/ is a layer with a mod.ts door", async () => {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(new URL("src/", ROOT))) {
    if (entry.isDirectory) folders.push(entry.name);
  }
  assertEquals(folders.sort(), Object.keys(LAYERS).sort());
  for (const folder of folders) await Deno.stat(new URL(`src/${folder}/mod.ts`, ROOT));
});

Deno.test("layoutViolations() finds each broken rule", () => {
  assertEquals(
    layoutViolations([
      { path: "src/loose.ts", imports: [] },
      { path: "src/ui/view.ts", imports: ["../agent/agent.ts", "../app/mod.ts"] },
      { path: "src/tools/bash.ts", imports: ["npm:openai", "./a.ts"] },
      { path: "src/tools/a.ts", imports: ["./bash.ts"] },
    ]),
    [
      "src/loose.ts: a loose file in src/; put it in a folder",
      'src/ui/view.ts: imports "src/agent/agent.ts" past the door src/agent/mod.ts',
      'src/ui/view.ts: folder "ui" may not import folder "app"',
      'src/tools/bash.ts: imports "npm:openai" outside src/model/',
      "import cycle: src/tools/bash.ts -> src/tools/a.ts -> src/tools/bash.ts",
    ],
  );
});

Deno.test("importSpecifiers() reads static, type-only, re-exported and dynamic imports", () => {
  const source = [
    'import { a } from "./a.ts";',
    'import type { B } from "../b/mod.ts";',
    "import {",
    "  c,",
    '} from "./c.ts";',
    'export { d } from "./d.ts";',
    '// import { e } from "./e.ts";',
    'const f = await import("./f.ts");',
    'import "./g.ts";',
  ].join("\n");
  assertEquals(importSpecifiers(source), [
    "./a.ts",
    "../b/mod.ts",
    "./c.ts",
    "./d.ts",
    "./f.ts",
    "./g.ts",
  ]);
});

Deno.test("the session is the Agent's: no module outside src/agent/ reaches agent.session", async () => {
  const reaching = [];
  for (const path of ["main.ts", ...await typeScriptFiles("src")]) {
    if (path.startsWith("src/agent/")) continue;
    const source = await Deno.readTextFile(new URL(path, ROOT));
    if (/\bagent\??\.session\b/.test(source)) reaching.push(path);
  }
  assertEquals(reaching, []);
  const agent = await Deno.readTextFile(new URL("src/agent/agent.ts", ROOT));
  assertEquals(agent.match(/^ {2}(get )?session\(/m), null, "Agent exposes no session member");
});

Deno.test("main.ts only parses, opens and runs a mode (at most 80 lines)", async () => {
  const lines = (await Deno.readTextFile(new URL("main.ts", ROOT))).split("\n").length;
  assertEquals(lines <= 80, true, `main.ts has ${lines} lines`);
});

Deno.test("tests/ is laid out like the code: unit tests by layer, end-to-end tests apart", async () => {
  const top: string[] = [];
  for await (const entry of Deno.readDir(new URL("tests/", ROOT))) top.push(entry.name);
  assertEquals(top.sort(), ["deno.lock", "e2e", "support", "unit"]);
  const groups: string[] = [];
  for await (const entry of Deno.readDir(new URL("tests/unit/", ROOT))) {
    if (entry.isDirectory) groups.push(entry.name);
  }
  // Besides the layers of src/: the tests of the test harness itself and of the benchmarks.
  const known = new Set([...Object.keys(LAYERS), "harness", "bench"]);
  assertEquals(groups.filter((group) => !known.has(group)), []);
});
