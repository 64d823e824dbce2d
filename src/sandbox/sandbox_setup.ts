/**
 * The sandbox's mode and hidden paths, found by a probe of bubblewrap only when something first
 * needs them (a command, a hook, an MCP stdio server, `--scope`), once, for all their users.
 *
 * @module
 */
import type { HiddenPath } from "./bwrap_profile.ts";

/** `bwrap`: sandboxed; `unsandboxed`: bash directly; `unavailable`: every run is refused. */
export type SandboxMode = "bwrap" | "unsandboxed" | "unavailable";

/** What commands run under: the mode, and the real paths they must not see. */
export interface SandboxSetup {
  readonly mode: SandboxMode;
  readonly hidden: readonly HiddenPath[];
}

/**
 * A {@linkcode SandboxSetup} found on first need and kept: the first {@linkcode resolve}
 * starts `find`, and every call, concurrent ones included, shares its one promise.
 * Contract: when `find` rejects, every call rejects with its error (no command may then run).
 */
export class LazySandboxSetup {
  readonly #requested: SandboxMode;
  readonly #find: () => Promise<SandboxSetup>;
  #found: Promise<SandboxSetup> | undefined;
  #known: SandboxSetup | undefined;

  /** A setup `find` finds, expected to be in mode `requested` until it has. */
  constructor(requested: SandboxMode, find: () => Promise<SandboxSetup>) {
    this.#requested = requested;
    this.#find = find;
  }

  /** A setup known already: nothing is probed. */
  static known(setup: SandboxSetup): LazySandboxSetup {
    const known = new LazySandboxSetup(setup.mode, () => Promise.resolve(setup));
    known.#known = setup;
    return known;
  }

  /** The mode as far as known now: the one found, else the one requested. */
  get mode(): SandboxMode {
    return this.#known?.mode ?? this.#requested;
  }

  /** The setup; the first call finds it. */
  resolve(): Promise<SandboxSetup> {
    if (this.#known) return Promise.resolve(this.#known);
    this.#found ??= this.#find().then((setup) => this.#known = setup);
    return this.#found;
  }
}
