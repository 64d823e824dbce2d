import { assertEquals, assertRejects } from "@std/assert";
import { delay } from "../../../src/core/delay.ts";

Deno.test("delay() resolves after the given time", async () => {
  const start = performance.now();
  await delay(20);
  assertEquals(performance.now() - start >= 19, true);
});

Deno.test("delay() rejects with the abort reason as soon as the signal aborts", async () => {
  const controller = new AbortController();
  const start = performance.now();
  setTimeout(() => controller.abort(new Error("stop")), 10);
  await assertRejects(() => delay(60_000, controller.signal), Error, "stop");
  assertEquals(performance.now() - start < 5_000, true);
});

Deno.test("delay() rejects at once on an already aborted signal", async () => {
  await assertRejects(() => delay(60_000, AbortSignal.abort(new RangeError("no"))), RangeError);
});
