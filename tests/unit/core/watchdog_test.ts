import { assertEquals } from "@std/assert";
import { watchdog } from "../../../src/core/mod.ts";

const sleep = (ms: number) => new Promise((resolve) => AbortSignal.timeout(ms).onabort = resolve);

Deno.test("a watchdog left alone expires once", async () => {
  let expired = 0;
  const done = Promise.withResolvers<void>();
  watchdog(20, () => {
    expired++;
    done.resolve();
  });
  await done.promise;
  await sleep(60);
  assertEquals(expired, 1);
});

Deno.test("touching a watchdog moves its deadline back", async () => {
  let expiredAt: number | undefined;
  const start = performance.now();
  const dog = watchdog(300, () => expiredAt = performance.now() - start);
  for (let touched = 0; touched < 20; touched++) {
    await sleep(30);
    dog.touch();
  }
  const lastTouch = performance.now() - start;
  assertEquals(expiredAt, undefined);
  while (expiredAt === undefined) await sleep(20);
  // It expired a whole period after the last touch, not a period after it was made.
  assertEquals(expiredAt >= lastTouch + 290, true, `expired at ${expiredAt} ms`);
});

Deno.test("a stopped watchdog never expires", async () => {
  let expired = false;
  const dog = watchdog(10, () => expired = true);
  dog.stop();
  await sleep(60);
  assertEquals(expired, false);
});
