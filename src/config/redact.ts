/**
 * Redaction of the provider's secrets (the API key, credentials in `baseURL`) from text that
 * leaves powercode for the terminal or a session file: a provider error that echoes the key,
 * a reply that repeats it, a connection error that names the URL.
 *
 * @module
 */
import { PLACEHOLDER_KEY, type ProviderConfig } from "./provider_config.ts";
import type { AgentEvent, EventSink } from "../core/mod.ts";
import type { Writer } from "../terminal/mod.ts";

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";
/** Shorter keys are not redacted: they would match ordinary words. */
export const MIN_SECRET_LENGTH = 8;

/** Replaces a fixed set of secrets in text. */
export class Redactor {
  /** Longest first, so a secret that contains another is replaced whole. */
  readonly #secrets: string[];

  /** A redactor for `secrets`; empty strings are ignored. */
  constructor(secrets: Iterable<string>) {
    this.#secrets = [...new Set(secrets)].filter((secret) => secret !== "")
      .sort((a, b) => b.length - a.length);
  }

  /**
   * The redactor for a provider config: the API key (unless it is the placeholder or
   * shorter than {@linkcode MIN_SECRET_LENGTH}), and the user name and password of
   * `baseURL`, as written and percent-decoded; the whole `user:password` part always.
   */
  static forConfig(config: Pick<ProviderConfig, "apiKey" | "baseURL">): Redactor {
    return Redactor.forConfigs([config]);
  }

  /** The redactor for every profile of a provider file: each one's secrets, as `forConfig`. */
  static forConfigs(configs: Iterable<Pick<ProviderConfig, "apiKey" | "baseURL">>): Redactor {
    const secrets = [...configs].flatMap(secretsOf);
    return new Redactor(
      secrets.filter((secret) => secret.endsWith("@") || secret.length >= MIN_SECRET_LENGTH),
    );
  }

  /** `text` with every secret replaced by {@linkcode REDACTED}. */
  redact(text: string): string {
    for (const secret of this.#secrets) {
      if (text.includes(secret)) {
        text = text.replaceAll(secret, secret.endsWith("@") ? `${REDACTED}@` : REDACTED);
      }
    }
    return text;
  }

  /** A writer that redacts each piece of text before passing it on. */
  wrap(write: Writer): Writer {
    return (text) => write(this.redact(text));
  }

  /**
   * A writer for text that arrives in pieces (a streamed answer), where a secret can be
   * split between two pieces.
   * Contract: holds back the end of a piece that could begin a secret until the next piece
   * shows whether it does; a newline always releases it, since no secret contains one.
   */
  streaming(write: Writer): Writer {
    const pieces = this.#pieces();
    return (text) => {
      const out = pieces.push(text);
      if (out !== "") write(out);
    };
  }

  /**
   * An event sink that gets every event with the secrets redacted: each string of an event
   * (tool arguments, retry reasons, warnings), and reasoning as a stream of pieces; with
   * `streamText`, the answer's `text` too (for a renderer that lays text out itself, such as
   * the terminal view, where a secret split across pieces must never be drawn in part).
   * Contract: without `streamText`, `text` events pass unchanged, for a
   * {@linkcode Redactor.streaming} writer. Held text goes out before the next event, or
   * on `flush()` (call it when a task ends).
   */
  events(
    sink: EventSink,
    options: { streamText?: boolean } = {},
  ): EventSink & { flush(): void } {
    const held = { reasoning: this.#pieces(), text: this.#pieces() };
    const release = (type: "reasoning" | "text") => {
      const rest = held[type].flush();
      if (rest !== "") sink({ type, text: rest });
    };
    const flush = () => {
      release("reasoning");
      release("text");
    };
    const events = (event: AgentEvent) => {
      const type = event.type;
      if (type === "reasoning" || (type === "text" && options.streamText)) {
        release(type === "text" ? "reasoning" : "text");
        const text = held[type].push(event.text);
        if (text !== "") sink({ type, text });
        return;
      }
      flush();
      sink(type === "text" ? event : this.redactAll(event));
    };
    return Object.assign(events, { flush });
  }

  /** A copy of `value` (JSON-like data) with every string in it redacted. */
  redactAll<T>(value: T): T {
    return JSON.parse(
      JSON.stringify(
        value,
        (_key, field) => typeof field === "string" ? this.redact(field) : field,
      ),
    );
  }

  /** Redacts text that arrives in pieces, holding back what could begin a secret. */
  #pieces(): { push(text: string): string; flush(): string } {
    let held = "";
    return {
      push: (text) => {
        const redacted = this.redact(held + text);
        const keep = this.#openPrefixLength(redacted);
        held = redacted.slice(redacted.length - keep);
        return redacted.slice(0, redacted.length - keep);
      },
      flush: () => {
        const rest = held;
        held = "";
        return rest;
      },
    };
  }

  /** Length of the longest end of `text` that is a proper beginning of some secret. */
  #openPrefixLength(text: string): number {
    let longest = 0;
    for (const secret of this.#secrets) {
      for (let length = Math.min(secret.length - 1, text.length); length > longest; length--) {
        if (text.endsWith(secret.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The API key (unless the placeholder) and the credentials of `baseURL` of one endpoint. */
function secretsOf(config: Pick<ProviderConfig, "apiKey" | "baseURL">): string[] {
  const secrets: string[] = [];
  if (config.apiKey !== PLACEHOLDER_KEY) secrets.push(config.apiKey);
  let url: URL | undefined;
  try {
    url = new URL(config.baseURL);
  } catch {
    url = undefined;
  }
  if (url && (url.username || url.password)) {
    const userinfo = url.password ? `${url.username}:${url.password}` : url.username;
    secrets.push(`${userinfo}@`, `${decode(userinfo)}@`);
    secrets.push(url.username, decode(url.username), url.password, decode(url.password));
  }
  return secrets;
}
