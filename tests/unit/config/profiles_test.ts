import { assertEquals, assertThrows } from "@std/assert";
import { ConfigError } from "../../../src/config/provider_config.ts";
import { parseProviderProfiles } from "../../../src/config/profiles.ts";
import { Redactor } from "../../../src/config/redact.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];
const BASE = { baseURL: "http://127.0.0.1:8080/v1", model: "m", contextWindow: 8192 };

Deno.test("parseProviderProfiles() reads a file of the single shape as one profile named default", () => {
  assertEquals(parseProviderProfiles({ ...BASE, apiKey: null }, "p.json", env({})), {
    defaultProfile: "default",
    named: false,
    profiles: new Map([["default", { ...BASE, apiKey: "no-key" }]]),
  });
});

Deno.test("parseProviderProfiles() reads profiles and their default, each with every field of the single shape", () => {
  const file = parseProviderProfiles(
    {
      default: "big",
      profiles: {
        small: { ...BASE, apiKey: "env:POWERCODE_SMALL", reasoningEffort: "low" },
        big: { ...BASE, model: "b", contextWindow: 64000, compat: { cacheControl: true } },
      },
    },
    "p.json",
    env({ POWERCODE_SMALL: "sk-small-1234", OPENAI_API_KEY: "sk-openai-5678" }),
  );
  assertEquals(file, {
    defaultProfile: "big",
    named: true,
    profiles: new Map([
      ["small", { ...BASE, apiKey: "sk-small-1234", reasoningEffort: "low" as const }],
      ["big", {
        ...BASE,
        model: "b",
        contextWindow: 64000,
        apiKey: "sk-openai-5678",
        compat: { cacheControl: true },
      }],
    ]),
  });
  const one = parseProviderProfiles({ profiles: { only: BASE } }, "p.json", env({}));
  assertEquals(one.defaultProfile, "only", "one profile needs no default");
});

Deno.test("parseProviderProfiles() names every bad profile and field in one line", () => {
  const cases: [unknown, string][] = [
    [
      {
        default: "a",
        profiles: { a: { ...BASE, contextWindow: 0 }, b: { model: "m" }, "bad name": BASE },
      },
      'profile "a": field "contextWindow" must be a positive integer, got 0; profile "b": ' +
      'field "baseURL" is required; profile "b": field "contextWindow" is required; profile ' +
      '"bad name": its name must be letters, digits and . _ : / - (at most 64)',
    ],
    [
      { baseURL: "http://x/v1", profiles: { a: BASE, b: BASE } },
      'field "baseURL" is unknown beside "profiles"; move it into a profile; field "default" ' +
      'is required with more than one profile: name one of "a", "b"',
    ],
    [
      { default: "c", profiles: { a: BASE, b: "m" } },
      'profile "b": must be an object, got "m"; field "default" must name a profile ("a", ' +
      '"b"), got "c"',
    ],
    [
      { profiles: {} },
      'field "profiles" must be an object of at least one profile, got {}',
    ],
    [
      { profiles: { a: { ...BASE, reasoningEffort: "max", apiKey: "env:HOME" } } },
      'profile "a": field "reasoningEffort" must be one of "minimal", "low", "medium", ' +
      '"high", got "max"; profile "a": field "apiKey": powercode may read only OPENAI_* and ' +
      'POWERCODE_* variables, not "HOME"',
    ],
  ];
  const strict = (name: string) => {
    if (!name.startsWith("OPENAI_") && !name.startsWith("POWERCODE_")) throw new Error(name);
    return undefined;
  };
  for (const [data, problems] of cases) {
    const error = assertThrows(() => parseProviderProfiles(data, "p.json", strict), ConfigError);
    assertEquals(error.message, `Invalid provider file "p.json": ${problems}`);
  }
});

Deno.test("parseProviderProfiles() reads the session's budget beside the profiles, prices in each", () => {
  const pricing = { input: 1, output: 2 };
  const file = parseProviderProfiles(
    { budget: { tokens: 5000, cost: 2 }, profiles: { a: { ...BASE, pricing } } },
    "p.json",
    env({}),
  );
  assertEquals([file.budget, file.profiles.get("a")?.pricing], [
    { tokens: 5000, cost: 2 },
    pricing,
  ]);
  const single = parseProviderProfiles({ ...BASE, budget: { tokens: 9 } }, "p.json", env({}));
  assertEquals(single.budget, { tokens: 9 });
  const error = assertThrows(
    () =>
      parseProviderProfiles(
        { budget: { tokens: 0 }, profiles: { a: { ...BASE, budget: { tokens: 9 } } } },
        "p.json",
        env({}),
      ),
    ConfigError,
  );
  assertEquals(
    error.message,
    'Invalid provider file "p.json": profile "a": field "budget" is the session\'s: move it ' +
      'beside "profiles"; field "budget.tokens" must be a positive integer, got 0',
  );
});

Deno.test("Redactor.forConfigs() redacts the key and URL credentials of every profile", () => {
  const redactor = Redactor.forConfigs([
    { apiKey: "sk-first-profile-key", baseURL: "http://127.0.0.1/v1" },
    { apiKey: "sk-second-profile-key", baseURL: "https://user:pass-word-9@example.com/v1" },
  ]);
  assertEquals(
    redactor.redact("sk-first-profile-key sk-second-profile-key https://user:pass-word-9@x"),
    "[redacted] [redacted] https://[redacted]@x",
  );
});
