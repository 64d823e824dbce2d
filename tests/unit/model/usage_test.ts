import { assertEquals } from "@std/assert";
import { readUsage } from "../../../src/model/usage.ts";

Deno.test("readUsage() reads each provider's cached-token field", () => {
  const base = { "prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050 };
  const cached = (extra: Record<string, unknown>) => readUsage({ ...base, ...extra })?.cachedTokens;
  assertEquals(cached({ prompt_tokens_details: { cached_tokens: 768 } }), 768);
  assertEquals(cached({ prompt_cache_hit_tokens: 512, prompt_cache_miss_tokens: 488 }), 512);
  assertEquals(cached({ cached_tokens: 256 }), 256);
  assertEquals(cached({}), 0);
  // A count larger than the prompt is cut to it; a malformed one counts as absent.
  assertEquals(cached({ cached_tokens: 5000 }), 1000);
  assertEquals(cached({ prompt_tokens_details: { cached_tokens: "768" } }), 0);
});

Deno.test("readUsage() needs a prompt count and counts reasoning reported apart as output", () => {
  assertEquals(readUsage({ total_tokens: 20 }), undefined);
  assertEquals(readUsage({ prompt_tokens: "10", completion_tokens: 5 }), undefined);
  assertEquals(readUsage({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 40 }), {
    promptTokens: 10,
    completionTokens: 30,
    cachedTokens: 0,
  });
  assertEquals(readUsage({ prompt_tokens: 10 }), {
    promptTokens: 10,
    completionTokens: 0,
    cachedTokens: 0,
  });
});
