/**
 * End-to-end: settings through the installed command (project mode) against the fake server
 * and a loopback package registry: network by domain through powercode's proxy, the user's
 * toolchain outside the roots, variables passed by name, a project's settings used only once
 * approved by hash, and no network at all without settings.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { type ChatMessage, startFakeServer } from "../support/fake_server.ts";
import { createInstalledHome, type InstalledHome } from "../support/installed.ts";
import { createTempProject } from "../support/project.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { ENV, KEY, provider } from "../support/sessions.ts";
import { stateName } from "../../src/config/project.ts";

function toolResults(messages: ChatMessage[] = []): string[] {
  return messages.filter((message) => message.role === "tool").map((m) => String(m.content));
}

/** A registry on 127.0.0.1 serving one npm package, `tiny-pkg`, and counting its requests. */
async function startRegistry() {
  const dir = await Deno.makeTempDir({ prefix: "powercode-registry-" });
  await Deno.mkdir(`${dir}/package`);
  await Deno.writeTextFile(
    `${dir}/package/package.json`,
    JSON.stringify({ name: "tiny-pkg", version: "1.0.0", main: "index.js" }),
  );
  await Deno.writeTextFile(`${dir}/package/index.js`, 'module.exports = "tiny works";\n');
  const tar = await new Deno.Command("tar", { args: ["czf", "p.tgz", "package"], cwd: dir })
    .output();
  assert(tar.success);
  const tgz = await Deno.readFile(`${dir}/p.tgz`);
  const digest = async (name: string) => new Uint8Array(await crypto.subtle.digest(name, tgz));
  const integrity = `sha512-${btoa(String.fromCharCode(...await digest("SHA-512")))}`;
  const shasum = [...await digest("SHA-1")].map((b) => b.toString(16).padStart(2, "0")).join("");
  const paths: string[] = [];
  let port = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    paths.push(path);
    if (path === "/tiny-pkg") {
      const tarball = `http://127.0.0.1:${port}/tiny-pkg/-/tiny-pkg-1.0.0.tgz`;
      return Response.json({
        name: "tiny-pkg",
        "dist-tags": { latest: "1.0.0" },
        versions: {
          "1.0.0": { name: "tiny-pkg", version: "1.0.0", dist: { tarball, integrity, shasum } },
        },
      });
    }
    if (path.endsWith(".tgz")) return new Response(tgz);
    return new Response("not found\n", { status: 404 });
  });
  port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    paths,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function writeUserSettings(installed: InstalledHome, settings: unknown): Promise<void> {
  await Deno.mkdir(`${installed.home}/.config/powercode`, { recursive: true });
  await Deno.writeTextFile(
    `${installed.home}/.config/powercode/settings.json`,
    JSON.stringify(settings),
  );
}

/** One -p run whose model runs `command` in bash; the tool result and the run. */
async function runCommand(
  installed: InstalledHome,
  command: string,
  env: Record<string, string> = {},
) {
  await using server = await startFakeServer({
    model: "fake-model",
    apiKey: KEY,
    handler: sequence([toolCall("bash", { command, timeout_seconds: 120 }), text("Done.")]),
  });
  await installed.writeProvider(provider(server.url));
  const result = await installed.run(["-p", "run it"], { env: { ...ENV, ...env } });
  const [output = ""] = toolResults(server.requests.at(-1)?.body?.messages);
  return { result, output };
}

