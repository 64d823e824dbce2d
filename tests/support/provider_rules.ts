/**
 * Provider-specific request checks for the fake server: what DeepSeek, Kimi, Gemini,
 * Mistral, Ollama and DashScope reject beyond the OpenAI rules, answered with their
 * status and error body shapes (recorded bodies: ../shared/provider-traffic/corpus/).
 *
 * @module
 */

/** A request a provider rule refused; the server answers `status` with `body`. */
export class ProviderRejection extends Error {
  /** Creates a rejection answered with `status` and `body`. */
  constructor(message: string, readonly status: number, readonly body: unknown) {
    super(message);
  }
}

/** Checks a raw request body; throws {@link ProviderRejection} to refuse it. */
export type ProviderRule = (raw: unknown) => void;

type Fields = Record<string, unknown>;

/** An assistant message with its tool calls, and its index in `messages`. */
interface AssistantTurn {
  index: number;
  message: Fields;
  calls: Fields[];
}

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toolCallTurns(raw: unknown): AssistantTurn[] {
  const messages = isFields(raw) && Array.isArray(raw.messages) ? raw.messages : [];
  return messages.flatMap((message, index) => {
    if (!isFields(message) || message.role !== "assistant") return [];
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isFields) : [];
    return calls.length > 0 ? [{ index, message, calls }] : [];
  });
}

/**
 * DeepSeek and Kimi thinking mode: an assistant message with tool calls must carry its
 * `reasoning_content` in every later request (wording of deepseek/missing-reasoning-content.json).
 */
export function requireReasoningContent(): ProviderRule {
  return (raw) => {
    const turn = toolCallTurns(raw).find((turn) =>
      typeof turn.message.reasoning_content !== "string"
    );
    if (turn === undefined) return;
    const message =
      `Missing reasoning_content field in the assistant message at message index ${turn.index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;
    throw new ProviderRejection(message, 400, {
      error: { message, type: "invalid_request_error", param: null, code: "invalid_request_error" },
    });
  };
}

/**
 * Gemini 3 through its OpenAI-compatible endpoint: every tool call sent back must carry
 * `extra_content.google.thought_signature` (wording of gemini/missing-thought-signature.json).
 * With `currentTurnOnly`, only the calls after the last user message are checked, as Gemini
 * documents its validation ("strict validation on the current turn").
 */
export function requireThoughtSignatures(
  options: { currentTurnOnly?: boolean } = {},
): ProviderRule {
  return (raw) => {
    const from = options.currentTurnOnly ? lastUserIndex(raw) : -1;
    for (const turn of toolCallTurns(raw)) {
      if (turn.index < from) continue;
      const position = turn.calls.findIndex((call) => typeof signatureOf(call) !== "string");
      if (position < 0) continue;
      const name = (isFields(turn.calls[position]?.function) &&
        turn.calls[position].function.name) || "unknown";
      const message =
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${
          position + 1
        }. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
      throw new ProviderRejection(message, 400, [
        { error: { code: 400, message, status: "INVALID_ARGUMENT" } },
      ]);
    }
  };
}

function lastUserIndex(raw: unknown): number {
  const messages = isFields(raw) && Array.isArray(raw.messages) ? raw.messages : [];
  return messages.findLastIndex((message) => isFields(message) && message.role === "user");
}

function signatureOf(call: Fields): unknown {
  const extra = call.extra_content;
  const google = isFields(extra) ? extra.google : undefined;
  return isFields(google) ? google.thought_signature : undefined;
}

/** Mistral: tool-call ids in history must be 9 letters and digits. */
export function requireMistralToolCallIds(): ProviderRule {
  return (raw) => {
    const messages = isFields(raw) && Array.isArray(raw.messages) ? raw.messages : [];
    const ids = messages.filter(isFields).flatMap((message) => [
      ...(Array.isArray(message.tool_calls) ? message.tool_calls : []).map((call) =>
        isFields(call) ? call.id : undefined
      ),
      ...(message.role === "tool" ? [message.tool_call_id] : []),
    ]);
    const bad = ids.find((id) => typeof id !== "string" || !/^[a-zA-Z0-9]{9}$/.test(id));
    if (bad === undefined) return;
    const message = `Tool call id was ${
      String(bad)
    } but must be a-z, A-Z, 0-9, with a length of 9.`;
    throw new ProviderRejection(message, 400, {
      object: "error",
      message,
      type: "invalid_request_message_order",
      param: null,
      code: null,
    });
  };
}

/**
 * Ollama: assistant tool-call arguments in history must be a JSON object; it answers
 * "invalid tool call arguments" (ollama/ollama openai/openai.go).
 */
export function requireJsonToolArguments(): ProviderRule {
  return (raw) => {
    const bad = toolCallTurns(raw).flatMap((turn) => turn.calls).find((call) =>
      !isJsonObject(isFields(call.function) ? call.function.arguments : undefined)
    );
    if (bad === undefined) return;
    const message = "invalid tool call arguments";
    throw new ProviderRejection(message, 400, {
      error: { message, type: "invalid_request_error", param: null, code: null },
    });
  };
}

function isJsonObject(text: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    return isFields(JSON.parse(text));
  } catch {
    return false;
  }
}

/** OpenAI's reasoning models: `max_tokens` is refused (body of openai/max-tokens-unsupported.json). */
export function refuseMaxTokens(): ProviderRule {
  return (raw) => {
    if (!isFields(raw) || raw.max_tokens === undefined) return;
    const message =
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
    throw new ProviderRejection(message, 400, {
      error: {
        message,
        type: "invalid_request_error",
        param: "max_tokens",
        code: "unsupported_parameter",
      },
    });
  };
}

/**
 * OpenAI's non-reasoning models: `reasoning_effort` is refused (the shape of
 * openai/max-tokens-unsupported.json, with the parameter's name).
 */
export function refuseReasoningEffort(): ProviderRule {
  return (raw) => {
    if (!isFields(raw) || raw.reasoning_effort === undefined) return;
    const message = "Unsupported parameter: 'reasoning_effort' is not supported with this model.";
    throw new ProviderRejection(message, 400, {
      error: {
        message,
        type: "invalid_request_error",
        param: "reasoning_effort",
        code: "unsupported_parameter",
      },
    });
  };
}
