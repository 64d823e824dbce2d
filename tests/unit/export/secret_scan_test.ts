import { assertEquals } from "@std/assert";
import { findSecret, PROVIDER_SECRET, scrubSecrets } from "../../../src/export/mod.ts";
import { Redactor } from "../../../src/config/mod.ts";

const redactor = Redactor.forConfigs([
  { apiKey: "local-key-123456", baseURL: "https://user:pa55word@llm.example/v1" },
]);
const redact = (text: string) => redactor.redact(text);

Deno.test("findSecret() names a provider key, a URL credential and the common shapes", () => {
  const found = [
    "the key is local-key-123456",
    "password pa55word leaked",
    "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx12",
    "token ghp_" + "a".repeat(36),
    "AKIAABCDEFGHIJKLMNOP",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
    "xoxb-1234567890-abcdef",
    "AIza" + "b".repeat(35),
    "no secret here, sk-short",
  ].map((text) => findSecret(text, redact));
  assertEquals(found, [
    PROVIDER_SECRET,
    PROVIDER_SECRET,
    "an API key (sk-…)",
    "a GitHub token",
    "an AWS access key",
    "a private key block",
    "a Slack token",
    "a Google API key",
    undefined,
  ]);
});

Deno.test("scrubSecrets() replaces every secret found, keeping the rest", () => {
  assertEquals(
    scrubSecrets("a local-key-123456 b AKIAABCDEFGHIJKLMNOP c", redact),
    "a [redacted] b [redacted] c",
  );
});
