/**
 * The files in the project a project's `.mcp.json` makes its servers run: the approval of
 * the file covers their content too, since the agent can change them after the approval.
 *
 * @module
 */
import { sha256 } from "./approvals.ts";
import type { ServerConfig } from "./config.ts";

/** A file a server's command, argument or variable names inside the project. */
export interface ProgramFile {
  /** As the config names it. */
  path: string;
  /** The SHA-256 of its content, or where it leads when that lies outside, or `missing`. */
  state: string;
}

/**
 * The files below the project at `dir` that `servers` name by a whole absolute value of
 * `command`, `args` or `env`, in the config's order, each once.
 * Contract: never throws; reads only inside `dir`; a directory is not covered (what it holds
 * can change), a missing file is covered as missing, a link by where it leads.
 */
export async function programFiles(
  servers: readonly ServerConfig[],
  dir: string,
): Promise<ProgramFile[]> {
  const real = await Deno.realPath(dir).catch(() => dir);
  const inside = (path: string) => path.startsWith(`${real}/`) || path.startsWith(`${dir}/`);
  // Deno's permissions name the project as opened (perhaps a link, perhaps relative).
  const access = (path: string) =>
    path.startsWith(`${real}/`) ? `${dir}${path.slice(real.length)}` : path;
  const named = servers.flatMap((server) =>
    server.kind === "stdio" ? [server.command, ...server.args, ...Object.values(server.env)] : []
  ).filter((value) => value.startsWith("/") && !value.split("/").includes("..") && inside(value));
  const files: ProgramFile[] = [];
  for (const path of new Set(named)) {
    const state = await stateOf(access(path), inside);
    if (state !== undefined) files.push({ path, state });
  }
  return files;
}

/** What decides a file's approval; undefined for a directory or another kind of entry. */
async function stateOf(
  path: string,
  inside: (path: string) => boolean,
): Promise<string | undefined> {
  let target: string;
  try {
    target = await Deno.realPath(path);
  } catch {
    return "missing";
  }
  if (!inside(target)) return `outside: ${target}`;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    return await sha256(await Deno.readFile(path));
  } catch {
    return "unreadable";
  }
}

/**
 * The hash an approval records: the file's own SHA-256 when it names no program file, else
 * the SHA-256 of its bytes followed by each program file's path and state.
 */
export async function approvalHash(
  bytes: Uint8Array<ArrayBuffer>,
  programs: readonly ProgramFile[],
): Promise<string> {
  if (programs.length === 0) return await sha256(bytes);
  const listed = programs.map(({ path, state }) => `${path}\0${state}\n`).join("");
  const tail = new TextEncoder().encode(`\0program files\0${listed}`);
  const all = new Uint8Array(bytes.length + tail.length);
  all.set(bytes);
  all.set(tail, bytes.length);
  return await sha256(all);
}
