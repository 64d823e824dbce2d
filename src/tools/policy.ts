/**
 * The one check every tool call passes after its arguments are parsed and before the tool
 * runs, keyed on the effect the tool declares and the arguments and paths of the call.
 *
 * @module
 */
import type { ToolEffect } from "../core/mod.ts";
import type { CallGrant, ToolOutput, ToolPaths } from "./tool.ts";

/** A call about to run, as the policy sees it. */
export interface ToolRequest {
  /** The tool's name. */
  name: string;
  effect: ToolEffect;
  /** The tool says it changes nothing (see `Tool.readOnly`). */
  readOnly?: boolean;
  /** The arguments the tool's parser accepted. */
  args: unknown;
  /** The workspace paths the call reads or modifies, as the model named them. */
  paths: ToolPaths;
  /** The call's id (`USER_COMMAND_ID` for a command the user typed). */
  id?: string;
  /** Aborted by Ctrl+C: a policy waiting for the user stops. */
  signal?: AbortSignal;
}

/**
 * Runs the tool, with what the policy granted; a policy's `around` receives it to run it its
 * own way (a preview, a granted host).
 */
export type RunTool = (grant?: CallGrant) => Promise<ToolOutput>;

/** Whether a call may run; a refusal's reason is what the model reads. */
export type PolicyVerdict =
  | {
    kind: "allow";
    /** Runs the call in place of the tool set (it calls `run` once, or not at all). */
    around?: (run: RunTool) => Promise<ToolOutput>;
  }
  | { kind: "refuse"; reason: string };

/**
 * Decides whether a call may run.
 * Contract: a refusal becomes the call's error result `Cannot run <tool>: <reason>`, so the
 * reason should say what the model may do instead.
 */
export type ToolPolicy = (request: ToolRequest) => PolicyVerdict | Promise<PolicyVerdict>;

/** The default policy: every call may run (the workspace and the sandbox confine them). */
export const ALLOW_ALL: ToolPolicy = () => ({ kind: "allow" });

/**
 * A policy that lets a call run only when every one of `policies` does; the first refusal,
 * in order, is the verdict. The `around`s of the allowing policies nest, the first outermost.
 */
export function allOf(...policies: readonly ToolPolicy[]): ToolPolicy {
  return async (request) => {
    let around: ((run: RunTool) => Promise<ToolOutput>) | undefined;
    for (const policy of policies) {
      const verdict = await policy(request);
      if (verdict.kind === "refuse") return verdict;
      const inner = verdict.around;
      if (inner) {
        const outer = around;
        // What an outer policy granted reaches the tool through the inner one.
        around = outer
          ? (run) => outer((granted) => inner((grant) => run(grant ?? granted)))
          : inner;
      }
    }
    return around ? { kind: "allow", around } : { kind: "allow" };
  };
}
