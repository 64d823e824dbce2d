/**
 * The first line of a session file and the format version this code writes: all a new
 * session needs, without the record checkers a resumed one loads.
 *
 * @module
 */

/**
 * The session file format version this code writes (2: tool results carry `isError`; 3: a
 * record may name its `parent` entry, the sessions being trees).
 */
export const SESSION_VERSION = 3;

/** The versions this code reads: 1 (tool results without `isError`), 2 and 3. */
export type SessionVersion = 1 | 2 | 3;

/** The first line of a session file. */
export interface SessionHeader {
  type: "session";
  version: SessionVersion;
  id: string;
  created: string;
  model: string;
  /** The real paths of the directories the session's tools worked on, the first first. */
  roots?: string[];
  /** `print` for a session a `-p` run made; absent for an interactive one. */
  origin?: "print";
  /** The session whose `task` call ran this one (a subagent's session); absent otherwise. */
  parentSession?: string;
}
