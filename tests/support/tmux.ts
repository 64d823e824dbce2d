/**
 * A real pseudo-terminal for end-to-end tests: one tmux pane on a private tmux server,
 * driven with `send-keys` and read with `capture-pane`.
 *
 * @module
 */

/** Options of {@link startTmux}. */
export interface TmuxOptions {
  /** Working directory of the pane's command. */
  cwd: string;
  /** The shell command the pane runs, e.g. `deno task --quiet start`. */
  command: string;
  /** The whole environment of the pane's command (tmux adds TERM and TMUX). */
  env: Record<string, string>;
  /** Pane size (default 200 × 50). */
  columns?: number;
  rows?: number;
}

/** How the pane's command ended. */
export interface PaneEnd {
  dead: boolean;
  /** Exit status once dead. */
  status: number | undefined;
}

/** One pane running a command on a terminal (200 columns by 50 lines unless told). */
export interface TmuxPane extends AsyncDisposable {
  /** Sends keys by tmux name, e.g. `"C-c"`, `"Enter"`, `"Up"`. */
  keys(...keys: string[]): Promise<void>;
  /** Types `text` literally (no key names). */
  type(text: string): Promise<void>;
  /** Pastes `text` as a terminal does: bracketed when the program asked for it. */
  paste(text: string): Promise<void>;
  /** Changes the pane's width in columns. */
  resize(columns: number): Promise<void>;
  /**
   * The pane's text, scrollback included (only what is on screen with `visible`); with
   * `escapes`, its colour sequences too.
   */
  screen(options?: { escapes?: boolean; visible?: boolean }): Promise<string>;
  /** The pid of the shell running the pane's command. */
  pid(): Promise<number>;
  /**
   * Polls the screen until `done` accepts it and returns that screen.
   * Contract: throws after `timeoutMs` (default 20 s) with `what` and the last screen.
   */
  waitFor(
    done: (screen: string) => boolean,
    what: string,
    options?: { timeoutMs?: number },
  ): Promise<string>;
  /** Whether the pane's command has ended, and its status. */
  end(): Promise<PaneEnd>;
}

const POLL_MS = 50;

/**
 * Starts a private tmux server (its socket in a new temp dir, no user config) with one
 * detached pane running `command` in `sh`; the pane stays readable after the command ends.
 * Contract: disposing kills the server and removes the temp dir.
 */
export async function startTmux(options: TmuxOptions): Promise<TmuxPane> {
  const dir = await Deno.makeTempDir({ prefix: "pc-tmux-" });
  const socket = `${dir}/sock`;
  const config = `${dir}/tmux.conf`;
  const statusFile = `${dir}/status`;
  await Deno.writeTextFile(config, "set -g remain-on-exit on\nset -g history-limit 10000\n");
  const tmux = async (args: string[]): Promise<string> => {
    const output = await new Deno.Command("tmux", {
      args: ["-S", socket, "-f", config, ...args],
      clearEnv: true,
      env: options.env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    if (!output.success) {
      throw new Error(`tmux ${args.join(" ")} failed: ${decoder.decode(output.stderr)}`);
    }
    return decoder.decode(output.stdout);
  };
  // tmux's #{pane_dead_status} is not reliable here, so the shell records the status.
  const command = `cd ${shellQuote(options.cwd)} && ${options.command}; echo $? > ${
    shellQuote(statusFile)
  }`;
  const [columns, rows] = [options.columns ?? 200, options.rows ?? 50];
  await tmux(["new-session", "-d", "-s", "main", "-x", `${columns}`, "-y", `${rows}`, command]);
  const screen = async (escapes = false, visible = false) =>
    await tmux([
      "capture-pane",
      "-p",
      "-J",
      ...(visible ? [] : ["-S", "-"]),
      ...(escapes ? ["-e"] : []),
      "-t",
      "main",
    ]);
  return {
    async keys(...keys) {
      await tmux(["send-keys", "-t", "main", ...keys]);
    },
    async type(text) {
      await tmux(["send-keys", "-t", "main", "-l", text]);
    },
    async paste(text) {
      await tmux(["set-buffer", "-b", "paste", "--", text]);
      await tmux(["paste-buffer", "-p", "-d", "-b", "paste", "-t", "main"]);
    },
    async resize(columns) {
      await tmux(["resize-window", "-t", "main", "-x", String(columns)]);
    },
    screen: (opts = {}) => screen(opts.escapes, opts.visible),
    async pid() {
      return Number((await tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"])).trim());
    },
    async waitFor(done, what, opts = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
      for (;;) {
        const text = await screen();
        if (done(text)) return text;
        if (Date.now() > deadline) {
          throw new Error(`Timed out waiting for ${what}; the pane shows:\n${text}`);
        }
        await delay(POLL_MS);
      }
    },
    async end() {
      const dead = (await tmux(["display-message", "-p", "-t", "main", "#{pane_dead}"])).trim();
      const status = await Deno.readTextFile(statusFile).catch(() => "");
      return { dead: dead === "1", status: status.trim() ? Number(status) : undefined };
    },
    async [Symbol.asyncDispose]() {
      await tmux(["kill-server"]).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
