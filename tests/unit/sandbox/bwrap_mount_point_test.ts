import { assertEquals } from "@std/assert";
import { bwrapArgs } from "../../../src/sandbox/bwrap_profile.ts";
import { describeBwrapArgs } from "../../../src/sandbox/sandbox_scope.ts";

/** The workspace's binds, the git guard's and the working directory of `bwrapArgs(root, …)`. */
function mountsOf(root: string, realRoot: string) {
  const args = bwrapArgs(root, {
    hidden: [],
    realRoot,
    extraMounts: ["--ro-bind", `${root}/.git`, `${root}/.git`],
  }, "true");
  const { readWrite, readOnly } = describeBwrapArgs(args);
  return { readWrite, readOnly, chdir: args[args.indexOf("--chdir") + 1] };
}

Deno.test("bwrapArgs() mounts a linked workspace at its real path and keeps the link as working directory", () => {
  assertEquals(mountsOf("/src/ck/workspace", "/home/u/app"), {
    readWrite: ["/home/u/app"],
    readOnly: ["/", "/proc/sys", "/proc/sysrq-trigger", "/home/u/app/.git"],
    chdir: "/src/ck/workspace",
  });
});

Deno.test("bwrapArgs() mounts a linked workspace under /tmp at the link, which the private /tmp hides", () => {
  assertEquals(mountsOf("/tmp/ck/workspace", "/home/u/app"), {
    readWrite: ["/tmp/ck/workspace"],
    readOnly: ["/", "/proc/sys", "/proc/sysrq-trigger", "/tmp/ck/workspace/.git"],
    chdir: "/tmp/ck/workspace",
  });
});
