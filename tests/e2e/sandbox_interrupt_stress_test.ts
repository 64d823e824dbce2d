/**
 * Issue 36.7: Ctrl+C during a sandboxed command, many times over at every moment of its
 * start and on a loaded machine, leaves no process of the command behind.
 */
import { assertEquals } from "@std/assert";
import { probeBwrap, Sandbox } from "../../src/sandbox/sandbox.ts";
import { skipWithout } from "../support/programs.ts";

const HAS_BWRAP = !skipWithout("bwrap") && await probeBwrap();

/** A busy loop per core for the test's length: the load under which the race showed. */
function load(): { stop(): Promise<void> } {
  const children = [0, 1].map(() =>
    new Deno.Command("bash", { args: ["-c", "while :; do :; done"], stdin: "null" }).spawn()
  );
  return {
    async stop() {
      for (const child of children) child.kill("SIGKILL");
      await Promise.all(children.map((child) => child.status));
    },
  };
}

async function survivors(mark: string): Promise<string> {
  let found = "";
  for (let attempt = 0; attempt < 20; attempt++) {
    const { stdout } = await new Deno.Command("pgrep", { args: ["-af", mark] }).output();
    found = new TextDecoder().decode(stdout);
    if (found === "") return "";
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return found;
}

Deno.test({
  name:
    "Sandbox.run() interrupted 40 times under load, at every moment of its start, leaves no process",
  ignore: !HAS_BWRAP,
  fn: async () => {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "powercode_stress_" }));
    const busy = load();
    try {
      const sandbox = new Sandbox(root, "bwrap");
      const mark = `1000.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
      const ends: string[] = [];
      for (let round = 0; round < 40; round++) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), round % 20);
        const { end } = await sandbox.run(`sleep ${mark}`, {
          timeoutMs: 20_000,
          signal: controller.signal,
        });
        clearTimeout(timer);
        ends.push(end.kind);
      }
      assertEquals(ends.filter((kind) => kind !== "aborted"), []);
      assertEquals(await survivors(mark), "");
    } finally {
      await busy.stop();
      await Deno.remove(root, { recursive: true });
    }
  },
});
