/**
 * Loads the run's settings: the user's `settings.json` beside the user's `mcp.json`, the
 * project's `.powercode/settings.json` at the first root (project mode) once the user
 * approved its exact content, and `--allow-domain`. Every problem of every file is reported
 * at once, before any request.
 *
 * @module
 */
import { ConfigError, type Locations, SETTINGS_FILE } from "../config/mod.ts";
import {
  emptyFileSettings,
  type FileSettings,
  NO_SETTINGS,
  parseSettings,
  type Settings,
  type SettingsFile,
} from "../settings/mod.ts";
import { parseHostPattern } from "../core/mod.ts";

/** The project's settings file, relative to the first root. */
export const PROJECT_SETTINGS = `.powercode/${SETTINGS_FILE}`;
/** Where approvals of project settings files are kept, in the state directory. */
const APPROVALS_FILE = "settings-approvals.json";
/** The largest settings file read: 256 KB. */
const MAX_FILE_BYTES = 256 * 1024;

/** A project settings file waiting for the user's approval. */
export interface SettingsReview {
  file: string;
  /** Its exact content. */
  text: string;
}

/** What loading needs besides the files. */
export interface SettingsSetup {
  locations: Locations;
  /** `--allow-domain`, for this run. */
  allowDomains: readonly string[];
  /**
   * Asks the user whether to use an unapproved project file; without it (`-p`, piped input,
   * `--scope`) such a file is not used, with one notice.
   */
  approve?: (review: SettingsReview) => Promise<boolean>;
  report: (line: string) => void;
}

/** The user's settings file of a run. */
export function userSettingsFile(locations: Locations): string {
  return `${locations.configDir}/${SETTINGS_FILE}`;
}

/** The project's settings file of a run (project mode), or undefined in the workspace layout. */
export function projectSettingsFile(locations: Locations): string | undefined {
  return locations.mode === "project" ? `${locations.roots[0]}/${PROJECT_SETTINGS}` : undefined;
}

/**
 * The run's settings: the user's file, then the approved project file, then `--allow-domain`.
 * Contract: throws one `ConfigError` listing every problem (file, field, value); without any
 * file or flag it returns {@linkcode NO_SETTINGS}. Never waits for an answer without
 * `setup.approve`.
 */
export async function loadSettings(setup: SettingsSetup): Promise<Settings> {
  const { locations } = setup;
  const problems: string[] = [];
  const files: SettingsFile[] = [];
  const parts: FileSettings[] = [];
  const context = { home: locations.home, firstRoot: locations.roots[0] ?? "." };
  const userFile = userSettingsFile(locations);
  const user = await readSettingsFile(userFile, { followLinks: true }, problems);
  files.push({ path: userFile, state: user === undefined ? "absent" : "used" });
  if (user !== undefined) collect(parseSettings(user.text, userFile, context), parts, problems);
  const projectFile = projectSettingsFile(locations);
  if (projectFile !== undefined) {
    // Not through a link: the approved bytes are those of the file in the project.
    const project = await readSettingsFile(projectFile, { followLinks: false }, problems);
    if (project === undefined) files.push({ path: projectFile, state: "absent" });
    else {
      const parsed = parseSettings(project.text, projectFile, context);
      const used = parsed.problems.length === 0 &&
        await approved(projectFile, project, setup);
      files.push({ path: projectFile, state: used ? "used" : "not approved" });
      if (used || parsed.problems.length > 0) collect(parsed, parts, problems);
    }
  }
  const flags = emptyFileSettings();
  for (const host of setup.allowDomains) {
    const pattern = parseHostPattern(host);
    if (typeof pattern === "string") problems.push(`--allow-domain "${host}" ${pattern}`);
    else flags.network.allow.push({ value: host, source: "--allow-domain" });
  }
  parts.push(flags);
  const settings = merge(parts, files);
  problems.push(...envProblems(settings, locations));
  if (problems.length > 0) {
    throw new ConfigError(`Invalid settings: ${problems.join("; ")}`);
  }
  return settings;
}

