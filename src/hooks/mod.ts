/**
 * The user's hooks (Claude Code's shape, from the settings files), each run inside the bash
 * sandbox.
 *
 * @module
 */
export { Hooks, type HooksSetup } from "./hooks.ts";
export type { HookOutcome } from "./hook_run.ts";
