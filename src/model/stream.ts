/**
 * Assembles streamed chat-completion chunks into one reply. Chunks enter as `unknown`
 * and are read tolerantly: choices without `delta`, empty `choices`, content given as
 * typed parts, reasoning in any of the fields providers use or as `<think>` tags in the
 * content, parallel tool calls told apart by index or by id, and unknown fields; and within
 * the caps of {@link ReplyLimits}.
 *
 * @module
 */
import { ChatError, type ChatReply, type ReplyUsage, type ServedAttempt } from "./chat_model.ts";
import { characters, REPLY_LIMITS, type ReplyLimits } from "./limits.ts";
import { ThinkSplitter } from "./think_tags.ts";
import { brief, invalidReply } from "./invalid_reply.ts";
import { ToolCallAssembler } from "./tool_call_assembly.ts";
import { readUsage } from "./usage.ts";
import { type AssistantMessage, isObject } from "../core/mod.ts";

/** Where streamed text goes while the reply is assembled. */
export interface StreamSink {
  onText?: (text: string) => void;
  onReasoning?: (text: string) => void;
}

type Fields = Record<string, unknown>;

/** Collects one streamed reply; `add` each chunk, then `build`. */
export class ReplyAssembler {
  #sink: StreamSink;
  #limits: ReplyLimits;
  #content = "";
  #think = new ThinkSplitter();
  #reasoning: string | undefined;
  /** Whether `reasoning_content` came at all, and whether with any text. */
  #reasoningContent = { seen: false, text: false };
  #calls: ToolCallAssembler;
  #totalTokens: number | undefined;
  #usage: ReplyUsage | undefined;
  #finishReason: string | undefined;
  #sawChoices = false;
  /** True once any text or reasoning was passed to the sink. */
  streamed = false;

  /** Creates an assembler that reports streamed text to `sink` and reads within `limits`. */
  constructor(sink: StreamSink, limits: ReplyLimits = REPLY_LIMITS) {
    this.#sink = sink;
    this.#limits = limits;
    this.#calls = new ToolCallAssembler(limits);
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
   * What arrived before the stream ended, for a reply that failed: its usage when a chunk
   * carried one, and the text, reasoning and tool calls received.
   * Contract: pure; never throws.
   */
  served(): ServedAttempt {
    const received = [this.#reasoning ?? "", this.#content, this.#calls.received]
      .filter((part) => part !== "").join("\n");
    return { received, ...(this.#usage === undefined ? {} : { usage: this.#usage }) };
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
      toolCalls: this.#calls.build(),
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
      ...(this.#usage === undefined ? {} : { usage: this.#usage }),
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
      for (const piece of delta.tool_calls) if (isObject(piece)) this.#calls.add(piece);
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
    this.#usage = readUsage(usage) ?? this.#usage;
    const total = usage.total_tokens;
    if (total === undefined || total === null) return;
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) {
      throw invalidReply(`usage.total_tokens is ${brief(total)}, not a token count`);
    }
    this.#totalTokens = total;
  }
}
