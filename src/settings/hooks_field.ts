/**
 * Reads the `hooks` and `notifications` fields of a settings file, in Claude Code's shape:
 * `{"hooks": {"PostToolUse": [{"matcher": "…", "hooks": [{"type": "command",
 * "command": "…", "timeout": 30}]}]}}`.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";
import {
  HOOK_EVENTS,
  type HookCommand,
  type HookEvent,
  type NotificationStyle,
  type Sourced,
} from "./settings.ts";

/** A hook's time when its entry names none, as Claude Code's: 60 s. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
/** The longest time a hook may be given: 10 minutes. */
const MAX_HOOK_TIMEOUT_S = 600;
const NOTIFICATION_STYLES: readonly NotificationStyle[] = ["off", "bell", "osc"];

/** Reports a problem of `field` (its value, when it has one). */
export type FieldProblem = (field: string, value: unknown, why: string) => void;

/**
 * The hook commands of `value` (the `hooks` field of `file`), in the file's order.
 * Contract: never throws; an entry with a problem is reported and left out.
 */
export function parseHooks(
  value: unknown,
  file: string,
  problem: FieldProblem,
): Sourced<HookCommand>[] {
  if (value === undefined) return [];
  if (!isObject(value)) {
    problem("hooks", value, "must be an object of events");
    return [];
  }
  const found: Sourced<HookCommand>[] = [];
  for (const [event, groups] of Object.entries(value)) {
    if (!isHookEvent(event)) {
      problem(`hooks.${event}`, undefined, `is unknown (known: ${HOOK_EVENTS.join(", ")})`);
    } else if (!Array.isArray(groups)) {
      problem(`hooks.${event}`, groups, "must be an array of {matcher, hooks}");
    } else {
      groups.forEach((group, index) => {
        const hooks = parseGroup(group, `hooks.${event}[${index}]`, event, problem);
        found.push(...hooks.map((hook) => ({ value: hook, source: file })));
      });
    }
  }
  return found;
}

/** The `notifications` value of a file, or undefined when it sets none or a wrong one. */
export function parseNotifications(
  value: unknown,
  problem: FieldProblem,
): NotificationStyle | undefined {
  if (value === undefined) return undefined;
  const style = NOTIFICATION_STYLES.find((known) => known === value);
  if (style === undefined) problem("notifications", value, 'must be "off", "bell" or "osc"');
  return style;
}

function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** The commands of one `{matcher, hooks}` entry. */
function parseGroup(
  group: unknown,
  field: string,
  event: HookEvent,
  problem: FieldProblem,
): HookCommand[] {
  if (!isObject(group)) {
    problem(field, group, "must be an object {matcher, hooks}");
    return [];
  }
  for (const key of Object.keys(group)) {
    if (key !== "matcher" && key !== "hooks") {
      problem(`${field}.${key}`, undefined, "is unknown (known: matcher, hooks)");
    }
  }
  const matcher = parseMatcher(group.matcher, `${field}.matcher`, problem);
  if (matcher === null) return [];
  if (!Array.isArray(group.hooks)) {
    problem(`${field}.hooks`, group.hooks, "must be an array of commands");
    return [];
  }
  return group.hooks.flatMap((hook, index) => {
    const command = parseCommand(hook, `${field}.hooks[${index}]`, problem);
    return command ? [{ event, matcher, ...command }] : [];
  });
}

/** The matcher (undefined: every tool), or null when it is wrong. */
function parseMatcher(
  value: unknown,
  field: string,
  problem: FieldProblem,
): string | undefined | null {
  if (value === undefined || value === "" || value === "*") return undefined;
  if (typeof value !== "string") {
    problem(field, value, "must be a string (a regular expression on the tool name)");
    return null;
  }
  try {
    new RegExp(value);
    return value;
  } catch (error) {
    problem(field, value, `is not a regular expression: ${(error as Error).message}`);
    return null;
  }
}

function parseCommand(
  hook: unknown,
  field: string,
  problem: FieldProblem,
): { command: string; timeoutMs: number } | undefined {
  if (!isObject(hook)) {
    problem(field, hook, 'must be an object {"type": "command", "command": …}');
    return undefined;
  }
  let ok = true;
  const fail = (name: string, value: unknown, why: string) => {
    problem(`${field}.${name}`, value, why);
    ok = false;
  };
  for (const key of Object.keys(hook)) {
    if (!["type", "command", "timeout"].includes(key)) {
      fail(key, undefined, "is unknown (known: type, command, timeout)");
    }
  }
  if (hook.type !== "command") fail("type", hook.type, 'must be "command"');
  const { command, timeout = DEFAULT_HOOK_TIMEOUT_S } = hook;
  if (typeof command !== "string" || command.trim() === "" || command.includes("\0")) {
    fail("command", command, "must be a non-empty string");
  }
  if (
    typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0 ||
    timeout > MAX_HOOK_TIMEOUT_S
  ) {
    fail("timeout", timeout, `must be a number of seconds above 0, at most ${MAX_HOOK_TIMEOUT_S}`);
  }
  return ok ? { command: String(command), timeoutMs: Number(timeout) * 1000 } : undefined;
}