Deno.test("network.allow: npm install from a loopback registry through the proxy, other hosts refused by name, no other address; shell.path and shell.env reach commands", async () => {
  await using installed = await createInstalledHome();
  await using registry = await startRegistry();
  const tools = `${installed.home}/tools/bin`;
  await Deno.mkdir(tools, { recursive: true });
  await Deno.writeTextFile(`${tools}/hello-tool`, "#!/bin/sh\necho hello from the tool\n");
  await Deno.chmod(`${tools}/hello-tool`, 0o755);
  await writeUserSettings(installed, {
    shell: { path: ["~/tools/bin"], env: ["PC_TEST_VALUE"] },
    network: { allow: ["127.0.0.1"] },
  });
  const command = [
    `npm install --no-audit --no-fund --registry ${registry.url}/ tiny-pkg >/dev/null 2>&1`,
    `node -e 'console.log(require("tiny-pkg"))'`,
    "hello-tool",
    'echo "value=$PC_TEST_VALUE"',
    `touch ${tools}/planted 2>&1 || true`,
    "curl -sS http://blocked.example/ 2>&1",
    "curl -sS https://blocked.example/ 2>&1",
    `(exec 3<>/dev/tcp/127.0.0.1/${registry.port}) 2>/dev/null || echo direct-refused`,
    `curl -sS --noproxy '*' ${registry.url}/tiny-pkg >/dev/null 2>&1 || echo bypass-refused`,
  ].join("; ");
  const { result, output } = await runCommand(installed, command, { PC_TEST_VALUE: "v42" });
  assertEquals([result.code, result.stdout], [0, "Done.\n"], result.stderr);
  for (
    const line of [
      "tiny works\n",
      "hello from the tool\n",
      "value=v42\n",
      `touch: cannot touch '${tools}/planted': Read-only file system`,
      'powercode refused the connection to "blocked.example:80": the host is not in network.allow',
      "CONNECT tunnel failed, response 403",
      "direct-refused\n",
      "bypass-refused\n",
      `network: allowed 127.0.0.1:${registry.port}`,
      "network: refused blocked.example:80",
      "network: refused blocked.example:443",
    ]
  ) assertStringIncludes(output, line);
  assert(registry.paths.includes("/tiny-pkg/-/tiny-pkg-1.0.0.tgz"), registry.paths.join(" "));
  // The connections are in the session file, with the tool result.
  const [state] = await Array.fromAsync(Deno.readDir(installed.states));
  const sessions = `${installed.states}/${state?.name}/sessions`;
  const [file] = await Array.fromAsync(Deno.readDir(sessions));
  const records = await Deno.readTextFile(`${sessions}/${file?.name}`);
  assertStringIncludes(records, "network: refused blocked.example:443");
});

Deno.test("no settings: commands have no network at all, exactly as before", async () => {
  await using installed = await createInstalledHome();
  await using registry = await startRegistry();
  const { result, output } = await runCommand(
    installed,
    `env | grep -ci proxy; curl -sS ${registry.url}/tiny-pkg 2>&1 || echo no-network`,
  );
  assertEquals(result.code, 0, result.stderr);
  assertStringIncludes(output, "0\n");
  assertStringIncludes(output, "no-network\n");
  assertEquals(registry.paths, []);
  assert(!output.includes("network:"), output);
});

Deno.test("a project's .powercode/settings.json is ignored until its exact content is approved, and hidden from the tools", async () => {
  await using installed = await createInstalledHome();
  await using registry = await startRegistry();
  const file = `${installed.project}/.powercode/settings.json`;
  await Deno.mkdir(`${installed.project}/.powercode`);
  const content = JSON.stringify({ network: { allow: ["127.0.0.1"] } });
  await Deno.writeTextFile(file, content);
  const command = `cat .powercode/settings.json; echo "[end]"; ` +
    `curl -sS ${registry.url}/tiny-pkg >/dev/null 2>&1 && echo reached || echo no-network; ` +
    `echo '{"network":{"allow":["*.com"]}}' > .powercode/settings.json 2>&1 || echo read-only`;
  const first = await runCommand(installed, command);
  assertEquals(first.result.code, 0, first.result.stderr);
  assertStringIncludes(first.result.stderr, `"${file}" is not used: its content is not approved`);
  assertStringIncludes(first.output, "[end]\nno-network\n");
  assertStringIncludes(first.output, "read-only\n");
  assertEquals(await Deno.readTextFile(file), content);
  // Approved by hash (as the terminal's "y" records it): now it is used.
  const stateDir = `${installed.states}/${await stateName(installed.project)}`;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content)),
  );
  const hash = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(
    `${stateDir}/settings-approvals.json`,
    JSON.stringify({ approvals: { [file]: hash } }),
  );
  const second = await runCommand(installed, command);
  assertEquals(second.result.code, 0, second.result.stderr);
  assert(!second.result.stderr.includes("is not used"), second.result.stderr);
  assertStringIncludes(second.output, "[end]\nreached\n");
  // A changed file needs the approval again.
  await Deno.writeTextFile(file, JSON.stringify({ network: { allow: ["127.0.0.1", "x.org"] } }));
  const third = await runCommand(installed, command);
  assertStringIncludes(third.result.stderr, "is not used: its content is not approved");
  assertStringIncludes(third.output, "no-network\n");
});

Deno.test("settings problems are reported at once, each with file, field and value, exit 2", async () => {
  await using installed = await createInstalledHome();
  await installed.writeProvider(provider("http://127.0.0.1:9"));
  await writeUserSettings(installed, {
    shell: { path: ["../x"], env: ["OPENAI_API_KEY"], writable: ["relative"] },
    network: { allow: ["bad host", "*.org:99999"] },
    netwrok: {},
  });
  const file = `${installed.home}/.config/powercode/settings.json`;
  const result = await installed.run(["-p", "hi", "--allow-domain", "a..b"], { env: ENV });
  assertEquals(result.code, 2, result.stderr);
  for (
    const part of [
      `"${file}": field "netwrok" is unknown`,
      `"${file}": field "shell.path[0]" "../x" leaves the first root "${installed.project}"`,
      `"${file}": field "shell.env[0]" "OPENAI_API_KEY" is powercode's own`,
      `"${file}": field "shell.writable[0]" "relative" must be an absolute path`,
      `"${file}": field "network.allow[0]" "bad host" is not a host name`,
      `"${file}": field "network.allow[1]" "*.org:99999" has a port outside 1-65535`,
      '--allow-domain "a..b" is not a host name',
    ]
  ) assertStringIncludes(result.stderr, part);
  assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
});

