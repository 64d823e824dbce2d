/**
 * Commands that run in the background: started in the sandbox like any command, read a piece
 * at a time, ended on request or when powercode ends. Each job's unread output is capped in
 * memory; its whole output goes to a file in the state directory.
 *
 * @module
 */
import type { Sandbox } from "./sandbox.ts";
import { terminate } from "./sandbox.ts";
import type { Supervised } from "./net_spawn.ts";
import { READY_BYTE } from "./bwrap_profile.ts";

/** Most jobs running at once. */
export const MAX_JOBS = 8;
/** Most unread output kept per job (50 K characters); older unread output is dropped first. */
export const MAX_UNREAD_CHARS = 50 * 1024;

/** How a job stands. */
export type JobState =
  | { kind: "running" }
  | { kind: "exited"; code: number }
  | { kind: "killed" };

/** A job as `/ps` and the tools show it. */
export interface JobInfo {
  id: string;
  command: string;
  /** When it started (ms since the epoch). */
  startedAt: number;
  state: JobState;
  /** The file holding its whole output, when the run has a state directory. */
  logFile: string | undefined;
}

/** What a job printed since the last read, and how it stands now. */
export interface JobOutput extends JobInfo {
  text: string;
  /** Unread characters dropped because more than {@linkcode MAX_UNREAD_CHARS} were waiting. */
  droppedChars: number;
  /** What the git rule renamed after the job ended, one line each. */
  gitNotes: string[];
}

interface Job extends JobInfo {
  child: Supervised;
  /** The child's stdout starts with {@linkcode READY_BYTE} (a bwrap sandbox). */
  announcesReady: boolean;
  unread: string[];
  unreadBytes: number;
  droppedChars: number;
  gitNotes: string[];
  /** Settles when the process has ended, its output is drained and the log is closed. */
  ended: Promise<void>;
}

/** Something that starts sandboxed commands without waiting for them (the sandbox). */
export type JobStarter = Pick<Sandbox, "start">;

/**
 * The run's background jobs.
 * Contract: a job runs in the same sandbox as any command (`Sandbox.start`), with its own
 * process group (bwrap's pid namespace, or the unsandboxed wrapper's group), which
 * {@linkcode kill} and {@linkcode close} end whole; bwrap's `--die-with-parent` ends it also
 * when powercode is killed. Ids are `1`, `2`, … in the order jobs started.
 */
export class BackgroundJobs {
  #starter: JobStarter;
  #logDir: string | undefined;
  #jobs = new Map<string, Job>();
  #next = 1;

  /** Jobs started through `starter`, their whole output kept in files under `logDir`. */
  constructor(starter: JobStarter, options: { logDir?: string } = {}) {
    this.#starter = starter;
    this.#logDir = options.logDir;
  }

  /**
   * Starts `command` in the background.
   * Contract: throws when {@linkcode MAX_JOBS} jobs are running or the sandbox refuses.
   */
  async start(command: string): Promise<JobInfo> {
    const running = [...this.#jobs.values()].filter((job) => job.state.kind === "running");
    if (running.length >= MAX_JOBS) {
      throw new RangeError(
        `Cannot start a background command: ${MAX_JOBS} are running (ids ${
          running.map((job) => job.id).join(", ")
        }); end one with bash_kill first`,
      );
    }
    const id = String(this.#next++);
    const log = await this.#openLog(id);
    const { child, release, announcesReady } = await this.#starter.start(command).catch((error) => {
      log?.file.close();
      throw error;
    });
    const job: Job = {
      id,
      command,
      startedAt: Date.now(),
      state: { kind: "running" },
      logFile: log?.path,
      child,
      announcesReady: announcesReady ?? false,
      unread: [],
      unreadBytes: 0,
      droppedChars: 0,
      gitNotes: [],
      ended: Promise.resolve(),
    };
    job.ended = this.#follow(job, log?.file, release);
    this.#jobs.set(id, job);
    return info(job);
  }

