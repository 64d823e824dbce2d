/**
 * A terminal toolkit that knows no powercode type: sanitizing, width, wrapping, one
 * theme, the live region and markdown and plain text streams.
 *
 * @module
 */
export { attentionBytes, type AttentionStyle } from "./attention.ts";
export { LiveRegion, type RegionCursor, type RegionIo } from "./live_region.ts";
export { MarkdownStream } from "./markdown.ts";
export { PlainStream, type TextStream } from "./plain_stream.ts";
export { sanitize, sanitizeLine } from "./sanitize.ts";
export {
  openTerminal,
  type Terminal,
  terminalColumns,
  type TerminalIo,
  terminalRows,
} from "./terminal.ts";
export { createTheme, type Theme } from "./theme.ts";
export { charWidth, fitWidth, textWidth, truncateWidth } from "./width.ts";
export { type Style, wrapHanging, wrapText } from "./wrap.ts";
export { type Writer, writeTo } from "./write_all.ts";
