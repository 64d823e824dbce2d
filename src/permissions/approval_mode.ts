/**
 * The approval modes: when powercode asks the user before a tool call runs.
 *
 * @module
 */

/**
 * `auto`: nothing asks (the sandbox decides); `edits`: file edits run, commands not allowed
 * by a rule ask; `ask`: every write and every command asks unless a rule allows it.
 */
export type ApprovalMode = "auto" | "edits" | "ask";

/** The modes in the order Shift+Tab cycles them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ["auto", "edits", "ask"];

/** Whether `value` names an approval mode. */
export function isApprovalMode(value: unknown): value is ApprovalMode {
  return APPROVAL_MODES.includes(value as ApprovalMode);
}

/** The mode after `mode`, wrapping around (Shift+Tab). */
export function nextApprovalMode(mode: ApprovalMode): ApprovalMode {
  const index = APPROVAL_MODES.indexOf(mode);
  return APPROVAL_MODES[(index + 1) % APPROVAL_MODES.length] ?? "auto";
}

/** One line on what `mode` does, for `/approval` and `/permissions`. */
export function describeApprovalMode(mode: ApprovalMode): string {
  switch (mode) {
    case "auto":
      return "auto: nothing asks; the sandbox decides (rules still deny and ask)";
    case "edits":
      return "edits: file edits run; each command not allowed by a rule asks";
    case "ask":
      return "ask: every write and every command asks unless a rule allows it";
    default: {
      const never: never = mode;
      return never;
    }
  }
}
