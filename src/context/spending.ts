/**
 * What a session spends and the budget it may not cross: every reply's tokens counted (the
 * provider's usage, or an estimate where it reports none), per task and per session, and
 * each request admitted only when its worst case stays within the limits.
 *
 * @module
 */
import {
  ChatError,
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  type ServedAttempt,
} from "../model/mod.ts";
import {
  type BudgetLimits,
  costOf,
  emptyTally,
  formatUsd,
  type Pricing,
  type SpendReport,
  type Tally,
  tallyTokens,
} from "../core/mod.ts";
import { estimateMessageTokens, estimateRequestTokens, estimateTextTokens } from "./tokens.ts";

/** The reply a request is assumed to get at most when no output limit is configured. */
export const OUTPUT_ALLOWANCE_TOKENS = 4096;
/** The shortest reply allowance a budget cuts a request's output cap to before refusing it. */
export const MIN_REPLY_TOKENS = 256;

/** The limits; without them, tokens are only counted. */
export interface SpendingOptions {
  limits?: BudgetLimits;
  /**
   * The spending this one is a slice of (a child agent's parent): every reply counted here
   * counts there too (its steps not), and a request must fit the parent's budget as well.
   */
  parent?: Spending;
  /** How the parent's `/cost` names this slice (the agent and the task's label). */
  label?: string;
}

/** What a metered model serves: the task loop's steps, or compaction summaries. */
export type MeteredKind = "step" | "summary";

/**
 * Counts what the current task and session spend and refuses requests beyond the budget.
 * Contract: a request is admitted only when what was spent, plus its prompt estimate at the
 * uncached price, plus its output limit (or {@linkcode OUTPUT_ALLOWANCE_TOKENS}) at the
 * output price, stays within every limit. Without a configured output limit the caller asks
 * {@linkcode Spending.replyAllowance} for one that fits what is left and sends it as the
 * request's output cap, so a budget is spent to its end rather than refused early.
 */
export class Spending {
  #task = emptyTally();
  #session = emptyTally();
  #limits: BudgetLimits;
  #parent: Spending | undefined;
  #label: string;
  /** The slices made for this session's children, in the order they started. */
  #children: Spending[] = [];

