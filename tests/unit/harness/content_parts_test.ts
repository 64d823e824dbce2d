/**
 * The fake server's strict checks of content parts and `cache_control` breakpoints, as an
 * Anthropic route through an OpenAI-compatible API applies them.
 */
import { assertEquals, assertStringIncludes } from "@std/assert";
import { startFakeServer } from "../../support/fake_server.ts";
import { sequence, text } from "../../support/scripts.ts";

const MARK = { type: "ephemeral" };

function part(value: string, marked = true): Record<string, unknown> {
  return marked
    ? { type: "text", text: value, "cache_control": MARK }
    : { type: "text", text: value };
}

async function post(url: string, messages: unknown[]): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages }),
  });
  return { status: response.status, body: await response.text() };
}

Deno.test("startFakeServer() reads text parts as their joined text and counts them as such", async () => {
  await using server = await startFakeServer({ handler: sequence([text("ok"), text("ok")]) });
  const parts = [{ role: "system", content: [part("You are "), part("a test.", false)] }];
  assertEquals((await post(server.url, [...parts, { role: "user", content: "hi" }])).status, 200);
  const plain = [{ role: "system", content: "You are a test." }, { role: "user", content: "hi" }];
  assertEquals((await post(server.url, plain)).status, 200);
  const [marked, unmarked] = server.requests;
  assertEquals(marked?.body?.messages[0]?.content, "You are a test.");
  assertEquals(marked?.promptTokens, unmarked?.promptTokens);
});

Deno.test("startFakeServer() rejects malformed parts and more than 4 cache breakpoints", async () => {
  await using server = await startFakeServer({ handler: sequence([]) });
  const user = (content: unknown) => ({ role: "user", content });
  const cases: [unknown[], string][] = [
    [[user([])], "Invalid 'messages[0].content': empty array."],
    [
      [{ role: "system", content: [{ type: "image_url", image_url: { url: "x" } }] }],
      "Supported values are: 'text'",
    ],
    [[user([{ type: "image_url", image_url: { url: "x" } }])], "Invalid image URL"],
    [[user([part("")])], "text content blocks must be non-empty"],
    [[user([{ ...part("a"), "cache_control": { type: "persistent" } }])], 'expected {\\"type\\"'],
    [[user([{ ...part("a"), extra: 1 }])], "Unrecognized request argument supplied"],
    [[user(["a", "b", "c", "d", "e"].map((value) => part(value)))], "Found 5."],
  ];
  for (const [messages, expected] of cases) {
    const { status, body } = await post(server.url, messages);
    assertEquals(status, 400, JSON.stringify(messages));
    assertStringIncludes(body, expected);
  }
  const four = await post(server.url, [user(["a", "b", "c", "d"].map((value) => part(value)))]);
  assertEquals(four.status, 500, "four breakpoints pass validation and reach the (empty) script");
});
