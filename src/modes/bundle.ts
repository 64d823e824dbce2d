/**
 * `powercode export --bundle FILE`: the latest session (or `-r ID`'s) written as a
 * replayable bundle, without a model: its records, the workspace from the undo snapshots,
 * checked for every key powercode knows and the ignored files' values.
 *
 * @module
 */
import { type RunStart, sessionsDir, snapshotsDir } from "../app/mod.ts";
import {
  knownProviderFiles,
  LAYOUT_WORKSPACE,
  loadProviderProfiles,
  readProviderSecrets,
  Redactor,
} from "../config/mod.ts";
import { ignoredSecrets, writeBundle } from "../export/mod.ts";
import { SessionError, SessionStore } from "../session/mod.ts";
import { sanitizeLine, writeTo } from "../terminal/mod.ts";
import { Workspace } from "../tools/mod.ts";
import { loadSnapshotFiles } from "../undo/mod.ts";

/** `export --bundle FILE`. Contract: 0 when written; throws (exit 1 or 2) when not. */
export async function bundleMode(start: RunStart): Promise<number> {
  const file = start.cli.bundle ?? "";
  const store = new SessionStore(sessionsDir(start));
  const id = await chooseSession(store, start.cli.resume);
  const loaded = await store.load(id);
  loaded.file.close();
  const workspace = await Workspace.open(start.workspaceDir);
  const named = workspace.ignore.size === 0 ? new Map<string, string>() : await ignoredSecrets({
    root: workspace.path,
    match: (relative, isDirectory) => workspace.ignore.match(relative, isDirectory),
  });
  const redactor = await knownSecrets(start);
  const SnapshotFiles = await loadSnapshotFiles();
  const result = await writeBundle(
    {
      id,
      records: loaded.records,
      snapshots: new SnapshotFiles(snapshotsDir(start)),
      redact: (text) => redactor.redact(text),
      named,
    },
    file,
    sanitizeLine(file),
  ).catch((error) => {
    if (error instanceof Deno.errors.NotCapable) {
      throw new Error(
        `Cannot write "${sanitizeLine(file)}": powercode may write only in its workspace and ` +
          "state directory",
      );
    }
    throw error;
  });
  writeTo(Deno.stdout)(
    `Bundled session ${id} to ${sanitizeLine(file)}: ${result.tasks} tasks, ` +
      `${result.entries} entries, ${result.bytes} bytes\n`,
  );
  return 0;
}

/** The session `prefix` starts (the latest without one). */
async function chooseSession(store: SessionStore, prefix: string | undefined): Promise<string> {
  if (prefix === undefined) {
    const latest = await store.latest();
    if (latest === undefined) throw new SessionError("Nothing to bundle: there is no session yet");
    return latest;
  }
  const matches = (await store.ids()).filter((id) => id.startsWith(prefix));
  if (matches.length === 1 || matches.includes(prefix)) {
    return matches.length === 1 ? matches[0]! : prefix;
  }
  throw new SessionError(
    matches.length === 0
      ? `Cannot bundle session "${sanitizeLine(prefix)}": no such session`
      : `Cannot bundle session "${sanitizeLine(prefix)}": ${matches.length} sessions start with it`,
  );
}

/** Every key of the provider files powercode knows, `env:` keys of the one in use resolved. */
async function knownSecrets(start: RunStart): Promise<Redactor> {
  const { locations } = start;
  const others = await readProviderSecrets(knownProviderFiles(locations));
  const layout = locations.mode === "layout" ? { workspaceDir: LAYOUT_WORKSPACE } : {};
  const inUse = await loadProviderProfiles(locations.providerFile, start.env, layout)
    .then((profiles) => [...profiles.profiles.values()])
    // A provider file that does not load: its literal keys are among the others.
    .catch(() => []);
  return Redactor.forConfigs([...inUse, ...others]);
}
