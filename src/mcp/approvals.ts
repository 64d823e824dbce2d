/**
 * Which contents of a project's `.mcp.json` the user approved: the SHA-256 of the exact
 * bytes, by the file's real path, in one JSON file of powercode's state.
 *
 * @module
 */
import { isObject, isString } from "../core/mod.ts";

/** The approvals file's name in the state directory. */
export const APPROVALS_FILE = "mcp-approvals.json";

/** The SHA-256 of `bytes` as 64 hex digits. */
export async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The approvals kept in `stateDir`: the approved hash of each file, by its real path. */
export class Approvals {
  #file: string;

  /** The approvals in file `name` of `stateDir` (a directory powercode may write). */
  constructor(stateDir: string, name: string = APPROVALS_FILE) {
    this.#file = `${stateDir}/${name}`;
  }

  /**
   * Whether `hash` is the approved content of `path`.
   * Contract: never throws; a missing or unreadable approvals file approves nothing.
   */
  async approved(path: string, hash: string): Promise<boolean> {
    return (await this.#read())[path] === hash;
  }

  /** Records `hash` as the approved content of `path`, replacing an earlier one. */
  async approve(path: string, hash: string): Promise<void> {
    const approvals = { ...(await this.#read()), [path]: hash };
    const temp = `${this.#file}.${crypto.randomUUID()}.tmp`;
    await Deno.writeTextFile(temp, `${JSON.stringify({ approvals }, null, 2)}\n`, { mode: 0o600 });
    await Deno.rename(temp, this.#file);
  }

  async #read(): Promise<Record<string, string>> {
    try {
      const data: unknown = JSON.parse(await Deno.readTextFile(this.#file));
      if (!isObject(data) || !isObject(data.approvals)) return {};
      return Object.fromEntries(
        Object.entries(data.approvals).filter((entry): entry is [string, string] =>
          isString(entry[1])
        ),
      );
    } catch {
      return {};
    }
  }
}