  /** Every job of the run, in the order they started. */
  list(): JobInfo[] {
    return [...this.#jobs.values()].map(info);
  }

  /**
   * What job `id` printed since the last read (the unread output, at most 50 K characters of its
   * end), and how it stands.
   * Contract: throws a `RangeError` naming the known ids when there is no such job.
   */
  read(id: string): JobOutput {
    const job = this.#get(id);
    const text = job.unread.join("");
    const output = { ...info(job), text, droppedChars: job.droppedChars, gitNotes: job.gitNotes };
    job.unread = [];
    job.unreadBytes = 0;
    job.droppedChars = 0;
    job.gitNotes = [];
    return output;
  }

  /**
   * Ends job `id`'s whole process group (SIGTERM, SIGKILL after a grace time) and waits for
   * it; a job that has already ended is left as it is.
   * Contract: throws a `RangeError` when there is no such job.
   */
  async kill(id: string): Promise<JobInfo> {
    const job = this.#get(id);
    if (job.state.kind === "running") {
      job.state = { kind: "killed" };
      await terminate(job.child);
    }
    await job.ended;
    return info(job);
  }

  /** Ends every running job and waits for them. Contract: never throws. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#jobs.values()].map((job) => this.kill(job.id).catch(() => undefined)),
    );
  }

  #get(id: string): Job {
    const job = this.#jobs.get(id.trim());
    if (job) return job;
    const known = [...this.#jobs.keys()];
    throw new RangeError(
      `No background command "${id}": ${
        known.length === 0 ? "none was started" : `the ids are ${known.join(", ")}`
      }`,
    );
  }

  async #openLog(id: string): Promise<{ path: string; file: Deno.FsFile } | undefined> {
    if (this.#logDir === undefined) return undefined;
    await Deno.mkdir(this.#logDir, { recursive: true, mode: 0o700 });
    const path = `${this.#logDir}/${new Date().toISOString().replace(/[:.]/g, "-")}-${id}.log`;
    const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
    return { path, file };
  }

  /** Drains the job's output into memory and its log until it ends, then records its end. */
  async #follow(
    job: Job,
    log: Deno.FsFile | undefined,
    release: () => Promise<string[]>,
  ): Promise<void> {
    let writing = Promise.resolve();
    const take = (bytes: Uint8Array, text: string) => {
      if (log) writing = writing.then(() => writeAll(log, bytes)).catch(() => {});
      this.#remember(job, text);
    };
    // A sandbox announces that it is up with one byte on stdout first: not the command's.
    let announced = job.announcesReady;
    const drain = async (stream: ReadableStream<Uint8Array>, stdout: boolean) => {
      const decoder = new TextDecoder();
      try {
        for await (let chunk of stream) {
          if (stdout && announced && chunk.length > 0) {
            announced = false;
            if (chunk[0] === READY_BYTE) chunk = chunk.subarray(1);
          }
          take(chunk, decoder.decode(chunk, { stream: true }));
        }
      } catch {
        // the stream broke: keep what arrived
      }
      take(new Uint8Array(), decoder.decode());
    };
    const drained = Promise.all([drain(job.child.stdout, true), drain(job.child.stderr, false)]);
    const status = await job.child.status;
    await drained;
    await writing;
    log?.close();
    job.gitNotes = await release().catch(() => []);
    if (job.state.kind === "running") job.state = { kind: "exited", code: status.code };
  }

  #remember(job: Job, text: string): void {
    if (text === "") return;
    job.unread.push(text);
    job.unreadBytes += text.length;
    while (job.unreadBytes > MAX_UNREAD_CHARS && job.unread.length > 1) {
      const dropped = job.unread.shift() ?? "";
      job.unreadBytes -= dropped.length;
      job.droppedChars += dropped.length;
    }
    if (job.unreadBytes > MAX_UNREAD_CHARS) {
      const [only = ""] = job.unread;
      const cut = only.length - MAX_UNREAD_CHARS;
      job.unread = [only.slice(cut)];
      job.unreadBytes = MAX_UNREAD_CHARS;
      job.droppedChars += cut;
    }
  }
}

function info(job: Job): JobInfo {
  const { id, command, startedAt, state, logFile } = job;
  return { id, command, startedAt, state, logFile };
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}
