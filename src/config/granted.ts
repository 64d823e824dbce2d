/**
 * The Deno permissions this process holds, as Deno reports them (`Deno.permissions`), for
 * the paths, commands and variables a run uses and for "anything else" of each kind.
 *
 * @module
 */
import type { Locations } from "./locations.ts";
import { MCP_FILE } from "./project.ts";
import { USER_SETUP } from "./permission_set.ts";

/** Deno's answer for one descriptor; `prompt` reads "not granted" (powercode never prompts). */
export interface Grant {
  /** What was asked about: a path, a command, a variable, or `anything else`. */
  target: string;
  state: "granted" | "not granted" | "denied";
}

/** One kind of permission and Deno's answers for it. */
export interface GrantLine {
  kind: "read" | "write" | "net" | "run" | "env" | "sys" | "ffi";
  grants: Grant[];
}

/** The target of a descriptor without a path, command or variable. */
const ANYTHING_ELSE = "anything else";

/**
 * Asks Deno about every permission kind: read and write for each root, the provider file,
 * MCP's `mcp.json`, the user's setup (skills, commands, AGENTS.md) and the state directory; run for `programs` (what the tools start); env for the
 * variables powercode reads and for HOME; and, for each kind, the descriptor without a
 * target (`anything else`), which is granted only when the whole kind is.
 * Contract: queries only, never requests; nothing is restated from flags.
 */
export function queryGrants(locations: Locations, programs: readonly string[]): GrantLine[] {
  const paths = [
    ...locations.roots,
    locations.providerFile,
    `${locations.configDir}/${MCP_FILE}`,
    ...USER_SETUP.map((name) => `${locations.configDir}/${name}`),
    locations.stateDir,
  ];
  const ask = (descriptor: Deno.PermissionDescriptor, target: string): Grant => ({
    target,
    state: stateOf(Deno.permissions.querySync(descriptor).state),
  });
  const fileKind = (name: "read" | "write"): GrantLine => ({
    kind: name,
    grants: [...paths.map((path) => ask({ name, path }, path)), ask({ name }, ANYTHING_ELSE)],
  });
  return [
    fileKind("read"),
    fileKind("write"),
    { kind: "net", grants: [ask({ name: "net" }, "any host")] },
    {
      kind: "run",
      grants: [
        ...programs.map((command) => ask({ name: "run", command }, command)),
        ask({ name: "run" }, ANYTHING_ELSE),
      ],
    },
    {
      kind: "env",
      grants: [
        ...["OPENAI_*", "POWERCODE_*", "NO_COLOR", "HOME"].map((variable) =>
          ask({ name: "env", variable }, variable)
        ),
        ask({ name: "env" }, ANYTHING_ELSE),
      ],
    },
    { kind: "sys", grants: [ask({ name: "sys" }, ANYTHING_ELSE)] },
    { kind: "ffi", grants: [ask({ name: "ffi" }, ANYTHING_ELSE)] },
  ];
}

function stateOf(state: Deno.PermissionState): Grant["state"] {
  return state === "prompt" ? "not granted" : state;
}
