/**
 * The chat client: powercode's only door to `npm:openai`. Streams replies from
 * any OpenAI-compatible chat-completions endpoint and retries transient failures.
 *
 * @module
 */
import OpenAI from "openai";
import { ChatError } from "./chat_model.ts";
import type { ChatModel, ChatOptions, ChatReply, ChatRequest } from "./chat_model.ts";
import { classifyChatFailure, retryDelayMs } from "./chat_errors.ts";
import type { Message, ToolCall, ToolDefinition } from "./messages.ts";

/** Where and how to reach the model. */
export interface ChatClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Retries after 429, 5xx, dropped connections and stalled streams (default 4). */
  maxRetries?: number;
  /** Time allowed until response headers arrive (default 600 000 ms). */
  requestTimeoutMs?: number;
  /** Time allowed between two streamed chunks before the stream counts as stalled (default 300 000 ms). */
  idleTimeoutMs?: number;
  /**
   * Marks the system prompt and the last message as prompt-cache breakpoints
   * (`cache_control: {type: "ephemeral"}` on a text content part), for routes that cache
   * only with explicit markers, such as Anthropic models through OpenRouter. Default false.
   */
  cacheControl?: boolean;
}

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * Creates a ChatModel for an OpenAI-compatible endpoint.
 * Contract: every failure is a `ChatError`; the API key appears in no message.
 */
export function createChatClient(options: ChatClientOptions): ChatModel {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    maxRetries: 0,
    timeout: options.requestTimeoutMs ?? 600_000,
  });
  const maxRetries = options.maxRetries ?? 4;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const context = { baseURL: options.baseURL, model: options.model };
  const wire = { model: options.model, cacheControl: options.cacheControl === true };

  async function complete(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatReply> {
    const { signal } = chatOptions;
    for (let attempt = 1;; attempt++) {
      try {
        return await streamOnce(client, toWireRequest(wire, request), chatOptions, idleTimeoutMs);
      } catch (error) {
        const failure = error instanceof ChatError
          ? error
          : classifyChatFailure(error, { ...context, aborted: signal?.aborted ?? false });
        const retryable = failure.kind === "rate_limited" || failure.kind === "server" ||
          failure.kind === "unreachable";
        if (!retryable || attempt > maxRetries) throw failure;
        const delayMs = retryDelayMs(error, attempt);
        chatOptions.onRetry?.({ attempt, delayMs, reason: failure.message });
        await sleep(delayMs, signal);
      }
    }
  }
  return { complete };
}

async function streamOnce(
  client: OpenAI,
  request: WireRequest,
  options: ChatOptions,
  idleTimeoutMs: number,
): Promise<ChatReply> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  let stalled = false;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const armWatchdog = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, idleTimeoutMs);
  };
  try {
    options.signal?.throwIfAborted();
    armWatchdog();
    const stream = await client.chat.completions.create(request, { signal: controller.signal });
    const reply = new ReplyBuilder(options.onText);
    for await (const chunk of stream) {
      armWatchdog();
      reply.add(chunk);
    }
    if (options.signal?.aborted) throw new ChatError("aborted", "Interrupted");
    if (stalled) {
      throw new ChatError("server", `The model stopped sending for ${idleTimeoutMs / 1000} s`);
    }
    if (!reply.finished) throw new ChatError("server", "The connection dropped mid-reply");
    return reply.build();
  } catch (error) {
    if (options.signal?.aborted) throw new ChatError("aborted", "Interrupted");
    if (stalled) {
      throw new ChatError("server", `The model stopped sending for ${idleTimeoutMs / 1000} s`);
    }
    throw error;
  } finally {
    clearTimeout(watchdog);
    options.signal?.removeEventListener("abort", abort);
  }
}

/** Assembles streamed chunks into one assistant message. */
class ReplyBuilder {
  #content = "";
  #calls: ToolCall[] = [];
  #totalTokens: number | undefined;
  #onText: ((text: string) => void) | undefined;
  finished = false;

  constructor(onText: ((text: string) => void) | undefined) {
    this.#onText = onText;
  }

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): void {
    if (chunk.usage) {
      this.#totalTokens = chunk.usage.total_tokens;
      // A usage chunk comes last; some servers omit finish_reason before it.
      this.finished = true;
    }
    const choice = chunk.choices[0];
    if (!choice) return;
    const { content, tool_calls: toolCalls } = choice.delta;
    if (content) {
      this.#content += content;
      this.#onText?.(content);
    }
    for (const piece of toolCalls ?? []) {
      // Some servers omit `index`: a piece with a new id starts a call, others continue the last.
      const index = piece.index ??
        (piece.id ? this.#calls.length : Math.max(0, this.#calls.length - 1));
      const call = this.#calls[index] ??= { id: "", name: "", arguments: "" };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
    }
    if (choice.finish_reason) this.finished = true;
  }

  build(): ChatReply {
    const toolCalls = this.#calls.filter((call) => call !== undefined).map((call, index) => ({
      ...call,
      id: call.id || `call_${Date.now().toString(36)}_${index}`,
    }));
    return {
      message: { role: "assistant", content: this.#content, toolCalls },
      totalTokens: this.#totalTokens,
    };
  }
}

type WireRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

/** The request as sent, with consecutive user messages joined (see `mergeUserRuns`). */
function toWireRequest(
  options: { model: string; cacheControl: boolean },
  request: ChatRequest,
): WireRequest {
  const messages: WireMessage[] = [
    { role: "system", content: request.system },
    ...mergeUserRuns(request.messages).map(toWireMessage),
  ];
  if (options.cacheControl) {
    // Two of Anthropic's four breakpoints: system (with the tools before it), and the last
    // message, which the next request reads back as its cached prefix.
    markCacheBreakpoint(messages, 0);
    markCacheBreakpoint(messages, messages.length - 1);
  }
  return {
    model: options.model,
    messages,
    stream: true as const,
    stream_options: { include_usage: true },
    ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
    ...(request.maxOutputTokens ? { max_tokens: request.maxOutputTokens } : {}),
  };
}

/**
 * Joins consecutive user messages (a summary frame followed by a task, a task whose
 * reply failed or was interrupted followed by the next one) into one, because chat
 * templates that require strict user/assistant alternation reject them otherwise.
 */
function mergeUserRuns(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages) {
    const last = merged.at(-1);
    if (message.role === "user" && last?.role === "user") {
      merged[merged.length - 1] = {
        role: "user",
        content: `${last.content}\n\n${message.content}`,
      };
    } else merged.push(message);
  }
  return merged;
}

type CachedTextPart = OpenAI.Chat.Completions.ChatCompletionContentPartText & {
  "cache_control": { type: "ephemeral" };
};

/** Turns a non-empty text content into one text part marked for the prompt cache. */
function markCacheBreakpoint(messages: WireMessage[], index: number): void {
  const message = messages[index];
  if (!message || typeof message.content !== "string" || message.content === "") return;
  const parts: CachedTextPart[] = [
    { type: "text", text: message.content, "cache_control": { type: "ephemeral" } },
  ];
  switch (message.role) {
    case "system":
    case "user":
    case "tool":
      messages[index] = { ...message, content: parts };
  }
}

function toWireMessage(message: Message): WireMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant":
      if (message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content || null,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot send message: unknown role in ${JSON.stringify(unknown)}`);
    }
  }
}

function toWireTool(tool: ToolDefinition): OpenAI.Chat.Completions.ChatCompletionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ChatError("aborted", "Interrupted"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ChatError("aborted", "Interrupted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
