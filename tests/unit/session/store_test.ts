import { assertEquals, assertMatch, assertRejects } from "@std/assert";
import { assertLoadRefused, withStore, writeSession } from "../../support/store.ts";
import { Session, type SessionRecord } from "../../../src/session/session.ts";
import { SessionError, SessionStore } from "../../../src/session/store.ts";
import { pathsOf } from "../../support/tool_paths.ts";

const ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

function lines(path: string): unknown[] {
  return Deno.readTextFileSync(path).split("\n").filter((line) => line).map((l) => JSON.parse(l));
}

const USER: SessionRecord = { type: "message", message: { role: "user", content: "hello" } };
const USAGE: SessionRecord = { type: "usage", usage: { totalTokens: 10, historyLength: 1 } };

Deno.test("SessionStore.create() writes the header line before returning", async () => {
  await withStore((store, dir) => {
    const now = () => new Date().toISOString();
    const before = now();
    using file = store.create({ model: "gpt-test" });
    assertMatch(file.id, ID);
    assertEquals(file.path, `${dir}/${file.id}.jsonl`);
    const [header] = lines(file.path);
    const { created } = header as { created: unknown };
    assertEquals(header, { type: "session", version: 3, id: file.id, created, model: "gpt-test" });
    assertEquals(typeof created === "string" && created >= before && created <= now(), true);
    assertEquals(Deno.readTextFileSync(file.path).endsWith("}\n"), true);
  });
});

Deno.test("SessionFile.write() puts each record on disk before returning", async () => {
  await withStore((store) => {
    using file = store.create({ model: "m" });
    file.write(USER);
    assertEquals(lines(file.path).slice(1), [USER]);
    file.write(USAGE);
    assertEquals(lines(file.path).slice(1), [USER, USAGE]);
  });
});

Deno.test("SessionStore writes every string of a header and record through its redact", async () => {
  await withStore(async (_, dir) => {
    const store = new SessionStore(dir, {
      redact: (text) => text.replaceAll("sk-9", "[redacted]"),
    });
    const created = store.create({ model: "model-sk-9" });
    created.write({ type: "message", message: { role: "user", content: 'say "sk-9"' } });
    created.close();
    const loaded = await store.load(created.id);
    loaded.file.write({
      type: "message",
      message: { role: "assistant", content: "sk-9!", toolCalls: [] },
    });
    loaded.file.close();
    const text = Deno.readTextFileSync(created.path);
    assertEquals(text.includes("sk-9"), false);
    assertEquals(lines(created.path).slice(1), [
      { type: "message", message: { role: "user", content: 'say "[redacted]"' } },
      { type: "message", message: { role: "assistant", content: "[redacted]!", toolCalls: [] } },
    ]);
    assertEquals((lines(created.path)[0] as { model: string }).model, "model-[redacted]");
  });
});

Deno.test("SessionStore.load() round-trips every record type into an equal Session", async () => {
  await withStore(async (store) => {
    const written: SessionRecord[] = [];
    const file = store.create({ model: "m" });
    const original = new Session({
      sink: {
        write: (record) => (written.push(record), file.write(record)),
        close: () => file.close(),
      },
      pathsOf,
    });
    original.append({ role: "user", content: "read notes.md, then fix it" });
    original.append({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":"notes.md"}' }],
    });
    original.append({
      role: "tool",
      toolCallId: "c1",
      content: 'line 1\n"quoted" ünïcode',
      isError: false,
    });
    original.recordUsage({ totalTokens: 120, historyLength: 3 });
    original.applyCompaction({ summary: "Read notes.md.", compactedUntil: 2 }, {
      tokensBefore: 120,
      tokensAfter: 40,
    });
    original.recordUsage(undefined);
    original.recordProfile("big");
    original.append({
      role: "assistant",
      content: "Done.",
      toolCalls: [],
      reasoning: "r",
      replayReasoning: true,
      model: "big-model",
    });
    original.recordUsage({ totalTokens: 60, historyLength: 4 });
    original.recordPlanMode(true);
    file.close();

    const loaded = await store.load(file.id);
    loaded.file.close();
    assertEquals(loaded.records, written);
    assertEquals(loaded.warnings, []);
    assertEquals(loaded.header.id, file.id);
    const resumed = Session.fromRecords(loaded.records, { pathsOf });
    assertEquals(resumed.history, original.history);
    assertEquals(resumed.usage, { totalTokens: 60, historyLength: 4 });
    assertEquals(resumed.compaction, { summary: "Read notes.md.", compactedUntil: 2 });
    assertEquals(resumed.filesRead, ["notes.md"]);
    assertEquals(resumed.profile, "big");
    assertEquals(resumed.planMode, true);
  });
});

