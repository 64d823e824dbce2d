/**
 * `/plan`: turns plan mode on or off (a bare `/plan` toggles it). In plan mode the agent may
 * change only PLAN.md, and bash runs with the workspace read-only.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import type { Renderer } from "../ui/mod.ts";

/** The words `/plan` takes, for Tab completion. */
export const PLAN_CHOICES: readonly string[] = ["on", "off"];

/** The REPL's prompt, which shows plan mode. */
export function promptFor(agent: Pick<Agent, "planMode">): string {
  return agent.planMode ? "plan > " : "> ";
}

/**
 * `/plan` toggles plan mode, `/plan on` and `/plan off` set it; one line says what holds now.
 * Contract: throws (one line) for any other argument; then nothing changes.
 */
export function planCommand(
  args: string,
  context: { agent: Agent; renderer: Renderer },
): void {
  const { agent, renderer } = context;
  const word = args.trim();
  if (word !== "" && !PLAN_CHOICES.includes(word)) {
    throw new RangeError(`Unknown argument "${word}" for /plan: use /plan, /plan on or /plan off`);
  }
  const on = word === "" ? !agent.planMode : word === "on";
  if (on === agent.planMode) return renderer.say(`Plan mode is already ${word}`);
  agent.setPlanMode(on);
  renderer.say(
    on
      ? "Plan mode on: the agent may change only PLAN.md, and bash runs with the workspace " +
        "read-only; /plan off leaves it"
      : "Plan mode off: the agent may change files again; PLAN.md holds the plan",
  );
}
