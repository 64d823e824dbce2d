/**
 * A raw-mode line editor for the interactive prompt: bracketed paste, multi-line input,
 * history and its reverse search, Tab completion, and, while work runs, either type-ahead
 * held for the next prompt or an input shown below the task that queues lines. Terminal
 * I/O is injected, so tests feed bytes and read the screen text.
 *
 * @module
 */
import type { BusyHandlers, Submitted } from "./busy_input.ts";
import { CommandPalette, type PaletteEntry } from "./command_palette.ts";
import { completeBuffer, type Completer } from "./completion.ts";
import { EditBuffer } from "./edit_buffer.ts";
import { applyEditKey } from "./edit_keys.ts";
import type { InputHistory } from "./input_history.ts";
import { readKeys } from "./key_reader.ts";
import type { Key } from "./keys.ts";
import { InputLook } from "./input_look.ts";
import { ReverseSearch, searchKey } from "./reverse_search.ts";
import { sanitizeLine, type TerminalIo, wrapText } from "../terminal/mod.ts";

/** How the editor behaves. */
export interface LineEditorOptions {
  io: TerminalIo;
  /** Runs once per Ctrl+C; at the prompt after the editor did nothing itself, else after dropping type-ahead. */
  onInterrupt: () => void;
  history: InputHistory;
  /** Called with each submitted entry, e.g. to append it to the history file. */
  onSubmit?: (entry: string) => void;
  complete?: Completer;
  /** The commands a `/` typed at the start of an empty input lists (the palette); none without. */
  palette?: () => readonly PaletteEntry[];
  color: boolean;
  /** How long a lone ESC waits for the rest of a sequence. */
  escapeTimeoutMs?: number;
  /** Ctrl+Z: suspend the program (the terminal input does it; nothing without). */
  onSuspend?: () => void;
  /** Shift+Tab, at the prompt or while work runs (the approval mode); nothing without. */
  onShiftTab?: () => void;
  /** Asks the terminal to report focus changes (see {@linkcode LineEditor.focused}). */
  trackFocus?: boolean;
}

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";
const FOCUS_ON = "\x1b[?1004h";
const FOCUS_OFF = "\x1b[?1004l";

/**
 * Reads lines from a terminal. Starts reading at once: keys typed while no prompt is
 * shown are applied silently (type-ahead) and appear in the next prompt; a line
 * submitted then is returned by the next `next()` call. While `busy`, the input is drawn
 * through its handlers instead, and a submitted line is queued there.
 * Contract: nothing is written while no prompt is shown, except by `notice`.
 */
export class LineEditor {
  #options: LineEditorOptions;
  #buffer = new EditBuffer();
  #look: InputLook;
  #held: Submitted[] = [];
  #shown: string | undefined;
  #busy: BusyHandlers | undefined;
  #search: ReverseSearch | undefined;
  /** The command palette, open from a `/` typed into an empty input until the word ends. */
  #palette: CommandPalette | undefined;
  /** The text `fill` put on the line, until a key is typed: a `/` then replaces it. */
  #filled: string | undefined;
  /** Ctrl+L typed while nothing was drawn: the next prompt clears the screen first. */
  #clearPending = false;
  #eof = false;
  #closed = false;
  #focused = true;
  #waiting: ((line: string | undefined) => void) | undefined;
  #reading: Promise<void>;
  #iterator: AsyncIterator<Uint8Array>;

  /** Opens the editor on `options.io` and starts reading. */
  constructor(options: LineEditorOptions) {
    this.#options = options;
    this.#look = new InputLook(options.io, options.color);
    this.#iterator = options.io.input[Symbol.asyncIterator]();
    options.io.write(this.#modesOn());
    this.#reading = this.#read();
  }

  /**
   * Whether the terminal has the focus, as it last reported (with `trackFocus`); true until
   * it reports otherwise, so a terminal that never reports is always focused.
   */
  get focused(): boolean {
    return this.#focused;
  }

  /** Bracketed paste on, and focus reporting when tracked. */
  #modesOn(): string {
    return this.#options.trackFocus ? PASTE_ON + FOCUS_ON : PASTE_ON;
  }

