/**
 * Reasoning sent inside the answer text as `<think>…</think>`: MiniMax M2 always does (its
 * model card asks clients to keep the block in history), and so does any reasoning model served
 * without a reasoning parser (vLLM or SGLang without `--reasoning-parser`, llama.cpp with
 * `--reasoning-format none`).
 *
 * @module
 */

const OPEN = "<think>";
const CLOSE = "</think>";

/** What one piece of content turned out to be. */
export interface ThinkPieces {
  reasoning: string;
  answer: string;
}

/**
 * Splits streamed content into a leading `<think>` block and the answer after it, piece by
 * piece, with tags split across pieces; content that does not start with `<think>` (after
 * whitespace) is all answer.
 * Contract: `block` is the exact text of the think block as sent (tags and the whitespace
 * after it included), so `block + answer` is the content as sent; holds back at most the
 * length of a tag between pieces.
 */
export class ThinkSplitter {
  #state: "start" | "think" | "gap" | "answer" = "start";
  #held = "";
  #block = "";

  /** The think block as sent, when the content started with one. */
  get block(): string | undefined {
    return this.#state === "start" || this.#block === "" ? undefined : this.#block;
  }

  /** Reads one piece of content. */
  push(text: string): ThinkPieces {
    const pieces: ThinkPieces = { reasoning: "", answer: "" };
    this.#read(text, pieces);
    return pieces;
  }

  /** The content ended: what was held back (a partial tag is answer text, an open block reasoning). */
  end(): ThinkPieces {
    const held = this.#held;
    this.#held = "";
    if (this.#state === "start") return { reasoning: "", answer: held };
    if (this.#state === "think") this.#block += held;
    return { reasoning: this.#state === "think" ? held : "", answer: "" };
  }

  #read(text: string, pieces: ThinkPieces): void {
    switch (this.#state) {
      case "start":
        return this.#start(this.#held + text, pieces);
      case "think":
        return this.#think(this.#held + text, pieces);
      case "gap":
        return this.#gap(text, pieces);
      case "answer":
        pieces.answer += text;
        return;
      default: {
        const never: never = this.#state;
        throw new TypeError(`Cannot split content: unknown state ${never}`);
      }
    }
  }

  #start(text: string, pieces: ThinkPieces): void {
    const trimmed = text.trimStart();
    if (trimmed.length < OPEN.length && OPEN.startsWith(trimmed)) {
      this.#held = text;
      return;
    }
    this.#held = "";
    if (!trimmed.startsWith(OPEN)) {
      this.#state = "answer";
      pieces.answer += text;
      return;
    }
    const opened = text.length - trimmed.length + OPEN.length;
    this.#block = text.slice(0, opened);
    this.#state = "think";
    this.#think(text.slice(opened), pieces);
  }

  #think(text: string, pieces: ThinkPieces): void {
    const close = text.indexOf(CLOSE);
    if (close < 0) {
      // Keep back what could be the start of a closing tag split across pieces.
      const safe = Math.max(0, text.length - (CLOSE.length - 1));
      pieces.reasoning += text.slice(0, safe);
      this.#block += text.slice(0, safe);
      this.#held = text.slice(safe);
      return;
    }
    this.#held = "";
    pieces.reasoning += text.slice(0, close);
    this.#block += text.slice(0, close + CLOSE.length);
    this.#state = "gap";
    this.#gap(text.slice(close + CLOSE.length), pieces);
  }

  #gap(text: string, pieces: ThinkPieces): void {
    const answer = text.trimStart();
    this.#block += text.slice(0, text.length - answer.length);
    if (answer === "") return;
    this.#state = "answer";
    pieces.answer += answer;
  }
}
