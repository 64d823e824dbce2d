/**
 * FIFOs, sockets and device nodes for the file tool tests, and a deadline for calls that
 * must not block.
 *
 * @module
 */

/** Whether the tests run as root (from id(1): `Deno.uid` would need --allow-sys). */
export function runningAsRoot(): boolean {
  const { stdout } = new Deno.Command("id", { args: ["-u"] }).outputSync();
  return new TextDecoder().decode(stdout).trim() === "0";
}

/** Creates a FIFO (named pipe) at `path` with mkfifo(1). */
export async function makeFifo(path: string): Promise<void> {
  const { code, stderr } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (code !== 0) throw new Error(`mkfifo "${path}" failed: ${new TextDecoder().decode(stderr)}`);
}

/** Creates a listening Unix socket file at `path`; dispose it to close the listener. */
export function makeSocket(path: string): Disposable {
  const listener = Deno.listen({ transport: "unix", path });
  return { [Symbol.dispose]: () => listener.close() };
}

/** Creates the character device 1:3 (like /dev/null) at `path`; false when not permitted. */
export async function makeCharDevice(path: string): Promise<boolean> {
  const { code } = await new Deno.Command("mknod", { args: [path, "c", "1", "3"] }).output();
  return code === 0;
}

/**
 * Settles like `promise`, or rejects with "did not finish within N ms" when it takes longer.
 * Contract: the timer never outlives the call.
 */
export async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
