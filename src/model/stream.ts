/**
 * Assembles streamed chat-completion chunks into one reply. Chunks enter as `unknown`
 * and are read tolerantly: choices without `delta`, empty `choices`, content given as
 * typed parts, reasoning in any of the fields providers use or as `<think>` tags in the
 * content, parallel tool calls told apart by index or by id, and unknown fields; and within
 * the caps of {@link ReplyLimits}.
 *
 * @module
 */
import { ChatError, type ChatReply } from "./chat_model.ts";
import { characters, REPLY_LIMITS, type ReplyLimits } from "./limits.ts";
import { ThinkSplitter } from "./think_tags.ts";
import { newToolCallId } from "./tool_call_ids.ts";
import { type AssistantMessage, isBoundedJson, isObject, type ToolCall } from "../core/mod.ts";

/** Where streamed text goes while the reply is assembled. */
export interface StreamSink {
  onText?: (text: string) => void;
  onReasoning?: (text: string) => void;
}

type Fields = Record<string, unknown>;

/** More parallel tool calls than this in one reply is a broken or hostile stream. */
const MAX_TOOL_CALLS = 128;

/** Collects one streamed reply; `add` each chunk, then `build`. */
export class ReplyAssembler {
  #sink: StreamSink;
  #limits: ReplyLimits;
  #content = "";
  #think = new ThinkSplitter();
  #reasoning: string | undefined;
  /** Whether `reasoning_content` came at all, and whether with any text. */
  #reasoningContent = { seen: false, text: false };
  #calls: ToolCall[] = [];
  /** Where each wire index's current call is in `#calls`. */
  #slots = new Map<number, number>();
  #totalTokens: number | undefined;
  #finishReason: string | undefined;
  #sawChoices = false;
  /** True once any text or reasoning was passed to the sink. */
  streamed = false;

  /** Creates an assembler that reports streamed text to `sink` and reads within `limits`. */
  constructor(sink: StreamSink, limits: ReplyLimits = REPLY_LIMITS) {
    this.#sink = sink;
    this.#limits = limits;
  }

  /**
   * Whether the stream said it was complete: a finish reason. A stream that stops after a
   * usage chunk without one was cut off.
   */
  get finished(): boolean {
    return this.#finishReason !== undefined;
  }

  /**
   * Reads one chunk.
   * Contract: ignores fields it does not know; a known field of the wrong type or out of
   * bounds (tool-call id, name or index, usage, `extra_content` too deep or too large) throws
   * ChatError "Invalid reply from the provider", so nothing malformed enters the session; text
   * and reasoning past `replyTextChars`, or arguments past `argumentsChars`, throw
   * ChatError("limit"); a chunk that ends the reply with `finish_reason: "error"` throws too.
   */
  add(chunk: unknown): void {
    if (!isObject(chunk)) throw invalidReply("a streamed chunk is not a JSON object");
    if (isObject(chunk.usage)) this.#addUsage(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    if (choices.length > 0) this.#sawChoices = true;
    const choice = choices.find((item): item is Fields =>
      isObject(item) && (item.index === undefined || item.index === 0)
    );
    if (choice === undefined) return;
    if (isObject(choice.delta)) this.#addDelta(choice.delta);
    if (typeof choice.finish_reason === "string") this.#finishReason = choice.finish_reason;
    if (choice.finish_reason === "error") {
      throw new ChatError("server", `The provider ended the reply with finish_reason "error"`);
    }
  }

