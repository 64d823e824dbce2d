import { assertEquals, assertThrows } from "@std/assert";
import {
  compactionThreshold,
  resolveCompactionSettings,
  summaryTokenLimit,
  validateCompactionSettings,
} from "../../../src/context/settings.ts";

Deno.test("resolveCompactionSettings() keeps the defaults for a 128k window", () => {
  const settings = resolveCompactionSettings({ contextWindow: 128_000 });
  assertEquals(settings, { contextWindow: 128_000, reserveTokens: 16384, keepRecentTokens: 20000 });
  assertEquals(compactionThreshold(settings), 111_616);
});

Deno.test("resolveCompactionSettings() clamps the defaults for a 32k window", () => {
  const settings = resolveCompactionSettings({ contextWindow: 32768 });
  assertEquals(settings, { contextWindow: 32768, reserveTokens: 8192, keepRecentTokens: 6144 });
  assertEquals(compactionThreshold(settings), 24576);
});

Deno.test("resolveCompactionSettings() clamps the defaults for an 8k window", () => {
  const settings = resolveCompactionSettings({ contextWindow: 8000 });
  assertEquals(settings, { contextWindow: 8000, reserveTokens: 2000, keepRecentTokens: 1500 });
  assertEquals(compactionThreshold(settings), 6000);
});

Deno.test("resolveCompactionSettings() uses explicit values as given", () => {
  assertEquals(
    resolveCompactionSettings({ contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 4000 }),
    { contextWindow: 8000, reserveTokens: 1000, keepRecentTokens: 4000 },
  );
});

Deno.test("resolveCompactionSettings() raises the reserve to maxOutputTokens", () => {
  assertEquals(resolveCompactionSettings({ contextWindow: 8192, maxOutputTokens: 4096 }), {
    contextWindow: 8192,
    reserveTokens: 4096,
    keepRecentTokens: 1024,
    maxOutputTokens: 4096,
  });
  assertEquals(
    resolveCompactionSettings({
      contextWindow: 128_000,
      reserveTokens: 1000,
      maxOutputTokens: 2000,
    })
      .reserveTokens,
    2000,
  );
});

Deno.test("validateCompactionSettings() names every field that cannot work", () => {
  assertEquals(validateCompactionSettings({ contextWindow: 128_000 }), []);
  assertEquals(
    validateCompactionSettings({ contextWindow: 8000, reserveTokens: 8000, maxOutputTokens: 9000 }),
    [
      'field "reserveTokens" (8000) must be below contextWindow',
      'field "maxOutputTokens" (9000) must be below contextWindow',
    ],
  );
  assertEquals(validateCompactionSettings({ contextWindow: 8000, keepRecentTokens: 7000 }), [
    'field "keepRecentTokens" (7000) must be below contextWindow - reserveTokens (6000)',
  ]);
  assertEquals(validateCompactionSettings({ contextWindow: 0, reserveTokens: 1.5 }), [
    'field "contextWindow" (0) must be a positive integer',
    'field "reserveTokens" (1.5) must be a positive integer',
  ]);
});

Deno.test("resolveCompactionSettings() throws RangeError for a reserve as large as the window", () => {
  assertThrows(
    () => resolveCompactionSettings({ contextWindow: 8000, reserveTokens: 9000 }),
    RangeError,
    'Cannot use compaction settings: field "reserveTokens" (9000) must be below contextWindow',
  );
});

Deno.test("summaryTokenLimit() stays under a quarter of the threshold and under 4000", () => {
  const limits = [128_000, 32768, 8000].map((contextWindow) =>
    summaryTokenLimit(resolveCompactionSettings({ contextWindow }))
  );
  assertEquals(limits, [4000, 4000, 1500]);
});
