import { assertEquals } from "@std/assert";
import { normalizeErrorBody, providerMessage } from "../../../src/model/error_body.ts";
import { classifyStreamError } from "../../../src/model/errors.ts";

Deno.test("normalizeErrorBody() gives every provider's error shape OpenAI's {error: {message}}", () => {
  const cases: [unknown, unknown][] = [
    [[{ error: { code: 400, message: "too many", status: "INVALID_ARGUMENT" } }], {
      error: { code: 400, message: "too many", status: "INVALID_ARGUMENT" },
    }],
    [{ object: "error", message: "too long", type: "BadRequestError", param: null, code: 400 }, {
      error: { message: "too long", type: "BadRequestError", param: null, code: 400 },
    }],
    [{ error: "Trying to keep the first 10 tokens" }, {
      error: { message: "Trying to keep the first 10 tokens" },
    }],
    [{ type: "error", error: { type: "invalid_request_error", message: "prompt is too long" } }, {
      error: { type: "invalid_request_error", message: "prompt is too long" },
    }],
    [{
      error: {
        message: "Provider returned error",
        code: 400,
        metadata: { raw: '{"error":{"message":"inner"}}' },
      },
    }, {
      error: {
        message: "Provider returned error: inner",
        code: 400,
        metadata: { raw: '{"error":{"message":"inner"}}' },
      },
    }],
  ];
  for (const [body, expected] of cases) {
    assertEquals(JSON.parse(normalizeErrorBody(JSON.stringify(body))), expected);
  }
  assertEquals(normalizeErrorBody("<html>Bad Gateway</html>"), "<html>Bad Gateway</html>");
  assertEquals(normalizeErrorBody('{"detail":"nope"}'), '{"detail":"nope"}');
});

Deno.test("providerMessage() reads strings, messages and OpenRouter's raw provider text", () => {
  assertEquals(providerMessage(" text "), "text");
  assertEquals(providerMessage({ message: "m", metadata: { raw: "not json" } }), "m: not json");
  assertEquals(providerMessage({ code: 1 }), undefined);
});

Deno.test("classifyStreamError() sorts errors sent inside a stream by their content", () => {
  const kinds = [
    { code: 400, message: "This endpoint's maximum context length is 8192 tokens" },
    { code: 429, message: "slow down" },
    { message: "The model is overloaded" },
    { code: "server_error", message: "Provider disconnected unexpectedly" },
    { code: 502, message: "bad gateway" },
    { code: 403, message: "flagged by moderation" },
    "Trying to keep the first 900 tokens when context the overflows",
  ].map((body) => classifyStreamError(body).kind);
  assertEquals(kinds, [
    "context_overflow",
    "rate_limited",
    "rate_limited",
    "server",
    "server",
    "bad_request",
    "context_overflow",
  ]);
  assertEquals(
    classifyStreamError({ code: 403, message: "flagged by moderation." }).message,
    "The provider reported an error mid-reply: flagged by moderation",
  );
});
