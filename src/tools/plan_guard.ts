/**
 * Plan mode as the tools enforce it: a policy that refuses every change to the workspace but
 * `PLAN.md` at its root, and the sandbox switched to a read-only workspace, so that a plan mode
 * cannot be talked around through the shell.
 *
 * @module
 */
import type { PolicyVerdict, ToolPolicy, ToolRequest } from "./policy.ts";
import type { WorkspaceMode } from "../sandbox/mod.ts";
import type { Workspace } from "../workspace/mod.ts";

/** The one file plan mode lets the tools change, at the workspace root. */
export const PLAN_FILE = "PLAN.md";

/** A command runner whose workspace mode can be switched between runs (the sandbox). */
export interface WorkspaceSwitch {
  workspace: WorkspaceMode;
}

/** What a {@linkcode PlanGuard} confines. */
export interface PlanGuardOptions {
  /** The runner of the tools named in `confined`, switched to `ro` while plan mode is on. */
  runner?: WorkspaceSwitch;
  /** The `exec` tools whose commands go through `runner`; other `exec` tools are refused. */
  confined?: readonly string[];
}

const LEAVE = "ask the user to leave plan mode (/plan off) to make changes";

/**
 * Plan mode's switch and its policy.
 * Contract, while on: `read`, `track` and `net` calls run (none changes the workspace); a `write` call runs only when every path
 * it modifies is `PLAN.md` at the workspace root (by its real path, so a link named PLAN.md
 * leading elsewhere is refused); `exec` calls run only for the confined tools, whose runner
 * then has a read-only workspace; every other call is refused with a reason that says why and
 * what to do. While off, every call may run and the runner's workspace is read-write.
 */
export class PlanGuard {
  #on = false;
  #workspace: Workspace;
  #runner: WorkspaceSwitch | undefined;
  #confined: ReadonlySet<string>;

  /** A guard for `workspace`, off. */
  constructor(workspace: Workspace, options: PlanGuardOptions = {}) {
    this.#workspace = workspace;
    this.#runner = options.runner;
    this.#confined = new Set(options.confined ?? []);
  }

  /** Whether plan mode is on. */
  get on(): boolean {
    return this.#on;
  }

  /** Turns plan mode on or off; the runner's workspace follows at once. */
  set(on: boolean): void {
    this.#on = on;
    if (this.#runner) this.#runner.workspace = on ? "ro" : "rw";
  }

  /** Whether the commands of the `exec` tool `name` go through the runner (the sandbox). */
  confines(name: string): boolean {
    return this.#confined.has(name);
  }

  /** The policy of the mode now, for the tool set. */
  readonly policy: ToolPolicy = (request) => this.#on ? this.#decide(request) : ALLOW;

  async #decide(request: ToolRequest): Promise<PolicyVerdict> {
    switch (request.effect) {
      case "read":
      case "track":
      case "net":
        return ALLOW;
      case "write":
        return await this.#onlyPlanFile(request.paths.modified ?? []) ? ALLOW : refuse(
          `plan mode is on, so only ${PLAN_FILE} at the workspace root may change; write the ` +
            `plan to ${PLAN_FILE} and ${LEAVE}`,
        );
      case "exec":
        return this.#confined.has(request.name) || request.readOnly ? ALLOW : refuse(
          "plan mode is on, and this tool could change files: plan mode makes only bash's " +
            "workspace read-only, and the tool does not declare that it only reads; use bash " +
            `(read-only in plan mode), or ${LEAVE}`,
        );
      default: {
        const never: never = request.effect;
        return never;
      }
    }
  }

  async #onlyPlanFile(paths: readonly string[]): Promise<boolean> {
    if (paths.length === 0) return false;
    const planFile = `${this.#workspace.path}/${PLAN_FILE}`;
    for (const path of paths) {
      const resolved = await this.#workspace.resolve(path).catch(() => undefined);
      if (resolved !== planFile) return false;
    }
    return true;
  }
}

const ALLOW: PolicyVerdict = { kind: "allow" };

function refuse(reason: string): PolicyVerdict {
  return { kind: "refuse", reason };
}