  /**
   * The assembled reply.
   * Contract: throws ChatError("server") when the stream carried no choices at all, or
   * ended without a finish reason (cut off).
   */
  build(model: string): ChatReply {
    if (!this.#sawChoices) {
      throw new ChatError(
        "server",
        `The provider sent a reply without any choices for model "${model}" (no text, no tool calls)`,
      );
    }
    if (!this.finished) throw new ChatError("server", "The connection dropped mid-reply");
    this.#split(this.#think.end());
    const message: AssistantMessage = {
      role: "assistant",
      content: this.#content,
      toolCalls: uniqueIds(this.#calls),
    };
    if (this.#reasoning !== undefined) message.reasoning = this.#reasoning;
    const block = this.#think.block;
    if (block !== undefined) message.thinkBlock = block;
    // A route that sends `<think>` tags and an empty `reasoning_content` (MiniMax) gets its
    // reasoning back in the tags, not twice.
    const { seen, text } = this.#reasoningContent;
    if (seen && (text || block === undefined)) message.replayReasoning = true;
    return {
      message,
      totalTokens: this.#totalTokens,
      ...(this.#finishReason === undefined ? {} : { finishReason: this.#finishReason }),
    };
  }

  #addDelta(delta: Fields): void {
    if (typeof delta.reasoning_content === "string") {
      this.#reasoningContent.seen = true;
      if (delta.reasoning_content) this.#reasoningContent.text = true;
      this.#addReasoning(delta.reasoning_content);
    } else if (typeof delta.reasoning === "string") this.#addReasoning(delta.reasoning);
    if (typeof delta.content === "string") this.#addText(delta.content);
    else if (Array.isArray(delta.content)) delta.content.forEach((part) => this.#addPart(part));
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) if (isObject(piece)) this.#addToolCallPiece(piece);
    }
  }

  /** One typed content part: `{type: "text", text}` or Mistral's `{type: "thinking", thinking}`. */
  #addPart(part: unknown): void {
    if (!isObject(part)) return;
    if (part.type === "text" && typeof part.text === "string") this.#addText(part.text);
    if (part.type !== "thinking") return;
    const thinking = Array.isArray(part.thinking) ? part.thinking : [part.thinking];
    for (const item of thinking) {
      if (typeof item === "string") this.#addReasoning(item);
      else if (isObject(item) && typeof item.text === "string") this.#addReasoning(item.text);
    }
  }

  #addText(text: string): void {
    if (text) this.#split(this.#think.push(text));
  }

  /** Content split by the think tags: the answer part is text, the think part reasoning. */
  #split(pieces: { reasoning: string; answer: string }): void {
    if (pieces.reasoning) this.#addReasoning(pieces.reasoning);
    if (!pieces.answer) return;
    this.#grow(pieces.answer.length);
    this.#content += pieces.answer;
    this.streamed = true;
    this.#sink.onText?.(pieces.answer);
  }

  #addReasoning(text: string): void {
    this.#grow(text.length);
    this.#reasoning = (this.#reasoning ?? "") + text;
    if (!text) return;
    this.streamed = true;
    this.#sink.onReasoning?.(text);
  }

  /** Throws once text and reasoning together would pass `replyTextChars`. */
  #grow(added: number): void {
    const total = this.#content.length + (this.#reasoning?.length ?? 0) + added;
    if (total <= this.#limits.replyTextChars) return;
    throw new ChatError(
      "limit",
      `The reply passed ${characters(this.#limits.replyTextChars)} of text and reasoning ` +
        '(the limit); the stream was stopped; set "maxOutputTokens" in provider.json to bound replies',
    );
  }

  #addUsage(usage: Fields): void {
    const total = usage.total_tokens;
    if (total === undefined || total === null) return;
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) {
      throw invalidReply(`usage.total_tokens is ${brief(total)}, not a token count`);
    }
    this.#totalTokens = total;
  }

  #addToolCallPiece(piece: Fields): void {
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

/**
 * The calls with a fresh id where the provider sent none or repeated one: results are
 * paired with calls by id, and a session with two calls of one id would not load again.
 */
function uniqueIds(calls: readonly ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call) => {
    const id = call.id && !seen.has(call.id) ? call.id : newToolCallId();
    seen.add(id);
    return { ...call, id };
  });
}

/** A value from a reply, named in a few characters whatever its size. */
function brief(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (isObject(value)) return "an object";
  return (JSON.stringify(value) ?? String(value)).slice(0, 40);
}

/** A reply the provider sent in a shape no client can use; retried like a server failure. */
function invalidReply(what: string): ChatError {
  return new ChatError("server", `Invalid reply from the provider: ${what}`);
}
