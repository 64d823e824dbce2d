/**
 * The hooks' part of `--scope`: which commands the settings files run on which events, by
 * file, since each runs in the bash sandbox with the scope listed above it.
 *
 * @module
 */
import type { HookCommand, Sourced } from "../settings/mod.ts";
import { sanitizeLine, wrapHanging } from "../terminal/mod.ts";

/** The widest the listing is, even where the output has no width (a pipe). */
export const HOOKS_WIDTH = 80;

/**
 * The rows listing `hooks`, grouped by the file each came from, in their order: the event,
 * the matcher when there is one, and the command, word-wrapped to `width` columns (at most
 * {@linkcode HOOKS_WIDTH}), each shown with its control characters visible.
 */
export function hookScopeRows(hooks: readonly Sourced<HookCommand>[], width: number): string[] {
  const columns = Math.min(width, HOOKS_WIDTH);
  if (hooks.length === 0) return ["Hooks: none"];
  const rows: string[] = [];
  const files = [...new Set(hooks.map((hook) => hook.source))];
  for (const file of files) {
    rows.push(`  from ${sanitizeLine(file)}:`);
    for (const { value, source } of hooks) {
      if (source !== file) continue;
      const matcher = value.matcher === undefined ? "" : ` matching ${value.matcher}`;
      rows.push(`    ${value.event}${sanitizeLine(matcher)}: ${sanitizeLine(value.command)}`);
    }
  }
  return [
    ...wrapHanging(
      "Hooks (each run by bash -c in the sandbox above, with this scope):",
      columns,
      "  ",
    ),
    ...rows.flatMap((row) => wrapHanging(row, columns, "      ")),
  ];
}
