/**
 * The error of a session that cannot be resumed, on its own so that starting a new session
 * does not load the session file's parser.
 *
 * @module
 */

/** A session that cannot be resumed: missing, damaged, inconsistent or in use. main exits 2. */
export class SessionError extends Error {
  /** Creates the error with a one-line message naming the session. */
  constructor(message: string) {
    super(message);
    this.name = "SessionError";
  }
}
