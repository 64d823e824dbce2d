/**
 * A raw-mode line editor for the interactive prompt: bracketed paste, multi-line input,
 * history, Tab completion, and type-ahead held while a task runs. Terminal I/O is
 * injected, so tests feed bytes and read the screen text.
 *
 * @module
 */
import { completeBuffer, type Completer } from "./completion.ts";
import { EditBuffer } from "./edit_buffer.ts";
import { applyEditKey } from "./edit_keys.ts";
import type { InputHistory } from "./input_history.ts";
import { type Key, KeyDecoder } from "./keys.ts";
import { layoutPrompt } from "./prompt_layout.ts";
import { PromptView } from "./prompt_view.ts";
import {
  createTheme,
  sanitizeLine,
  type TerminalIo,
  type Theme,
  wrapText,
} from "../terminal/mod.ts";

/** How the editor behaves. */
export interface LineEditorOptions {
  io: TerminalIo;
  /** Runs once per Ctrl+C; at the prompt after the editor did nothing itself, else after dropping type-ahead. */
  onInterrupt: () => void;
  history: InputHistory;
  /** Called with each submitted entry, e.g. to append it to the history file. */
  onSubmit?: (entry: string) => void;
  complete?: Completer;
  color: boolean;
  /** How long a lone ESC waits for the rest of a sequence. */
  escapeTimeoutMs?: number;
}

const CONTINUATION = "  ";
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

/**
 * Reads lines from a terminal. Starts reading at once: keys typed while no prompt is
 * shown are applied silently (type-ahead) and appear in the next prompt; a line
 * submitted then is returned by the next `next()` call.
 * Contract: nothing is written while no prompt is shown, except by `notice`.
 */
export class LineEditor {
  #options: LineEditorOptions;
  #theme: Theme;
  #decoder = new KeyDecoder();
  #buffer = new EditBuffer();
  #view: PromptView;
  #held: string[] = [];
  #eof = false;
  #closed = false;
  #prompt = "";
  #waiting: ((line: string | undefined) => void) | undefined;
  #reading: Promise<void>;
  #iterator: AsyncIterator<Uint8Array>;

  /** Opens the editor on `options.io` and starts reading. */
  constructor(options: LineEditorOptions) {
    this.#options = options;
    this.#theme = createTheme(options.color);
    this.#view = new PromptView(options.io.write);
    this.#iterator = options.io.input[Symbol.asyncIterator]();
    options.io.write(PASTE_ON);
    this.#reading = this.#read();
  }

  /** The next submitted line, or undefined at Ctrl+D on an empty prompt, end of input or `close()`. */
  next(prompt: string): Promise<string | undefined> {
    this.#prompt = prompt;
    const held = this.#held.shift();
    if (held !== undefined) {
      this.#echo(held);
      return Promise.resolve(held);
    }
    if (this.#eof || this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#draw();
    });
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

  /** Puts `text` on the line to edit, unless something is typed there already. */
  fill(text: string): void {
    if (this.#buffer.text !== "") return;
    this.#buffer.set(text);
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
    if (active) this.#view.finish();
    this.#options.io.write(`${text.replaceAll("\n", "\r\n")}\r\n`);
    if (active) this.#draw();
  }

  /** Ends input: a pending or later `next` returns undefined; bracketed paste is turned off. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#waiting) this.#view.finish();
    this.#options.io.write(PASTE_OFF);
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
    const timeout = this.#options.escapeTimeoutMs ?? 50;
    let pending: Promise<IteratorResult<Uint8Array>> | undefined;
    while (!this.#closed) {
      pending ??= this.#iterator.next();
      const result = this.#decoder.waiting ? await within(pending, timeout) : await pending;
      if (result === undefined) {
        await this.#handle(this.#decoder.flush());
        continue;
      }
      pending = undefined;
      if (result.done) break;
      await this.#handle(this.#decoder.feed(result.value));
    }
    if (!this.#closed) await this.#handle([{ type: "key", name: "ctrl+d" }]);
    this.#eof = true;
    this.#resolve(undefined);
  }

  async #handle(keys: Key[]): Promise<void> {
    for (const key of keys) {
      if (this.#closed) return;
      if (key.type === "text") this.#buffer.insert(key.text);
      else if (key.type === "paste") this.#buffer.insertPaste(key.text);
      else if (!(await this.#named(key.name))) continue;
      this.#draw();
    }
  }

  /** Applies a named key; returns whether the prompt needs a redraw. */
  async #named(name: string): Promise<boolean> {
    const buffer = this.#buffer;
    switch (name) {
      case "enter":
        return this.#enter();
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
        if (this.#waiting) {
          this.#view.clear();
          this.#options.io.write("\x1b[H\x1b[2J");
        }
        return true;
      default:
        return applyEditKey(buffer, name);
    }
  }

  #enter(): boolean {
    const buffer = this.#buffer;
    if (buffer.cursor === buffer.text.length && buffer.text.endsWith("\\")) {
      buffer.backspace();
      buffer.insert("\n");
      return true;
    }
    const line = buffer.value();
    if (this.#options.history.add(line)) this.#options.onSubmit?.(line);
    if (this.#waiting) this.#finish(line);
    else this.#held.push(line);
    buffer.set("");
    return true;
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
      this.notice(this.#theme.dim(list.join("\n")));
    }
    return changed;
  }

  #finish(line: string | undefined): void {
    this.#draw();
    this.#view.finish();
    this.#resolve(line);
  }

  #resolve(line: string | undefined): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(line);
  }

  /** Shows a held line as if it had been typed at the prompt. */
  #echo(line: string): void {
    const buffer = new EditBuffer();
    buffer.set(line);
    this.#view.draw(this.#layout(buffer), this.#options.io.columns());
    this.#view.finish();
  }

  #draw(): void {
    if (!this.#waiting) return;
    this.#view.draw(this.#layout(this.#buffer), this.#options.io.columns());
  }

  #layout(buffer: EditBuffer) {
    return layoutPrompt({
      text: buffer.text,
      cursor: buffer.cursor,
      paste: (char) => buffer.paste(char),
      prompt: this.#prompt,
      continuation: CONTINUATION,
      width: this.#options.io.columns(),
      promptStyle: this.#theme.prompt,
      textStyle: this.#theme.bold,
      pasteStyle: this.#theme.cyan,
    });
  }
}

/** `promise`'s value, or undefined when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) =>
    timer = setTimeout(() => resolve(undefined), ms)
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