Deno.test("--scope shows the settings files, PATH, the bound directories and the allowed hosts", async () => {
  await using installed = await createInstalledHome();
  await writeUserSettings(installed, {
    shell: { path: ["~/tools/bin", ".venv/bin"], readOnly: ["/opt"], writable: ["~/.cache/x"] },
    network: { allow: ["registry.npmjs.org"] },
  });
  const result = await installed.run(["--scope", "--allow-domain", "*.pythonhosted.org"]);
  assertEquals(result.code, 0, result.stderr);
  const { home, project } = installed;
  for (
    const line of [
      `  ${home}/.config/powercode/settings.json (used)`,
      `  ${project}/.powercode/settings.json (absent)`,
      `${home}/tools/bin`,
      `  PATH:          ${home}/tools/bin:${project}/.venv/bin:/usr/local/bin:/usr/bin:/bin`,
      "  allowed hosts: registry.npmjs.org, *.pythonhosted.org (HTTP and HTTPS through",
      `${home}/.cache/x`,
    ]
  ) assertStringIncludes(result.stdout, line);
});

Deno.test("--scope lists the hooks that will run, by file, within 80 columns; an unapproved project's are not among them", async () => {
  await using installed = await createInstalledHome();
  const format = 'deno fmt --quiet "$(jq -r .tool_input.path)" && echo "formatted the file the ' +
    'model just wrote"';
  await writeUserSettings(installed, {
    hooks: {
      PostToolUse: [{
        matcher: "edit_file|write_file",
        hooks: [{ type: "command", command: format }],
      }],
      Stop: [{ hooks: [{ type: "command", command: "echo done" }] }],
    },
  });
  await Deno.mkdir(`${installed.project}/.powercode`);
  await Deno.writeTextFile(
    `${installed.project}/.powercode/settings.json`,
    JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "touch planted" }] }] },
    }),
  );
  const result = await installed.run(["--scope"]);
  assertEquals(result.code, 0, result.stderr);
  const lines = result.stdout.split("\n");
  const start = lines.indexOf("Hooks (each run by bash -c in the sandbox above, with this scope):");
  assert(start > 0, result.stdout);
  const end = lines.findIndex((line, index) => index > start && !line.startsWith(" "));
  const hooks = lines.slice(start, end);
  const file = `${installed.home}/.config/powercode/settings.json`;
  assertEquals(hooks.slice(-3), [
    '    PostToolUse matching edit_file|write_file: deno fmt --quiet "$(jq -r',
    '      .tool_input.path)" && echo "formatted the file the model just wrote"',
    "    Stop: echo done",
  ]);
  assertEquals(hooks.slice(1, -3).map((row) => row.trim()).join(""), `from ${file}:`);
  for (const row of hooks) assert(row.length <= 80, `wider than 80 columns: ${row}`);
  assert(!result.stdout.includes("touch planted"), result.stdout);
});

Deno.test("the workspace layout refuses shell.env with one line, and takes --allow-domain", async () => {
  await using project = await createTempProject();
  await project.writeProvider(provider("http://127.0.0.1:9"));
  await Deno.mkdir(`${project.dir}/.powercode`);
  await Deno.writeTextFile(
    `${project.dir}/.powercode/settings.json`,
    JSON.stringify({ shell: { env: ["GOPATH"] } }),
  );
  const refused = await project.run(["-p", "hi"], { env: ENV });
  assertEquals(refused.code, 2);
  assertEquals(
    refused.stderr,
    'powercode: Invalid settings: ".powercode/settings.json": field "shell.env" "GOPATH" needs ' +
      "the installed command (project mode): the workspace layout's fixed Deno flags let " +
      "powercode read no such variable\n",
  );
  await Deno.remove(`${project.dir}/.powercode/settings.json`);
  const scope = await project.run(["--scope", "--allow-domain", "127.0.0.1:8080"]);
  assertEquals(scope.code, 0, scope.stderr);
  assertStringIncludes(scope.stdout, "  allowed hosts: 127.0.0.1:8080 (HTTP and HTTPS");
  assertStringIncludes(scope.stdout, "  .powercode/settings.json (absent)");
});
