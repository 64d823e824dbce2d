/**
 * How the input looks: the prompt and the edited text (or a reverse search) laid out in the
 * theme's styles, drawn at the cursor or painted as rows for whoever shows it below a task.
 *
 * @module
 */
import type { PaintedInput } from "./busy_input.ts";
import type { PaletteRow } from "./command_palette.ts";
import { EditBuffer } from "./edit_buffer.ts";
import { type Cell, type Layout, layoutPrompt } from "./prompt_layout.ts";
import { paint, PromptView } from "./prompt_view.ts";
import type { ReverseSearch } from "./reverse_search.ts";
import { charWidth, createTheme, type TerminalIo, type Theme } from "../terminal/mod.ts";

const CONTINUATION = "  ";
const CLEAR_SCREEN = "\x1b[H\x1b[2J";

/** The input's looks on one terminal. */
export class InputLook {
  #io: TerminalIo;
  #theme: Theme;
  #view: PromptView;
  /** The input's own layout as last drawn, without the rows below it (the palette). */
  #drawn: Layout | undefined;
  /** The prompt before the first line. */
  prompt = "> ";

  /** Looks for `io`, coloured when `color`. */
  constructor(io: TerminalIo, color: boolean) {
    this.#io = io;
    this.#theme = createTheme(color);
    this.#view = new PromptView(io.write);
  }

  /** The theme's dim style, for hints. */
  dim(text: string): string {
    return this.#theme.dim(text);
  }

  /**
   * Draws `buffer` (or `search`) at the prompt, with `below` (the palette) under it, writing
   * only what changed.
   */
  draw(buffer: EditBuffer, search: ReverseSearch | undefined, below: PaletteRow[] = []): void {
    const layout = this.#layout(buffer, search);
    this.#drawn = layout;
    this.#view.draw(this.#withBelow(layout, below), this.#io.columns());
  }

  /** `buffer` (or `search`) as styled rows, `below` under it, with the cursor's place. */
  paint(
    buffer: EditBuffer,
    search: ReverseSearch | undefined,
    below: PaletteRow[] = [],
  ): PaintedInput {
    const layout = this.#withBelow(this.#layout(buffer, search), below);
    return { rows: layout.rows.map(paint), cursor: layout.cursor };
  }

  /** Shows `text` as if it had been typed at the prompt, and moves below it. */
  echo(text: string): void {
    const buffer = new EditBuffer();
    buffer.set(text);
    this.#drawn = undefined;
    this.#view.draw(this.#layout(buffer, undefined), this.#io.columns());
    this.#view.finish();
  }

  /** Leaves the drawn prompt on screen, without the rows below it, and moves below it. */
  finish(): void {
    if (this.#drawn) this.#view.draw(this.#drawn, this.#io.columns());
    this.#drawn = undefined;
    this.#view.finish();
  }

  /** Erases the drawn prompt (and the rows below it); the cursor rests where it started. */
  erase(): void {
    this.#view.clear();
    this.#drawn = undefined;
  }

  /** Erases the drawn prompt and clears the screen. */
  clearScreen(): void {
    this.#view.clear();
    this.#drawn = undefined;
    this.#io.write(CLEAR_SCREEN);
  }

  #withBelow(layout: Layout, below: PaletteRow[]): Layout {
    if (below.length === 0) return layout;
    const rows = below.map((row) => {
      const style = row.chosen ? this.#theme.bold : this.#theme.dim;
      return [...row.text].map((char): Cell => ({ text: char, width: charWidth(char), style }));
    });
    return { rows: [...layout.rows, ...rows], cursor: layout.cursor };
  }

  #layout(buffer: EditBuffer, search: ReverseSearch | undefined): Layout {
    const shown = search ? new EditBuffer() : buffer;
    if (search) shown.set(search.match ?? "");
    return layoutPrompt({
      text: shown.text,
      cursor: shown.cursor,
      paste: (char) => shown.paste(char),
      prompt: search?.prompt ?? this.prompt,
      continuation: CONTINUATION,
      width: this.#io.columns(),
      promptStyle: this.#theme.prompt,
      textStyle: this.#theme.bold,
      pasteStyle: this.#theme.cyan,
    });
  }
}
