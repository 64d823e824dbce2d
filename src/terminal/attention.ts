/**
 * The bytes that call a user back to a terminal that does not have the focus: a desktop
 * notification (OSC 9, which iTerm2, WezTerm, kitty, foot, Ghostty and Windows Terminal show)
 * and a bell.
 *
 * @module
 */

/** `off`: nothing; `bell`: BEL only; `osc`: OSC 9 with the text, then BEL. */
export type AttentionStyle = "off" | "bell" | "osc";

const BEL = "\x07";
/** The longest notification text written. */
const MAX_TEXT = 120;

/**
 * What to write to ask for the user's attention with `text`.
 * Contract: the text carries no control character, so it cannot end the OSC early or
 * smuggle another sequence; terminals without OSC 9 ignore it.
 */
export function attentionBytes(style: AttentionStyle, text: string): string {
  switch (style) {
    case "off":
      return "";
    case "bell":
      return BEL;
    case "osc": {
      // deno-lint-ignore no-control-regex
      const clean = text.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").slice(0, MAX_TEXT);
      return `\x1b]9;${clean}${BEL}${BEL}`;
    }
    default:
      return style satisfies never;
  }
}
