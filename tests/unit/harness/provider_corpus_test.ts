/** The recorded corpus beside the repository: every file has its provenance. */
import { assert, assertEquals } from "@std/assert";
import { corpusFiles, readProvenance, trafficTest } from "../../support/provider_fixtures.ts";

const SOURCES = ["recorded", "reported", "derived", "from docs", "from source"];

trafficTest(
  "every corpus file has a provenance entry naming where it came from, and no other",
  async () => {
    const provenance = await readProvenance();
    assertEquals(
      Object.keys(provenance).sort(),
      corpusFiles().filter((name) => name !== "PROVENANCE.json"),
    );
    for (const [name, entry] of Object.entries(provenance)) {
      assert(SOURCES.includes(entry.source), `${name}: source "${entry.source}"`);
      const located = entry.url !== undefined ||
        (entry.repository !== undefined && entry.path !== undefined &&
          /^[0-9a-f]{40}$/.test(entry.commit ?? ""));
      assert(located, `${name}: needs a url, or a repository, path and commit`);
      if (name.endsWith(".json")) assert(entry.status !== undefined, `${name}: needs a status`);
    }
  },
);
