/**
 * `/model` and `/effort`: list the provider file's profiles, switch the session to one of
 * them, and change the reasoning effort the current one sends.
 *
 * @module
 */
import type { Agent } from "../agent/mod.ts";
import { compactionThreshold } from "../context/mod.ts";
import { isReasoningEffort, REASONING_EFFORTS } from "../model/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";
import { formatTokens, type Renderer } from "../ui/mod.ts";
import { type Profiles, roomProblem } from "./profiles.ts";

/** What the two commands work with. */
export interface ModelCommandContext {
  agent: Agent;
  renderer: Renderer;
  profiles: Profiles;
}

/** The levels `/effort` takes, for its help and Tab completion. */
export const EFFORT_CHOICES: readonly string[] = [...REASONING_EFFORTS, "off"];

/**
 * `/model` lists the profiles; `/model NAME` sends the next requests to profile NAME.
 * Contract: throws (one line) for an unknown profile, and for one whose window cannot hold
 * the system prompt, the tool definitions and its reserve; then nothing changes.
 */
export function modelCommand(args: string, context: ModelCommandContext): void {
  const { agent, renderer, profiles } = context;
  const name = args.trim();
  if (name === "") return renderer.line(formatProfiles(profiles, agent.slot.name));
  if (name === agent.slot.name) return renderer.say(`Already on profile "${sanitizeLine(name)}"`);
  const slot = profiles.slot(name);
  const problem = roomProblem(slot.compactor.settings, agent.requestOverhead);
  if (problem !== undefined) {
    throw new RangeError(`Cannot switch to profile "${name}": ${problem}`);
  }
  agent.useModel(slot);
  const { model, contextWindow } = profiles.config(name);
  const status = agent.context();
  const compact = status.estimatedTokens > compactionThreshold(slot.compactor.settings)
    ? `; the conversation (about ${
      formatTokens(status.estimatedTokens)
    } tokens) is compacted before the next request`
    : "";
  renderer.say(
    `Switched to profile "${sanitizeLine(name)}": ${sanitizeLine(model)}, ` +
      `${formatTokens(contextWindow)} window${compact}`,
  );
}

/**
 * `/effort` shows the current profile's reasoning effort; `/effort LEVEL` sets it for the rest
 * of the run, `/effort off` sends none.
 * Contract: throws (one line) for a level it does not know.
 */
export function effortCommand(args: string, context: ModelCommandContext): void {
  const { agent, renderer, profiles } = context;
  const name = agent.slot.name;
  const level = args.trim();
  const where = profiles.named ? ` of profile "${sanitizeLine(name)}"` : "";
  if (level === "") {
    const effort = profiles.effort(name);
    return renderer.say(`Reasoning effort${where}: ${effort ?? "off (none sent)"}`);
  }
  if (level !== "off" && !isReasoningEffort(level)) {
    throw new RangeError(
      `Unknown effort "${level}": use ${EFFORT_CHOICES.slice(0, -1).join(", ")} or off`,
    );
  }
  profiles.setEffort(name, level === "off" ? undefined : level);
  const sent = level === "off" ? "off: none is sent" : `${level} from the next request`;
  renderer.say(`Reasoning effort${where}: ${sent}`);
}

/** The `/model` table: a `*` before the current profile, then name, model, window, effort. */
export function formatProfiles(profiles: Profiles, current: string): string {
  const rows = profiles.list().map((profile) => ({
    mark: profile.name === current ? "*" : " ",
    name: sanitizeLine(profile.name),
    model: sanitizeLine(profile.model),
    window: `${formatTokens(profile.contextWindow)} window`,
    effort: profile.effort ? `  effort ${profile.effort}` : "",
  }));
  const width = (column: "name" | "model" | "window") =>
    Math.max(...rows.map((row) => row[column].length));
  const lines = rows.map((row) =>
    `${row.mark} ${row.name.padEnd(width("name"))}  ${row.model.padEnd(width("model"))}  ` +
    `${row.window.padEnd(width("window"))}${row.effort}`.trimEnd()
  );
  return [
    `Profiles in ${sanitizeLine(profiles.configFile)} (* current):`,
    ...lines,
    "Switch with /model NAME",
  ].join("\n");
}
