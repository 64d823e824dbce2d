/**
 * The check an export passes before it is written: the values of the provider files' keys
 * and URL credentials (the run's redactor knows them all) and the common shapes of secrets.
 *
 * @module
 */

/** Replaces the provider secrets a run knows in text (`Redactor.redact`). */
export type RedactText = (text: string) => string;

/** What replaces a secret in an export written with `--redact`. */
export const EXPORT_REDACTED = "[redacted]";

/** One kind of secret recognized by its shape. */
interface SecretShape {
  kind: string;
  pattern: RegExp;
}

/** The shapes of secrets often pasted or printed, each with the words a refusal names it by. */
const SECRET_SHAPES: readonly SecretShape[] = [
  {
    kind: "a private key block",
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  },
  { kind: "an API key (sk-…)", pattern: /\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{20,}/g },
  {
    kind: "a GitHub token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})/g,
  },
  { kind: "an AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    kind: "an AWS secret key",
    pattern: /\baws_secret_access_key\s*[=:]\s*["']?[A-Za-z0-9/+=]{40}/gi,
  },
  { kind: "a Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: "a Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
];

/** The words a refusal names a provider file's secret by. */
export const PROVIDER_SECRET = "an API key or URL credential of a provider file";

/** Further values an export must not hold, each with the words a refusal names it by. */
export type NamedSecrets = ReadonlyMap<string, string>;

/**
 * The kind of the first secret found in `text`, undefined when none.
 * Contract: pure; a provider secret is found by `redact` changing the text.
 */
export function findSecret(
  text: string,
  redact: RedactText,
  named: NamedSecrets = new Map(),
): string | undefined {
  if (redact(text) !== text) return PROVIDER_SECRET;
  for (const [value, kind] of named) if (text.includes(value)) return kind;
  for (const { kind, pattern } of SECRET_SHAPES) {
    pattern.lastIndex = 0;
    if (pattern.test(text)) return kind;
  }
  return undefined;
}

/** `text` with every provider secret and every secret of a known shape replaced. */
export function scrubSecrets(
  text: string,
  redact: RedactText,
  named: NamedSecrets = new Map(),
): string {
  let scrubbed = redact(text);
  // Longest first, so a value that contains another is replaced whole.
  const values = [...named.keys()].sort((a, b) => b.length - a.length);
  for (const value of values) scrubbed = scrubbed.replaceAll(value, EXPORT_REDACTED);
  for (const { pattern } of SECRET_SHAPES) {
    scrubbed = scrubbed.replace(pattern, EXPORT_REDACTED);
  }
  return scrubbed;
}