Deno.test("SessionStore.load() skips a torn last line and repairs the file", async () => {
  await withStore(async (store, dir) => {
    const path = await writeSession(dir, "s1", JSON.stringify(USER) + '\n{"type":"mess');
    const loaded = await store.load("s1");
    assertEquals(loaded.warnings, [`Skipped a torn last line in "${path}" (crash while writing?)`]);
    assertEquals(loaded.records, [USER]);
    const kept = Deno.readTextFileSync(path);
    assertEquals(kept.endsWith(`${JSON.stringify(USER)}\n`), true);
    loaded.file.write(USAGE);
    loaded.file.close();

    const again = await store.load("s1");
    again.file.close();
    assertEquals(again.warnings, []);
    assertEquals(again.records, [USER, USAGE]);
    assertEquals(Deno.readTextFileSync(path), `${kept}${JSON.stringify(USAGE)}\n`);
  });
});

Deno.test("SessionStore.load() keeps a complete last line that lacks its newline", async () => {
  await withStore(async (store, dir) => {
    await writeSession(dir, "s1", JSON.stringify(USER));
    const loaded = await store.load("s1");
    loaded.file.write(USAGE);
    loaded.file.close();
    assertEquals(loaded.warnings, []);
    const again = await store.load("s1");
    again.file.close();
    assertEquals(again.records, [USER, USAGE]);
  });
});

Deno.test("SessionStore.load() rejects a malformed line with its file and number", async () => {
  await withStore(async (store, dir) => {
    const cases: [string, string][] = [
      [`${JSON.stringify(USER)}\n{oops\n${JSON.stringify(USAGE)}\n`, "line 3 is not valid JSON"],
      ['{"type":"note"}\n', 'line 2 has unknown record type "note"'],
      ["[1]\n", "line 2 is not a JSON object"],
      ['{"type":"message","message":{"role":"user"}}\n', 'line 2 is not a valid "message" record'],
      [
        '{"type":"message","message":{"role":"assistant","content":"","toolCalls":[{"id":"c"}]}}\n',
        'line 2 is not a valid "message" record',
      ],
      [
        '{"type":"usage","usage":{"totalTokens":-1,"historyLength":0}}\n',
        'line 2 is not a valid "usage" record',
      ],
      [
        '{"type":"compaction","state":{"summary":"s"},"tokensBefore":1,"tokensAfter":1}\n',
        'line 2 is not a valid "compaction" record',
      ],
      ['{"type":"plan","on":"yes"}\n', 'line 2 is not a valid "plan" record'],
    ];
    await assertLoadRefused(store, dir, cases, Error);
  });
});

/** An assistant message calling tools `ids`, as a session line. */
function callsLine(...ids: string[]): string {
  const toolCalls = ids.map((id) => ({ id, name: "t", arguments: "{}" }));
  return JSON.stringify({
    type: "message",
    message: { role: "assistant", content: "", toolCalls },
  });
}

/** A tool result as a session line, with `isError` only when given. */
function resultLine(id: string, content: string, isError?: boolean): string {
  const message = {
    role: "tool",
    toolCallId: id,
    content,
    ...(isError === undefined ? {} : { isError }),
  };
  return JSON.stringify({ type: "message", message });
}

Deno.test("SessionStore writes whether a tool call failed (version 2 on) and reads it back", async () => {
  await withStore(async (store) => {
    const file = store.create({ model: "m" });
    const records: SessionRecord[] = [
      {
        type: "message",
        message: {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "a", name: "t", arguments: "{}" },
            { id: "b", name: "t", arguments: "{}" },
          ],
        },
      },
      {
        type: "message",
        message: { role: "tool", toolCallId: "a", content: "exit code 3", isError: true },
      },
      {
        type: "message",
        message: { role: "tool", toolCallId: "b", content: "Error: x", isError: false },
      },
    ];
    for (const record of records) file.write(record);
    file.close();
    const [header, ...written] = lines(file.path);
    assertEquals((header as { version: number }).version, 3);
    assertEquals(written, records);
    const loaded = await store.load(file.id);
    loaded.file.close();
    assertEquals(loaded.records, records);
  });
});

Deno.test("SessionStore.load() derives isError of version 1 tool results from their text, and requires it in version 2", async () => {
  await withStore(async (store, dir) => {
    const body = [
      callsLine("a", "b", "c"),
      resultLine("a", "Error: Cannot run t: boom"),
      resultLine("b", "exit code 3"),
      resultLine("c", "written after resuming", true),
    ].join("\n") + "\n";
    await writeSession(dir, "old", body);
    const loaded = await store.load("old");
    loaded.file.close();
    assertEquals(
      loaded.records.slice(1).map((record) => record.type === "message" && record.message),
      [
        { role: "tool", toolCallId: "a", content: "Error: Cannot run t: boom", isError: true },
        { role: "tool", toolCallId: "b", content: "exit code 3", isError: false },
        { role: "tool", toolCallId: "c", content: "written after resuming", isError: true },
      ],
    );
    const v2 = `${callsLine("a")}\n${resultLine("a", "Error: boom")}\n`;
    await writeSession(dir, "new", v2, { version: 2 });
    await assertRejects(
      () => store.load("new"),
      SessionError,
      'line 3 is not a valid "message" record',
    );
  });
});

