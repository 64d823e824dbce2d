/**
 * Assembles streamed chat-completion chunks into one reply. Chunks enter as `unknown`
 * and are read tolerantly: choices without `delta`, empty `choices`, content given as
 * typed parts, reasoning in any of the fields providers use, and unknown fields.
 *
 * @module
 */
import { ChatError, type ChatReply, type ReplyUsage } from "./chat_model.ts";
import { readUsage } from "./usage.ts";
import { newToolCallId } from "./tool_call_ids.ts";
import { type AssistantMessage, isObject, type ToolCall } from "../core/mod.ts";

/** Where streamed text goes while the reply is assembled. */
export interface StreamSink {
  onText?: (text: string) => void;
  onReasoning?: (text: string) => void;
}

type Fields = Record<string, unknown>;

/** More parallel tool calls than this in one reply is a broken or hostile stream. */
const MAX_TOOL_CALLS = 128;
/** A tool-call id longer than this is refused (it is sent back with every later request). */
const MAX_ID_LENGTH = 256;

/** Collects one streamed reply; `add` each chunk, then `build`. */
export class ReplyAssembler {
  #sink: StreamSink;
  #content = "";
  #reasoning: string | undefined;
  #replayReasoning = false;
  #calls: ToolCall[] = [];
  #totalTokens: number | undefined;
  #usage: ReplyUsage | undefined;
  #finishReason: string | undefined;
  #sawChoices = false;
  /** True once any text or reasoning was passed to the sink. */
  streamed = false;

  /** Creates an assembler that reports streamed text to `sink`. */
  constructor(sink: StreamSink) {
    this.#sink = sink;
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
   * bounds (tool-call id or index, usage) throws ChatError "Invalid reply from the provider",
   * so nothing malformed enters the session; a chunk that ends the reply with
   * `finish_reason: "error"` throws too.
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
    const message: AssistantMessage = {
      role: "assistant",
      content: this.#content,
      toolCalls: uniqueIds(this.#calls.filter((call) => call !== undefined)),
    };
    if (this.#reasoning !== undefined) message.reasoning = this.#reasoning;
    if (this.#replayReasoning) message.replayReasoning = true;
    return {
      message,
      totalTokens: this.#totalTokens,
      ...(this.#usage === undefined ? {} : { usage: this.#usage }),
      ...(this.#finishReason === undefined ? {} : { finishReason: this.#finishReason }),
    };
  }

  #addDelta(delta: Fields): void {
    if (typeof delta.reasoning_content === "string") {
      this.#replayReasoning = true;
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
    if (!text) return;
    this.#content += text;
    this.streamed = true;
    this.#sink.onText?.(text);
  }

  #addReasoning(text: string): void {
    this.#reasoning = (this.#reasoning ?? "") + text;
    if (!text) return;
    this.streamed = true;
    this.#sink.onReasoning?.(text);
  }

  #addUsage(usage: Fields): void {
    this.#usage = readUsage(usage) ?? this.#usage;
    const total = usage.total_tokens;
    if (total === undefined || total === null) return;
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) {
      throw invalidReply(`usage.total_tokens is ${JSON.stringify(total)}, not a token count`);
    }
    this.#totalTokens = total;
  }

  #addToolCallPiece(piece: Fields): void {
    if (piece.id !== undefined && piece.id !== null && typeof piece.id !== "string") {
      throw invalidReply(`a tool-call id is ${JSON.stringify(piece.id)}, not a string`);
    }
    if (typeof piece.id === "string" && piece.id.length > MAX_ID_LENGTH) {
      throw invalidReply(`a tool-call id is ${piece.id.length} characters long`);
    }
    if (
      piece.index !== undefined && piece.index !== null &&
      !(Number.isSafeInteger(piece.index) && Number(piece.index) >= 0 &&
        Number(piece.index) < MAX_TOOL_CALLS)
    ) {
      throw invalidReply(
        `a tool-call index is ${JSON.stringify(piece.index)} (at most ${MAX_TOOL_CALLS} calls)`,
      );
    }
    const id = typeof piece.id === "string" ? piece.id : "";
    const fn = isObject(piece.function) ? piece.function : {};
    // Some servers omit `index`: a piece with a new id starts a call, others continue the last.
    const index = typeof piece.index === "number"
      ? piece.index
      : id
      ? this.#calls.length
      : Math.max(0, this.#calls.length - 1);
    if (index >= MAX_TOOL_CALLS) {
      throw invalidReply(`more than ${MAX_TOOL_CALLS} tool calls in one reply`);
    }
    const call = this.#calls[index] ??= { id: "", name: "", arguments: "" };
    if (id) call.id = id;
    if (typeof fn.name === "string") call.name += fn.name;
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
    if (isObject(piece.extra_content)) call.extra = { extra_content: piece.extra_content };
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

/** A reply the provider sent in a shape no client can use; retried like a server failure. */
function invalidReply(what: string): ChatError {
  return new ChatError("server", `Invalid reply from the provider: ${what}`);
}
