/**
 * The decision on one tool call before it runs: deny wins over ask over allow, in every
 * mode; what no rule names is decided by the approval mode.
 *
 * @module
 */
import { BASH_TOOL, type ToolRequest } from "../tools/mod.ts";
import type { ApprovalMode } from "./approval_mode.ts";
import { matchesCommand, matchesPath, matchesToolName, type Rule } from "./rule.ts";
import { type ReadCommand, readCommand, type SimpleCommand } from "./shell_commands.ts";

/** What happens to a call: it runs, the user is asked (and why), or it is refused (and why). */
export type Decision =
  | { kind: "allow" }
  | { kind: "ask"; why: string }
  | { kind: "deny"; why: string };

/** Commands that only move the shell: never a reason to ask (`cd dir && npm test`). */
const MOVES = new Set(["cd", "pushd", "popd"]);

/** How a command line is read: the parser by default (tests may pass another). */
export type CommandReader = (line: string) => Promise<ReadCommand>;

/**
 * Decides `request` under `mode` and `rules`.
 * Contract: the shell parser is loaded only when some rule names bash; a command line it
 * cannot read asks whenever a bash deny or ask rule exists.
 */
export async function decide(
  request: ToolRequest,
  mode: ApprovalMode,
  rules: readonly Rule[],
  reader: CommandReader = readCommand,
): Promise<Decision> {
  const byDefault = modeDecision(request, mode);
  if (rules.length === 0) return byDefault;
  if (request.name === BASH_TOOL) return await decideCommand(request, rules, byDefault, reader);
  const applies = (rule: Rule) => appliesTo(rule, request);
  const deny = rules.find((rule) => rule.list === "deny" && applies(rule));
  if (deny) {
    return { kind: "deny", why: `the rule "deny: ${deny.text}" (${deny.source}) refuses it` };
  }
  const ask = rules.find((rule) => rule.list === "ask" && applies(rule));
  if (ask) return { kind: "ask", why: `the rule "ask: ${ask.text}" (${ask.source}) asks` };
  if (rules.some((rule) => rule.list === "allow" && applies(rule))) return { kind: "allow" };
  return byDefault;
}

/** The decision of the mode alone: reads always run; writes and commands by mode. */
function modeDecision(request: ToolRequest, mode: ApprovalMode): Decision {
  // fetch reaches only the hosts the settings allow: that list is its rule.
  const reads = request.effect === "read" || request.effect === "net";
  if (mode === "auto" || reads || request.effect === "track") {
    return { kind: "allow" };
  }
  if (mode === "edits" && request.effect === "write") return { kind: "allow" };
  const what = request.effect === "write" ? "every write" : "every command";
  return { kind: "ask", why: `approval mode "${mode}" asks before ${what}` };
}

async function decideCommand(
  request: ToolRequest,
  rules: readonly Rule[],
  byDefault: Decision,
  reader: CommandReader,
): Promise<Decision> {
  const bashRules = rules.filter((rule) => rule.tool === BASH_TOOL && rule.pattern !== undefined);
  const named = rules.filter((rule) =>
    rule.tool !== BASH_TOOL && matchesToolName(rule.tool, BASH_TOOL)
  );
  const whole = named.find((rule) => rule.list === "deny") ?? named.find((r) => r.list === "ask");
  if (whole) return fromRule(whole, BASH_TOOL);
  if (bashRules.length === 0) return byDefault;
  const line = commandOf(request.args);
  const read = await reader(line);
  if (read.kind === "unreadable") {
    const strict = bashRules.some((rule) => rule.list !== "allow");
    return strict
      ? { kind: "ask", why: `powercode cannot read this command: ${read.reason}` }
      : byDefault;
  }
  const verdicts = read.commands.map((command) => commandDecision(command, bashRules));
  const deny = verdicts.find((verdict) => verdict.kind === "deny");
  if (deny) return deny;
  const ask = verdicts.find((verdict) => verdict.kind === "ask");
  if (ask) return ask;
  const allowed = read.commands.every((command, index) =>
    command.wrapper || MOVES.has(command.words[0] ?? "") || verdicts[index]?.kind === "allow"
  );
  return allowed && read.commands.length > 0 ? { kind: "allow" } : byDefault;
}

/** A simple command against the bash rules: `allow` only when an allow rule covers it. */
function commandDecision(
  command: SimpleCommand,
  rules: readonly Rule[],
): Decision | { kind: "none" } {
  const matching = rules.filter((rule) => matchesCommand(rule.pattern ?? "", command.words));
  const rule = matching.find((r) => r.list === "deny") ?? matching.find((r) => r.list === "ask") ??
    matching.find((r) => r.list === "allow");
  if (!rule) return { kind: "none" };
  return rule.list === "allow" ? { kind: "allow" } : fromRule(rule, command.words.join(" "));
}

function fromRule(rule: Rule, what: string): Decision {
  const text = `the rule "${rule.list}: ${rule.text}" (${rule.source})`;
  return rule.list === "deny"
    ? { kind: "deny", why: `${text} refuses "${what}"` }
    : { kind: "ask", why: `${text} asks before "${what}"` };
}

/** Whether a rule (other than a bash pattern) names `request`. */
function appliesTo(rule: Rule, request: ToolRequest): boolean {
  const { pattern } = rule;
  switch (rule.tool) {
    case "edit":
      return request.effect === "write" &&
        (pattern === undefined ||
          (request.paths.modified ?? []).some((p) => matchesPath(pattern, p)));
    case "read":
      return request.effect === "read" &&
        (pattern === undefined || (request.paths.read ?? []).some((p) => matchesPath(pattern, p)));
    case "net":
      return false;
    default:
      return pattern === undefined && matchesToolName(rule.tool, request.name);
  }
}

/** The command line of a bash call's arguments. */
export function commandOf(args: unknown): string {
  const command = (args as { command?: unknown } | null)?.command;
  return typeof command === "string" ? command : "";
}
