/**
 * The provider file's profiles as the running program holds them: one model slot per
 * profile (its chat model and a compactor sized for its window), built when first used, and
 * the reasoning effort each one sends, which `/effort` changes for the rest of the run.
 *
 * @module
 */
import type { ModelSlot } from "../agent/mod.ts";
import type { ProviderConfig, ProviderProfiles } from "../config/mod.ts";
import {
  type CompactionSettings,
  estimateRequestTokens,
  type RequestOverhead,
} from "../context/mod.ts";
import type { ReasoningEffort } from "../model/mod.ts";

/** One line of `/model`. */
export interface ProfileInfo {
  name: string;
  model: string;
  contextWindow: number;
  effort: ReasoningEffort | undefined;
}

/** Builds the slot of profile `name` (the assembly's wiring of a chat model and a compactor). */
export type SlotBuilder = (name: string, config: ProviderConfig) => ModelSlot;

/** The profiles of one provider file, their slots and their efforts. */
export class Profiles {
  #file: ProviderProfiles;
  #build: SlotBuilder;
  #slots = new Map<string, ModelSlot>();
  #efforts = new Map<string, ReasoningEffort | undefined>();

  /** Profiles of `file`; `configFile` is the file's path, named in errors. */
  constructor(file: ProviderProfiles, readonly configFile: string, build: SlotBuilder) {
    this.#file = file;
    this.#build = build;
    for (const [name, config] of file.profiles) this.#efforts.set(name, config.reasoningEffort);
  }

  /** The profile a session runs on until it records a switch. */
  get defaultProfile(): string {
    return this.#file.defaultProfile;
  }

  /** False for a provider file of the single shape (one profile, named "default"). */
  get named(): boolean {
    return this.#file.named;
  }

  /** Profile names, in the file's order. */
  names(): string[] {
    return [...this.#file.profiles.keys()];
  }

  /** Whether the file has a profile `name`. */
  has(name: string): boolean {
    return this.#file.profiles.has(name);
  }

  /** Every profile's name, model, window and current effort, in the file's order. */
  list(): ProfileInfo[] {
    return [...this.#file.profiles].map(([name, config]) => ({
      name,
      model: config.model,
      contextWindow: config.contextWindow,
      effort: this.#efforts.get(name),
    }));
  }

  /**
   * Profile `name`'s configuration.
   * Contract: throws `RangeError` "No profile …" listing the profiles when there is none.
   */
  config(name: string): ProviderConfig {
    const config = this.#file.profiles.get(name);
    if (config) return config;
    const names = this.names().map((known) => `"${known}"`).join(", ");
    throw new RangeError(`No profile "${name}" in "${this.configFile}": its profiles are ${names}`);
  }

  /** Profile `name`'s slot, built on first use. Contract: throws as `config`. */
  slot(name: string): ModelSlot {
    let slot = this.#slots.get(name);
    if (!slot) {
      slot = this.#build(name, this.config(name));
      this.#slots.set(name, slot);
    }
    return slot;
  }

  /** The effort profile `name` sends (its `reasoningEffort`, or what `/effort` set). */
  effort(name: string): ReasoningEffort | undefined {
    return this.#efforts.get(name);
  }

  /** Sets the effort profile `name` sends from now on; undefined sends none. */
  setEffort(name: string, effort: ReasoningEffort | undefined): void {
    this.config(name);
    this.#efforts.set(name, effort);
  }

  /**
   * How the status line names profile `name`: the model for a single-shape file, else
   * `NAME (model)`, or just the name when it is the model's.
   */
  label(name: string): string {
    const { model } = this.config(name);
    return !this.named || name === model ? model : `${name} (${model})`;
  }
}

/**
 * Why the window of `settings` cannot hold a request of `overhead` and the reserve, naming
 * "contextWindow"; undefined when one message fits.
 * Contract: pure.
 */
export function roomProblem(
  settings: CompactionSettings,
  overhead: RequestOverhead,
): string | undefined {
  const fixed = estimateRequestTokens({ ...overhead, messages: [] });
  const { contextWindow, reserveTokens } = settings;
  if (fixed + reserveTokens < contextWindow) return undefined;
  return `field "contextWindow" (${contextWindow}) is too small: the system prompt and tool ` +
    `definitions take about ${fixed} tokens and reserveTokens is ${reserveTokens}, which ` +
    "leaves no room for messages";
}
