/**
 * Settings: the user's and the approved project's `settings.json`, merged, each value with
 * the file it came from.
 *
 * @module
 */
export {
  NO_SETTINGS,
  type PermissionRules,
  type Settings,
  type SettingsFile,
  type ShellSettings,
  type Sourced,
} from "./settings.ts";
export {
  emptyFileSettings,
  type FileSettings,
  type ParsedSettings,
  parseSettings,
  type PathContext,
} from "./parse.ts";
export {
  HOOK_EVENTS,
  type HookCommand,
  type HookEvent,
  type NotificationStyle,
} from "./settings.ts";
