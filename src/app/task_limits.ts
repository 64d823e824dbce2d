/**
 * Limits that hold for one task only: a custom command's profile (`model`) and tools
 * (`allowed-tools`), and `/init`'s one writable file. The tool definitions sent stay the
 * same (a tool outside the limits is refused by the policy), so the request prefix does too.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import type { PolicyVerdict, ToolPolicy, ToolRequest, Workspace } from "../tools/mod.ts";
import type { WorkspaceMode } from "../sandbox/mod.ts";
import { type Profiles, roomProblem } from "./profiles.ts";

/** What one task is limited to. */
export interface TaskLimits {
  /** What set the limits, named in refusals: `/review`. */
  by: string;
  /** The profile the task runs on; the one before comes back after it. */
  profile?: string;
  /** The only tools the task may call. */
  allowedTools?: readonly string[];
  /**
   * The one file at the first root the task may change: other writes and every other
   * program are refused, and bash runs with the workspace read-only.
   */
  onlyWrite?: string;
}

/** The command runner whose workspace mode `onlyWrite` switches (the sandbox). */
interface RunnerSwitch {
  workspace: WorkspaceMode;
}

/** The limits of the task running now, and the policy that enforces them. */
export class TaskScope {
  #limits: TaskLimits | undefined;
  #workspace: Workspace;
  #runner: RunnerSwitch | undefined;
  #confined: (name: string) => boolean;

  /**
   * Limits over `workspace`; `runner` runs the `exec` tools `confined` says it confines
   * (bash), the only `exec` tools `onlyWrite` lets run.
   */
  constructor(
    workspace: Workspace,
    options: { runner?: RunnerSwitch | undefined; confined?: (name: string) => boolean } = {},
  ) {
    this.#workspace = workspace;
    this.#runner = options.runner;
    this.#confined = options.confined ?? (() => false);
  }

  /** The policy of the limits now: every call may run when no task is limited. */
  readonly policy: ToolPolicy = (request) => this.#limits ? this.#decide(request) : ALLOW;

  /**
   * Runs `work` (one task of `agent`) within `limits`: its profile, the tools it may use,
   * the file it may write. Everything is as before once `work` ends, however it ends.
   * Contract: throws a `RangeError` before `work` starts for a profile the provider file
   * does not have or whose window cannot hold the request's fixed part.
   */
  async during<T>(
    limits: TaskLimits,
    parts: { agent: Agent; profiles: Profiles },
    work: () => Promise<T>,
  ): Promise<T> {
    const { agent, profiles } = parts;
    const before = agent.slot;
    if (limits.profile !== undefined && limits.profile !== before.name) {
      requireProfile(limits, profiles, agent);
      agent.useModel(profiles.slot(limits.profile));
    }
    const runner = this.#runner;
    const mode = runner?.workspace;
    if (runner && limits.onlyWrite !== undefined) runner.workspace = "ro";
    this.#limits = limits;
    try {
      return await work();
    } finally {
      this.#limits = undefined;
      if (runner && mode !== undefined) runner.workspace = mode;
      if (agent.slot !== before) agent.useModel(before);
    }
  }

  async #decide(request: ToolRequest): Promise<PolicyVerdict> {
    const limits = this.#limits;
    if (!limits) return ALLOW;
    const allowed = limits.allowedTools;
    if (allowed && !allowed.includes(request.name)) {
      return refuse(
        `${limits.by} allows only ${allowed.join(", ") || "no tools"} during this task; ` +
          "do the task with those, or say what you could not do",
      );
    }
    const only = limits.onlyWrite;
    if (only === undefined) return ALLOW;
    switch (request.effect) {
      case "read":
      case "net":
        return ALLOW;
      case "exec":
        return this.#confined(request.name)
          ? ALLOW
          : refuse(`${limits.by} lets only ${only} change; bash runs read-only meanwhile`);
      case "write":
      case "track":
        return await this.#only(only, request.paths.modified ?? []) ? ALLOW : refuse(
          `${limits.by} lets only ${only} at the workspace root change; write that file`,
        );
      default: {
        const never: never = request.effect;
        return never;
      }
    }
  }

  async #only(file: string, paths: readonly string[]): Promise<boolean> {
    if (paths.length === 0) return false;
    const target = `${this.#workspace.path}/${file}`;
    for (const path of paths) {
      if (await this.#workspace.resolve(path).catch(() => undefined) !== target) return false;
    }
    return true;
  }
}

function requireProfile(limits: TaskLimits, profiles: Profiles, agent: Agent): void {
  const name = limits.profile ?? "";
  if (!profiles.has(name)) {
    const names = profiles.names().map((each) => `"${each}"`).join(", ");
    throw new RangeError(
      `Cannot run ${limits.by}: its model "${name}" is no profile of "${profiles.configFile}" ` +
        `(the profiles are ${names})`,
    );
  }
  const problem = roomProblem(profiles.slot(name).compactor.settings, agent.requestOverhead);
  if (problem !== undefined) {
    throw new RangeError(`Cannot run ${limits.by} on profile "${name}": ${problem}`);
  }
}

const ALLOW: PolicyVerdict = { kind: "allow" };

function refuse(reason: string): PolicyVerdict {
  return { kind: "refuse", reason };
}
