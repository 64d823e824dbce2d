/**
 * The summary request: folded messages serialized as plain text inside one user
 * message, with the six-heading summary prompt, fitted to a token budget.
 *
 * @module
 */
import {
  describeImage,
  type Message,
  parseToolArguments,
  type ToolCall,
  type UserMessage,
} from "../core/mod.ts";
import { estimateRequestTokens, estimateTextTokens, TRUNCATION_MARKER_TOKENS } from "./tokens.ts";
import { SUMMARY_SYSTEM_PROMPT, summaryPrompt } from "./summary_prompt.ts";
import { truncateMiddle } from "./working_memory.ts";

export { SUMMARY_SYSTEM_PROMPT } from "./summary_prompt.ts";

/** Argument values longer than this many characters are cut in `[Tool call]` lines. */
export const ARGUMENT_VALUE_LIMIT = 200;
/** Tool results are never cut below this many characters before fewer messages are folded. */
export const MIN_RESULT_CHARS = 1000;
/** What to summarize and how much room the request may take. */
export interface SummaryRequestInput {
  /** The summary of everything before `messages`, updated rather than repeated. */
  previousSummary?: string;
  /** The messages to fold, oldest first. */
  messages: readonly Message[];
  /** `/compact` focus text. */
  focus?: string;
  /** The most tokens the whole request (system prompt and user message) may take. */
  budgetTokens: number;
  /** The message after `messages` is an assistant message continuing the same task. */
  splitTurn?: boolean;
  /** Asks for a summary of at most about this many tokens. */
  maxSummaryTokens?: number;
}

/** The summary request's parts; send it without tools. */
export interface SummaryRequest {
  system: string;
  messages: UserMessage[];
  /** How many of `input.messages`, from the first, the request covers. */
  folded: number;
}

/**
 * Serializes messages as plain text: `[User]: …`, `[Assistant]: …`,
 * `[Tool call] name(key=value, …)`, `[Tool result]: …`, separated by blank lines.
 * Contract: pure; tool results are cut by `truncateMiddle` only when `toolResultLimit` is set.
 */
export function serializeMessages(
  messages: readonly Message[],
  options: { toolResultLimit?: number } = {},
): string {
  return messages.map((message) => serializeMessage(message, options.toolResultLimit)).join(
    "\n\n",
  );
}

/**
 * Formats a tool call as `name(key=value, …)`; string values are shown raw, others as
 * JSON; values over `ARGUMENT_VALUE_LIMIT` characters are cut.
 * Contract: pure; arguments that are not a JSON object are shown as their cut raw text.
 */
export function formatToolCall(call: ToolCall): string {
  const parsed = parseToolArguments(call.arguments);
  if (!parsed.ok) return `${call.name}(${cutValue(call.arguments)})`;
  const pairs = Object.entries(parsed.args).map(([key, value]) =>
    `${key}=${cutValue(typeof value === "string" ? value : JSON.stringify(value))}`
  );
  return `${call.name}(${pairs.join(", ")})`;
}

/**
 * Builds the summary request for `input.messages` within `input.budgetTokens`. Tool results
 * go in whole while the request fits; otherwise the largest are cut (head + marker + tail,
 * never below `MIN_RESULT_CHARS`); only then are fewer messages folded, ending before a
 * user or assistant message. If even the first message does not fit, its text is cut.
 * Contract: pure; `folded` is 0 only when the prompt alone exceeds the budget or there are
 * no messages; the request never has a `tools` field.
 */
export function buildSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const available = input.budgetTokens - requestTokens(input, "", true);
  const plan = planFold(input.messages, available);
  const folded = input.messages.slice(0, plan.folded);
  let conversation = serializeMessages(
    folded,
    plan.cap === undefined ? {} : { toolResultLimit: plan.cap },
  );
  if (plan.squeeze) {
    const tokens = Math.max(1, estimateTextTokens(conversation));
    const chars = Math.floor(conversation.length * available / tokens) -
      4 * TRUNCATION_MARKER_TOKENS;
    conversation = truncateMiddle(conversation, Math.max(0, chars));
  }
  const splitTurn = plan.folded < input.messages.length
    ? input.messages[plan.folded]?.role === "assistant"
    : input.splitTurn === true;
  return {
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: "user", content: summaryPrompt(input, conversation, splitTurn) }],
    folded: plan.folded,
  };
}

