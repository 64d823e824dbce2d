/**
 * The settings a run works with: the user's `settings.json` (beside the user's `mcp.json`)
 * and, once the user approved its exact content, the project's `.powercode/settings.json`.
 * Every value remembers the file it came from, for `/permissions` and `--scope`.
 *
 * @module
 */

/** A value and the settings file that set it (or `--allow-domain`, for one run). */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** What commands see of the user's machine beyond the roots. */
export interface ShellSettings {
  /** Directories put in front of `PATH`, bound read-only into the sandbox. */
  path: Sourced<string>[];
  /** Names of the user's environment variables passed to commands. */
  env: Sourced<string>[];
  /** Further directories bound read-only at their own path. */
  readOnly: Sourced<string>[];
  /** Further directories bound writable at their own path (a package cache). */
  writable: Sourced<string>[];
}

/** The rules over `tool(pattern)`: deny wins over ask over allow, in every mode. */
export interface PermissionRules {
  allow: Sourced<string>[];
  ask: Sourced<string>[];
  deny: Sourced<string>[];
}

/** The moments a hook can run at (Claude Code's names). */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "PreCompact",
  "Notification",
] as const;

/** One of {@linkcode HOOK_EVENTS}. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One hook command of a settings file. */
export interface HookCommand {
  event: HookEvent;
  /** A regular expression on the tool name (whole name); undefined matches every tool. */
  matcher: string | undefined;
  /** Run by `bash -c` in the sandbox, the event as JSON on stdin. */
  command: string;
  timeoutMs: number;
}

/** How powercode tells an unfocused terminal that a task ended or a question waits. */
export type NotificationStyle = "off" | "bell" | "osc";

/** One settings file as the run found it. */
export interface SettingsFile {
  path: string;
  /** `used`; `not approved` (a project file waiting for the user); `absent`. */
  state: "used" | "not approved" | "absent";
}

/** The run's settings, merged from the user's and the approved project's file. */
export interface Settings {
  shell: ShellSettings;
  network: {
    /** Hosts commands may reach through the proxy: names, `*.` wildcards, IP addresses. */
    allow: Sourced<string>[];
  };
  permissions: PermissionRules;
  /** The hook commands, the user's first, each run inside the sandbox. */
  hooks: Sourced<HookCommand>[];
  /** Notifications while the terminal has no focus (default `osc`: OSC 9 and a bell). */
  notifications: NotificationStyle;
  /** The files looked for, in the order they apply. */
  files: SettingsFile[];
}

/** No settings: powercode behaves exactly as it does without a settings file. */
export const NO_SETTINGS: Settings = {
  shell: { path: [], env: [], readOnly: [], writable: [] },
  network: { allow: [] },
  permissions: { allow: [], ask: [], deny: [] },
  hooks: [],
  notifications: "osc",
  files: [],
};
