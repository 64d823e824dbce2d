/**
 * `/plan`: turns plan mode on or off (a bare `/plan` toggles it). In plan mode the agent may
 * change only PLAN.md, and bash runs with the workspace read-only.
 *
 * @module
 */
import type { Command, CommandContext } from "./command.ts";

/** The words `/plan` takes, for Tab completion. */
const PLAN_CHOICES: readonly string[] = ["on", "off"];

/** `/plan [on|off]`. */
export const planCommand: Command = {
  name: "/plan",
  usage: "/plan [on|off]",
  help: "plan mode: only PLAN.md may change, bash read-only",
  complete: () => PLAN_CHOICES,
  run: switchPlanMode,
};

/**
 * `/plan` toggles plan mode, `/plan on` and `/plan off` set it; one line says what holds now.
 * Contract: throws (one line) for any other argument; then nothing changes.
 */
function switchPlanMode({ app, screen: renderer }: CommandContext, args: string): void {
  const { agent } = app;
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
