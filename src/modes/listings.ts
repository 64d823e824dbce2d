/**
 * The modes that only read: `--sessions` (and `-r` without an id), the table of recent
 * sessions; `--scope`, the effective authority of this run, without the provider file.
 *
 * @module
 */
import {
  bashOptions,
  loadScopeReport,
  loadSettings,
  requireWorkspace,
  type RunStart,
  sessionsDir,
} from "../app/mod.ts";
import { SessionStore } from "../session/mod.ts";
import { writeTo } from "../terminal/mod.ts";
import { createTools } from "../tools/mod.ts";
import { loadSessionsTable } from "../ui/mod.ts";

/** `--sessions` and `-r` without an id: the table of recent sessions. */
export async function sessionsMode(start: RunStart): Promise<number> {
  const store = new SessionStore(sessionsDir(start));
  const formatSessionsTable = await loadSessionsTable();
  const table = formatSessionsTable(await store.list(20), {
    width: start.width() ?? Number.POSITIVE_INFINITY,
  });
  const hint = start.cli.chooseSession
    ? "\nResume one with: powercode -r ID (any unique start of the id)"
    : "";
  writeTo(Deno.stdout)(`${table}${hint}\n`);
  return 0;
}

/** `--scope`: the effective authority of this run, without loading the provider file. */
export async function scopeMode(start: RunStart): Promise<number> {
  await requireWorkspace(start);
  const { agentScopeSources, scopeReport } = await loadScopeReport();
  const settings = await loadSettings({
    locations: start.locations,
    allowDomains: start.cli.allowDomains,
    report: (line) => writeTo(Deno.stderr)(`${line}\n`),
  });
  const { workspace, sandbox, tools, plan } = await createTools(
    start.workspaceDir,
    bashOptions(start, settings),
  );
  // The report shows the sandbox's mode and what it gives, which the probe decides.
  await sandbox.ready();
  const { configDir } = start.locations;
  const places = { workspace, cwd: start.cwd, user: { path: configDir, label: configDir } };
  const agents = await agentScopeSources(
    places,
    { tools, confines: (name) => plan.confines(name), hosts: sandbox.hosts },
    (line) => writeTo(Deno.stderr)(`${line}\n`),
  );
  const report = await scopeReport(
    { locations: start.locations, workspace, sandbox, settings, agents },
    start.width(),
  );
  writeTo(Deno.stdout)(`${report}\n`);
  return 0;
}
