/**
 * Decodes terminal input bytes (raw mode) into keys: text, named keys with modifiers,
 * and bracketed pastes, across chunk boundaries.
 *
 * @module
 */

/** One key press, a run of typed text, or one whole paste. */
export type Key =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | { type: "key"; name: string };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** CSI: ESC [ parameters intermediates final byte. */
// deno-lint-ignore no-control-regex
const CSI = /^\x1b\[([0-9;:<=>?]*)([ -/]*)([@-~])/;
/** SS3: ESC O final byte (application cursor keys). */
// deno-lint-ignore no-control-regex
const SS3 = /^\x1bO([@-~])/;
/** A prefix that may still grow into a CSI or SS3 sequence. */
// deno-lint-ignore no-control-regex
const PARTIAL = /^\x1b(?:\[[0-9;:<=>?]*[ -/]*|O)?$/;
/** Typed text: everything but controls, DEL and C1. */
// deno-lint-ignore no-control-regex
const TEXT = /^[^\x00-\x1f\x7f-\x9f]+/;

const CSI_FINAL: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "shift+tab",
};
const CSI_TILDE: Record<string, string> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
};
const MODIFIERS: Record<string, string> = {
  "2": "shift+",
  "3": "alt+",
  "4": "alt+shift+",
  "5": "ctrl+",
  "6": "ctrl+shift+",
  "7": "ctrl+alt+",
};
const CONTROL: Record<string, string> = {
  "\r": "enter",
  "\n": "ctrl+j",
  "\t": "tab",
  "\x7f": "backspace",
  "\x08": "backspace",
  "\x1b": "escape",
  "\x00": "ctrl+space",
};

/**
 * Turns raw-mode input into keys. A lone ESC at the end of a chunk may start a
 * sequence, so it is held: call `flush()` when no more input came shortly after.
 * Contract: text keys never contain control characters; paste keys hold the pasted
 * text exactly as the terminal sent it (line ends normalized to `\n`).
 */
export class KeyDecoder {
  #decoder = new TextDecoder();
  #input = "";
  #paste: string | undefined;

  /** Decodes a chunk; returns the keys it completed. */
  feed(chunk: Uint8Array | string): Key[] {
    this.#input += typeof chunk === "string"
      ? chunk
      : this.#decoder.decode(chunk, { stream: true });
    return this.#drain(false);
  }

  /** Whether an ESC prefix is held that `flush()` would turn into keys. */
  get waiting(): boolean {
    return this.#paste === undefined && this.#input !== "";
  }

  /** Decodes what is held as complete: a lone ESC becomes the escape key. */
  flush(): Key[] {
    return this.#drain(true);
  }

  #drain(final: boolean): Key[] {
    const keys: Key[] = [];
    for (;;) {
      if (this.#paste !== undefined) {
        const end = this.#input.indexOf(PASTE_END);
        if (end < 0) {
          const keep = partialSuffix(this.#input, PASTE_END);
          this.#paste += this.#input.slice(0, this.#input.length - keep);
          this.#input = this.#input.slice(this.#input.length - keep);
          return keys;
        }
        keys.push({ type: "paste", text: normalizeLines(this.#paste + this.#input.slice(0, end)) });
        this.#paste = undefined;
        this.#input = this.#input.slice(end + PASTE_END.length);
        continue;
      }
      if (this.#input === "") return keys;
      const step = this.#next(final);
      if (step === undefined) return keys;
      this.#input = this.#input.slice(step.length);
      if (step.key) keys.push(step.key);
    }
  }

  /** The next key at the start of the input and how many characters it took. */
  #next(final: boolean): { length: number; key?: Key } | undefined {
    const input = this.#input;
    const text = TEXT.exec(input);
    if (text) return { length: text[0].length, key: { type: "text", text: text[0] } };
    const first = input[0] ?? "";
    if (first !== "\x1b") {
      const code = first.charCodeAt(0);
      const name = CONTROL[first] ??
        (code >= 1 && code <= 26 ? `ctrl+${String.fromCharCode(code + 96)}` : undefined);
      return { length: 1, ...(name ? { key: { type: "key", name } } : {}) };
    }
    if (input.startsWith(PASTE_START)) {
      this.#paste = "";
      return { length: PASTE_START.length };
    }
    if (!final && (PARTIAL.test(input) || PASTE_START.startsWith(input))) return undefined;
    const csi = CSI.exec(input);
    if (csi) return { length: csi[0].length, ...keyOf(decodeCsi(csi[1] ?? "", csi[3] ?? "")) };
    const ss3 = SS3.exec(input);
    if (ss3) return { length: ss3[0].length, ...keyOf(CSI_FINAL[ss3[1] ?? ""]) };
    const second = input[1];
    if (second === "\x1b") return { length: 1, ...metaArrow(input.slice(1)) ?? keyOf("escape") };
    if (second === undefined) return { length: 1, ...keyOf("escape") };
    if (second === "\r") return { length: 2, ...keyOf("alt+enter") };
    if (second === "\x7f" || second === "\x08") return { length: 2, ...keyOf("alt+backspace") };
    const char = String.fromCodePoint(input.codePointAt(1) ?? 0);
    if (TEXT.test(char)) return { length: 1 + char.length, ...keyOf(`alt+${char}`) };
    return { length: 1, ...keyOf("escape") };
  }
}

/**
 * ESC before an arrow's sequence (a terminal whose Option key sends ESC): the arrow with Alt,
 * taking the sequence too; undefined for anything else.
 */
function metaArrow(rest: string): { length: number; key?: Key } | undefined {
  const match = CSI.exec(rest) ?? SS3.exec(rest);
  const final = match?.at(-1) ?? "";
  const plain = match !== null && (match.length === 2 || match[1] === "");
  const name = plain && "ABCD".includes(final) ? CSI_FINAL[final] : undefined;
  if (!match || !name) return undefined;
  return { length: 1 + match[0].length, key: { type: "key", name: `alt+${name}` } };
}

function keyOf(name: string | undefined): { key?: Key } {
  return name ? { key: { type: "key", name } } : {};
}

function decodeCsi(params: string, final: string): string | undefined {
  // Focus reporting (CSI ? 1004 h): the terminal gained or lost the focus.
  if (params === "" && (final === "I" || final === "O")) {
    return final === "I" ? "focus_in" : "focus_out";
  }
  const [first = "", modifier = "", third = ""] = params.split(";");
  if (final === "~") {
    // xterm modifyOtherKeys: CSI 27 ; modifier ; code ~
    if (first === "27" && third === "13") return `${MODIFIERS[modifier] ?? ""}enter`;
    const name = CSI_TILDE[first];
    return name && `${MODIFIERS[modifier] ?? ""}${name}`;
  }
  // kitty / fixterms: CSI code ; modifier u
  if (final === "u") return first === "13" ? `${MODIFIERS[modifier] ?? ""}enter` : undefined;
  const name = CSI_FINAL[final];
  return name && `${MODIFIERS[modifier] ?? ""}${name}`;
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(text.length, marker.length - 1); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

function normalizeLines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
