/**
 * What a run that talks to a model loads before its parts are built: the provider file's
 * profiles, a redactor for every key powercode knows, the session store, piped input.
 *
 * @module
 */
import {
  knownProviderFiles,
  LAYOUT_WORKSPACE,
  loadProviderProfiles,
  type ProviderProfiles,
  readProviderSecrets,
  Redactor,
  refuseInsideWorkspace,
} from "../config/mod.ts";
import { SessionStore } from "../session/mod.ts";
import { writeTo } from "../terminal/mod.ts";
import { type RunStart, sessionsDir } from "./run_start.ts";

/** The run's loaded parts and the facts of its front end. */
export interface Prepared {
  providers: ProviderProfiles;
  redactor: Redactor;
  sessions: SessionStore;
  /** Writes a line where the front end's lines will go (stdout, or stderr for -p). */
  notice: (text: string) => void;
  /** One-line warnings for the start's notices (a literal key in ./provider.json). */
  warnings: string[];
  /** Piped stdin, for -p; empty otherwise. */
  piped: string;
  /** The REPL, not one task (-p). */
  interactive: boolean;
  /** stdin is a terminal and the run is interactive. */
  terminal: boolean;
  /** stdout is a terminal and NO_COLOR is unset. */
  color: boolean;
}

/** Loads the provider file, opens the session store and finds the warning of a literal key. */
export async function prepare(start: RunStart): Promise<Prepared> {
  const { cli, locations } = start;
  const { providerFile } = locations;
  const providers = await loadProviderProfiles(
    providerFile,
    start.env,
    locations.mode === "layout" ? { workspaceDir: LAYOUT_WORKSPACE } : {},
  );
  if (locations.mode === "project") {
    await refuseInsideRoots(providerFile, start, {
      what: `provider file "${providerFile}"`,
      fix: "keep it in ~/.config/powercode/ or name another with --provider",
    });
  }
  const configs = [...providers.profiles.values()];
  const interactive = cli.print === undefined;
  const piped = interactive || start.stdinTerminal ? "" : await readStdin();
  // The keys and URL credentials, also of the other provider files, never reach the terminal
  // or a session file; the sandbox masks every one of those files.
  const others = await readProviderSecrets(knownProviderFiles(locations));
  const redactor = Redactor.forConfigs([...configs, ...others]);
  // Lines before the front end exists go where its lines go; no live row is shown yet.
  const notice = redactor.wrap(writeTo(interactive ? Deno.stdout : Deno.stderr));
  const sessions = await openStore(start, redactor);
  const literal = configs.some((config) => config.literalKey);
  const warnings = literal && locations.mode === "layout" && isTopLevelProviderFile(providerFile)
    ? [
      `⚠ ${providerFile} holds a literal API key, which a commit or a copy of this directory ` +
      'shares: use "env:NAME", or a personal copy in .powercode/ ' +
      "(--provider .powercode/provider.json)",
    ]
    : [];
  return {
    providers,
    warnings,
    redactor,
    sessions,
    notice,
    piped,
    interactive,
    terminal: start.stdinTerminal && interactive,
    color: start.stdoutTerminal && start.colorAllowed,
  };
}

/** The session store, its directory created now so that the sandbox hides it from the first task on. */
async function openStore(start: RunStart, redactor: Redactor): Promise<SessionStore> {
  const { stateDir, mode } = start.locations;
  // Private to the user: another local user reads nothing of the state (issue 35, item 7).
  await Deno.mkdir(sessionsDir(start), { recursive: true, mode: 0o700 });
  await refuseInsideRoots(stateDir, start, {
    what: `the sessions directory "${stateDir}"`,
    fix: mode === "layout"
      ? "point workspace/ at a directory that does not hold powercode's own files"
      : "set XDG_STATE_HOME to a directory outside the project",
  });
  return new SessionStore(sessionsDir(start), { redact: (text) => redactor.redact(text) });
}

/** Refuses `path` when its real path lies inside one of the roots. */
async function refuseInsideRoots(
  path: string,
  start: RunStart,
  message: { what: string; fix: string },
): Promise<void> {
  for (const root of start.locations.roots) await refuseInsideWorkspace(path, root, message);
}

/** All of stdin as text (read directly: web streams cost a start-up's worth of time). */
async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  for (
    let read = await Deno.stdin.read(buffer);
    read !== null;
    read = await Deno.stdin.read(buffer)
  ) {
    chunks.push(buffer.slice(0, read));
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk, index) => decoder.decode(chunk, { stream: index < chunks.length - 1 }))
    .join("");
}

function isTopLevelProviderFile(path: string): boolean {
  return path.replace(/^\.\//, "") === "provider.json";
}
