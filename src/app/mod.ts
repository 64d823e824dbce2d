/**
 * The run's parts: `App`, one record opened once by every mode that talks to a model, the
 * one assembly of the agent, and the run's start that every mode reads.
 *
 * @module
 */
export { type App, openApp } from "./app.ts";
export { assemble, type Assembly, type UserSetup } from "./assemble.ts";
export { type TaskLimits, TaskScope } from "./task_limits.ts";
export { Profiles, roomProblem } from "./profiles.ts";
export { EXIT, exitCode } from "./exit_codes.ts";
export {
  bashOptions,
  requireWorkspace,
  type RunStart,
  runStart,
  sessionsDir,
  snapshotsDir,
} from "./run_start.ts";
export { createTaskUndo, sandboxSymlinker } from "./undo_setup.ts";
export {
  loadSettings,
  PROJECT_SETTINGS,
  type SettingsReview,
  type SettingsSetup,
} from "./settings_start.ts";

/** The scope report's parts (`--scope`), loaded when a run asks for the report. */
export async function loadScopeReport(): Promise<{
  scopeReport: typeof import("./scope_report.ts").scopeReport;
  agentScopeSources: typeof import("./agent_scope_report.ts").agentScopeSources;
}> {
  const [report, agents] = await Promise.all([
    import("./scope_report.ts"),
    import("./agent_scope_report.ts"),
  ]);
  return { scopeReport: report.scopeReport, agentScopeSources: agents.agentScopeSources };
}
