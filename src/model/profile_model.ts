/**
 * A chat model as one profile uses it: every request carries the profile's reasoning effort
 * (read at each request, so `/effort` takes effect at once), a refusal of that parameter
 * becomes one line saying what to unset, and a reply that carries provider fields names the
 * model that wrote it, so those fields never go to another model (see wire.ts).
 *
 * @module
 */
import { ChatError, type ChatModel, type ChatReply } from "./chat_model.ts";
import type { ProviderCompat } from "./compat.ts";
import type { ReasoningEffort } from "./reasoning_effort.ts";

/** What {@linkcode profileModel} needs besides the model it wraps. */
export interface ProfileModelOptions {
  /** The model name on the wire: replies with provider fields are marked with it. */
  model: string;
  /** The effort the next request carries; undefined sends none. */
  effort: () => ReasoningEffort | undefined;
  /** Where the effort goes, as the provider profile says. */
  effortField: ProviderCompat["reasoningEffortField"];
  /** The line for a provider that refused the effort parameter, given its own message. */
  effortRejected: (detail: string) => string;
}

/**
 * Wraps `model` for one profile.
 * Contract: as `ChatModel.complete`; a refused effort parameter is a `ChatError`
 * ("bad_request") whose message is `effortRejected(original message)`.
 */
export function profileModel(model: ChatModel, options: ProfileModelOptions): ChatModel {
  return {
    async complete(request, chatOptions) {
      const effort = options.effort();
      try {
        const reply = await model.complete(
          effort === undefined ? request : { ...request, reasoningEffort: effort },
          chatOptions,
        );
        return markWriter(reply, options.model);
      } catch (error) {
        if (effort === undefined || !isEffortRejection(error, options.effortField)) throw error;
        throw new ChatError("bad_request", options.effortRejected(error.message));
      }
    },
  };
}

/** The reply, its message marked with `model` when it carries fields for that provider only. */
function markWriter(reply: ChatReply, model: string): ChatReply {
  const { message } = reply;
  const providerFields = message.replayReasoning === true || message.thinkBlock !== undefined ||
    message.toolCalls.some((call) => call.extra !== undefined);
  return providerFields ? { ...reply, message: { ...message, model } } : reply;
}

/**
 * Whether `error` is the provider refusing the effort parameter: a rejected request whose
 * message names the parameter (`reasoning_effort`, or `reasoning` for the object form).
 * Contract: pure; only 4xx rejections qualify, never overflows, rate limits or failures.
 */
function isEffortRejection(
  error: unknown,
  field: ProviderCompat["reasoningEffortField"],
): error is ChatError {
  if (!(error instanceof ChatError) || error.kind !== "bad_request") return false;
  const name = field === "reasoning.effort" ? "reasoning" : "reasoning_effort";
  return new RegExp(`\\b${name}\\b`, "i").test(error.message);
}
