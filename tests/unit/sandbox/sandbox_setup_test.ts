import { assertEquals, assertRejects } from "@std/assert";
import { LazySandboxSetup, type SandboxSetup } from "../../../src/sandbox/mod.ts";

const FOUND: SandboxSetup = { mode: "bwrap", hidden: [{ path: "/secret", isDirectory: true }] };

Deno.test("LazySandboxSetup finds nothing before the first resolve(), then once for all", async () => {
  let finds = 0;
  const release = Promise.withResolvers<void>();
  const setup = new LazySandboxSetup("bwrap", async () => {
    finds++;
    await release.promise;
    return { mode: "unavailable", hidden: [] };
  });
  assertEquals([finds, setup.mode], [0, "bwrap"]);
  const first = setup.resolve();
  const second = setup.resolve();
  release.resolve();
  assertEquals(await Promise.all([first, second, setup.resolve()]), [
    { mode: "unavailable", hidden: [] },
    { mode: "unavailable", hidden: [] },
    { mode: "unavailable", hidden: [] },
  ]);
  assertEquals([finds, setup.mode], [1, "unavailable"]);
});

Deno.test("LazySandboxSetup rejects every resolve() with a failed probe's error", async () => {
  let finds = 0;
  const setup = new LazySandboxSetup("bwrap", () => {
    finds++;
    return Promise.reject(new Error("Cannot find the paths to hide from commands: boom"));
  });
  for (let call = 0; call < 2; call++) {
    await assertRejects(() => setup.resolve(), Error, "Cannot find the paths to hide");
  }
  assertEquals([finds, setup.mode], [1, "bwrap"]);
});

Deno.test("LazySandboxSetup.known() is resolved from the start", async () => {
  const setup = LazySandboxSetup.known(FOUND);
  assertEquals(setup.mode, "bwrap");
  assertEquals(await setup.resolve(), FOUND);
});
