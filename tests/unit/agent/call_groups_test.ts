import { assertEquals } from "@std/assert";
import { groupCalls, Slots } from "../../../src/agent/call_groups.ts";

const call = (id: string, name: string) => ({ id, name, arguments: "{}" });

Deno.test("groupCalls puts each run of concurrent calls in one group and every other call alone", () => {
  const calls = [
    call("1", "task"),
    call("2", "task"),
    call("3", "bash"),
    call("4", "task"),
    call("5", "read_file"),
    call("6", "read_file"),
  ];
  const groups = groupCalls(calls, (name) => name === "task");
  assertEquals(groups.map((group) => group.map((c) => c.id)), [
    ["1", "2"],
    ["3"],
    ["4"],
    ["5"],
    ["6"],
  ]);
});

Deno.test("Slots runs at most its size at once; the rest wait, and one aborted while waiting is skipped", async () => {
  const slots = new Slots(2);
  const controller = new AbortController();
  let running = 0;
  let most = 0;
  const gates = [0, 1, 2, 3].map(() => Promise.withResolvers<void>());
  const work = (index: number) => async () => {
    running++;
    most = Math.max(most, running);
    await gates[index]?.promise;
    running--;
    return `ran ${index}`;
  };
  const results = [0, 1, 2, 3].map((index) =>
    slots.run(work(index), () => `skipped ${index}`, controller.signal)
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  assertEquals(running, 2);
  gates[0]?.resolve();
  await results[0];
  await new Promise((resolve) => setTimeout(resolve, 10));
  assertEquals(running, 2, "the third started in the place the first left");
  controller.abort();
  gates[1]?.resolve();
  gates[2]?.resolve();
  assertEquals(await Promise.all(results), ["ran 0", "ran 1", "ran 2", "skipped 3"]);
  assertEquals(most, 2);
});