function collect(
  parsed: { settings: FileSettings; problems: string[] },
  parts: FileSettings[],
  problems: string[],
): void {
  problems.push(...parsed.problems);
  parts.push(parsed.settings);
}

/** The settings of `parts` in order, each list the concatenation of theirs. */
function merge(parts: readonly FileSettings[], files: SettingsFile[]): Settings {
  const all = <T>(pick: (part: FileSettings) => T[]) => parts.flatMap(pick);
  const settings: Settings = {
    shell: {
      path: all((p) => p.shell.path),
      env: all((p) => p.shell.env),
      readOnly: all((p) => p.shell.readOnly),
      writable: all((p) => p.shell.writable),
    },
    network: { allow: all((p) => p.network.allow) },
    permissions: {
      allow: all((p) => p.permissions.allow),
      ask: all((p) => p.permissions.ask),
      deny: all((p) => p.permissions.deny),
    },
    hooks: all((p) => p.hooks),
    // The last file that sets it decides: the project's over the user's.
    notifications: parts.findLast((p) => p.notifications !== undefined)?.notifications ??
      NO_SETTINGS.notifications,
    files,
  };
  const empty = Object.values(settings.shell).every((list) => list.length === 0) &&
    settings.network.allow.length === 0 &&
    Object.values(settings.permissions).every((list) => list.length === 0) &&
    settings.hooks.length === 0 && settings.notifications === NO_SETTINGS.notifications;
  return empty && files.every((file) => file.state === "absent")
    ? { ...NO_SETTINGS, files }
    : settings;
}

/**
 * `shell.env` needs project mode, whose launcher grants those names: the workspace layout's
 * fixed flags grant none beyond powercode's own.
 */
function envProblems(settings: Settings, locations: Locations): string[] {
  return settings.shell.env.flatMap(({ value, source }) => {
    if (locations.mode === "layout") {
      return [
        `"${source}": field "shell.env" "${value}" needs the installed command (project mode): ` +
        "the workspace layout's fixed Deno flags let powercode read no such variable",
      ];
    }
    const state = Deno.permissions.querySync({ name: "env", variable: value }).state;
    return state === "granted" ? [] : [
      `"${source}": field "shell.env" "${value}" is not granted to this process: start ` +
      "powercode with the installed command, whose launcher grants the names of shell.env",
    ];
  });
}

/** Whether the project file's exact bytes are approved, asking the user when possible. */
async function approved(
  file: string,
  content: { bytes: Uint8Array<ArrayBuffer>; text: string },
  setup: SettingsSetup,
): Promise<boolean> {
  const { Approvals, sha256 } = await import("../mcp/mod.ts");
  const approvals = new Approvals(setup.locations.stateDir, APPROVALS_FILE);
  const key = await Deno.realPath(file);
  const hash = await sha256(content.bytes);
  if (await approvals.approved(key, hash)) return true;
  if (!setup.approve) {
    setup.report(
      `⚠ "${file}" is not used: its content is not approved; start powercode on a terminal ` +
        "to review it",
    );
    return false;
  }
  if (!await setup.approve({ file, text: content.text })) {
    setup.report(`"${file}" is not used this time; you will be asked again`);
    return false;
  }
  await approvals.approve(key, hash);
  return true;
}

/**
 * The bytes and text of the settings file at `path`; undefined when there is none, or when
 * it cannot be read (a problem is added then).
 */
async function readSettingsFile(
  path: string,
  options: { followLinks: boolean },
  problems: string[],
): Promise<{ bytes: Uint8Array<ArrayBuffer>; text: string } | undefined> {
  try {
    const info = await (options.followLinks ? Deno.stat(path) : Deno.lstat(path));
    if (!info.isFile) throw new Error("it is not a regular file");
    if (info.size > MAX_FILE_BYTES) throw new Error("it is larger than 256 KB");
    const bytes = await Deno.readFile(path);
    return { bytes, text: new TextDecoder().decode(bytes) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    const reason = error instanceof Error ? error.message : String(error);
    problems.push(`"${path}": cannot be read: ${reason}`);
    return undefined;
  }
}
