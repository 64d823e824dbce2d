/**
 * `/context`, `/cost` and `/compact`: what the conversation holds and costs, and compaction
 * on demand.
 *
 * @module
 */
import type { ContextStatus } from "../context/mod.ts";
import { describeSpend } from "../ui/mod.ts";
import type { Command, CommandContext } from "./command.ts";

/** `/context`. */
export const contextCommand: Command = {
  name: "/context",
  usage: "/context",
  help: "tokens in use, window, compaction threshold, messages, summary",
  run: ({ app, screen }) => screen.say(describeContext(app.agent.context()), "    "),
};

/** `/cost`. */
export const costCommand: Command = {
  name: "/cost",
  usage: "/cost",
  help: "tokens, cached share, cost of the last task and session",
  run: ({ app, screen }) => {
    const spend = app.agent.spend();
    screen.say(spend ? describeSpend(spend) : "Nothing is counted in this run", "  ");
  },
};

/** `/compact [focus]`. */
export const compactCommand: Command = {
  name: "/compact",
  usage: "/compact [focus]",
  help: "summarize earlier messages now, optionally focused on some text",
  run: compact,
};

async function compact({ app, screen, signal }: CommandContext, args: string): Promise<void> {
  screen.startTask("compacting");
  try {
    await app.agent.compact(args, signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    screen.line("⏹ Compaction interrupted; nothing changed");
  } finally {
    screen.endTask();
  }
}

function describeContext(status: ContextStatus): string {
  const summary = status.summary
    ? `yes, covering messages before #${status.compactedUntil}`
    : "none";
  return [
    `Context: approx ${status.estimatedTokens} tokens in use of ${status.contextWindow}`,
    `  compaction threshold: ${status.threshold} tokens`,
    `  messages in history: ${status.messages}`,
    `  summary: ${summary}`,
  ].join("\n");
}
