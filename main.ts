/**
 * powercode's entry point: parses the command line, finds where the run works (the workspace
 * layout, or the project the launcher resolved), and runs the mode the command line asks for
 * (see src/modes/): the REPL, one task (-p), the sessions list, the scope report or --undo.
 *
 * @module
 */
import denoConfig from "./deno.json" with { type: "json" };
import { ConfigError, locate, parseCli, USAGE } from "./src/config/mod.ts";
import { modeFor } from "./src/modes/mod.ts";
import { sanitize, writeTo } from "./src/terminal/mod.ts";

async function main(args: string[]): Promise<number> {
  // A compiled powercode is its own relay inside a networked sandbox (src/sandbox/net_relay.ts).
  if (args[0] === "--sandbox-relay") {
    await (await import("./src/sandbox/mod.ts")).runRelay();
    return 0;
  }
  let cli;
  try {
    cli = parseCli(args);
  } catch (error) {
    return fail(error, 2);
  }
  if (cli.help) return print(`${USAGE}\n`);
  if (cli.version) return print(`powercode ${denoConfig.version}\n`);
  try {
    const locations = locate(cli, (name) => Deno.env.get(name));
    // The run's parts load once a mode runs: --help and --version load none of them.
    const { runStart } = await import("./src/app/mod.ts");
    return await modeFor(cli).run(runStart(cli, locations, denoConfig.version));
  } catch (error) {
    return fail(error, await failureCode(error));
  }
}

/** 2 for a configuration or session error, 1 for any other. */
async function failureCode(error: unknown): Promise<number> {
  if (error instanceof ConfigError) return 2;
  // Only a run that got as far as its session throws one: the module loads here, not at start.
  const { SessionError } = await import("./src/session/mod.ts");
  return error instanceof SessionError ? 2 : 1;
}

function print(text: string): number {
  writeTo(Deno.stdout)(text);
  return 0;
}

function fail(error: unknown, code: number): number {
  const message = error instanceof Error ? error.message : String(error);
  writeTo(Deno.stderr)(`powercode: ${sanitize(message)}\n`);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
