/**
 * The exact Deno permission set of one run in project mode, computed from its resolved
 * {@linkcode Project} and the `start` task's flags.
 *
 * Read: the roots, the provider file, `mcp.json` and `settings.json` beside it (MCP's
 * configuration and the user's settings), the user's setup beside it (`skills/`, `commands/`,
 * `AGENTS.md`), the state directory. Write: the roots and the state directory. Env: the `start`
 * task's names and the `shell.env` names of the settings files (see `settings_env.ts`). Net,
 * run and the V8 flag: the `start` task's flags, unchanged. Deno itself needs no grant beyond these: it loads the
 * program's modules and its own cache (`DENO_DIR`) without permission checks, and
 * `Deno.cwd()` needs none.
 *
 * @module
 */
import { LAYOUT_FLAG } from "./cli.ts";
import { configDirOf, MCP_FILE, type Project, SETTINGS_FILE } from "./project.ts";

/** The user's setup beside the provider file: skills, custom commands, agents, their AGENTS.md. */
export const USER_SETUP = ["skills", "commands", "agents", "AGENTS.md"];

/**
 * The flags of the `start` task kept as they are in project mode; the one V8 flag sizes the
 * young generation (fewer collections while the modules load: less time and memory at start).
 */
const KEPT_FLAG =
  /^--allow-(net|run|env)(=\S*)?$|^--no-prompt$|^--v8-flags=--min-semi-space-size=\d+$/;
/** The flags of the `start` task project mode replaces. */
const REPLACED_FLAG = /^--allow-(read|write)=\S+$/;

const START_PREFIX = "deno run ";
const START_SUFFIX = " main.ts";

/**
 * The permission flags of the `start` task (`deno run FLAGS main.ts`, followed by
 * `--workspace-layout`, the argument that chooses the layout), in order.
 * Contract: throws a `TypeError` when the task has another shape.
 */
export function startFlags(startTask: string): string[] {
  const task = startTask.endsWith(` ${LAYOUT_FLAG}`)
    ? startTask.slice(0, -LAYOUT_FLAG.length - 1)
    : startTask;
  if (!task.startsWith(START_PREFIX) || !task.endsWith(START_SUFFIX)) {
    throw new TypeError(`Cannot read the start task: it is not "deno run FLAGS main.ts"`);
  }
  return task.slice(START_PREFIX.length, -START_SUFFIX.length).split(" ");
}

/**
 * The Deno flags for `project`: read and write as the module says, every other flag of
 * `flags` (the `start` task's) unchanged.
 * Contract: throws a `TypeError` naming a flag of `flags` that is neither a read/write grant
 * nor a net, run, env or prompt flag nor the young generation's size, so a new kind of grant in `start` is never passed on
 * unseen.
 */
export function projectFlags(
  project: Project,
  flags: readonly string[],
  envNames: readonly string[] = [],
): string[] {
  const kept = flags.filter((flag) => !REPLACED_FLAG.test(flag));
  const unknown = kept.find((flag) => !KEPT_FLAG.test(flag));
  if (unknown !== undefined) {
    throw new TypeError(
      `Cannot compute the project's permissions: the start task's flag "${unknown}" is not ` +
        "one project mode knows",
    );
  }
  const { roots, providerFile, stateDir } = project;
  const configDir = configDirOf(providerFile);
  const setup = USER_SETUP.map((name) => `${configDir}/${name}`);
  return [
    `--allow-read=${
      [
        ...roots,
        providerFile,
        `${configDir}/${MCP_FILE}`,
        `${configDir}/${SETTINGS_FILE}`,
        ...setup,
        stateDir,
      ].join(",")
    }`,
    `--allow-write=${[...roots, stateDir].join(",")}`,
    ...kept.map((flag) =>
      flag.startsWith("--allow-env=") && envNames.length > 0
        ? `${flag},${envNames.join(",")}`
        : flag
    ),
  ];
}
