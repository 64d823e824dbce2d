/**
 * Runs one command through the real tools as another user: `createTools` (which finds what
 * to hide) in a child Deno process under `setpriv`, as bash and as a stdio server, each
 * printing what it saw.
 *
 * @module
 */

/** uid and gid of `nobody`. */
export const NOBODY = 65534;
const SRC = new URL("../../src/", import.meta.url);

/** What bash and the server printed. */
export interface ChildSeen {
  bash: string;
  server: string;
}

/** What the child does: the root, the paths to hide, the command, the child's environment. */
export interface ChildJob {
  root: string;
  hide: string[];
  command: string;
  env: Record<string, string>;
}

const CHILD_SCRIPT = `import { createTools } from "./src/tools/mod.ts";
const job = JSON.parse(Deno.args[0]);
const tools = await createTools(job.root, { unsandboxedBash: false, hide: job.hide });
const signal = new AbortController().signal;
const bash = await tools.sandbox.run(job.command, { timeoutMs: 20000, signal });
let server = "";
const decoder = new TextDecoder();
const collect = (chunk) => { server += decoder.decode(chunk); };
const spec = { command: "bash", args: ["-c", job.command], env: {}, network: false };
const process = await tools.servers.launch(spec, { onStdout: collect, onStderr: collect });
await process.exited;
console.log(JSON.stringify({ bash: bash.output.text, server }));
`;

/** Copies `src/` into `dir/child` and runs {@linkcode ChildJob} there as nobody. */
export async function runAsNobody(dir: string, job: ChildJob): Promise<ChildSeen> {
  const copy = `${dir}/child`;
  await copyTree(SRC, `${copy}/src`);
  await Deno.writeTextFile(`${copy}/run.ts`, CHILD_SCRIPT);
  await Deno.mkdir(`${copy}/deno_dir`, { recursive: true });
  await chownTree(copy);
  const { code, stdout, stderr } = await new Deno.Command("setpriv", {
    args: [
      ...[`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"],
      ...[Deno.execPath(), "run", "-A", "--no-config", "--no-lock", "run.ts", JSON.stringify(job)],
    ],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", DENO_DIR: `${copy}/deno_dir`, ...job.env },
    cwd: copy,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  if (code !== 0) throw new Error(`child run failed: ${decoder.decode(stderr)}`);
  return JSON.parse(decoder.decode(stdout));
}

/** Gives `path` and everything below it to nobody. */
export async function chownTree(path: string): Promise<void> {
  await Deno.chown(path, NOBODY, NOBODY);
  if (!(await Deno.lstat(path)).isDirectory) return;
  for await (const entry of Deno.readDir(path)) await chownTree(`${path}/${entry.name}`);
}

async function copyTree(from: URL, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(new URL(`${entry.name}/`, from), `${to}/${entry.name}`);
    else if (entry.isFile) await Deno.copyFile(new URL(entry.name, from), `${to}/${entry.name}`);
  }
}
