/**
 * The bench's handle on one `step_run.ts` child process.
 *
 * @module
 */
import { readLines } from "./lines.ts";
import type { StepRunInput, StepRunReady, StepRunStep } from "./step_run.ts";

const STEP_RUN = new URL("./step_run.ts", import.meta.url);
const PROJECT_ROOT = new URL("../", import.meta.url);

/** A running child that resumed one session. */
export class StepChild {
  #process: Deno.ChildProcess;
  #lines: AsyncGenerator<string>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;

  private constructor(
    process: Deno.ChildProcess,
    lines: AsyncGenerator<string>,
    readonly ready: StepRunReady,
  ) {
    this.#process = process;
    this.#lines = lines;
    this.#writer = process.stdin.getWriter();
  }

  /** Starts a child and waits until it has resumed the session. */
  static async start(input: StepRunInput): Promise<StepChild> {
    const process = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--v8-flags=--expose-gc",
        "--lock=tests/deno.lock",
        "--allow-read",
        "--allow-write",
        "--allow-net=127.0.0.1",
        STEP_RUN.pathname,
        JSON.stringify(input),
      ],
      cwd: PROJECT_ROOT.pathname,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const lines = readLines(process.stdout);
    const first = await lines.next();
    if (first.done) throw new Error("Cannot start a step run: the child exited");
    return new StepChild(process, lines, JSON.parse(first.value));
  }

  /** Runs one one-step task. */
  async step(): Promise<StepRunStep> {
    return JSON.parse(await this.#send("step"));
  }

  /** Collects garbage in the child. */
  async collectGarbage(): Promise<void> {
    await this.#send("gc");
  }

  /** Ends the child. Throws when it failed (e.g. a compaction happened). */
  async close(): Promise<void> {
    await this.#writer.close();
    await this.#lines.return(undefined);
    const status = await this.#process.status;
    if (!status.success) throw new Error(`Step run failed with exit code ${status.code}`);
  }

  async #send(command: string): Promise<string> {
    await this.#writer.write(new TextEncoder().encode(`${command}\n`));
    const line = await this.#lines.next();
    if (line.done) throw new Error(`Step run exited before answering "${command}"`);
    return line.value;
  }
}
