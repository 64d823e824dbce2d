import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { type HostPattern, matchHost, parseHostPattern } from "../../src/core/mod.ts";
import {
  type NetConnection,
  NetworkGate,
  relayArgv,
  ServerLauncher,
} from "../../src/sandbox/mod.ts";

function patterns(...texts: string[]): HostPattern[] {
  return texts.map((text) => parseHostPattern(text) as HostPattern);
}

Deno.test("parseHostPattern() reads names, wildcards, addresses and ports, and says what is wrong", () => {
  assertEquals(parseHostPattern("GitHub.com"), {
    host: "github.com",
    wildcard: false,
    text: "GitHub.com",
  });
  assertEquals(parseHostPattern("*.pythonhosted.org:443"), {
    host: "pythonhosted.org",
    wildcard: true,
    port: 443,
    text: "*.pythonhosted.org:443",
  });
  assertEquals(parseHostPattern("[::1]:8080"), {
    host: "::1",
    wildcard: false,
    port: 8080,
    text: "[::1]:8080",
  });
  assertEquals(parseHostPattern("127.0.0.1"), {
    host: "127.0.0.1",
    wildcard: false,
    text: "127.0.0.1",
  });
  assertEquals(
    ["bad host", "a..b", "*.com", "x.org:0", "::1", "*."].map(parseHostPattern),
    [
      'is not a host name, "*." wildcard or IP address',
      'is not a host name, "*." wildcard or IP address',
      'is a wildcard of a top-level name: use "*.example.com"',
      "has a port outside 1-65535",
      "is an IPv6 address: write it in brackets, [::1]",
      "names no host",
    ],
  );
});

Deno.test("matchHost() allows exactly the names, subdomains of wildcards and ports listed", () => {
  const list = patterns("github.com", "*.pythonhosted.org", "127.0.0.1:8080");
  const allowed = (host: string, port: number) => matchHost(list, host, port)?.text;
  assertEquals(allowed("GITHUB.com.", 443), "github.com");
  assertEquals(allowed("api.github.com", 443), undefined);
  assertEquals(allowed("files.pythonhosted.org", 443), "*.pythonhosted.org");
  assertEquals(allowed("pythonhosted.org", 443), undefined);
  assertEquals(allowed("evilpythonhosted.org", 443), undefined);
  assertEquals(allowed("127.0.0.1", 8080), "127.0.0.1:8080");
  assertEquals(allowed("127.0.0.1", 8081), undefined);
});

Deno.test("NetworkGate.noProxy() keeps loopback direct unless it is on the list", () => {
  assertEquals(new NetworkGate(patterns("github.com")).noProxy(), "localhost,127.0.0.1,::1");
  assertEquals(new NetworkGate(patterns("127.0.0.1")).noProxy(), "localhost,::1");
});

Deno.test("ServerLauncher with a network: a stdio server reaches an allowed loopback host through the proxy only", async () => {
  const workspace = await Deno.makeTempDir();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("from the host\n"),
  );
  const connections: NetConnection[] = [];
  try {
    const launcher = new ServerLauncher(workspace, "bwrap", {
      network: {
        gate: new NetworkGate(patterns("127.0.0.1")),
        relay: relayArgv(),
        report: (connection) => connections.push(connection),
      },
    });
    let output = "";
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const started = await launcher.launch({
      command: "bash",
      args: [
        "-c",
        `curl -sS ${url}; curl -sS http://other.example/ 2>&1; ` +
        `curl -sS --noproxy '*' ${url} >/dev/null 2>&1 || echo direct-refused`,
      ],
      env: {},
      network: false,
    }, {
      onStdout: (chunk) => output += new TextDecoder().decode(chunk),
      onStderr: () => {},
    });
    await started.exited;
    assertStringIncludes(output, "from the host\n");
    assertStringIncludes(output, 'powercode refused the connection to "other.example:80"');
    assertStringIncludes(output, "direct-refused\n");
    assertEquals(connections, [
      { host: "127.0.0.1", port: server.addr.port, allowed: true },
      { host: "other.example", port: 80, allowed: false },
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("Workspace.resolve() refuses a protected path (the project's settings), also through a link", async () => {
  const { Workspace } = await import("../../src/workspace/mod.ts");
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${dir}/.powercode`);
    await Deno.writeTextFile(`${dir}/.powercode/settings.json`, "{}");
    await Deno.symlink(`${dir}/.powercode/settings.json`, `${dir}/link.json`);
    const workspace = await Workspace.open(dir, { protect: [".powercode/settings.json"] });
    for (
      const path of [".powercode/settings.json", "link.json", `${dir}/.powercode/settings.json`]
    ) {
      await assertRejects(
        () => workspace.resolve(path),
        Deno.errors.PermissionDenied,
        `Cannot access "${path}": ".powercode/settings.json" holds the project's settings`,
      );
    }
    assertEquals(await workspace.resolve(".powercode/other.json"), `${dir}/.powercode/other.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
