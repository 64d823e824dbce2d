/**
 * Everything about the wire: the chat client over any OpenAI-compatible endpoint, its
 * stream reader, wire shapes and errors. The only folder that imports `openai`.
 *
 * @module
 */
export {
  ChatError,
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  finishWarning,
} from "./chat_model.ts";
export { type ChatClientOptions, createChatClient } from "./client.ts";
export { type OutputLimitField } from "./wire.ts";
