import { assertEquals } from "@std/assert";
import { describeCache } from "../../../src/commands/cache.ts";
import { wireSegments } from "../../../src/model/mod.ts";
import { Session } from "../../../src/session/mod.ts";
import type { SessionRecord } from "../../../src/session/mod.ts";
import { firstDifferentByte, segmentHash } from "../../../src/session/prefix_log.ts";

const segment = (name: string, text: string) => ({ name, text });

Deno.test("Session.recordRequest() writes only the segments after the run shared with the request before", () => {
  const written: SessionRecord[] = [];
  const session = new Session({ sink: { write: (r) => written.push(r), close: () => {} } });
  const first = [segment("system prompt", "S"), segment("message 1 (user)", "a")];
  session.recordRequest(first, { prompt: 100, cached: 0 });
  session.recordRequest([...first, segment("message 2 (assistant)", "b")], {
    prompt: 120,
    cached: 90,
  });
  assertEquals(written, [
    { type: "request", keep: 0, add: [segmentHash("S"), segmentHash("a")], prompt: 100, cached: 0 },
    { type: "request", keep: 2, add: [segmentHash("b")], prompt: 120, cached: 90 },
  ]);
  assertEquals(session.requests, {
    requests: 2,
    reported: 2,
    promptTokens: 220,
    cachedTokens: 90,
    misses: 0,
  });
});

Deno.test("Session.recordRequest() names the segment and byte of a miss, and the boundary before it", () => {
  const session = new Session();
  session.recordRequest([segment("system prompt", "S"), segment("message 1 (user)", "héllo")]);
  session.applyCompaction({ summary: "x", compactedUntil: 0 }, { tokensBefore: 1, tokensAfter: 1 });
  session.recordRequest([segment("system prompt", "S"), segment("message 1 (user)", "héllO")]);
  assertEquals(session.requests.lastMiss, {
    segment: 1,
    name: "message 1 (user)",
    byte: 5,
    after: "compaction",
    request: 2,
  });
  session.recordRequest([segment("system prompt", "T")]);
  assertEquals(session.requests.lastMiss, {
    segment: 0,
    name: "system prompt",
    byte: 0,
    request: 3,
  });
});

Deno.test("Session.fromRecords() rebuilds the request log; a miss after it has no byte", () => {
  const written: SessionRecord[] = [];
  const session = new Session({ sink: { write: (r) => written.push(r), close: () => {} } });
  session.recordRequest([segment("system prompt", "S"), segment("message 1 (user)", "a")]);
  const resumed = Session.fromRecords(written);
  resumed.recordRequest([segment("system prompt", "S"), segment("message 1 (user)", "b")]);
  assertEquals(resumed.requests.lastMiss, { segment: 1, name: "message 1 (user)", request: 2 });
});

Deno.test("firstDifferentByte() counts UTF-8 bytes of whole characters", () => {
  assertEquals(firstDifferentByte("abc", "abd"), 2);
  assertEquals(firstDifferentByte("é😀x", "é😁x"), 2);
  assertEquals(firstDifferentByte("ab", "ab"), 2);
});

Deno.test("wireSegments() gives the system prompt, each tool, each message; a cache mark taken off", () => {
  const tool = {
    type: "function",
    function: { name: "read_file", description: "", parameters: {} },
  };
  const marked = [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }];
  assertEquals(
    wireSegments({
      messages: [{ role: "system", content: marked }, { role: "user", content: "hi" }],
      tools: [tool],
    }),
    [
      { name: "system prompt", text: '{"role":"system","content":"hi"}' },
      { name: "tool read_file", text: JSON.stringify(tool) },
      { name: "message 1 (user)", text: '{"role":"user","content":"hi"}' },
    ],
  );
});

Deno.test("describeCache() gives the provider's cached share and where the last miss differed", () => {
  assertEquals(
    describeCache({ requests: 0, reported: 0, promptTokens: 0, cachedTokens: 0, misses: 0 }),
    "Cache: no request sent in this session yet",
  );
  assertEquals(
    describeCache({
      requests: 4,
      reported: 4,
      promptTokens: 4000,
      cachedTokens: 3000,
      misses: 1,
      lastMiss: { segment: 3, name: "message 2 (assistant)", byte: 17, request: 4 },
    }),
    [
      "Cache: 3000 of 4000 prompt tokens served from the provider's cache (75.0 %), 4 of 4 requests reported",
      "  1 requests changed the prefix; the last, request 4, first differed from the one before at " +
      "message 2 (assistant), byte 17 (with no compaction, model switch or undo before it)",
    ].join("\n"),
  );
});
