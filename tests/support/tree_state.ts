/**
 * A directory's whole state as one value (every path, its kind, mode and bytes or link
 * text), for asserting that a restore made a tree byte-equal to what it was.
 *
 * @module
 */

/** What one path holds. */
export type PathState =
  | { kind: "file"; mode: number; text: string }
  | { kind: "link"; target: string }
  | { kind: "dir"; mode: number };

/** Every path below `dir` (relative, sorted), `.git` included unless `skip` names it. */
export async function treeState(
  dir: string,
  options: { skip?: string[] } = {},
): Promise<Record<string, PathState>> {
  const state: Record<string, PathState> = {};
  const walk = async (rel: string) => {
    const names: string[] = [];
    for await (const entry of Deno.readDir(rel === "" ? dir : `${dir}/${rel}`)) {
      names.push(entry.name);
    }
    for (const name of names.sort()) {
      const path = rel === "" ? name : `${rel}/${name}`;
      if (options.skip?.includes(path)) continue;
      const full = `${dir}/${path}`;
      const info = await Deno.lstat(full);
      if (info.isSymlink) state[path] = { kind: "link", target: await Deno.readLink(full) };
      else if (info.isDirectory) {
        state[path] = { kind: "dir", mode: info.mode! & 0o7777 };
        await walk(path);
      } else {state[path] = {
          kind: "file",
          mode: info.mode! & 0o7777,
          text: await Deno.readTextFile(full),
        };}
    }
  };
  await walk("");
  return state;
}
