/**
 * A wire request cut into the segments a provider's prefix cache matches in order: the
 * system prompt, each tool definition, each message.
 *
 * @module
 */
import type { WireSegment } from "./chat_model.ts";

/** The parts of a wire body that make up its prompt. */
interface WireBody {
  messages: readonly { role: string; content?: unknown }[];
  tools?: readonly { function: { name: string } }[];
}

/**
 * The prefix segments of `body` (as `toWireRequest` builds it), each as its JSON text.
 * Contract: pure; a message whose content is one text part carrying a cache mark is given
 * as its plain string, since the mark moves to the newest message with each request and
 * Anthropic caches the two alike.
 */
export function wireSegments(body: WireBody): WireSegment[] {
  const [system, ...messages] = body.messages;
  return [
    { name: "system prompt", text: JSON.stringify(unmarked(system)) },
    ...(body.tools ?? []).map((tool) => ({
      name: `tool ${tool.function.name}`,
      text: JSON.stringify(tool),
    })),
    ...messages.map((message, index) => ({
      name: `message ${index + 1} (${message.role})`,
      text: JSON.stringify(unmarked(message)),
    })),
  ];
}

function unmarked(message: WireBody["messages"][number] | undefined): unknown {
  const content = message?.content;
  if (!Array.isArray(content) || content.length !== 1) return message;
  const part: unknown = content[0];
  if (typeof part !== "object" || part === null || !("cache_control" in part)) return message;
  return { ...message, content: (part as { text?: unknown }).text };
}
