/**
 * The installed command's first step: decides how this run starts and prints the shell
 * command that starts it, which the launcher `deno task install` writes then runs with
 * `exec`, appending the user's arguments.
 *
 * - Always project mode, with the permission set of `permission_set.ts` and the resolved
 *   project in `POWERCODE_PROJECT`, whatever the directory holds: a `workspace/`,
 *   `provider.json` or `.powercode/` in it is the project's, never powercode's own (a cloned
 *   repository could ship them). The workspace layout is the checkout's `start` task and
 *   compiled binary only; `--workspace-layout` is refused here.
 * - `-h`, `-V` or flags that do not parse: the program with no permission at all, to print.
 *
 * Why a process of its own: Deno fixes a process's permissions when it starts and can
 * only revoke them later, never narrow a grant to a list, and the list depends on the run
 * (real paths, a hash, XDG variables the program itself may not read).
 * It runs with read access (to resolve the directories the user names, anywhere) and the
 * four variables it reads; it writes nothing. What it prints (`launch_entry.ts`) also names
 * every path it looked at, with what it saw there, so that the launcher can cache it.
 *
 * @module
 */
import denoConfig from "../../deno.json" with { type: "json" };
import { type CliOptions, LAYOUT_FLAG, parseCli } from "./cli.ts";
import { ConfigError } from "./config_error.ts";
import { projectFlags, startFlags } from "./permission_set.ts";
import { DENO_FILES, type FileView } from "./file_view.ts";
import { launchEntry, quote, recordCheckout } from "./launch_entry.ts";
import { PathRecorder } from "./path_record.ts";
import { settingsEnvNames } from "./settings_env.ts";
import {
  encodeProject,
  PROJECT_VARIABLE,
  type ProjectEnvironment,
  resolveProject,
} from "./project.ts";

/** Where the program lives. */
export interface Checkout {
  /** Its `deno.json`. */
  config: string;
  /** Its `main.ts`. */
  main: string;
}

/**
 * The shell command (without the user's arguments) that starts this run of powercode.
 * Contract: throws a `ConfigError` with a one-line message when project mode refuses the
 * directories or paths; every word of the result is quoted for `sh`; looks at the file
 * system through `options.files` only (default: unrecorded).
 */
export async function launchCommand(
  args: string[],
  options: { env: ProjectEnvironment; checkout: Checkout; startTask: string; files?: FileView },
): Promise<string> {
  const { env, checkout } = options;
  const files = options.files ?? DENO_FILES;
  const run = (flags: readonly string[]) =>
    ["deno", "run", "--config", checkout.config, ...flags, checkout.main].map(quote).join(" ");
  let cli: CliOptions;
  try {
    cli = parseCli(args);
  } catch {
    return `unset ${PROJECT_VARIABLE}; exec ${run(["--no-prompt"])}`;
  }
  if (cli.help || cli.version) return `unset ${PROJECT_VARIABLE}; exec ${run(["--no-prompt"])}`;
  if (cli.layout) {
    throw new ConfigError(
      `Cannot use ${LAYOUT_FLAG}: the installed command works on the directory it is started ` +
        'in (or --dir); the workspace layout is "deno task start" in powercode\'s checkout',
    );
  }
  const project = await resolveProject(cli, env, files);
  // Records the provider file's resolution too, which projectFlags repeats unrecorded.
  const envNames = await settingsEnvNames(project, files);
  return `${PROJECT_VARIABLE}=${quote(encodeProject(project))}; export ${PROJECT_VARIABLE}; ` +
    `exec ${run(projectFlags(project, startFlags(options.startTask), envNames))}`;
}

async function main(args: string[]): Promise<number> {
  const root = decodeURIComponent(new URL("../..", import.meta.url).pathname).replace(/\/$/, "");
  const read = (name: string) => Deno.env.get(name);
  const recorder = new PathRecorder();
  recordCheckout(recorder, root);
  try {
    const command = await launchCommand(args, {
      env: {
        cwd: Deno.cwd(),
        home: read("HOME"),
        stateHome: read("XDG_STATE_HOME"),
        configHome: read("XDG_CONFIG_HOME"),
        provider: read("POWERCODE_PROVIDER"),
      },
      checkout: { config: `${root}/deno.json`, main: `${root}/main.ts` },
      startTask: denoConfig.tasks.start,
      files: recorder,
    });
    console.log(launchEntry(command, recorder, args));
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Control characters of a directory's name stay visible instead of acting on the terminal.
    const line = Array.from(error.message, (char) => {
      const code = char.charCodeAt(0);
      const control = code < 0x20 || (code >= 0x7f && code < 0xa0);
      return control ? `\\x${code.toString(16).padStart(2, "0")}` : char;
    }).join("");
    console.error(`powercode: ${line}`);
    return 2;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
