/**
 * The one check every tool call passes after its arguments are parsed and before the tool
 * runs, keyed on the effect the tool declares and the arguments and paths of the call.
 *
 * @module
 */
import type { ToolEffect } from "../core/mod.ts";
import type { ToolPaths } from "./tool.ts";

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
}

/** Whether a call may run; a refusal's reason is what the model reads. */
export type PolicyVerdict = { kind: "allow" } | { kind: "refuse"; reason: string };

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
 * in order, is the verdict.
 */
export function allOf(...policies: readonly ToolPolicy[]): ToolPolicy {
  return async (request) => {
    for (const policy of policies) {
      const verdict = await policy(request);
      if (verdict.kind === "refuse") return verdict;
    }
    return { kind: "allow" };
  };
}
