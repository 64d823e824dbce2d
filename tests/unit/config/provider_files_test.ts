import { assertEquals } from "@std/assert";
import { knownProviderFiles, readProviderSecrets } from "../../../src/config/provider_files.ts";
import { PLACEHOLDER_KEY } from "../../../src/config/provider_config.ts";

Deno.test("knownProviderFiles() lists the file in use first and every other once", () => {
  const layout = (providerFile: string) => knownProviderFiles({ mode: "layout", providerFile });
  assertEquals(layout(".powercode/provider.json"), [".powercode/provider.json", "provider.json"]);
  assertEquals(layout("./provider.json"), ["./provider.json", ".powercode/provider.json"]);
  assertEquals(layout(".powercode/other.json"), [
    ".powercode/other.json",
    "provider.json",
    ".powercode/provider.json",
  ]);
  const providerFile = "/home/u/.config/powercode/provider.json";
  assertEquals(knownProviderFiles({ mode: "project", providerFile }), [providerFile]);
});

Deno.test("readProviderSecrets() takes literal keys and URLs of both shapes and skips bad files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/single.json`, JSON.stringify({ apiKey: "sk-one-literal" }));
    await Deno.writeTextFile(
      `${dir}/profiles.json`,
      JSON.stringify({
        profiles: {
          a: { apiKey: "env:OPENAI_API_KEY", baseURL: "https://u:p@host/v1" },
          b: { apiKey: "sk-two-literal" },
          c: "not an object",
        },
      }),
    );
    await Deno.writeTextFile(`${dir}/broken.json`, "{");
    const paths = ["single.json", "profiles.json", "broken.json", "missing.json"];
    assertEquals(await readProviderSecrets(paths.map((name) => `${dir}/${name}`)), [
      { apiKey: "sk-one-literal", baseURL: "" },
      { apiKey: PLACEHOLDER_KEY, baseURL: "" },
      { apiKey: PLACEHOLDER_KEY, baseURL: "https://u:p@host/v1" },
      { apiKey: "sk-two-literal", baseURL: "" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
