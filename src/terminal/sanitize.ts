/**
 * Makes text from outside (model, provider, files, commands) safe for a terminal:
 * control characters are shown visibly and never reach the terminal as controls.
 *
 * C0 controls and DEL are shown in caret notation (`ESC` as `^[`, CR as `^M`, DEL as
 * `^?`), C1 controls as `\x9b`-style escapes, and the invisible bidirectional
 * overrides that can reorder what a line seems to say as `\u202e`-style escapes. A CR
 * directly before a newline (Windows line ends) is dropped: it moves nothing.
 *
 * @module
 */

/** C0 except tab and newline, DEL, C1, and the bidi embedding/override/isolate controls. */
// deno-lint-ignore no-control-regex
const UNSAFE = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same plus tab and newline, for one-line fields. */
const UNSAFE_IN_LINE =
  // deno-lint-ignore no-control-regex
  /\r\n|[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** How newline and tab look in a one-line field. */
const NEWLINE_MARK = "↵";
const TAB_MARK = "⇥";

/**
 * Returns `text` with every control character other than newline and tab shown
 * visibly: `"a\x1b[2Kb"` becomes `"a^[[2Kb"`.
 * Contract: the result contains no C0 control except `\n` and `\t`, no DEL, no C1
 * control and no bidi override, so printing it cannot move the cursor, erase, set
 * the title, touch the clipboard or ring the bell.
 */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, (char) => char === "\r\n" ? "\n" : visible(char));
}

/**
 * Like {@link sanitize} for one-line fields (tool arguments, file names): newlines are
 * shown as `↵` and tabs as `⇥`, so the result always stays on one line.
 * Contract: the result contains no control character at all.
 */
export function sanitizeLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, (char) => {
    if (char === "\r\n" || char === "\n") return NEWLINE_MARK;
    if (char === "\t") return TAB_MARK;
    return visible(char);
  });
}

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return "^?";
  const hex = code.toString(16);
  return code <= 0xff ? `\\x${hex}` : `\\u${hex}`;
}
