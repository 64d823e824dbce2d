/**
 * Permissions: approval modes (`auto`, `edits`, `ask`), rules over `tool(pattern)` with bash
 * read by a real shell parser, the questions asked before a call runs, and the preview of
 * a command's effect with its exact revert.
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
export { type CommandReader, decide, type Decision } from "./decide.ts";
export { suggestRules } from "./generalize.ts";
export { Permissions, type PermissionsOptions, type RuleSaver } from "./permissions.ts";
export { previewRun, type PreviewSnapshots } from "./preview.ts";
export {
  type Answer,
  answerText,
  type Asker,
  type PreviewChange,
  type PreviewReport,
  type Question,
} from "./question.ts";
export { matchesCommand, matchesHost, matchesPath, parseRule, type Rule } from "./rule.ts";
export { type ReadCommand, readCommand, type SimpleCommand } from "./shell_commands.ts";
export { loadShellParser } from "./shell_parser.ts";
export { readPermissionRules, saveAllowedHost, saveAllowRule } from "./settings_file.ts";
export { HostGrants, urlHost } from "./host_grants.ts";
