/**
 * A watcher that removes the git guard's placeholders should powercode die without removing
 * them itself (SIGKILL): a small shell holding the read end of a pipe only powercode writes.
 *
 * @module
 */

/** What the watcher is told when powercode removed the placeholders itself. */
const DONE = "done";

/**
 * Waits for a line on stdin: `done` ends it; end of input (powercode died) removes each
 * empty directory named in the arguments, retrying while a dying sandbox may still hold it
 * mounted. Signals a terminal sends to the group leave it waiting for that end.
 */
const WATCHER = `trap '' INT HUP TERM
read -r word
[ "$word" = ${DONE} ] && exit 0
for path; do
  tries=0
  while [ -d "$path" ] && ! rmdir -- "$path" 2>/dev/null && [ $tries -lt 30 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
done`;

/** A running watcher; `release` tells it the placeholders were removed and waits for it. */
export interface PlaceholderReaper {
  release(): Promise<void>;
}

/**
 * Starts a watcher for the directories `paths`, before they are made.
 * Contract: never throws; without bash to run it, returns a reaper that does nothing (a
 * placeholder then stays if powercode is killed).
 */
export function watchPlaceholders(paths: readonly string[]): PlaceholderReaper {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("bash", {
      args: ["-c", WATCHER, "bash", ...paths],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
  } catch {
    return { release: () => Promise.resolve() };
  }
  // It never holds the program open by itself; a release waits for it.
  child.unref();
  const writer = child.stdin.getWriter();
  return {
    async release() {
      try {
        await writer.write(new TextEncoder().encode(`${DONE}\n`));
        await writer.close();
      } catch {
        // it ended already
      }
      child.ref();
      await child.status;
    },
  };
}
