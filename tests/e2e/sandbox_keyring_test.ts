import { assert, assertStringIncludes } from "@std/assert";
import { skipWithout } from "../support/programs.ts";
import { createSandboxProject, isRoot } from "../support/sandbox_project.ts";

const AS_ROOT = await isRoot();
const SECRET = "powercode-keyring-secret-7f3a";
/** Every way keyutils offers to find and read a key in the session keyring, and /proc/keys. */
const READ_KEYRING = "keyctl show @s; keyctl print %user:powercode-secret; " +
  "keyctl request user powercode-secret; keyctl pipe %user:powercode-secret; " +
  "keyctl add user planted x @s; cat /proc/keys; true";

function assertKeyringHidden(output: string): void {
  assert(!output.includes(SECRET), `the sandbox read the keyring:\n${output}`);
  assert(!output.includes("\\_ user:"), `the sandbox listed the keyring:\n${output}`);
  assert(!output.includes("powercode-secret:"), `/proc/keys named the key:\n${output}`);
  assertStringIncludes(output, "request_key: Operation not permitted");
}

const NO_KEYCTL = skipWithout("keyctl");

Deno.test({
  name: "Sandbox.run() cannot read the session keyring powercode was started with",
  ignore: NO_KEYCTL,
  async fn() {
    await using project = await createSandboxProject();
    const { output } = await project.runInChild(READ_KEYRING, {
      asNobody: false,
      keyringSecret: SECRET,
    });
    assertKeyringHidden(output);
  },
});

Deno.test({
  name: "Sandbox.run() as nobody cannot read the session keyring either",
  ignore: NO_KEYCTL || !AS_ROOT,
  async fn() {
    await using project = await createSandboxProject();
    const { output } = await project.runInChild(READ_KEYRING, {
      asNobody: true,
      keyringSecret: SECRET,
    });
    assertKeyringHidden(output);
  },
});
