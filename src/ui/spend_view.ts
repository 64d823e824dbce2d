/**
 * What the task and the session spent, in words: the short form after each task's context
 * line, and the `/cost` report.
 *
 * @module
 */
import { formatUsd, type SpendReport, type Tally, tallyTokens } from "../core/mod.ts";
import { formatTokens } from "./status_line.ts";
import { sanitizeLine } from "../terminal/mod.ts";

/**
 * The parts of the line after a task: `task 12.3k tokens, 80% cached, $0.0123` and the same
 * for the session; without prices, tokens only.
 * Contract: pure.
 */
export function spendParts(report: SpendReport): string[] {
  const part = (name: string, tally: Tally, cost: number | undefined) => {
    const money = cost === undefined ? "" : `, ${formatUsd(cost)}`;
    return `${name} ${formatTokens(tallyTokens(tally))} tokens, ${
      cachedShare(tally)
    }% cached${money}`;
  };
  return [
    part("task", report.task, report.taskCost),
    part("session", report.session, report.sessionCost),
  ];
}

/**
 * What the session spent, for the exit line: `Spent 1.3k tokens, $0.0056` (no cost without
 * prices); undefined when nothing was asked of the model.
 * Contract: pure.
 */
export function sessionSpent(report: SpendReport): string | undefined {
  if (report.session.requests === 0) return undefined;
  const money = report.sessionCost === undefined ? "" : `, ${formatUsd(report.sessionCost)}`;
  return `Spent ${formatTokens(tallyTokens(report.session))} tokens${money}`;
}

/**
 * The `/cost` report: the last task and the session (requests, prompt tokens and their
 * cached share, completion tokens, cost), the prices and the budget, then each subagent's.
 * Contract: pure; exact token counts, so they can be checked against the provider's bill.
 */
export function describeSpend(report: SpendReport): string {
  const { pricing, limits } = report;
  const lines = [
    `Last task: ${describeTally(report.task, report.taskCost)}`,
    `Session:   ${describeTally(report.session, report.sessionCost)}`,
    pricing
      ? `Prices per million tokens: input $${pricing.input}, cached input $${
        pricing.cachedInput ?? pricing.input
      }, output $${pricing.output}`
      : 'Prices: none (add "pricing" to the provider file to see costs)',
  ];
  const budget = [
    ...(limits.tokens !== undefined
      ? [`${limits.tokens} tokens (${tallyTokens(report.session)} spent)`]
      : []),
    ...(limits.cost !== undefined
      ? [`${formatUsd(limits.cost)} (${formatUsd(report.sessionCost ?? 0)} spent)`]
      : []),
  ];
  lines.push(
    budget.length > 0
      ? `Budget for this session: ${budget.join(", ")}`
      : 'Budget: none (--max-tokens, --max-cost, or "budget" in the provider file)',
  );
  const children = report.children ?? [];
  if (children.length > 0) {
    lines.push("Subagents of this session (counted in it above):");
    for (const child of children) {
      lines.push(`  ${sanitizeLine(child.label)}: ${describeTally(child.tally, child.cost)}`);
    }
  }
  return lines.join("\n");
}

function describeTally(tally: Tally, cost: number | undefined): string {
  const requests = `${tally.requests} request${tally.requests === 1 ? "" : "s"}`;
  const estimated = tally.estimated > 0
    ? ` (${tally.estimated} without usage from the provider: estimated)`
    : "";
  const money = cost === undefined ? "" : `, ${formatUsd(cost)}`;
  return `${requests}, ${tallyTokens(tally)} tokens: prompt ${tally.promptTokens} ` +
    `(${tally.cachedTokens} cached, ${cachedShare(tally)}%), completion ${tally.completionTokens}` +
    `${money}${estimated}`;
}

function cachedShare(tally: Tally): number {
  return tally.promptTokens === 0 ? 0 : Math.round((tally.cachedTokens / tally.promptTokens) * 100);
}
