import { assertEquals } from "@std/assert";
import type { AgentEvent } from "../../../src/core/events.ts";
import { Redactor } from "../../../src/config/redact.ts";

const KEY = "sk-live-0123456789abcdef";

Deno.test("Redactor.forConfig() redacts the key and the credentials of baseURL, as written and decoded", () => {
  const redactor = Redactor.forConfig({
    apiKey: KEY,
    baseURL: "https://alice:p%40ss-word-9@llm.example.com/v1",
  });
  assertEquals(
    redactor.redact(`401: bad key ${KEY}; again: ${KEY}`),
    "401: bad key [redacted]; again: [redacted]",
  );
  assertEquals(
    redactor.redact('Cannot reach "https://alice:p%40ss-word-9@llm.example.com/v1": refused'),
    'Cannot reach "https://[redacted]@llm.example.com/v1": refused',
  );
  assertEquals(redactor.redact("the password is p@ss-word-9"), "the password is [redacted]");
  assertEquals(redactor.redact("alice is not a secret"), "alice is not a secret");
});

Deno.test("Redactor.forConfig() leaves the placeholder and short keys alone, but not a short password in a URL", () => {
  assertEquals(
    Redactor.forConfig({ apiKey: "no-key", baseURL: "http://127.0.0.1:11434/v1" })
      .redact("no-key here"),
    "no-key here",
  );
  assertEquals(
    Redactor.forConfig({ apiKey: "ollama", baseURL: "http://127.0.0.1/v1" }).redact("ollama"),
    "ollama",
  );
  assertEquals(
    Redactor.forConfig({ apiKey: "no-key", baseURL: "http://me:pw@10.0.0.2/v1" })
      .redact("GET http://me:pw@10.0.0.2/v1 failed"),
    "GET http://[redacted]@10.0.0.2/v1 failed",
  );
});

Deno.test("Redactor.streaming() redacts a key split across pieces and holds nothing past a newline", () => {
  const written: string[] = [];
  const write = new Redactor([KEY]).streaming((text) => written.push(text));
  for (
    const piece of ["Your key is s", "k-live-0123", "456789abcdef", ", keep it safe. s", "o\n"]
  ) {
    write(piece);
  }
  assertEquals(written.join(""), "Your key is [redacted], keep it safe. so\n");
  assertEquals(written.join("").includes("sk-"), false);
  write("ends with s");
  write("\n");
  assertEquals(written.slice(-1), ["s\n"]);
});

Deno.test("Redactor.events() redacts every event before it is shown, reasoning across pieces", () => {
  const seen: AgentEvent[] = [];
  const sink = new Redactor([KEY]).events((event) => seen.push(event));
  const call = { id: "c1", name: "bash", arguments: JSON.stringify({ command: `echo ${KEY}` }) };
  sink({ type: "reasoning", text: "The key is sk-live-01" });
  sink({ type: "reasoning", text: "23456789abcdef." });
  sink({ type: "tool_start", call, description: { kind: "text", text: `echo ${KEY}` } });
  sink({ type: "retry", attempt: 1, delayMs: 500, reason: `401 for ${KEY}` });
  sink({ type: "text", text: `${KEY.slice(0, 4)}` });
  assertEquals(seen, [
    { type: "reasoning", text: "The key is " },
    { type: "reasoning", text: "[redacted]." },
    {
      type: "tool_start",
      call: { ...call, arguments: JSON.stringify({ command: "echo [redacted]" }) },
      description: { kind: "text", text: "echo [redacted]" },
    },
    { type: "retry", attempt: 1, delayMs: 500, reason: "401 for [redacted]" },
    { type: "text", text: "sk-l" },
  ]);
});

Deno.test("Redactor.events() with streamText redacts the answer across pieces and flushes at the end", () => {
  const seen: AgentEvent[] = [];
  const sink = new Redactor([KEY]).events((event) => seen.push(event), { streamText: true });
  sink({ type: "text", text: `Your key: ${KEY.slice(0, 6)}` });
  sink({ type: "text", text: `${KEY.slice(6)} and then s` });
  sink.flush();
  assertEquals(seen, [
    { type: "text", text: "Your key: " },
    { type: "text", text: "[redacted] and then " },
    { type: "text", text: "s" },
  ]);
});
