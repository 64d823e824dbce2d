/**
 * The error of a bad configuration: flags, the provider file, the project's directories.
 *
 * @module
 */

/** A configuration problem; main prints `message` and exits with code 2. */
export class ConfigError extends Error {
  /** Creates a config error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
