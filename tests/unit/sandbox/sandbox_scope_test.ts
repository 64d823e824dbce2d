import { assertEquals } from "@std/assert";
import { bwrapArgs } from "../../../src/sandbox/bwrap_profile.ts";
import { Sandbox } from "../../../src/sandbox/sandbox.ts";
import { describeBwrapArgs, describeSandbox } from "../../../src/sandbox/sandbox_scope.ts";
import { FILTER_SUMMARY } from "../../../src/sandbox/seccomp.ts";

Deno.test("describeBwrapArgs() reads binds, masks, namespaces, capabilities and the filter", () => {
  const args = bwrapArgs("/p/app", {
    hidden: [{ path: "/cfg/provider.json", isDirectory: false }, {
      path: "/state",
      isDirectory: true,
    }],
    moreRoots: ["/p/lib"],
    extraMounts: [
      ...["--ro-bind", "/state/empty", "/p/app/.env"],
      ...["--ro-bind", "/p/app/.powercodeignore", "/p/app/.powercodeignore"],
      "--future-option",
    ],
  }, "true");
  assertEquals(describeBwrapArgs(args), {
    readWrite: ["/p/app", "/p/lib"],
    readOnly: ["/", "/proc/sys", "/proc/sysrq-trigger", "/p/app/.powercodeignore"],
    masked: ["/proc/keys", "/cfg/provider.json", "/state", "/p/app/.env"],
    private: ["/dev", "/proc", "/tmp"],
    namespaces: ["user", "pid", "net", "ipc", "uts"],
    capabilitiesDropped: true,
    seccomp: true,
    other: ["--future-option"],
  });
});

Deno.test("describeSandbox() reports the mode, and the profile only under bubblewrap", async () => {
  const unsandboxed = await describeSandbox(new Sandbox("/p/app", "unsandboxed"));
  assertEquals(unsandboxed, {
    mode: "unsandboxed",
    workspace: "rw",
    gitControl: "writable",
    filter: FILTER_SUMMARY,
  });
  const sandboxed = await describeSandbox(
    new Sandbox("/p/app", "bwrap", {
      mounts: () => Promise.resolve({ pins: [], masks: ["--ro-bind", "/e", "/f"] }),
    }),
  );
  assertEquals([sandboxed.gitControl, sandboxed.scope?.readWrite, sandboxed.scope?.masked], [
    "protected",
    ["/p/app"],
    ["/proc/keys", "/f"],
  ]);
});
