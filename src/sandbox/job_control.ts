/**
 * Job control for the interactive program: stopping its whole process group as the
 * terminal's Ctrl+Z does in cooked mode, through the one shell the program may run.
 *
 * @module
 */

/** How long a stop may take to be reported as continued, once the stopping shell has ended. */
const CONTINUE_GRACE_MS = 250;

/**
 * Stops this process's whole group, as the terminal's Ctrl+Z does in cooked mode, so that
 * the shell sees its job stopped; resolves once it continues (`fg` sends SIGCONT).
 * Deno signals another process group only with an unscoped run permission, so a shell does
 * it: `bash -c 'kill -STOP 0'` runs in the group (no input, no output) and stops with it.
 * SIGSTOP, not SIGTSTP: `deno task` forwards SIGTSTP to its child instead of stopping, and
 * the shell would then never learn that its job stopped.
 * Contract: never throws; when bash cannot run, nothing stops.
 */
export async function stopProcessGroup(): Promise<void> {
  let continued: () => void = () => {};
  const resumed = new Promise<void>((resolve) => continued = resolve);
  Deno.addSignalListener("SIGCONT", continued);
  try {
    const stop = new Deno.Command("bash", {
      args: ["-c", "kill -STOP 0"],
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    });
    await stop.output();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      resumed,
      new Promise((resolve) => timer = setTimeout(resolve, CONTINUE_GRACE_MS)),
    ]);
    clearTimeout(timer);
  } catch {
    // No bash to run: the program goes on where it was.
  } finally {
    Deno.removeSignalListener("SIGCONT", continued);
  }
}