Deno.test("SessionStore.load() refuses a session that is open elsewhere until it is closed", async () => {
  await withStore(async (store, dir) => {
    const created = store.create({ model: "m" });
    const inUse = (id: string) =>
      `Cannot resume session "${id}": another powercode process is using it ` +
      `("${dir}/${id}.jsonl" is locked); wait for it to end`;
    await assertRejects(() => store.load(created.id), SessionError, inUse(created.id));
    created.close();
    const first = await store.load(created.id);
    await assertRejects(() => store.load(created.id), SessionError, inUse(created.id));
    first.file.close();
    (await store.load(created.id)).file.close();
  });
});

Deno.test("SessionStore.load() rejects a missing header and an unsupported version", async () => {
  await withStore(async (store, dir) => {
    const path = `${dir}/bad.jsonl`;
    const cases: [string, string][] = [
      [JSON.stringify(USER) + "\n", "line 1 is not a session header"],
      ['{"type":"session","version":4,"id":"bad"}\n', "line 1 has unsupported version 4"],
      ['{"type":"session","version":1,"id":"bad"}\n', "line 1 is not a valid session header"],
      ["", "line 1 is not a session header"],
    ];
    await Deno.mkdir(dir, { recursive: true });
    for (const [text, reason] of cases) {
      await Deno.writeTextFile(path, text);
      const error = await assertRejects(() => store.load("bad"), Error);
      assertEquals(error.message, `Cannot load session "${path}": ${reason}`);
    }
  });
});

Deno.test("SessionStore.load() names the directory for an unknown id", async () => {
  await withStore(async (store, dir) => {
    for (const id of ["nope", "../sessions/nope", ""]) {
      const error = await assertRejects(() => store.load(id), Error);
      assertEquals(error.message, `Cannot resume session "${id}": no such session in ${dir}`);
    }
  });
});

Deno.test("SessionStore.latest() and list() put the most recently modified first", async () => {
  await withStore(async (store, dir) => {
    assertEquals(await store.latest(), undefined);
    assertEquals(await store.list(10), []);
    const long = `Fix   the\nparser ${"x".repeat(600)}`;
    const task = (content: string) =>
      JSON.stringify({ type: "message", message: { role: "user", content } });
    await writeSession(dir, "a", `${task("first")}\n${JSON.stringify(USAGE)}\n`);
    await writeSession(dir, "b", `${task(long)}\n${task("second")}\n`);
    await writeSession(dir, "c", "");
    await Deno.writeTextFile(`${dir}/broken.jsonl`, "{oops\n{}\n");
    await Deno.writeTextFile(`${dir}/notes.txt`, "not a session");
    for (const [id, seconds] of [["c", 1], ["a", 2], ["broken", 3], ["b", 4]] as const) {
      await Deno.utime(`${dir}/${id}.jsonl`, seconds, seconds);
    }

    assertEquals(await store.latest(), "b");
    const created = "2026-01-01T00:00:00.000Z";
    assertEquals(await store.list(10), [
      {
        id: "b",
        created,
        lastUsed: "1970-01-01T00:00:04.000Z",
        firstTask: `Fix the parser ${"x".repeat(484)}…`,
        messages: 2,
      },
      { id: "a", created, lastUsed: "1970-01-01T00:00:02.000Z", firstTask: "first", messages: 1 },
      { id: "c", created, lastUsed: "1970-01-01T00:00:01.000Z", firstTask: "", messages: 0 },
    ]);
    assertEquals((await store.list(1)).map((info) => info.id), ["b"]);
    using file = store.create({ model: "m" });
    assertEquals(await store.latest(), file.id);
  });
});

Deno.test("SessionStore: -p sessions are marked, listed after interactive ones, and latest() skips them", async () => {
  await withStore(async (store, dir) => {
    const task = (content: string) =>
      JSON.stringify({ type: "message", message: { role: "user", content } });
    const printed = store.create({ model: "m", origin: "print" });
    printed.write({ type: "message", message: { role: "user", content: "scripted" } });
    printed.close();
    assertEquals(await store.latest(), printed.id, "a -p session when there is no other");
    await writeSession(dir, "a", `${task("by hand")}\n`);
    await Deno.utime(`${dir}/a.jsonl`, 1, 1);
    assertEquals(await store.latest(), "a", "the interactive one, though older");
    assertEquals((await store.list(10)).map((info) => [info.id, info.print ?? false]), [
      ["a", false],
      [printed.id, true],
    ]);
    assertEquals((await store.list(1)).map((info) => info.id), ["a"]);
  });
});
