import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import { ConfigError, parseProviderConfig } from "../../src/config/provider_config.ts";
import { createTempProject } from "../support/project.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];
const BASE = { baseURL: "http://127.0.0.1:8080/v1", model: "m", contextWindow: 8192 };

Deno.test("parseProviderConfig() reads env:NAME keys and optional fields", () => {
  assertEquals(
    parseProviderConfig(
      { ...BASE, apiKey: "env:OPENAI_KEY_X", reserveTokens: 1000, maxOutputTokens: 512 },
      "p.json",
      env({ OPENAI_KEY_X: "sk-1" }),
    ),
    { ...BASE, apiKey: "sk-1", reserveTokens: 1000, maxOutputTokens: 512 },
  );
});

Deno.test("parseProviderConfig() reads cacheControl as a profile override, and refuses non-booleans", () => {
  assertEquals(parseProviderConfig({ ...BASE, cacheControl: true }, "p.json", env({})), {
    ...BASE,
    apiKey: "no-key",
    compat: { cacheControl: true },
  });
  assertEquals(
    parseProviderConfig({ ...BASE, cacheControl: false }, "p.json", env({})).compat,
    { cacheControl: false },
  );
  assertEquals(parseProviderConfig(BASE, "p.json", env({})).compat, undefined);
  const error = assertThrows(
    () => parseProviderConfig({ ...BASE, cacheControl: "yes" }, "p.json", env({})),
    ConfigError,
  );
  assertEquals(
    error.message,
    'Invalid provider file "p.json": field "cacheControl" must be true or false, got "yes"',
  );
});

Deno.test("parseProviderConfig() reads summaryInConversation, true, false or absent (the default, on)", () => {
  const on = parseProviderConfig({ ...BASE, summaryInConversation: true }, "p.json", env({}));
  assertEquals(on.summaryInConversation, true);
  const off = parseProviderConfig({ ...BASE, summaryInConversation: false }, "p.json", env({}));
  assertEquals(off.summaryInConversation, false);
  assertEquals(parseProviderConfig(BASE, "p.json", env({})).summaryInConversation, undefined);
  assertEquals(
    assertThrows(
      () => parseProviderConfig({ ...BASE, summaryInConversation: 1 }, "p.json", env({})),
      ConfigError,
    ).message,
    'Invalid provider file "p.json": field "summaryInConversation" must be true or false, got 1',
  );
});

Deno.test("parseProviderConfig() reads pricing and budget, and names each bad part", () => {
  const spending = {
    pricing: { input: 3, cachedInput: 0.3, output: 15 },
    budget: { tokens: 200000, cost: 1.5 },
  };
  assertEquals(parseProviderConfig({ ...BASE, ...spending }, "p.json", env({})), {
    ...BASE,
    apiKey: "no-key",
    ...spending,
  });
  const bad = {
    ...BASE,
    pricing: { input: -1, cached: 2 },
    budget: { tokens: 2.5, cost: "5" },
  };
  assertEquals(
    assertThrows(() => parseProviderConfig(bad, "p.json", env({})), ConfigError).message,
    'Invalid provider file "p.json": field "pricing.cached" is unknown; field "pricing.input" ' +
      "must be a number of dollars per million tokens, got -1; " +
      'field "pricing.output" is required; field "budget.tokens" must be a positive integer, ' +
      'got 2.5; field "budget.cost" must be a positive number, got "5"',
  );
  assertEquals(
    assertThrows(
      () => parseProviderConfig({ ...BASE, budget: { cost: 2 } }, "p.json", env({})),
      ConfigError,
    ).message,
    'Invalid provider file "p.json": field "budget.cost" needs "pricing" (dollars per million tokens)',
  );
});

Deno.test("parseProviderConfig() reads null as no key, without reading any variable", () => {
  const config = parseProviderConfig({ ...BASE, apiKey: null }, "p.json", () => {
    throw new Error("no variable may be read");
  });
  assertEquals(config.apiKey, "no-key");
});

Deno.test("parseProviderConfig() falls back to POWERCODE_API_KEY, OPENAI_API_KEY, then a placeholder", () => {
  const both = env({ POWERCODE_API_KEY: "pk", OPENAI_API_KEY: "ok" });
  assertEquals(parseProviderConfig(BASE, "p.json", both).apiKey, "pk");
  assertEquals(parseProviderConfig(BASE, "p.json", env({ OPENAI_API_KEY: "ok" })).apiKey, "ok");
  assertEquals(parseProviderConfig(BASE, "p.json", env({})).apiKey, "no-key");
});

