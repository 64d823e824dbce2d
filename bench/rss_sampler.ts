/**
 * Peak RSS without GNU time: samples VmHWM (each process's own high-water mark) of a
 * process and its descendants every 10 ms until the process is gone, then prints the
 * largest value in KiB. Deno allows reading /proc only with `--allow-all`, which the bench
 * task does not grant, so this runs as its own process.
 *
 * Usage: `deno run --allow-all bench/rss_sampler.ts <pid>`
 *
 * @module
 */

/** Milliseconds between samples. */
export const SAMPLE_MS = 10;

/**
 * Samples until `pid` exits (or is a zombie) and returns the peak VmHWM in KiB.
 * Contract: a process tree that ends within one sample may be missed (undefined).
 */
export async function samplePeak(pid: number): Promise<number | undefined> {
  let peak: number | undefined;
  for (;;) {
    const alive = /^VmHWM:/m.test(readOrEmpty(`/proc/${pid}/status`));
    if (!alive) return peak;
    for (const member of treeOf(pid)) {
      const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readOrEmpty(`/proc/${member}/status`))?.[1];
      if (hwm !== undefined) peak = Math.max(peak ?? 0, Number(hwm));
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
}

function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = readOrEmpty(`/proc/${entry.name}/stat`);
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(parent, [...children.get(parent) ?? [], Number(entry.name)]);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    tree.push(...children.get(tree[index] ?? -1) ?? []);
  }
  return tree;
}

function readOrEmpty(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

if (import.meta.main) console.log(String(await samplePeak(Number(Deno.args[0])) ?? ""));
