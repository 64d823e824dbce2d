/**
 * The provider compat settings: how to talk to one endpoint, as one value. It is detected from the
 * base URL and the model name, overridden field by field by provider.json's `"compat"`, and
 * read by the wire code alone. A new provider quirk is a field here and its use in wire.ts.
 *
 * @module
 */
import { isObject } from "../core/mod.ts";

/** How to talk to one endpoint, where OpenAI-compatible servers differ. */
export interface ProviderCompat {
  /** The request parameter that carries the output limit. */
  outputLimitField: "max_tokens" | "max_completion_tokens";
  /**
   * Marks the system prompt and the last message as Anthropic prompt-cache breakpoints
   * (`cache_control: {type: "ephemeral"}`), for routes that cache only where told.
   */
  cacheControl: boolean;
  /**
   * Sends `reasoning_content` back on tool-call turns whose reply carried it (DeepSeek and
   * Kimi thinking mode reject the next request without it).
   */
  replayReasoning: boolean;
  /**
   * Gives every tool-call turn a `reasoning_content`, empty where there is none to send back
   * (another model wrote the turn, or its reply had none): DeepSeek and Kimi in thinking mode
   * reject a history whose tool-call turns lack it.
   */
  reasoningOnToolCalls: boolean;
  /** Sends the `extra_content` a tool call came with back with it (Gemini's thought signatures). */
  extraContent: boolean;
  /**
   * The tool-call ids the endpoint accepts: `any`, or only `alnum9` (9 letters and digits,
   * Mistral's rule); other ids are rewritten to that shape on the wire, history keeps them.
   */
  toolCallIds: "any" | "alnum9";
  /**
   * Where the reasoning effort goes: `reasoning_effort` (OpenAI, DeepSeek, Gemini, Groq,
   * xAI), or `reasoning.effort` (OpenRouter's `reasoning: {effort}` object).
   */
  reasoningEffortField: "reasoning_effort" | "reasoning.effort";
}

/** Compat fields set by hand, each replacing the detected value. */
export type CompatOverrides = Partial<ProviderCompat>;

/** The values each field takes: what `"compat"` accepts, and the order error lines list them. */
const COMPAT_VALUES: { readonly [K in keyof ProviderCompat]: readonly ProviderCompat[K][] } = {
  outputLimitField: ["max_tokens", "max_completion_tokens"],
  cacheControl: [true, false],
  replayReasoning: [true, false],
  reasoningOnToolCalls: [true, false],
  extraContent: [true, false],
  toolCallIds: ["any", "alnum9"],
  reasoningEffortField: ["reasoning_effort", "reasoning.effort"],
};

/** provider.json fields that set a compat field directly, kept from before `"compat"`. */
const TOP_LEVEL_FIELDS: readonly string[] = ["outputLimitField", "cacheControl"];

/** OpenAI's reasoning models (o1, o3, o4, gpt-5 families) reject `max_tokens`. */
const OPENAI_REASONING_MODEL = /(^|\/)(o1|o3|o4|gpt-5)([-.:_]|$)/i;
/** Mistral's API, and Mistral models wherever they run (their chat template checks the ids). */
const MISTRAL_HOST = /(^|\.)mistral\.ai$/i;
const MISTRAL_MODEL = /(^|\/)(mistral|mixtral|codestral|devstral|magistral|ministral|pixtral)/i;
/** DeepSeek's and Moonshot's (Kimi) own APIs, whose thinking mode checks every tool-call turn. */
const THINKING_HOST = /(^|\.)(deepseek\.com|moonshot\.ai|moonshot\.cn)$/i;
/** OpenRouter takes the effort inside its unified `reasoning` object. */
const OPENROUTER_HOST = /(^|\.)openrouter\.ai$/i;

/**
 * The compat settings detected for `model` at `baseURL`: `max_completion_tokens` for OpenAI's
 * reasoning models, 9-character tool-call ids for Mistral's API and models, no cache marks,
 * reasoning and `extra_content` sent back where the reply carried them (and an empty
 * `reasoning_content` on every other tool-call turn for DeepSeek's and Moonshot's APIs), the
 * reasoning effort
 * as `reasoning.effort` for OpenRouter and `reasoning_effort` elsewhere.
 * Contract: pure; any URL and model name give compat settings.
 */
export function detectCompat(baseURL: string, model: string): ProviderCompat {
  const host = hostOf(baseURL);
  const mistral = MISTRAL_HOST.test(host) || MISTRAL_MODEL.test(model);
  return {
    outputLimitField: OPENAI_REASONING_MODEL.test(model) ? "max_completion_tokens" : "max_tokens",
    cacheControl: false,
    replayReasoning: true,
    reasoningOnToolCalls: THINKING_HOST.test(host),
    extraContent: true,
    toolCallIds: mistral ? "alnum9" : "any",
    reasoningEffortField: OPENROUTER_HOST.test(host) ? "reasoning.effort" : "reasoning_effort",
  };
}

/** The detected compat settings with `overrides` in place of the fields they set. */
export function resolveCompat(
  baseURL: string,
  model: string,
  overrides: CompatOverrides = {},
): ProviderCompat {
  return { ...detectCompat(baseURL, model), ...overrides };
}

/**
 * The overrides a provider file sets: its `"compat"` object, and the top-level
 * `outputLimitField` and `cacheControl` (the same fields, from before `"compat"`).
 * Contract: pure; adds one line per problem to `problems`, naming the field as written
 * (`compat.cacheControl`, `cacheControl`): a `compat` that is not an object, an unknown
 * field, a value the field does not take, a field set both at the top level and in `compat`.
 */
export function readCompatOverrides(
  fields: Record<string, unknown>,
  problems: string[],
): CompatOverrides {
  const overrides: CompatOverrides = {};
  const read = (name: string, value: unknown, label: string) => {
    if (!isCompatField(name)) problems.push(`field "${label}" is unknown`);
    else if (!setOverride(overrides, name, value)) {
      const allowed = COMPAT_VALUES[name].map((item) => JSON.stringify(item)).join(" or ");
      problems.push(`field "${label}" must be ${allowed}, got ${JSON.stringify(value)}`);
    }
  };
  for (const name of TOP_LEVEL_FIELDS) {
    if (fields[name] !== undefined) read(name, fields[name], name);
  }
  const compat = fields.compat;
  if (compat === undefined) return overrides;
  if (!isObject(compat)) {
    problems.push(`field "compat" must be an object, got ${JSON.stringify(compat)}`);
    return overrides;
  }
  for (const [name, value] of Object.entries(compat)) {
    if (TOP_LEVEL_FIELDS.includes(name) && fields[name] !== undefined) {
      problems.push(`field "compat.${name}" is also set as "${name}"; keep one`);
    } else read(name, value, `compat.${name}`);
  }
  return overrides;
}

function isCompatField(name: string): name is keyof ProviderCompat {
  return Object.hasOwn(COMPAT_VALUES, name);
}

/** Sets `name` to `value` when the field takes that value; false when it does not. */
function setOverride<K extends keyof ProviderCompat>(
  overrides: CompatOverrides,
  name: K,
  value: unknown,
): boolean {
  const allowed: readonly ProviderCompat[K][] = COMPAT_VALUES[name];
  const found = allowed.find((item) => item === value);
  if (found === undefined) return false;
  overrides[name] = found;
  return true;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname;
  } catch {
    return "";
  }
}
