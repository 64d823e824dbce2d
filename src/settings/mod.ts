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
