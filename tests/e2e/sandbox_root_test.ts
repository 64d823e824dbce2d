import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import {
  createSandboxProject,
  isRoot,
  SECRET_KEY,
  SECRET_SESSION,
} from "../support/sandbox_project.ts";

const AS_ROOT = await isRoot();
const NO_CAPABILITIES = [
  "CapInh:\t0000000000000000",
  "CapPrm:\t0000000000000000",
  "CapEff:\t0000000000000000",
  "CapBnd:\t0000000000000000",
  "CapAmb:\t0000000000000000",
].join("\n");

/** Writes the current value back to a system-wide and a namespaced sysctl. */
const WRITE_SYSCTL = "for f in vm/swappiness kernel/domainname; do " +
  'v=$(cat /proc/sys/$f); echo "$v" > /proc/sys/$f && echo "WROTE $f"; done; true';

/** Tries every way to take the masks off provider.json and .powercode/ and read them. */
const UNMASK = [
  "umount ../provider.json && echo UNMOUNTED",
  "umount ../.powercode && echo UNMOUNTED",
  'unshare -Urm sh -c "umount ../provider.json && echo UNMOUNTED"',
  "cat ../provider.json ../.powercode/sessions/s.jsonl",
  "echo planted > ../.powercode/planted && echo PLANTED",
].join("; ");

function assertNoSecrets(output: string): void {
  for (const secret of [SECRET_KEY, SECRET_SESSION, "UNMOUNTED", "PLANTED"]) {
    assert(!output.includes(secret), `the sandbox leaked "${secret}":\n${output}`);
  }
}

Deno.test("Sandbox.run() leaves commands no capabilities, also as root", async () => {
  await using project = await createSandboxProject();
  assertEquals(await project.run("grep ^Cap /proc/self/status"), {
    output: `${NO_CAPABILITIES}\n`,
    code: 0,
  });
});

Deno.test("Sandbox.run() masks on provider.json and .powercode/ cannot be undone", async () => {
  await using project = await createSandboxProject();
  const { output, code } = await project.run(UNMASK);
  assertNoSecrets(output);
  assertStringIncludes(output, "unshare failed: Operation not permitted");
  assertEquals(code, 1);
  assertEquals(
    await Deno.stat(`${project.dir}/.powercode/planted`).catch(() => "absent"),
    "absent",
  );
});

Deno.test("Sandbox.run() cannot remount / read-write and write outside", async () => {
  await using project = await createSandboxProject();
  const mark = `/powercode-remount-${crypto.randomUUID()}`;
  try {
    const { output } = await project.run(
      `mount -o remount,rw / && echo REMOUNTED; touch ${mark} ../outside.txt`,
    );
    assert(!output.includes("REMOUNTED"), output);
    assertStringIncludes(output, `touch: cannot touch '${mark}': Read-only file system`);
    assertEquals(await Deno.stat(mark).catch(() => "absent"), "absent");
    assertEquals(await Deno.stat(`${project.dir}/outside.txt`).catch(() => "absent"), "absent");
  } finally {
    await Deno.remove(mark).catch(() => {});
  }
});

Deno.test("Sandbox.run() keeps /proc/sys read-only", async () => {
  await using project = await createSandboxProject();
  assertEquals(await project.run(WRITE_SYSCTL), {
    output: "bash: line 1: /proc/sys/vm/swappiness: Read-only file system\n" +
      "bash: line 1: /proc/sys/kernel/domainname: Read-only file system\n",
    code: 0,
  });
});

Deno.test({
  name: "Sandbox.run() as nobody: no capabilities, masks hold, /proc/sys read-only",
  ignore: !AS_ROOT,
  async fn() {
    await using project = await createSandboxProject();
    const caps = await project.runInChild("grep ^Cap /proc/self/status", { asNobody: true });
    assertEquals(caps, { output: `${NO_CAPABILITIES}\n`, code: 0 });
    const unmask = await project.runInChild(UNMASK, { asNobody: true });
    assertNoSecrets(unmask.output);
    assertEquals(unmask.code, 1);
    const sysctl = await project.runInChild(`id -u; ${WRITE_SYSCTL}`, { asNobody: true });
    assertEquals(sysctl.output.split("\n")[0], "65534");
    assert(!sysctl.output.includes("WROTE"), sysctl.output);
  },
});
