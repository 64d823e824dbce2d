import { assertEquals, assertRejects } from "@std/assert";
import { createTools } from "../../../src/tools/mod.ts";

/** A probe that answers `works` when released, recording what happened around it. */
function heldProbe(works: boolean, log: string[]) {
  const release = Promise.withResolvers<void>();
  return {
    probe: async () => {
      log.push("probe started");
      await release.promise;
      log.push("probe ended");
      return works;
    },
    release: () => release.resolve(),
  };
}

Deno.test("createTools() runs whileProbing once while the probe runs, after the workspace opened", async () => {
  const root = await Deno.makeTempDir({ prefix: "powercode_probe_overlap_" });
  try {
    const log: string[] = [];
    const held = heldProbe(true, log);
    const made = createTools(root, {
      unsandboxedBash: false,
      probe: held.probe,
      whileProbing: () => {
        log.push("while probing");
        held.release();
      },
    });
    // Without a call of whileProbing the probe ends late, and the log says so.
    const late = setTimeout(held.release, 2000);
    const { sandbox } = await made;
    clearTimeout(late);
    assertEquals(log, ["probe started", "while probing", "probe ended"]);
    assertEquals(sandbox.mode, "bwrap");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("createTools() does not run whileProbing without a probe (--unsandboxed-bash)", async () => {
  const root = await Deno.makeTempDir({ prefix: "powercode_probe_overlap_" });
  try {
    const log: string[] = [];
    const { sandbox } = await createTools(root, {
      unsandboxedBash: true,
      whileProbing: () => log.push("while probing"),
    });
    assertEquals(log, []);
    assertEquals(sandbox.mode, "unsandboxed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("createTools() on a missing workspace waits for the probe's end and throws the workspace's error", async () => {
  const root = await Deno.makeTempDir({ prefix: "powercode_probe_overlap_" });
  try {
    const log: string[] = [];
    const held = heldProbe(false, log);
    setTimeout(held.release, 20);
    await assertRejects(
      () =>
        createTools(`${root}/missing`, {
          unsandboxedBash: false,
          probe: held.probe,
          whileProbing: () => log.push("while probing"),
        }),
      Error,
      "missing",
    );
    assertEquals(log, ["probe started", "probe ended"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