  /**
   * Spending within `options.limits` (and within its parent's, when it has one, whose
   * report lists it from now on).
   */
  constructor(options: SpendingOptions = {}) {
    this.#limits = options.limits ?? {};
    this.#parent = options.parent;
    this.#label = options.label ?? "subagent";
    if (this.#parent) this.#parent.#children.push(this);
  }

  /** A task begins: its tally starts at zero. */
  startTask(): void {
    this.#task = emptyTally();
  }

  /** A new session begins: both tallies start at zero, and so does the budget. */
  startSession(): void {
    this.#task = emptyTally();
    this.#session = emptyTally();
    this.#children = [];
  }

  /**
   * The tallies, their costs, the prices of the model in use and the limits. A cost is given
   * when `pricing` is and every reply of its tally had prices.
   */
  report(pricing?: Pricing): SpendReport {
    const cost = (tally: Tally) => pricing && tally.unpriced === 0 ? tally.cost : undefined;
    const taskCost = cost(this.#task);
    const sessionCost = cost(this.#session);
    // A child refused before its first request spent nothing: it is left out.
    const children = this.#children.filter((child) => child.#session.requests > 0);
    return {
      task: { ...this.#task },
      session: { ...this.#session },
      ...(taskCost === undefined ? {} : { taskCost }),
      ...(sessionCost === undefined ? {} : { sessionCost }),
      ...(pricing ? { pricing } : {}),
      limits: { ...this.#limits },
      ...(children.length > 0
        ? {
          children: children.map((child) => {
            const tally = { ...child.#session };
            const priced = tally.unpriced === 0;
            return { label: child.#label, tally, ...(priced ? { cost: tally.cost } : {}) };
          }),
        }
        : {}),
    };
  }

  /**
   * Whether a request of about `promptTokens`, with a reply of up to `outputTokens`, to a
   * model at `pricing` may be sent: undefined when it may, else the one line saying what was
   * spent and the limit. Without `pricing` the cost limit cannot be checked (the assembly
   * refuses a cost limit unless every profile has prices).
   * Contract: pure with respect to the tallies; a slice admits only what its parent admits.
   */
  admit(
    promptTokens: number,
    outputTokens = OUTPUT_ALLOWANCE_TOKENS,
    pricing?: Pricing,
  ): string | undefined {
    return this.#admitOwn(promptTokens, outputTokens, pricing) ??
      this.#parent?.admit(promptTokens, outputTokens, pricing);
  }

  /** Whether a limit applies: its own, or a parent's. */
  get limited(): boolean {
    const { tokens, cost } = this.#limits;
    return tokens !== undefined || cost !== undefined || this.#parent?.limited === true;
  }

  /**
   * The output cap for a request of about `promptTokens` when no output limit is configured:
   * undefined without limits (nothing to cap); else {@linkcode OUTPUT_ALLOWANCE_TOKENS}
   * lowered to what every limit (a slice's parent's too) leaves after what was spent and the
   * prompt at the uncached price, but never below {@linkcode MIN_REPLY_TOKENS}: when not even
   * that fits, `admit` refuses the request with it.
   * Contract: pure with respect to the tallies.
   */
  replyAllowance(promptTokens: number, pricing?: Pricing): number | undefined {
    const left = this.#tokensLeft(promptTokens, pricing);
    if (left === undefined) return undefined;
    return Math.max(MIN_REPLY_TOKENS, Math.min(OUTPUT_ALLOWANCE_TOKENS, left));
  }

  /** Reply tokens every limit leaves after the prompt; undefined without any limit. */
  #tokensLeft(promptTokens: number, pricing?: Pricing): number | undefined {
    const { tokens, cost } = this.#limits;
    const lefts: number[] = [];
    if (tokens !== undefined) {
      lefts.push(tokens - tallyTokens(this.#session) - promptTokens);
    }
    if (cost !== undefined && pricing !== undefined && pricing.output > 0) {
      const money = (cost - this.#session.cost) * 1_000_000 - promptTokens * pricing.input;
      lefts.push(Math.floor(money / pricing.output));
    }
    const parent = this.#parent && this.#parent.#tokensLeft(promptTokens, pricing);
    if (parent !== undefined) lefts.push(parent);
    return lefts.length === 0 ? undefined : Math.min(...lefts);
  }

  #admitOwn(promptTokens: number, outputTokens: number, pricing?: Pricing): string | undefined {
    const { tokens, cost } = this.#limits;
    const spent = tallyTokens(this.#session);
    const request = `approx ${promptTokens} prompt + ${outputTokens} reply tokens`;
    if (tokens !== undefined && spent + promptTokens + outputTokens > tokens) {
      return `Budget reached: this session has spent ${spent} of its ${tokens} tokens, and the ` +
        `next request could take ${promptTokens + outputTokens} more (${request}); it was not sent`;
    }
    if (cost === undefined || pricing === undefined) return undefined;
    const spentCost = this.#session.cost;
    const next = (promptTokens * pricing.input + outputTokens * pricing.output) / 1_000_000;
    if (spentCost + next <= cost) return undefined;
    return `Budget reached: this session has spent ${formatUsd(spentCost)} of its ` +
      `${formatUsd(cost)}, and the next request could cost ${formatUsd(next)} more ` +
      `(${request}); it was not sent`;
  }

  /**
   * `model` with every reply counted as `kind` at `pricing`, and every attempt that failed
   * after the provider took it (a dropped or interrupted stream) counted at what it served;
   * a summary request is admitted first, and so is each of its retries (a refusal throws
   * ChatError "budget", which fails that compaction, as any error does). Step requests are
   * admitted by the request step, on the context's own estimate, and their retries by the
   * `admitRetry` it passes.
   * Contract: what was counted is counted before the next retry is admitted.
   */
  meter(model: ChatModel, kind: MeteredKind, pricing?: Pricing): ChatModel {
    return {
      complete: async (asked, options = {}) => {
        let { admitRetry } = options;
        let request = asked;
        if (kind === "summary") {
          const prompt = estimateRequestTokens(asked);
          const output = asked.maxOutputTokens ?? this.replyAllowance(prompt, pricing);
          if (output !== undefined) request = { ...asked, maxOutputTokens: output };
          const admit = () => this.admit(prompt, output, pricing);
          const refusal = admit();
          if (refusal) throw new ChatError("budget", refusal);
          admitRetry = admit;
        }
        const reply = await model.complete(request, {
          ...options,
          ...(admitRetry ? { admitRetry } : {}),
          onServed: (served) => {
            this.#count(pricing, request, { served, steps: 0 });
            options.onServed?.(served);
          },
        });
        this.#count(pricing, request, { reply, steps: kind === "step" ? 1 : 0 });
        return reply;
      },
    };
  }

  /**
   * Counts one attempt: a whole reply, or what a failed one served; each at the provider's
   * usage, else at the estimate of the request and of what came back.
   */
  #count(
    pricing: Pricing | undefined,
    request: ChatRequest,
    attempt: { reply: ChatReply; steps: number } | { served: ServedAttempt; steps: number },
  ): void {
    const reported = "reply" in attempt ? attempt.reply.usage : attempt.served.usage;
    const usage = reported ?? {
      promptTokens: estimateRequestTokens(request),
      completionTokens: "reply" in attempt
        ? estimateMessageTokens(attempt.reply.message)
        : estimateTextTokens(attempt.served.received),
      cachedTokens: 0,
    };
    this.#add({
      requests: 1,
      steps: attempt.steps,
      promptTokens: usage.promptTokens,
      cachedTokens: usage.cachedTokens,
      completionTokens: usage.completionTokens,
      estimated: reported ? 0 : 1,
      cost: pricing ? costOf(usage, pricing) : 0,
      unpriced: pricing ? 0 : 1,
    });
  }

  /** Adds one attempt to both tallies, and to the parent's without its steps. */
  #add(attempt: Tally): void {
    for (const tally of [this.#task, this.#session]) add(tally, attempt);
    if (this.#parent) this.#parent.#add({ ...attempt, steps: 0 });
  }
}

function add(tally: Tally, more: Tally): void {
  tally.requests += more.requests;
  tally.steps += more.steps;
  tally.promptTokens += more.promptTokens;
  tally.cachedTokens += more.cachedTokens;
  tally.completionTokens += more.completionTokens;
  tally.estimated += more.estimated;
  tally.cost += more.cost;
  tally.unpriced += more.unpriced;
}
