/**
 * The hosts fetch may reach this run: those of the settings' `network.allow`, those the user
 * answered "always" to (saved to the user's settings file as well), and, for one call only,
 * one the user answered "yes" to.
 *
 * @module
 */
import { hostAllowed } from "../tools/mod.ts";

/** The hosts allowed now, and the grants of the user's answers. */
export class HostGrants {
  #settings: () => readonly string[];
  #always: string[] = [];
  #once: string[] = [];

  /** Grants over the hosts `settings()` gives (the settings' `network.allow`). */
  constructor(settings: () => readonly string[]) {
    this.#settings = settings;
  }

  /** Every host allowed now, the settings' first. */
  list(): string[] {
    return [...this.#settings(), ...this.#always, ...this.#once];
  }

  /** Whether `host` is allowed now. */
  allows(host: string): boolean {
    return hostAllowed(host, this.list());
  }

  /** Allows `host` for the rest of the run. */
  add(host: string): void {
    this.#always.push(host);
  }

  /**
   * Runs `run` with `host` allowed, and only while it runs.
   * Contract: the grant ends however `run` ends.
   */
  async once<T>(host: string, run: () => Promise<T>): Promise<T> {
    this.#once.push(host);
    try {
      return await run();
    } finally {
      this.#once.splice(this.#once.indexOf(host), 1);
    }
  }
}

/**
 * The host of a `net` call's `url` argument; undefined when it has none or it is no http(s)
 * URL (the tool then refuses it itself).
 * Contract: pure.
 */
export function urlHost(args: unknown): { url: string; host: string } | undefined {
  const url = typeof args === "object" && args !== null && "url" in args ? args.url : undefined;
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    return { url, host: parsed.hostname };
  } catch {
    return undefined;
  }
}
