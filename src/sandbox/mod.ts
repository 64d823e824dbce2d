/**
 * The sandbox every command runs in: bubblewrap, the seccomp filter, masks, the git guard, job control and the launcher of helper programs (MCP servers).
 *
 * @module
 */
export { stopProcessGroup } from "./job_control.ts";
export { resolveHidden } from "./hidden_paths.ts";
export {
  type CommandRunner,
  type HiddenPath,
  probeBwrap,
  type RunEnd,
  type RunGrant,
  Sandbox,
  type SandboxMode,
  type WorkspaceMode,
} from "./sandbox.ts";
export { LazySandboxSetup, type SandboxSetup } from "./sandbox_setup.ts";
export {
  describeSandbox,
  SANDBOX_PROGRAMS,
  type SandboxReport,
  type SandboxScope,
} from "./sandbox_scope.ts";
export {
  type ServerExit,
  ServerLauncher,
  type ServerOutput,
  type ServerProcess,
  type ServerSpec,
} from "./server_launcher.ts";
export {
  BackgroundJobs,
  type JobInfo,
  type JobOutput,
  type JobState,
  MAX_JOBS,
} from "./background_jobs.ts";
export { type Bind, COMMAND_ENV } from "./bwrap_profile.ts";
export { type NetConnection, NetworkGate } from "./net_gate.ts";
export { refusalLine } from "./sandbox.ts";
export { relayArgv, type SandboxNetwork } from "./net_spawn.ts";
export { runRelay } from "./net_relay.ts";
