/**
 * The directory a replay works in: the bundle's paths written into it, and its tree read
 * back as a bundle's tree entry holds one.
 *
 * @module
 */
import type { PathEntry } from "./bundle_entries.ts";

/** Decides whether a path below the scratch copy is left out of its tree. */
export type LeftOut = (path: string, isDirectory: boolean) => boolean;

/** Creates a link at `path` below the copy (Deno makes links only with unscoped rights). */
export type MakeLink = (path: string, target: string) => Promise<void>;

/**
 * A scratch copy of a workspace at `dir`.
 * Contract: writes only below `dir`: a path whose directories include a link is refused.
 */
export class ScratchCopy {
  readonly dir: string;
  #link: MakeLink | undefined;

  /** The copy in `dir` (an empty directory); without `link`, a link entry is refused. */
  constructor(dir: string, link?: MakeLink) {
    this.dir = dir;
    this.#link = link;
  }

  /** Puts `entry` in place. Contract: throws for a path that would leave the copy. */
  async put(entry: PathEntry): Promise<void> {
    await this.#refuseLinkedParents(entry.path);
    const full = `${this.dir}/${entry.path}`;
    switch (entry.type) {
      case "remove":
        return await Deno.remove(full, { recursive: true }).catch((error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        });
      case "dir":
        await Deno.mkdir(full, { recursive: true });
        return await Deno.chmod(full, entry.mode);
      case "link":
        if (this.#link === undefined) {
          throw new Error(`Cannot put the link "${entry.path}": links cannot be made here`);
        }
        await Deno.remove(full, { recursive: true }).catch(() => {});
        return await this.#link(entry.path, entry.target);
      case "file": {
        const bytes = "text" in entry
          ? new TextEncoder().encode(entry.text)
          : Uint8Array.from(atob(entry.base64), (char) => char.charCodeAt(0));
        await Deno.remove(full).catch(() => {});
        await Deno.writeFile(full, bytes, { mode: entry.mode });
        return await Deno.chmod(full, entry.mode);
      }
      default: {
        const unknown: never = entry;
        throw new TypeError(`Cannot put entry: unknown type ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * Every path below the copy (`.git` and what `leftOut` names aside): a file as its
   * SHA-256, a link as `link:TARGET`, a directory as `dir`.
   */
  async tree(leftOut: LeftOut = () => false): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    const walk = async (prefix: string) => {
      const names: Deno.DirEntry[] = [];
      for await (const entry of Deno.readDir(`${this.dir}/${prefix}`)) names.push(entry);
      names.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      for (const entry of names) {
        const path = `${prefix}${entry.name}`;
        if (entry.name === ".git" || leftOut(path, entry.isDirectory)) continue;
        const full = `${this.dir}/${path}`;
        if (entry.isSymlink) files[path] = `link:${await Deno.readLink(full)}`;
        else if (entry.isDirectory) {
          files[path] = "dir";
          await walk(`${path}/`);
        } else if (entry.isFile) files[path] = await sha256(await Deno.readFile(full));
      }
    };
    await walk("");
    return files;
  }

  async #refuseLinkedParents(path: string): Promise<void> {
    const names = path.split("/").slice(0, -1);
    let at = this.dir;
    for (const name of names) {
      at = `${at}/${name}`;
      try {
        if ((await Deno.lstat(at)).isSymlink) {
          throw new Error(`Cannot put "${path}" in the scratch copy: "${name}" is a link`);
        }
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return;
        throw error;
      }
    }
  }
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
