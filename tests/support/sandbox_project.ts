/**
 * Sandbox attack harness: a start directory with a workspace, a provider file
 * and sessions, outside /tmp (the sandbox's private /tmp would hide it) and
 * usable by `nobody`, and ways to run commands in it through the real
 * {@linkcode Sandbox}: in this process, or in a child process that runs as
 * another user or inherits an extra file descriptor.
 *
 * @module
 */
import {
  type HiddenPath,
  Sandbox,
  type SandboxMode,
  type SandboxOptions,
} from "../../src/sandbox/sandbox.ts";
import { run } from "./runner.ts";

/** The key in the project's provider.json; no command may ever print it. */
export const SECRET_KEY = "sk-powercode-hidden-key";
/** The text of the project's session file; no command may ever print it. */
export const SECRET_SESSION = "powercode-secret-session";
/** uid and gid of `nobody`. */
const NOBODY = 65534;
const SRC = new URL("../../src/", import.meta.url);

/** What a command printed (stdout and stderr interleaved) and its exit code (-1: killed). */
export interface Outcome {
  output: string;
  code: number;
}

/** How {@linkcode SandboxProject.runInChild} runs its child. */
export interface ChildOptions {
  asNobody: boolean;
  fd7?: string;
  mode?: SandboxMode;
  /** A secret the child holds in a fresh session keyring, as user key `powercode-secret`. */
  keyringSecret?: string;
  /** More variables in the child's environment (the sandbox must not pass them on). */
  env?: Record<string, string>;
  /** Hosts commands reach through powercode's proxy (`network.allow`); default: no network. */
  allowHosts?: string[];
}

/** A disposable start directory: `dir/ws` (the workspace), provider.json, .powercode/. */
export interface SandboxProject extends AsyncDisposable {
  dir: string;
  /** The workspace, owned by nobody so that both root and nobody may write it. */
  root: string;
  /** The provider file and the sessions directory, as main.ts hides them. */
  hidden: HiddenPath[];
  /** Runs `command` through a {@linkcode Sandbox} in bwrap mode in this process. */
  run(command: string, options?: SandboxOptions): Promise<Outcome>;
  /**
   * Runs `command` through a {@linkcode Sandbox} in a child Deno process, as
   * `nobody` when `asNobody`, with file descriptor 7 open on `fd7` (opened
   * by root before switching users) when given, with `keyringSecret` in its session
   * keyring when given (keyctl(1) from keyutils), in bwrap mode unless `mode` says otherwise.
   */
  runInChild(command: string, options: ChildOptions): Promise<Outcome>;
}

/** Whether the tests run as root (CI does): switching to `nobody` needs it. */
export async function isRoot(): Promise<boolean> {
  const { stdout } = await new Deno.Command("id", { args: ["-u"] }).output();
  return new TextDecoder().decode(stdout).trim() === "0";
}

/** Creates the project under /var/tmp, readable by every user. */
export async function createSandboxProject(): Promise<SandboxProject> {
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ dir: "/var/tmp", prefix: "powercode_sandbox_" }),
  );
  await Deno.chmod(dir, 0o755);
  const root = `${dir}/ws`;
  await Deno.mkdir(root, { mode: 0o755 });
  if (await isRoot()) await Deno.chown(root, NOBODY, NOBODY);
  await Deno.writeTextFile(`${dir}/provider.json`, `{"apiKey": "${SECRET_KEY}"}\n`);
  await Deno.mkdir(`${dir}/.powercode/sessions`, { recursive: true });
  await Deno.writeTextFile(`${dir}/.powercode/sessions/s.jsonl`, `${SECRET_SESSION}\n`);
  await Deno.chmod(`${dir}/.powercode`, 0o755);
  await Deno.chmod(`${dir}/.powercode/sessions`, 0o755);
  const hidden = [
    { path: `${dir}/provider.json`, isDirectory: false },
    { path: `${dir}/.powercode`, isDirectory: true },
  ];
  return {
    dir,
    root,
    hidden,
    async run(command, options = {}) {
      const sandbox = new Sandbox(root, "bwrap", { hidden, ...options });
      const signal = new AbortController().signal;
      return outcome(await sandbox.run(command, { timeoutMs: 20_000, signal }));
    },
    runInChild: (command, options) =>
      runInChild(dir, {
        root,
        hidden,
        command,
        mode: options.mode ?? "bwrap",
        allowHosts: options.allowHosts ?? [],
      }, options),
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function outcome(result: Awaited<ReturnType<Sandbox["run"]>>): Outcome {
  return {
    output: result.output.text,
    code: result.end.kind === "exit" ? result.end.code : -1,
  };
}

/**
 * Copies `src/` into the project (the test's checkout may be unreadable for
 * nobody) and runs a small script there that prints the run's outcome as JSON.
 */
async function runInChild(
  dir: string,
  job: {
    root: string;
    hidden: HiddenPath[];
    command: string;
    mode: SandboxMode;
    allowHosts: string[];
  },
  options: ChildOptions,
): Promise<Outcome> {
  const copy = `${dir}/child`;
  await copyTree(SRC, `${copy}/src`);
  await Deno.writeTextFile(`${copy}/run.ts`, CHILD_SCRIPT);
  await Deno.mkdir(`${copy}/deno_dir`, { recursive: true });
  if (options.asNobody) await chownTree(copy);
  const deno = [Deno.execPath(), "run", "-A", "--no-config", "--no-lock", `${copy}/run.ts`];
  const user = options.asNobody
    ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"]
    : [];
  const keyring = options.keyringSecret === undefined ? [] : [
    ..."keyctl session - bash -c".split(" "),
    'keyctl add user powercode-secret "$1" @s >/dev/null && shift && exec "$@"',
    "bash",
    options.keyringSecret,
  ];
  const open = options.fd7 === undefined ? "" : 'exec 7<"$FD7"; ';
  const command = [...user, ...keyring, ...deno, JSON.stringify(job)];
  const { code, stdout, stderr } = await run("bash", {
    args: ["-c", `${open}exec "$@"`, "bash", ...command],
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      DENO_DIR: `${copy}/deno_dir`,
      FD7: options.fd7 ?? "",
      ...options.env,
    },
    cwd: copy,
    stdin: null,
  });
  if (code !== 0) throw new Error(`child run failed: ${stderr}`);
  return JSON.parse(stdout);
}

const CHILD_SCRIPT = `import { Sandbox } from "./src/sandbox/sandbox.ts";
import { NetworkGate, relayArgv } from "./src/sandbox/mod.ts";
import { parseHostPattern } from "./src/core/mod.ts";
const job = JSON.parse(Deno.args[0]);
const patterns = job.allowHosts.map(parseHostPattern);
const network = patterns.length > 0
  ? { network: { gate: new NetworkGate(patterns), relay: relayArgv() } }
  : {};
const sandbox = new Sandbox(job.root, job.mode, { hidden: job.hidden, ...network });
const signal = new AbortController().signal;
const result = await sandbox.run(job.command, { timeoutMs: 20000, signal });
const code = result.end.kind === "exit" ? result.end.code : -1;
console.log(JSON.stringify({ output: result.output.text, code }));
`;

async function copyTree(from: URL, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(new URL(`${entry.name}/`, from), `${to}/${entry.name}`);
    else if (entry.isFile) await Deno.copyFile(new URL(entry.name, from), `${to}/${entry.name}`);
  }
}

async function chownTree(path: string): Promise<void> {
  await Deno.chown(path, NOBODY, NOBODY);
  if (!(await Deno.lstat(path)).isDirectory) return;
  for await (const entry of Deno.readDir(path)) await chownTree(`${path}/${entry.name}`);
}
