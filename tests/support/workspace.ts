/**
 * A real temp directory holding `ws/` (the workspace) and an empty `outside/`,
 * for the tool tests.
 *
 * @module
 */
import { Workspace } from "../../src/workspace/workspace.ts";

/** Runs `fn` with a fresh workspace and its parent directory; removes both afterwards. */
export async function withWorkspace(
  fn: (workspace: Workspace, parent: string) => Promise<void>,
): Promise<void> {
  const parent = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_tools_" }));
  try {
    await Deno.mkdir(`${parent}/ws`);
    await Deno.mkdir(`${parent}/outside`);
    await fn(await Workspace.open(`${parent}/ws`), parent);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}
