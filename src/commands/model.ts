/**
 * `/model` and `/effort`: list the provider file's profiles, switch the session to one of
 * them, and change the reasoning effort the current one sends.
 *
 * @module
 */
import { compactionThreshold } from "../context/mod.ts";
import { isReasoningEffort, REASONING_EFFORTS } from "../model/mod.ts";
import { sanitizeLine } from "../terminal/mod.ts";
import { formatTokens } from "../ui/mod.ts";
import { type Profiles, roomProblem } from "../app/mod.ts";
import type { Command, CommandContext } from "./command.ts";

/** The levels `/effort` takes, for its help and Tab completion. */
const EFFORT_CHOICES: readonly string[] = [...REASONING_EFFORTS, "off"];

/** `/model [name]`. */
export const modelCommand: Command = {
  name: "/model",
  usage: "/model [name]",
  help: "list the profiles; with a name, switch to that one",
  complete: ({ app }) => app.profiles.names(),
  run: switchModel,
};

/** `/effort [level]`. */
export const effortCommand: Command = {
  name: "/effort",
  usage: "/effort [level]",
  help: "reasoning effort: minimal, low, medium, high or off",
  complete: () => EFFORT_CHOICES,
  run: setEffort,
};

/**
 * `/model` lists the profiles; `/model NAME` sends the next requests to profile NAME.
 * Contract: throws (one line) for an unknown profile, and for one whose window cannot hold
 * the system prompt, the tool definitions and its reserve; then nothing changes.
 */
function switchModel({ app, screen: renderer }: CommandContext, args: string): void {
  const { agent, profiles } = app;
  const name = args.trim();
  if (name === "") return renderer.say(formatProfiles(profiles, agent.slot.name), "    ");
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
function setEffort({ app, screen: renderer }: CommandContext, args: string): void {
  const { agent, profiles } = app;
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
