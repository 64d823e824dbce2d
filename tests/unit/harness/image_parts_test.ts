import { assertEquals } from "@std/assert";
import { startFakeServer } from "../../support/fake_server.ts";
import { pngImage } from "../../support/images.ts";
import { text } from "../../support/scripts.ts";
import { countPromptTokens } from "../../support/tokens.ts";

const KEY = "sk-test-key";

async function post(url: string, content: unknown, role = "user") {
  const messages = role === "tool"
    ? [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content },
    ]
    : [{ role, content }];
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }, ...messages] }),
  });
  const json = await response.json() as { error?: { message: string; code: string | null } };
  return { status: response.status, error: json.error };
}

function imagePart(url: string) {
  return { type: "image_url", image_url: { url } };
}

Deno.test("fake server accepts a PNG image_url part and counts it by the tile rule", async () => {
  await using server = await startFakeServer({ handler: () => text("ok"), apiKey: KEY });
  const png = await pngImage(1600, 1200);
  const content = [
    { type: "text", text: "What?" },
    imagePart(`data:image/png;base64,${png.toBase64()}`),
  ];
  assertEquals((await post(server.url, content)).status, 200);
  const [request] = server.requests;
  const image = request?.body?.messages[1];
  assertEquals(image?.role === "user" ? image.images?.[0]?.width : 0, 1600);
  const textOnly = countPromptTokens({
    messages: [{ content: "hi" }, { content: "What?" }],
  });
  assertEquals(request?.promptTokens, textOnly + 85 + 4 * 170);
});

Deno.test("fake server rejects image parts the real API rejects", async () => {
  await using server = await startFakeServer({ handler: () => text("ok"), apiKey: KEY });
  const png = (await pngImage(2, 2)).toBase64();
  const invalid = "invalid_value";
  const unsupported = "invalid_image_format";
  const cases: [unknown, string, string | null][] = [
    [[imagePart("https://example.com/a.png")], "user", invalid],
    [[imagePart("data:image/png;base64,")], "user", invalid],
    [[imagePart(`data:image/svg+xml;base64,${png}`)], "user", unsupported],
    [[imagePart(`data:image/jpeg;base64,${png}`)], "user", unsupported],
    [[imagePart(`data:image/png;base64,${btoa("not a png")}`)], "user", unsupported],
    [
      [{ type: "image_url", image_url: { url: `data:image/png;base64,${png}`, x: 1 } }],
      "user",
      null,
    ],
    [[imagePart(`data:image/png;base64,${png}`)], "tool", invalid],
    [[imagePart(`data:image/png;base64,${png}`)], "system", invalid],
  ];
  for (const [content, role, code] of cases) {
    const { status, error } = await post(server.url, content, role);
    assertEquals([status, error?.code], [400, code], JSON.stringify(content).slice(0, 80));
  }
});
