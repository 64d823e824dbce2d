import { assertEquals } from "@std/assert";
import { parseMcpConfig } from "../../../src/mcp/config.ts";

const FILE = ".powercode/mcp.json";
const ENV: Record<string, string> = { POWERCODE_GH: "gh-token", OPENAI_X: "x" };

function env(name: string): string | undefined {
  if (!name.startsWith("POWERCODE_") && !name.startsWith("OPENAI_")) {
    throw new Deno.errors.NotCapable(`Requires env access to "${name}"`);
  }
  return ENV[name];
}

function parse(servers: unknown) {
  return parseMcpConfig(JSON.stringify({ mcpServers: servers }), FILE, env);
}

Deno.test("parseMcpConfig() reads stdio and HTTP servers with powercode's keys and env:NAME values", () => {
  assertEquals(
    parse({
      git: {
        command: "uvx",
        args: ["mcp-server-git", "--token", "env:POWERCODE_GH"],
        env: { GITHUB_TOKEN: "env:POWERCODE_GH", PLAIN: "env-less" },
        network: true,
        timeoutMs: 30000,
      },
      web: {
        type: "http",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "env:OPENAI_X" },
        enabled: false,
      },
    }),
    {
      ok: true,
      servers: [
        {
          name: "git",
          file: FILE,
          enabled: true,
          timeoutMs: 30000,
          kind: "stdio",
          command: "uvx",
          args: ["mcp-server-git", "--token", "gh-token"],
          env: { GITHUB_TOKEN: "gh-token", PLAIN: "env-less" },
          network: true,
        },
        {
          name: "web",
          file: FILE,
          enabled: false,
          kind: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "env:OPENAI_X" },
        },
      ],
    },
  );
});

Deno.test("parseMcpConfig() names the server and field of every problem", () => {
  assertEquals(
    parse({
      "bad name!": { command: "x" },
      both: { command: "x", url: "http://x" },
      neither: { args: [] },
      old: { type: "sse", url: "http://x/sse" },
      wrong: {
        command: "",
        env: { "1X": "a", Y: 3, Z: "env:HOME", W: "env:POWERCODE_UNSET" },
        timeoutMs: 0,
        enabled: "no",
        cwd: "/",
      },
    }),
    {
      ok: false,
      problems: [
        'server "bad name!": a name must be 1 to 64 letters, digits, "_" or "-"',
        'server "both" field "url" cannot stand beside "command": a server is either a program or a URL',
        'server "neither" field "command" is required (or "url", for a server reached over HTTP)',
        'server "old" field "type" is "sse", the old HTTP transport, which powercode does not speak; use the server\'s streamable HTTP URL',
        'server "wrong" field "cwd" is unknown',
        'server "wrong" field "enabled" must be true or false',
        'server "wrong" field "timeoutMs" must be a whole number of milliseconds from 1 to 3600000',
        'server "wrong" field "command" must be a non-empty string',
        'server "wrong" field "env.1X" is not a variable name',
        'server "wrong" field "env.Y" must be a string',
        'server "wrong" field "env.Z" reads "HOME", but powercode may read only OPENAI_* and POWERCODE_* variables',
        'server "wrong" field "env.W" reads environment variable "POWERCODE_UNSET", which is not set',
      ],
    },
  );
});

Deno.test("parseMcpConfig() reads no variable for a disabled server", () => {
  const result = parse({
    off: { command: "x", env: { T: "env:POWERCODE_UNSET" }, enabled: false },
  });
  assertEquals(result.ok, true);
});

Deno.test("parseMcpConfig() refuses what is not an mcpServers object", () => {
  assertEquals(parseMcpConfig("{", FILE, env).ok, false);
  assertEquals(parseMcpConfig('{"servers": {}}', FILE, env), {
    ok: false,
    problems: ['expected {"mcpServers": {"NAME": {...}}}'],
  });
  assertEquals(parseMcpConfig('{"mcpServers": {}, "extra": 1}', FILE, env), {
    ok: false,
    problems: ['field "extra" is unknown'],
  });
});
