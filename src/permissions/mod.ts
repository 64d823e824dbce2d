/**
 * Permissions: approval modes (`auto`, `edits`, `ask`), rules over `tool(pattern)` with bash
 * read by a real shell parser, the questions asked before a call runs, and the preview of
 * a command's effect with its exact revert. The policy's parts (the shell parser, the
 * questions, the preview, the settings file's writer) load at the first tool call that needs
 * them, so a run without one never loads them.
 *
 * @module
 */
export {
  APPROVAL_MODES,
  type ApprovalMode,
  describeApprovalMode,
  isApprovalMode,
  nextApprovalMode,
} from "./approval_mode.ts";
export type { CommandReader, Decision } from "./decide.ts";
export { Permissions, type PermissionsOptions, type RuleSaver } from "./permissions.ts";
export type { PreviewSnapshots } from "./preview.ts";
export type { Answer, Asker, PreviewChange, PreviewReport, Question } from "./question.ts";
export { matchesCommand, matchesHost, matchesPath, parseRule, type Rule } from "./rule.ts";
export type { ReadCommand, SimpleCommand } from "./shell_commands.ts";
export { HostGrants, urlHost } from "./host_grants.ts";

/** Reads the permission rules of settings file `file` (loads the settings file's module). */
export async function readPermissionRules(
  file: string,
): ReturnType<typeof import("./settings_file.ts").readPermissionRules> {
  return await (await import("./settings_file.ts")).readPermissionRules(file);
}

/** Saves `rule` to the allow list of settings file `file` (loads the settings file's module). */
export async function saveAllowRule(file: string, rule: string): Promise<void> {
  await (await import("./settings_file.ts")).saveAllowRule(file, rule);
}