  #modesOff(): string {
    return this.#options.trackFocus ? PASTE_OFF + FOCUS_OFF : PASTE_OFF;
  }

  /** The next submitted line, or undefined at Ctrl+D on an empty prompt, end of input or `close()`. */
  next(prompt: string): Promise<string | undefined> {
    this.#look.prompt = prompt;
    this.#busy = undefined;
    const held = this.#held.shift();
    if (held !== undefined) {
      this.#look.echo(held.text);
      this.#shown = held.shown;
      return Promise.resolve(held.text);
    }
    if (this.#eof || this.#closed) return Promise.resolve(undefined);
    if (this.#clearPending) this.#clearScreen();
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#draw();
    });
  }

  /** How the line `next` returned last was shown when that differs from it (a paste's label). */
  lastShown(): string | undefined {
    return this.#shown;
  }

  /**
   * Shows the input through `handlers` while work runs: it is drawn there, Enter and
   * Alt+Enter queue the line, Alt+Up takes the queued lines back, Esc and Ctrl+L are reported. Ends at the next `next()` or when
   * the returned function is called.
   */
  busy(handlers: BusyHandlers): () => void {
    this.#busy = handlers;
    this.#draw();
    return () => {
      if (this.#busy === handlers) this.#busy = undefined;
    };
  }

  /** Puts `text` back before what is being typed (queued lines taken back), on its own lines. */
  restore(text: string): void {
    this.#prepend(text);
    this.#draw();
  }

  /**
   * Hands the terminal over at the end of the program: what is drawn stays as output, the
   * cursor goes below it, bracketed paste goes off.
   */
  pause(): void {
    if (this.#waiting) this.#look.finish();
    else this.#busy?.pause();
    this.#options.io.write(this.#modesOff());
  }

  /**
   * Hands the terminal over for a while (Ctrl+Z): a prompt drawn is erased, bracketed paste
   * goes off (what is drawn while work runs is its owner's to erase). `resume` takes it back.
   */
  suspend(): void {
    if (this.#waiting) this.#look.erase();
    this.#options.io.write(PASTE_OFF);
  }

  /** Takes the terminal back after `suspend`: bracketed paste on, the input drawn again. */
  resume(): void {
    if (this.#closed) return;
    this.#options.io.write(this.#modesOn());
    this.#draw();
  }

  /** Text typed and not yet submitted (at the prompt or ahead of it). */
  pendingText(): string {
    return this.#buffer.value();
  }

  /** Empties the line being typed. */
  clearLine(): void {
    this.#buffer.set("");
    this.#options.history.reset();
    this.#draw();
  }

  /**
   * Puts `text` on the line to edit, unless something is typed there already.
   * Contract: a `/` typed as the next key replaces the filled text (a command, e.g. a second
   * `/undo`, is never appended to it); any other key edits it.
   */
  fill(text: string): void {
    if (this.#buffer.text !== "") return;
    this.#buffer.set(text);
    this.#filled = text;
    this.#options.history.reset();
    if (this.#waiting) this.#draw();
  }

  /** Drops keys and lines typed while no prompt was shown (Ctrl+C does this by itself). */
  discardTypeAhead(): void {
    this.#held = [];
    if (this.#waiting) return;
    this.#buffer.set("");
    this.#options.history.reset();
  }

  /** Prints `text` on its own lines; a shown prompt moves below it. */
  notice(text: string): void {
    const active = this.#waiting !== undefined;
    if (active) this.#look.finish();
    this.#options.io.write(`${text.replaceAll("\n", "\r\n")}\r\n`);
    if (active) this.#draw();
  }

  /**
   * Prints `text` that arrived on its own (not in answer to a key, e.g. MCP servers ready): a
   * shown prompt is erased, `text` takes its rows and the prompt, with what was typed, is drawn
   * again below it.
   */
  announce(text: string): void {
    const active = this.#waiting !== undefined;
    if (active) this.#look.erase();
    this.#options.io.write(`${text.replaceAll("\n", "\r\n")}\r\n`);
    if (active) this.#draw();
  }

  /** Ends input: a pending or later `next` returns undefined; bracketed paste is turned off. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#waiting) this.#look.finish();
    this.#options.io.write(this.#modesOff());
    this.#resolve(undefined);
    void this.#iterator.return?.().catch(() => {});
  }

  /** Resolves once reading has stopped (after `close()` or the end of input). */
  get done(): Promise<void> {
    return this.#reading;
  }

  /** Redraws the prompt for a new terminal width. */
  resize(): void {
    this.#draw();
  }

  async #read(): Promise<void> {
    await readKeys(this.#iterator, {
      escapeTimeoutMs: this.#options.escapeTimeoutMs ?? 50,
      stopped: () => this.#closed,
      handle: (keys) => this.#handle(keys),
    });
    if (!this.#closed) await this.#handle([{ type: "key", name: "ctrl+d" }]);
    this.#eof = true;
    this.#resolve(undefined);
  }

  async #handle(keys: Key[]): Promise<void> {
    for (const key of keys) {
      if (this.#closed) return;
      if (key.type === "key" && (key.name === "focus_in" || key.name === "focus_out")) {
        this.#focused = key.name === "focus_in";
        continue;
      }
      const filled = this.#filled;
      this.#filled = undefined;
      if (this.#search && !this.#searching(key)) {
        this.#draw();
        continue;
      }
      if (key.type === "text" && key.text.startsWith("/") && filled === this.#buffer.value()) {
        this.#buffer.set("");
      }
      if (key.type === "text" && key.text.startsWith("/") && this.#buffer.text === "") {
        this.#openPalette();
      }
      if (key.type === "key" && this.#palette && this.#paletteKey(key.name)) {
        this.#draw();
        continue;
      }
      if (key.type === "text") this.#buffer.insert(key.text);
      else if (key.type === "paste") this.#buffer.insertPaste(key.text);
      else if (!(await this.#named(key.name))) {
        this.#fitPalette();
        continue;
      }
      this.#draw();
    }
  }

  /** Applies a named key; returns whether the prompt needs a redraw. */
  async #named(name: string): Promise<boolean> {
    const buffer = this.#buffer;
    switch (name) {
      case "enter":
        return this.#enter("steer");
      case "alt+enter":
        return this.#busy && !this.#waiting ? this.#enter("follow") : applyEditKey(buffer, name);
      case "escape":
        if (this.#busy && !this.#waiting) this.#busy.escape();
        return false;
      case "alt+up":
        return this.#recall();
      case "ctrl+r":
        this.#search = new ReverseSearch(this.#options.history);
        return true;
      case "ctrl+z":
        this.#options.onSuspend?.();
        return false;
      case "shift+tab":
        this.#options.onShiftTab?.();
        return false;
      case "ctrl+c":
        return this.#interrupt();
      case "ctrl+d":
        if (buffer.text !== "") buffer.deleteForward();
        else if (this.#waiting) this.#finish(undefined);
        else this.#eof = true;
        return true;
      case "tab":
        return await this.#complete();
      case "up":
      case "ctrl+p":
      case "down":
      case "ctrl+n":
        return this.#vertical(name === "up" || name === "ctrl+p" ? -1 : 1);
      case "ctrl+l":
        if (this.#waiting) this.#clearScreen();
        else if (this.#busy) this.#busy.clear();
        else this.#clearPending = true;
        return true;
      default:
        return applyEditKey(buffer, name);
    }
  }

  #openPalette(): void {
    const entries = this.#options.palette?.();
    if (entries && entries.length > 0) this.#palette = new CommandPalette(entries);
  }

  /** Filters the palette by the input, or closes it once the input is no lone `/word`. */
  #fitPalette(): void {
    if (!this.#palette) return;
    const text = this.#buffer.text;
    if (/^\/\S*$/.test(text) && this.#search === undefined) this.#palette.filter(text);
    else this.#palette = undefined;
  }

  /** Applies a key the open palette takes (Up/Down, Tab, Enter, Esc); false for the rest. */
  #paletteKey(name: string): boolean {
    const palette = this.#palette;
    const chosen = palette?.chosen;
    switch (name) {
      case "up":
      case "ctrl+p":
      case "down":
      case "ctrl+n":
        palette?.move(name === "up" || name === "ctrl+p" ? -1 : 1);
        return true;
      case "escape":
        this.#palette = undefined;
        return true;
      case "tab":
        if (!chosen) return false;
        this.#palette = undefined;
        this.#buffer.set(`${chosen.name} `);
        return true;
      case "enter":
        this.#palette = undefined;
        if (chosen) this.#buffer.set(chosen.name);
        return this.#enter("steer");
      default:
        return false;
    }
  }

  /** Alt+Up while work runs: the queued lines back in the input, before what is typed there. */
  #recall(): boolean {
    const busy = this.#waiting ? undefined : this.#busy;
    const queued = busy?.recall() ?? [];
    if (queued.length === 0) return false;
    this.#prepend(queued.map((entry) => entry.text).join("\n"));
    return true;
  }

  /** Puts `text` before what is typed, on lines of its own. */
  #prepend(text: string): void {
    const current = this.#buffer.value();
    this.#buffer.set(current === "" ? text : `${text}\n${current}`);
  }

  #enter(kind: "steer" | "follow"): boolean {
    const buffer = this.#buffer;
    if (kind === "steer" && buffer.cursor === buffer.text.length && buffer.text.endsWith("\\")) {
      buffer.backspace();
      buffer.insert("\n");
      return true;
    }
    const line = buffer.value();
    const shown = buffer.shown();
    const entry = shown === line ? { text: line } : { text: line, shown };
    const busy = this.#waiting ? undefined : this.#busy;
    if (busy && line.trim() === "") return false;
    if (this.#options.history.add(line)) this.#options.onSubmit?.(line);
    if (this.#waiting) this.#finish(entry);
    else if (busy) busy.submit(entry, kind);
    else this.#held.push(entry);
    buffer.set("");
    return true;
  }

  /** Applies `key` to the reverse search; returns whether the key still acts as itself. */
  #searching(key: Key): boolean {
    const search = this.#search;
    if (!search) return true;
    const step = searchKey(search, key);
    if (step === "handled") return false;
    this.#search = undefined;
    const match = search.match;
    if (step !== "cancel" && match !== undefined) this.#buffer.set(match);
    return step === "accept_and_apply";
  }

  #clearScreen(): void {
    this.#clearPending = false;
    this.#look.clearScreen();
  }

  #interrupt(): boolean {
    if (this.#waiting) {
      this.#options.onInterrupt();
      return true;
    }
    this.discardTypeAhead();
    this.#eof = false;
    this.#options.onInterrupt();
    return false;
  }

  #vertical(direction: -1 | 1): boolean {
    if (this.#buffer.moveVertical(direction)) return true;
    const history = this.#options.history;
    const entry = direction < 0 ? history.previous(this.#buffer.value()) : history.next();
    if (entry !== undefined) this.#buffer.set(entry);
    return entry !== undefined;
  }

  async #complete(): Promise<boolean> {
    if (!this.#options.complete) return false;
    const { changed, choices } = await completeBuffer(this.#buffer, this.#options.complete);
    if (this.#waiting && choices.length > 0) {
      const list = wrapText(choices.map(sanitizeLine).join("  "), this.#options.io.columns());
      this.notice(this.#look.dim(list.join("\n")));
    }
    return changed;
  }

  #finish(entry: Submitted | undefined): void {
    this.#draw();
    this.#look.finish();
    this.#shown = entry?.shown;
    this.#resolve(entry?.text);
  }

  #resolve(line: string | undefined): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(line);
  }

  #draw(): void {
    this.#fitPalette();
    const below = this.#palette?.rows(this.#options.io.columns()) ?? [];
    if (this.#waiting) this.#look.draw(this.#buffer, this.#search, below);
    else this.#busy?.draw(this.#look.paint(this.#buffer, this.#search, below));
  }
}