interface FoldPlan {
  folded: number;
  cap?: number;
  squeeze?: boolean;
}

interface Cost {
  tokens: number;
  resultTokens: number;
  resultLength: number;
}

function planFold(messages: readonly Message[], available: number): FoldPlan {
  const costs = messages.map(costOf);
  const count = messages.length;
  if (available <= 0 || count === 0) return { folded: 0 };
  if (total(costs, count, Infinity) <= available) return { folded: count };
  if (total(costs, count, MIN_RESULT_CHARS) <= available) {
    return { folded: count, cap: largestCap(costs, count, available) };
  }
  let best = 0;
  let sum = 0;
  for (let index = 0; index < count; index++) {
    if (index > 0 && messages[index]?.role !== "tool" && sum <= available) best = index;
    sum += capped(costs[index], MIN_RESULT_CHARS);
  }
  if (best > 0) {
    const fits = total(costs, best, Infinity) <= available;
    return fits ? { folded: best } : { folded: best, cap: largestCap(costs, best, available) };
  }
  const first = messages.findIndex((message, index) => index > 0 && message.role !== "tool");
  return { folded: first === -1 ? count : first, cap: MIN_RESULT_CHARS, squeeze: true };
}

function largestCap(costs: Cost[], count: number, available: number): number {
  let low = MIN_RESULT_CHARS;
  let high = costs.slice(0, count).reduce((most, cost) => Math.max(most, cost.resultLength), 0);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (total(costs, count, middle) <= available) low = middle;
    else high = middle - 1;
  }
  return low;
}

function total(costs: Cost[], count: number, cap: number): number {
  let sum = 0;
  for (let index = 0; index < count; index++) sum += capped(costs[index], cap);
  return sum;
}

function capped(cost: Cost | undefined, cap: number): number {
  if (!cost) return 0;
  if (cost.resultLength <= cap) return cost.tokens + cost.resultTokens;
  return cost.tokens + Math.ceil(cost.resultTokens * cap / cost.resultLength) +
    TRUNCATION_MARKER_TOKENS;
}

function costOf(message: Message): Cost {
  const separator = 1;
  if (message.role !== "tool") {
    const tokens = estimateTextTokens(serializeMessage(message, undefined)) + separator;
    return { tokens, resultTokens: 0, resultLength: 0 };
  }
  return {
    tokens: estimateTextTokens(serializeMessage({ ...message, content: "" }, undefined)) +
      separator,
    resultTokens: estimateTextTokens(message.content),
    resultLength: message.content.length,
  };
}

function requestTokens(input: SummaryRequestInput, conversation: string, splitTurn: boolean) {
  const content = summaryPrompt(input, conversation, splitTurn);
  return estimateRequestTokens({
    system: SUMMARY_SYSTEM_PROMPT,
    messages: [{ role: "user", content }],
  });
}

function serializeMessage(message: Message, toolResultLimit: number | undefined): string {
  switch (message.role) {
    case "user": {
      const images = (message.images ?? []).map((image) => ` [image ${describeImage(image)}]`);
      return `[User]: ${message.content}${images.join("")}`;
    }
    case "assistant": {
      const lines = message.content || message.toolCalls.length === 0
        ? [`[Assistant]: ${message.content}`]
        : [];
      for (const call of message.toolCalls) lines.push(`[Tool call] ${formatToolCall(call)}`);
      return lines.join("\n");
    }
    case "tool": {
      const content = toolResultLimit === undefined
        ? message.content
        : truncateMiddle(message.content, toolResultLimit);
      return `[Tool result]: ${content}`;
    }
    default: {
      const unknown: never = message;
      throw new TypeError(`Cannot serialize message: unknown role in ${JSON.stringify(unknown)}`);
    }
  }
}

function cutValue(value: string): string {
  if (value.length <= ARGUMENT_VALUE_LIMIT) return value;
  return `${value.slice(0, ARGUMENT_VALUE_LIMIT)}... [${
    value.length - ARGUMENT_VALUE_LIMIT
  } more characters]`;
}
