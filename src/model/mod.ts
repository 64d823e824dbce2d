/**
 * Everything about the wire: the chat client over any OpenAI-compatible endpoint, the
 * provider profile that says how to talk to it, its stream reader, wire shapes and errors.
 * The only folder that imports `openai`.
 *
 * @module
 */
export {
  ChatError,
  type ChatModel,
  type ChatOptions,
  type ChatReply,
  type ChatRequest,
  finishWarning,
  type ReplyUsage,
  type ServedAttempt,
  type WireSegment,
} from "./chat_model.ts";
export { wireSegments } from "./wire_segments.ts";
export { type ChatClientOptions, createChatClient } from "./client.ts";
export {
  type CompatOverrides,
  type ProviderCompat,
  readCompatOverrides,
  resolveCompat,
} from "./compat.ts";
export { profileModel, type ProfileModelOptions } from "./profile_model.ts";
export { isReasoningEffort, REASONING_EFFORTS, type ReasoningEffort } from "./reasoning_effort.ts";
