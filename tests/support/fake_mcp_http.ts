/**
 * A small MCP server over streamable HTTP for the tests, in the test's process: it answers
 * `initialize` and `tools/list` with JSON, `tools/call` with an event stream (a log
 * notification, then the result), gives a session id and requires it and the protocol
 * version on every later request, and records every request.
 *
 * @module
 */

/** One request the server received. */
export interface McpHttpRequest {
  method: string;
  headers: Record<string, string>;
  /** The parsed JSON body; undefined for DELETE. */
  body: unknown;
}

/** A running fake; dispose it to stop it. */
export interface FakeMcpHttp extends AsyncDisposable {
  url: string;
  requests: McpHttpRequest[];
}

/** What the fake checks. */
export interface FakeMcpHttpOptions {
  /** Answer 401 unless `authorization` is `Bearer TOKEN`. */
  token?: string;
  /** The tools `tools/list` answers; default one, `lookup`. */
  tools?: readonly Record<string, unknown>[];
}

const SESSION = "session-7f3a";
const TOOLS = [
  {
    name: "lookup",
    description: "Looks a word up.",
    inputSchema: {
      type: "object",
      properties: { word: { type: "string" } },
      required: ["word"],
    },
  },
];

/** Starts the fake on 127.0.0.1 at a free port. */
export function startFakeMcpHttp(options: FakeMcpHttpOptions = {}): FakeMcpHttp {
  const requests: McpHttpRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const body = request.method === "POST" ? await request.json() : undefined;
      requests.push({ method: request.method, headers: Object.fromEntries(request.headers), body });
      if (options.token && request.headers.get("authorization") !== `Bearer ${options.token}`) {
        return new Response("unauthorized", { status: 401 });
      }
      if (request.method === "DELETE") return new Response(null, { status: 200 });
      const message = body as { id?: number; method?: string; params?: Record<string, unknown> };
      if (message.method !== "initialize") {
        if (request.headers.get("mcp-session-id") !== SESSION) {
          return new Response("missing session", { status: 400 });
        }
        if (!request.headers.get("mcp-protocol-version")) {
          return new Response("missing protocol version", { status: 400 });
        }
      }
      if (message.id === undefined) return new Response(null, { status: 202 });
      switch (message.method) {
        case "initialize":
          return json(
            {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: "fake-http", version: "1.0.0" },
            },
            message.id,
            { "mcp-session-id": SESSION },
          );
        case "tools/list":
          return json({ tools: options.tools ?? TOOLS }, message.id);
        case "tools/call": {
          const args = message.params?.arguments as { word?: string } | undefined;
          return events([
            {
              jsonrpc: "2.0",
              method: "notifications/message",
              params: { level: "info", data: "x" },
            },
            {
              jsonrpc: "2.0",
              id: message.id,
              result: { content: [{ type: "text", text: `${args?.word}: a word` }] },
            },
          ]);
        }
        default:
          return json(undefined, message.id);
      }
    },
  );
  const { port } = server.addr;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

function json(result: unknown, id: number, headers: Record<string, string> = {}): Response {
  const body = result === undefined
    ? { jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } }
    : { jsonrpc: "2.0", id, result };
  return new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json", ...headers },
  });
}

function events(messages: unknown[]): Response {
  const text = messages.map((message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`)
    .join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}
