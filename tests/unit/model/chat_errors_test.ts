import { assertEquals } from "@std/assert";
import { classifyChatFailure, retryDelayMs } from "../../../src/model/errors.ts";

const CONTEXT = { baseURL: "http://h/v1", model: "m", aborted: false };

function apiError(status: number, message: string, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`${status} ${message}`), {
    status,
    headers: new Headers(headers),
  });
}

Deno.test("classifyChatFailure() recognizes every server's context-overflow wording", () => {
  const wordings = [
    "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", // OpenAI, vLLM
    "This endpoint's maximum context length is 200000 tokens. However, you requested about 210000 tokens", // OpenRouter
    "the request exceeds the available context size, try increasing it", // llama.cpp
    "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens", // LM Studio
    "prompt too long; exceeded max context length by 12 tokens", // Ollama
    "Input is longer than the model's context length", // vLLM
  ];
  for (const wording of wordings) {
    assertEquals(
      classifyChatFailure(apiError(400, wording), CONTEXT).kind,
      "context_overflow",
      wording,
    );
  }
});

Deno.test("classifyChatFailure() maps statuses to kinds with one-line messages", () => {
  const kinds = [401, 403, 404, 429, 500, 503, 422].map((status) =>
    classifyChatFailure(apiError(status, "nope"), CONTEXT).kind
  );
  assertEquals(kinds, [
    "auth",
    "auth",
    "not_found",
    "rate_limited",
    "server",
    "server",
    "bad_request",
  ]);
  const refused = new TypeError("fetch failed", {
    cause: new Error(
      "error sending request for url (http://h/v1): client error (Connect): tcp connect error: Connection refused (os error 111)",
    ),
  });
  const unreachable = classifyChatFailure(refused, CONTEXT);
  assertEquals([unreachable.kind, unreachable.message], [
    "unreachable",
    'Cannot reach the model server at "http://h/v1" (connection refused): is the server ' +
    'running, and is "baseURL" in provider.json right?',
  ]);
  const dns = new TypeError("fetch failed", { cause: new Error("dns error: failed to lookup") });
  assertEquals(
    classifyChatFailure(dns, CONTEXT).message,
    'Cannot reach the model server at "http://h/v1" (the host name does not resolve): is the ' +
      'server running, and is "baseURL" in provider.json right?',
  );
  assertEquals(classifyChatFailure(new Error("x"), { ...CONTEXT, aborted: true }).kind, "aborted");
});

Deno.test("retryDelayMs() honours retry-after-ms, retry-after seconds, and caps at 60 s", () => {
  assertEquals(retryDelayMs(apiError(429, "x", { "retry-after-ms": "250" }), 1), 250);
  assertEquals(retryDelayMs(apiError(429, "x", { "retry-after": "2" }), 1), 2000);
  assertEquals(retryDelayMs(apiError(429, "x", { "retry-after": "3600" }), 1), 60_000);
  const backoff = [1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(new Error("x"), attempt));
  const bounds = [500, 1000, 2000, 4000, 8000, 8000];
  backoff.forEach((delay, i) => {
    const base = bounds[i] ?? 0;
    assertEquals(delay >= base * 0.75 && delay <= base * 1.25, true, `attempt ${i + 1}: ${delay}`);
  });
});
