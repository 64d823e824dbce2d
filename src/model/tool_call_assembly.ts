/**
 * Assembles the tool calls of one streamed reply from their pieces: split or whole, told apart
 * by index or by id, with or without an index, within the caps of {@link ReplyLimits}.
 *
 * @module
 */
import { ChatError } from "./chat_model.ts";
import { characters, type ReplyLimits } from "./limits.ts";
import { brief, invalidReply } from "./invalid_reply.ts";
import { newToolCallId } from "./tool_call_ids.ts";
import { isBoundedJson, isObject, type ToolCall } from "../core/mod.ts";

type Fields = Record<string, unknown>;

/** More parallel tool calls than this in one reply is a broken or hostile stream. */
const MAX_TOOL_CALLS = 128;

/** Collects tool-call pieces; `add` each, then `build`. */
export class ToolCallAssembler {
  #limits: ReplyLimits;
  #calls: ToolCall[] = [];
  /** Where each wire index's current call is in `#calls`. */
  #slots = new Map<number, number>();

  /** Creates an assembler reading within `limits`. */
  constructor(limits: ReplyLimits) {
    this.#limits = limits;
  }

  /**
   * The calls in the order they began, with a fresh id where the provider sent none or
   * repeated one: results are paired with calls by id, and a session with two calls of one id
   * would not load again.
   */
  build(): ToolCall[] {
    const seen = new Set<string>();
    return this.#calls.map((call) => {
      const id = call.id && !seen.has(call.id) ? call.id : newToolCallId();
      seen.add(id);
      return { ...call, id };
    });
  }

  /** The names and arguments received so far, as one text (what a cut-off reply served). */
  get received(): string {
    return this.#calls.map((call) => `${call.name} ${call.arguments}`).join("\n");
  }

  /**
   * Reads one tool-call piece.
   * Contract: an id, name or index of the wrong type or out of bounds, or `extra_content`
   * too deep or too large, throws ChatError "Invalid reply from the provider"; arguments past
   * `argumentsChars` throw ChatError("limit").
   */
  add(piece: Fields): void {
    const id = this.#checkedString(piece.id, "id");
    const index = piece.index;
    if (
      index !== undefined && index !== null &&
      !(typeof index === "number" && Number.isSafeInteger(index) && index >= 0 &&
        index < MAX_TOOL_CALLS)
    ) {
      throw invalidReply(
        `a tool-call index is ${brief(index)} (at most ${MAX_TOOL_CALLS} calls)`,
      );
    }
    const fn = isObject(piece.function) ? piece.function : {};
    const name = this.#checkedString(fn.name, "name");
    const call = this.#callFor(typeof index === "number" ? index : undefined, id);
    if (id) call.id = id;
    // Some routes repeat the whole name in every piece (MiniMax via NVIDIA NIM).
    if (name !== call.name) call.name += name;
    if (call.name.length > this.#limits.nameChars) {
      throw invalidReply(`a tool-call name is longer than ${this.#limits.nameChars} characters`);
    }
    if (typeof fn.arguments === "string") this.#addArguments(call, fn.arguments);
    if (isObject(piece.extra_content)) {
      const { keptDepth: maxDepth, keptChars: maxChars } = this.#limits;
      if (!isBoundedJson(piece.extra_content, { maxDepth, maxChars })) {
        throw invalidReply(
          `a tool call's extra_content nests deeper than ${maxDepth} levels or passes ` +
            characters(maxChars),
        );
      }
      call.extra = { extra_content: piece.extra_content };
    }
  }

  /** A tool-call id or name: a string of bounded length, or "" when absent. */
  #checkedString(value: unknown, what: string): string {
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") {
      throw invalidReply(`a tool-call ${what} is ${brief(value)}, not a string`);
    }
    if (value.length > this.#limits.nameChars) {
      throw invalidReply(`a tool-call ${what} is ${value.length} characters long`);
    }
    return value;
  }

  /**
   * The call a piece adds to. A piece with a new id starts a new call even at an index in use
   * (Copilot's Claude route and Ollama 0.20 send every call at index 0); without an index a
   * piece with a new id starts a call and others continue the last one.
   */
  #callFor(index: number | undefined, id: string): ToolCall {
    const slot = index === undefined ? this.#calls.length - 1 : this.#slots.get(index);
    const current = slot === undefined ? undefined : this.#calls[slot];
    if (current !== undefined && !(id && current.id && current.id !== id)) return current;
    if (this.#calls.length >= MAX_TOOL_CALLS) {
      throw invalidReply(`more than ${MAX_TOOL_CALLS} tool calls in one reply`);
    }
    const call: ToolCall = { id: "", name: "", arguments: "" };
    if (index !== undefined) this.#slots.set(index, this.#calls.length);
    this.#calls.push(call);
    return call;
  }

  #addArguments(call: ToolCall, text: string): void {
    if (call.arguments.length + text.length > this.#limits.argumentsChars) {
      throw new ChatError(
        "limit",
        `The arguments of tool call "${call.name.slice(0, 64)}" passed ` +
          `${characters(this.#limits.argumentsChars)} (the limit); the stream was stopped`,
      );
    }
    call.arguments += text;
  }
}
