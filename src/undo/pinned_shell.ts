/**
 * The writes of a restore, done by one bash process from inside the directory each one
 * concerns. Deno has no `openat`, cannot `chdir` back (that needs read permission on the
 * starting directory) and may not open `/proc/self/fd`, so a directory cannot be held from
 * Deno; a shell's working directory can. Each operation enters its root by its real path,
 * then each name below it, one at a time: after each step, `./..` must be the directory
 * held just before (an open descriptor). A name swapped for a link to elsewhere fails that
 * test, and once entered the directory stays the one checked whatever happens to its path,
 * so every create, rename, unlink and chmod names one entry of a checked directory.
 *
 * @module
 */

/**
 * Reads requests as NUL-terminated fields (op, root, count, names…, name, arg) and answers
 * each with one line: `ok` or `error MESSAGE`.
 */
const SCRIPT = String.raw`
set -u
answer() { local text=${"$"}{1//$'\n'/ }; printf '%s\n' "$text"; }
enter() {
  cd -P -- "$root" 2>/dev/null || { answer "error cannot enter the root"; return 1; }
  local held n
  for n in "${"$"}{names[@]}"; do
    exec {held}<.
    if [[ -L $n || ! -d $n ]] || ! cd -P -- "$n" 2>/dev/null || ! [[ ./.. -ef /dev/fd/$held ]]; then
      exec {held}<&-
      answer "error \"$n\" is not a directory below the one before it (a symbolic link?)"
      return 1
    fi
    exec {held}<&-
  done
}
while IFS= read -r -d '' op; do
  IFS= read -r -d '' root; IFS= read -r -d '' count
  names=()
  for ((i = 0; i < count; i++)); do IFS= read -r -d '' n; names+=("$n"); done
  IFS= read -r -d '' name; IFS= read -r -d '' arg
  enter || continue
  case $op in
    mkdir) out=$(mkdir -- "$name" 2>&1) ;;
    unlink) out=$(unlink -- "$name" 2>&1) ;;
    rmdir) out=$(rmdir -- "$name" 2>&1) ;;
    chmod) out=$(chmod -- "$arg" . 2>&1) ;;
    place)
      # The staged copy goes to a fresh name first (a copy, on another file system, then
      # creates a name nobody could make in advance), then one rename in this directory
      # replaces the entry: a link there is replaced, never followed.
      temp=".pc-undo-${"$"}{arg##*/}.tmp"
      out=$(mv -T -- "$arg" "$temp" 2>&1 && mv -f -T -- "$temp" "$name" 2>&1) ||
        { unlink -- "$temp" 2>/dev/null; false; } ;;
    *) out="unknown operation $op"; false ;;
  esac
  if (($? == 0)); then answer ok; else answer "error $out"; fi
done
`;

/**
 * A bash process performing a restore's writes inside checked directories.
 * Contract: an operation whose directory is not, at the time of the operation, the
 * directory `names` leads to below `root` by real directories fails and touches nothing.
 */
export class PinnedShell {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;

  /** Starts the shell. */
  constructor() {
    this.#child = new Deno.Command("bash", {
      args: ["-c", SCRIPT],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      clearEnv: true,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C" },
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = lines(this.#child.stdout)[Symbol.asyncIterator]();
  }

  /**
   * Runs `op` on entry `name` of directory `names` (below real path `root`).
   * Contract: throws an Error with the shell's message when it fails.
   */
  async run(
    op: "mkdir" | "unlink" | "rmdir" | "chmod" | "place",
    where: { root: string; names: readonly string[]; name: string; arg?: string },
  ): Promise<void> {
    const fields = [op, where.root, String(where.names.length), ...where.names, where.name];
    const request = `${[...fields, where.arg ?? ""].join("\0")}\0`;
    await this.#writer.write(new TextEncoder().encode(request));
    const next = await this.#lines.next();
    if (next.done) throw new Error("the restore's shell ended early");
    if (next.value !== "ok") throw new Error(next.value.replace(/^error /, ""));
  }

  /** Ends the shell. */
  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
  }
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf("\n")) !== -1) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
    }
  }
}