Deno.test("parseProviderConfig() reports every bad field in one line naming the file", () => {
  const error = assertThrows(
    () =>
      parseProviderConfig(
        { baseURL: "localhost:8080", contextWindow: "big", reserveTokens: 0, modle: "x" },
        "conf/p.json",
        env({}),
      ),
    ConfigError,
  );
  assertEquals(
    error.message,
    'Invalid provider file "conf/p.json": field "modle" is unknown; field "baseURL" must be an http(s) URL, got "localhost:8080"; field "model" is required; field "contextWindow" must be a positive integer, got "big"; field "reserveTokens" must be a positive integer, got 0',
  );
});

Deno.test("parseProviderConfig() refuses a reserve or output limit that does not fit the window", () => {
  const error = assertThrows(
    () =>
      parseProviderConfig(
        { ...BASE, reserveTokens: 8192, maxOutputTokens: 9000 },
        "p.json",
        env({}),
      ),
    ConfigError,
  );
  assertEquals(
    error.message,
    'Invalid provider file "p.json": field "reserveTokens" (8192) must be below contextWindow; field "maxOutputTokens" (9000) must be below contextWindow',
  );
});

Deno.test("parseProviderConfig() refuses keepRecentTokens that leave nothing to compact", () => {
  const error = assertThrows(
    () => parseProviderConfig({ ...BASE, keepRecentTokens: 7000 }, "p.json", env({})),
    ConfigError,
  );
  assertEquals(
    error.message,
    'Invalid provider file "p.json": field "keepRecentTokens" (7000) must be below contextWindow - reserveTokens (6144)',
  );
});

Deno.test("parseProviderConfig() names a missing or unreadable key variable without any key", () => {
  const missing = assertThrows(
    () => parseProviderConfig({ ...BASE, apiKey: "env:POWERCODE_NOPE" }, "p.json", env({})),
    ConfigError,
  );
  assertEquals(
    missing.message,
    'Invalid provider file "p.json": field "apiKey": environment variable "POWERCODE_NOPE" is not set',
  );
  const denied = assertThrows(
    () =>
      parseProviderConfig({ ...BASE, apiKey: "env:HOME" }, "p.json", () => {
        throw new Deno.errors.NotCapable("no");
      }),
    ConfigError,
  );
  assertEquals(
    denied.message,
    'Invalid provider file "p.json": field "apiKey": powercode may read only OPENAI_* and POWERCODE_* variables, not "HOME"',
  );
});

