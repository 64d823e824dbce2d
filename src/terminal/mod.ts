/**
 * A terminal toolkit that knows no powercode type: sanitizing, width, wrapping, one
 * theme, the live region and markdown and plain text streams.
 *
 * @module
 */
export { attentionBytes, type AttentionStyle } from "./attention.ts";
export type { LiveRegion, RegionCursor, RegionIo } from "./live_region.ts";
export type { MarkdownStream } from "./markdown.ts";
export type { PlainStream, TextStream } from "./plain_stream.ts";
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

/**
 * The live view's parts (the live region, the markdown and plain text streams), loaded when
 * a screen opens: a `-p` run or a piped REPL never loads them.
 */
export async function loadLiveView(): Promise<{
  LiveRegion: typeof import("./live_region.ts").LiveRegion;
  MarkdownStream: typeof import("./markdown.ts").MarkdownStream;
  PlainStream: typeof import("./plain_stream.ts").PlainStream;
}> {
  const [region, markdown, plain] = await Promise.all([
    import("./live_region.ts"),
    import("./markdown.ts"),
    import("./plain_stream.ts"),
  ]);
  return {
    LiveRegion: region.LiveRegion,
    MarkdownStream: markdown.MarkdownStream,
    PlainStream: plain.PlainStream,
  };
}
