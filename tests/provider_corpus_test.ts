import { assert, assertEquals } from "@std/assert";
import { readProvenance } from "./support/provider_fixtures.ts";

const ROOT = new URL("./fixtures/providers/", import.meta.url);
const SOURCES = ["recorded", "reported", "derived", "from docs", "from source"];

function corpusFiles(): string[] {
  const files: string[] = [];
  for (const provider of Deno.readDirSync(ROOT)) {
    if (!provider.isDirectory) continue;
    for (const file of Deno.readDirSync(new URL(`${provider.name}/`, ROOT))) {
      files.push(`${provider.name}/${file.name}`);
    }
  }
  return files.sort();
}

Deno.test("every corpus file has a provenance entry naming where it came from, and no other", async () => {
  const provenance = await readProvenance();
  assertEquals(Object.keys(provenance).sort(), corpusFiles());
  for (const [name, entry] of Object.entries(provenance)) {
    assert(SOURCES.includes(entry.source), `${name}: source "${entry.source}"`);
    const located = entry.url !== undefined ||
      (entry.repository !== undefined && entry.path !== undefined &&
        /^[0-9a-f]{40}$/.test(entry.commit ?? ""));
    assert(located, `${name}: needs a url, or a repository, path and commit`);
    if (name.endsWith(".json")) assert(entry.status !== undefined, `${name}: needs a status`);
  }
});
