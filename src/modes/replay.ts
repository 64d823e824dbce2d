/**
 * `powercode replay FILE`: a bundle's tool calls run again, offline, in a scratch copy of
 * its workspace (a directory in the state directory, removed after; bash runs in the
 * sandbox with the copy as its root), against its recorded replies.
 *
 * @module
 */
import { bashOptions, type RunStart, sandboxSymlinker } from "../app/mod.ts";
import { ConfigError } from "../config/mod.ts";
import type { ToolCall } from "../core/mod.ts";
import { replayBundle, type ReplayOutcome, ScratchCopy } from "../export/mod.ts";
import { sanitizeLine, wrapHanging, writeTo } from "../terminal/mod.ts";
import { createTools, type Tools, ToolSet } from "../tools/mod.ts";

/**
 * `replay FILE`.
 * Contract: 0 when every result and tree is reproduced byte for byte; 1 when one differs
 * or the hash chain breaks (the line names the entry); 2 when the file cannot be read.
 */
export async function replayMode(start: RunStart): Promise<number> {
  const file = start.cli.replay ?? "";
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`Cannot read bundle "${sanitizeLine(file)}": ${reason}`);
  }
  const parent = `${start.locations.stateDir}/replay`;
  await Deno.mkdir(parent, { recursive: true, mode: 0o700 });
  const dir = await Deno.makeTempDir({ dir: parent, prefix: "scratch-" });
  let tools: Tools | undefined;
  try {
    // The tools open the copy once its first files are there (its .powercodeignore too).
    const open = async () => tools ??= await createTools(dir, scratchOptions(start, dir));
    const copy = new ScratchCopy(dir, async (path, target) => {
      const { sandbox } = await open();
      await sandbox.ready();
      const link = sandboxSymlinker(sandbox);
      if (!link) throw new Error(`Cannot make the link "${path}": bash cannot run here`);
      await link(dir, path, target);
    });
    let set: ToolSet | undefined;
    const signal = new AbortController().signal;
    const outcome = await replayBundle(text, {
      put: (entry) => copy.put(entry),
      run: async (call: ToolCall) => {
        set ??= new ToolSet((await open()).tools);
        // fetch reads the network: not offline; a tool of another kind (MCP) is not here.
        const effect = set.effectOf(call.name);
        return effect === undefined || effect === "net" ? undefined : set.execute(call, signal);
      },
      tree: async () => {
        const { ignore } = (await open()).workspace;
        return await copy.tree((path, isDirectory) =>
          ignore.size > 0 && ignore.match(path, isDirectory) !== undefined
        );
      },
    });
    const width = start.width() ?? Number.POSITIVE_INFINITY;
    const line = sanitizeLine(outcomeLine(outcome));
    writeTo(Deno.stdout)(`${wrapHanging(line, width, "  ").join("\n")}\n`);
    return outcome.type === "same" ? 0 : 1;
  } finally {
    await tools?.jobs.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** bash's setup for the copy: as the run's, minus the hidden paths the copy lies in. */
function scratchOptions(start: RunStart, dir: string) {
  const options = bashOptions(start);
  const absolute = (path: string) => path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const inside = (path: string) => absolute(dir).startsWith(`${absolute(path)}/`);
  return { ...options, hide: (options.hide ?? []).filter((path) => !inside(path)) };
}

function outcomeLine(outcome: ReplayOutcome): string {
  switch (outcome.type) {
    case "same": {
      const skipped = outcome.skipped.length === 0
        ? ""
        : `; not run offline: ${outcome.skipped.join(", ")}`;
      return `Reproduced byte for byte: ${outcome.calls} tool calls and ${outcome.trees} ` +
        `task trees (${outcome.entries} entries)${skipped}`;
    }
    case "differs":
      return `Differs at entry ${outcome.entry}: ${outcome.what}`;
    case "broken":
      return `Broken at entry ${outcome.entry}: ${outcome.what}`;
    default: {
      const unknown: never = outcome;
      throw new TypeError(`Cannot report replay: ${JSON.stringify(unknown)}`);
    }
  }
}
