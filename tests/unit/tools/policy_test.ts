import { assertEquals } from "@std/assert";
import { allOf, type RunTool, type ToolPolicy } from "../../../src/tools/mod.ts";

/** A policy that allows and wraps the run, noting `name` before and after it. */
function wrapping(name: string, log: string[]): ToolPolicy {
  return () => ({
    kind: "allow",
    around: async (run: RunTool) => {
      log.push(`${name} before`);
      const output = await run();
      log.push(`${name} after`);
      return { ...output, content: `${output.content}+${name}` };
    },
  });
}

Deno.test("allOf() nests the arounds of the allowing policies, the first outermost, and runs the tool once", async () => {
  const log: string[] = [];
  const policy = allOf(wrapping("a", log), () => ({ kind: "allow" }), wrapping("b", log));
  const request = { name: "t", effect: "read" as const, args: {}, paths: {} };
  const verdict = await policy(request);
  if (verdict.kind !== "allow" || !verdict.around) throw new Error("expected an around");
  const output = await verdict.around(() => {
    log.push("run");
    return Promise.resolve({ content: "out", summary: "" });
  });
  assertEquals(output, { content: "out+b+a", summary: "" });
  assertEquals(log, ["a before", "b before", "run", "b after", "a after"]);
});

Deno.test("allOf(): what an outer policy grants reaches the tool through an inner around", async () => {
  const host = { hosts: ["pkg.example"], dirs: [] };
  const policy = allOf(
    () => ({ kind: "allow", around: (run) => run(host) }),
    () => ({ kind: "allow", around: (run) => run() }),
  );
  const request = { name: "bash", effect: "exec" as const, args: {}, paths: {} };
  const verdict = await policy(request);
  if (verdict.kind !== "allow" || !verdict.around) throw new Error("expected an around");
  let received: unknown;
  await verdict.around((grant) => {
    received = grant;
    return Promise.resolve({ content: "", summary: "" });
  });
  assertEquals(received, host);
});
