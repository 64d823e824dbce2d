/**
 * `/approval [auto|edits|ask]` (Shift+Tab cycles it) and `/permissions`: when tool calls
 * ask first, and the rules with the file each came from.
 *
 * @module
 */
import { APPROVAL_MODES, describeApprovalMode, isApprovalMode } from "../permissions/mod.ts";
import type { Command, CommandContext } from "./command.ts";

/** `/approval [mode]`. */
export const approvalCommand: Command = {
  name: "/approval",
  usage: "/approval [mode]",
  help: "when tool calls ask first: auto, edits or ask (Shift+Tab cycles)",
  complete: () => APPROVAL_MODES,
  run: ({ app, screen }: CommandContext, args: string) => {
    const word = args.trim();
    const { permissions } = app;
    if (word === "") return screen.say(`Approval mode ${describeApprovalMode(permissions.mode)}`);
    if (!isApprovalMode(word)) {
      throw new RangeError(
        `Unknown approval mode "${word}": use ${APPROVAL_MODES.join(", ")}`,
      );
    }
    permissions.mode = word;
    screen.say(`Approval mode ${describeApprovalMode(word)}`);
  },
};

/** `/permissions`. */
export const permissionsCommand: Command = {
  name: "/permissions",
  usage: "/permissions",
  help: "the approval mode and the rules, each with its file",
  run: ({ app, screen }: CommandContext) => {
    const { permissions } = app;
    const lines = [`Approval mode ${describeApprovalMode(permissions.mode)}`];
    const rules = permissions.rules;
    if (rules.length === 0) lines.push("No rules (settings.json: permissions.allow, ask, deny)");
    for (const list of ["deny", "ask", "allow"] as const) {
      for (const rule of rules.filter((each) => each.list === list)) {
        lines.push(`  ${list.padEnd(5)} ${rule.text}  (${rule.source})`);
      }
    }
    const domains = permissions.domains;
    lines.push(domains.length === 0 ? "Network: none" : "Network:");
    for (const domain of domains) lines.push(`  allow ${domain.value}  (${domain.source})`);
    screen.say(lines.join("\n"));
  },
};
