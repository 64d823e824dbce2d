/**
 * `/export [--redact] [FILE]`: the session as Markdown, HTML or JSONL records, in the
 * workspace unless FILE is absolute, checked for secrets before it is written.
 *
 * @module
 */
import { exportSession, ignoredSecrets } from "../export/mod.ts";
import type { Command, CommandContext } from "./command.ts";

/** The flags that write an export with its secrets replaced instead of refusing it. */
const REDACT_FLAGS = new Set(["--redact", "--force"]);

/** `/export`. */
export const exportCommand: Command = {
  name: "/export",
  usage: "/export [FILE]",
  help: "write the session to .md, .html or .jsonl, refused if it holds a key " +
    "(--redact replaces it)",
  run: exportTo,
};

async function exportTo({ app, screen }: CommandContext, args: string): Promise<void> {
  const words = args.split(/\s+/).filter((word) => word !== "");
  const redact = words.some((word) => REDACT_FLAGS.has(word));
  const typed = words.filter((word) => !REDACT_FLAGS.has(word)).join(" ");
  const view = app.agent.view;
  if (view.id === undefined || view.history.length === 0) {
    screen.say("Nothing to export: the session has no messages yet");
    return;
  }
  const file = typed === "" ? `session-${view.id}.md` : typed;
  const { workspace } = app;
  const path = file.startsWith("/") ? file : `${workspace.path}/${file}`;
  const hidden = workspace.ignore.size === 0 ? new Map<string, string>() : await ignoredSecrets({
    root: workspace.path,
    match: (relative, isDirectory) => workspace.ignore.match(relative, isDirectory),
  });
  const result = await exportSession(
    {
      id: view.id,
      history: view.history,
      compactedUntil: view.compaction?.compactedUntil ?? 0,
      describe: (call) => app.agent.describeCall(call),
      sessionFile: `${app.sessions.dir}/${view.id}.jsonl`,
      redact: (text) => app.redactor.redact(text),
      named: hidden,
    },
    path,
    { redact, label: file },
  );
  const replaced = result.redacted > 0
    ? ` (secrets replaced in ${result.redacted} ${
      result.format === "jsonl" ? "lines" : "messages"
    })`
    : "";
  screen.say(`Exported the session to ${file}: ${result.bytes} bytes${replaced}`);
}