Deno.test("powercode exits 2 with one line for each configuration error", async (t) => {
  await using project = await createTempProject();
  const expectError = async (
    args: string[],
    expected: string,
    env: Record<string, string> = {},
  ) => {
    const result = await project.run(args, { env });
    assertEquals([result.code, result.stdout, result.stderr], [2, "", `powercode: ${expected}\n`]);
  };
  await t.step("missing provider.json", () =>
    expectError(
      ["-p", "hi"],
      'Cannot read provider file "provider.json": file not found; create it (see README.md) or pass --provider FILE',
    ));
  await t.step("bad JSON", async () => {
    await Deno.writeTextFile(`${project.dir}/provider.json`, "{ baseURL: ");
    const result = await project.run(["-p", "hi"]);
    assertEquals(result.code, 2);
    assertEquals(result.stderr.split("\n").length, 2);
    assertEquals(
      result.stderr.startsWith(
        'powercode: Cannot parse provider file "provider.json": invalid JSON',
      ),
      true,
    );
  });
  await t.step("bad field", async () => {
    await project.writeProvider({ ...BASE, contextWindow: -1 });
    await expectError(
      [],
      'Invalid provider file "provider.json": field "contextWindow" must be a positive integer, got -1',
    );
  });
  await t.step("bad compat fields", async () => {
    await project.writeProvider({ ...BASE, compat: { cacheControl: "yes", maxTokensField: 1 } });
    await expectError(
      [],
      'Invalid provider file "provider.json": field "compat.cacheControl" must be true or false, got "yes"; field "compat.maxTokensField" is unknown',
    );
  });
  await t.step("key variable not set", async () => {
    await project.writeProvider({ ...BASE, apiKey: "env:OPENAI_MISSING" });
    await expectError(
      [],
      'Invalid provider file "provider.json": field "apiKey": environment variable "OPENAI_MISSING" is not set',
    );
  });
  await t.step("POWERCODE_PROVIDER and --provider choose the file", async () => {
    await Deno.mkdir(`${project.dir}/.powercode`, { recursive: true });
    await Deno.writeTextFile(
      `${project.dir}/.powercode/other.json`,
      JSON.stringify({ model: "m" }),
    );
    const expected =
      'Invalid provider file ".powercode/other.json": field "baseURL" is required; field "contextWindow" is required';
    await expectError([], expected, { POWERCODE_PROVIDER: ".powercode/other.json" });
    await expectError(["--provider", ".powercode/other.json"], expected);
  });
  await t.step("contextWindow too small for the system prompt, tools and reserve", async () => {
    await project.writeProvider({ ...BASE, contextWindow: 1000 });
    const result = await project.run([]);
    assertEquals([result.code, result.stdout], [2, ""]);
    assertMatch(
      result.stderr,
      /^powercode: Invalid provider file "provider.json": field "contextWindow" \(1000\) is too small: the system prompt and tool definitions take about \d+ tokens and reserveTokens is 250, which leaves no room for messages\n$/,
    );
  });
  await t.step("provider file inside the workspace, named or through a symlink", async () => {
    await Deno.writeTextFile(`${project.workspace}/p.json`, JSON.stringify(BASE));
    const real = await Deno.realPath(`${project.workspace}/p.json`);
    const inside = (name: string) =>
      `Cannot use provider file "${name}": it lies inside the workspace "workspace" (real path ` +
      `"${real}"), where the agent's tools can read it; keep it in ./provider.json or ./.powercode/`;
    await expectError(["--provider", "workspace/p.json"], inside("workspace/p.json"));
    await Deno.remove(`${project.dir}/provider.json`);
    await Deno.symlink("workspace/p.json", `${project.dir}/provider.json`);
    await expectError([], inside("provider.json"));
    await Deno.remove(`${project.dir}/provider.json`);
    await Deno.remove(`${project.workspace}/p.json`);
  });
  await t.step(
    "unknown flag",
    () =>
      expectError(
        ["--frobnicate"],
        'Unknown argument "--frobnicate": run powercode -h for the options',
      ),
  );
  await t.step("--dir or --add-dir without the installed command", async () => {
    await project.writeProvider(BASE);
    for (const flag of ["--dir", "--add-dir"]) {
      await expectError(
        [flag, "/tmp"],
        `Cannot use ${flag} here: this powercode may use only ./workspace; to work on any ` +
          "directory, install the powercode command from its checkout (deno task install) and " +
          "run powercode there",
      );
    }
  });
  await t.step("a project the launcher did not grant", async () => {
    await project.writeProvider(BASE);
    const forged = JSON.stringify({ roots: ["/usr"], providerFile: "/p.json", stateDir: "/s" });
    await expectError(
      [],
      'Cannot work on "/usr": Deno does not let this process read it; start powercode with ' +
        'the command "deno task install" writes (or unset POWERCODE_PROJECT)',
      { POWERCODE_PROJECT: forged },
    );
  });
  await t.step("workspace missing", async () => {
    await project.writeProvider(BASE);
    await Deno.remove(project.workspace, { recursive: true });
    await expectError(
      [],
      'No "workspace/" directory here: create it (mkdir workspace) or start powercode in the ' +
        "directory that holds it; to work on any directory, install the powercode command " +
        "from its checkout (deno task install) and run powercode there",
    );
    await Deno.mkdir(project.workspace);
  });
});

Deno.test("parseProviderConfig() accepts outputLimitField and refuses other values", () => {
  const base = { baseURL: "http://h/v1", model: "m", contextWindow: 8192, apiKey: "k" };
  const config = parseProviderConfig(
    { ...base, outputLimitField: "max_completion_tokens" },
    "p.json",
    () => undefined,
  );
  assertEquals(config.compat, { outputLimitField: "max_completion_tokens" });
  assertThrows(
    () =>
      parseProviderConfig({ ...base, outputLimitField: "max_output" }, "p.json", () => undefined),
    ConfigError,
    `Invalid provider file "p.json": field "outputLimitField" must be "max_tokens" or "max_completion_tokens", got "max_output"`,
  );
});
