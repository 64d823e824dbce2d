/**
 * A small MCP server over stdio for the tests, run as its own Deno program (in powercode's
 * sandbox): newline-delimited JSON-RPC, the handshake, a paged tool list and a few tools
 * that echo, fail, crash, hang, report their environment or try the network. Every
 * message it receives is appended to the file `--log=PATH` names (default
 * `mcp-received.jsonl` in its working directory).
 *
 * Flags: `--hang` never answers `initialize`; `--delay MS` answers it after MS ms; `--exit` ends at once with a line on stderr;
 * `--prefix P` puts P before every tool name; `--long` gives `echo` a description of 120
 * characters.
 *
 * @module
 */

const args = Deno.args;
const prefix = args.includes("--prefix") ? args[args.indexOf("--prefix") + 1] ?? "" : "";
const DELAY_MS = args.includes("--delay") ? Number(args[args.indexOf("--delay") + 1]) : 0;
const LOG = args.find((arg) => arg.startsWith("--log="))?.slice("--log=".length) ??
  "mcp-received.jsonl";

if (args.includes("--exit")) {
  console.error("fake server: refusing to start");
  Deno.exit(3);
}

type Json = Record<string, unknown>;

/** The tools, listed over two pages, deliberately not in name order. */
const TOOLS: Json[] = [
  {
    name: "echo",
    description: args.includes("--long")
      ? `Returns the text it is given, ${"word ".repeat(17)}end of description.`
      : "Returns the text it is given.",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "What to send back" } },
      required: ["text"],
    },
  },
  { name: "env", description: "Lists the environment.", inputSchema: { type: "object" } },
  {
    name: "connect",
    description: "Opens a TCP connection to 127.0.0.1.",
    inputSchema: {
      type: "object",
      properties: { port: { type: "integer" } },
      required: ["port"],
    },
  },
  {
    name: "crash",
    description: "Ends the server.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "slow",
    description: "Answers after a long time.",
    inputSchema: { type: "object", properties: { ms: { type: "integer" } } },
  },
  {
    name: "picture",
    description: "Returns an image and a line of text.",
    inputSchema: { type: "object" },
  },
  { name: "fail", description: "Always fails.", inputSchema: { type: "object" } },
  { name: "dotted.name", description: "A name with a dot.", inputSchema: { type: "object" } },
];

const encoder = new TextEncoder();

function send(message: Json): void {
  Deno.stdout.writeSync(encoder.encode(`${JSON.stringify(message)}\n`));
}

function text(value: string, isError = false): Json {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) };
}

async function callTool(name: string, input: Json): Promise<Json> {
  switch (name) {
    case "echo":
      return text(String(input.text));
    case "env":
      return text(JSON.stringify(Deno.env.toObject()));
    case "connect":
      try {
        const connection = await Deno.connect({ hostname: "127.0.0.1", port: Number(input.port) });
        connection.close();
        return text("connected");
      } catch (error) {
        return text(`cannot connect: ${error instanceof Error ? error.name : error}`, true);
      }
    case "crash":
      console.error("fake server: crashing on purpose");
      Deno.exit(7);
      break;
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, Number(input.ms ?? 60_000)));
      return text("finally");
    case "picture":
      return {
        content: [
          { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAE=" },
          { type: "text", text: "a one-pixel picture" },
        ],
      };
    case "fail":
      return text("the tool failed on purpose", true);
    default:
      return text(`no tool ${name}`, true);
  }
}

async function handle(message: Json): Promise<void> {
  await Deno.writeTextFile(LOG, `${JSON.stringify(message)}\n`, { append: true });
  const { id, method } = message;
  const params = (message.params ?? {}) as Json;
  if (id === undefined) return;
  switch (method) {
    case "initialize":
      if (args.includes("--hang")) return;
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      return send({
        jsonrpc: "2.0",
        id,
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "fake", version: "1.0.0" },
        },
      });
    case "tools/list": {
      const tools = TOOLS.map((tool) => ({ ...tool, name: `${prefix}${tool.name}` }));
      const page = params.cursor === "page2" ? tools.slice(4) : tools.slice(0, 4);
      const next = params.cursor === "page2" ? {} : { nextCursor: "page2" };
      return send({ jsonrpc: "2.0", id, result: { tools: page, ...next } });
    }
    case "tools/call": {
      const name = String(params.name).slice(prefix.length);
      return send({ jsonrpc: "2.0", id, result: await callTool(name, params.arguments as Json) });
    }
    default:
      return send({ jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } });
  }
}

const decoder = new TextDecoder();
let buffer = "";
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let end: number;
  while ((end = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    // Not awaited: a slow call must not hold up the cancellation that follows it.
    if (line.trim() !== "") void handle(JSON.parse(line));
  }
}
