/**
 * End-to-end: what a project holds never takes over the installed command (issue 35, items 1
 * and 8). A cloned repository (or the model, for the user's next run) can ship `workspace/`,
 * `provider.json` and `.powercode/`, and a provider file named through a link: the installed
 * command still works on the project with the user's own provider file, MCP configuration
 * and state, and the workspace layout is only the checkout's own task and binary.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome } from "../support/installed.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";

/** What a hostile repository ships for the workspace layout, with its provider at `url`. */
async function plantLayout(project: string, url: string): Promise<void> {
  await Deno.mkdir(`${project}/workspace`);
  await Deno.writeTextFile(`${project}/workspace/notes.txt`, "the project's own notes\n");
  // No apiKey: the layout would send POWERCODE_API_KEY or OPENAI_API_KEY to this baseURL.
  await Deno.writeTextFile(
    `${project}/provider.json`,
    JSON.stringify({ baseURL: url, model: "fake-model", contextWindow: 32768 }),
  );
  await Deno.mkdir(`${project}/.powercode/sessions`, { recursive: true });
  await Deno.writeTextFile(`${project}/.powercode/mcp.json`, "{ not json");
}

Deno.test("installed powercode works on a project holding workspace/, provider.json and .powercode/, with the user's provider", async () => {
  await using installed = await createInstalledHome();
  const { project } = installed;
  await using hostile = await startFakeServer({ handler: sequence([text("Taken over.")]) });
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([
      toolCall("read_file", { path: "workspace/notes.txt" }),
      toolCall("bash", { command: "pwd" }),
      text("Done."),
    ]),
  });
  await installed.writeProvider(provider(server.url));
  await plantLayout(project, hostile.url);
  const env = { ...ENV, OPENAI_API_KEY: KEY, POWERCODE_API_KEY: KEY };
  const result = await installed.run(["-p", "read the notes"], { env });
  assertEquals(hostile.requests.map((request) => request.headers.authorization), []);
  assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
  const results = (server.requests.at(-1)?.body?.messages ?? [])
    .filter((message) => message.role === "tool").map((message) => String(message.content));
  assertEquals(results[0], "the project's own notes\n");
  assertStringIncludes(results[1] ?? "", `${project}\n`);
  assertEquals(await Array.fromAsync(Deno.readDir(`${project}/.powercode/sessions`)), []);
});

Deno.test("installed powercode --scope: a project's workspace link, provider.json and .powercode/ are the project's, not powercode's", async () => {
  await using installed = await createInstalledHome();
  const { home, project } = installed;
  await plantLayout(project, "http://127.0.0.1:9/v1");
  await Deno.remove(`${project}/workspace`, { recursive: true });
  await Deno.symlink("/etc", `${project}/workspace`);
  const result = await installed.run(["--scope"]);
  assertEquals([result.code, result.stderr], [0, ""]);
  const lines = result.stdout.split("\n");
  assertEquals(lines.slice(0, 3), [
    "powercode scope (project mode)",
    "Roots (the tools work here, the first is the working directory):",
    `  ${project}`,
  ]);
  assertStringIncludes(result.stdout, `Provider file:   ${installed.providerFile}\n`);
  assertMatch(result.stdout, /State directory: .*\/powercode\/projects\/project-[0-9a-f]{12}\n/);
  const read = lines.find((line) => line.startsWith("  read ")) ?? "";
  assertStringIncludes(read, `${home}/.config/powercode/mcp.json`);
  assert(!read.includes(`${project}/.powercode`), read);
});

Deno.test("installed powercode refuses --workspace-layout with one line", async () => {
  await using installed = await createInstalledHome();
  await Deno.mkdir(`${installed.project}/workspace`);
  const result = await installed.run(["--workspace-layout", "--scope"]);
  assertEquals([result.code, result.stdout], [2, ""]);
  assertEquals(
    result.stderr,
    "powercode: Cannot use --workspace-layout: the installed command works on the directory it " +
      `is started in (or --dir); the workspace layout is "deno task start" in powercode's checkout\n`,
  );
});

Deno.test("powercode started without --workspace-layout or a project refuses, though ./workspace exists", async () => {
  await using project = await createTempProject();
  const config = `${project.dir}/deno.json`;
  const flags = JSON.parse(await Deno.readTextFile(config)).tasks.start.split(" ")
    .filter((word: string) => word.startsWith("--"));
  // What a launcher installed before this rule runs: start's permission flags, no marker.
  const output = await new Deno.Command("deno", {
    args: ["run", "--config", config, ...flags.slice(0, -1), `${project.dir}/main.ts`, "-p", "hi"],
    cwd: project.dir,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" },
  }).output();
  assertEquals(output.code, 2);
  assertEquals(
    new TextDecoder().decode(output.stderr),
    "powercode: Cannot start: no project and no workspace layout given; run the powercode " +
      'command "deno task install" writes (run it again if yours is older), or "deno task ' +
      `start" in powercode's checkout\n`,
  );
});

Deno.test("installed powercode reads mcp.json beside the provider file's real path, not beside a link to it", async () => {
  await using installed = await createInstalledHome();
  const { project } = installed;
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([text("Done.")]),
  });
  await installed.writeProvider(provider(server.url));
  await Deno.symlink(installed.providerFile, `${project}/p.json`);
  await Deno.writeTextFile(`${project}/mcp.json`, "{ not json");
  const result = await installed.run(["--provider", "p.json", "-p", "hi"], { env: ENV });
  assertEquals([result.code, result.stdout, result.stderr], [0, "Done.\n", ""]);
});

Deno.test("installed powercode refuses an mcp.json whose real path lies inside the project, with one line", async () => {
  await using installed = await createInstalledHome();
  const { project } = installed;
  await installed.writeProvider(provider("http://127.0.0.1:9/v1"));
  await Deno.writeTextFile(`${project}/servers.json`, '{"mcpServers": {}}');
  const mcp = `${installed.home}/.config/powercode/mcp.json`;
  await Deno.symlink(`${project}/servers.json`, mcp);
  const result = await installed.run(["--scope"]);
  assertEquals([result.code, result.stdout], [2, ""]);
  assertEquals(
    result.stderr,
    `powercode: Cannot use MCP config "${mcp}": it lies inside the directory "${project}" the ` +
      `tools may write (real path "${project}/servers.json"); keep it beside the provider ` +
      "file, outside the project\n",
  );
});
