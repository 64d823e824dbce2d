/**
 * The cache contract, end to end: the REPL in-process, through the real chat client against
 * the strict fake server, driven through every feature that could touch the request prefix.
 * Each task request must start with the previous task request's system prompt, tool
 * definitions and messages, byte for byte, except right after the boundaries the README
 * names (a switch to another model, a compaction, an undo or rewind); and the session's
 * request records must say the same.
 */
import { assert, assertEquals } from "@std/assert";
import type { ProviderProfiles } from "../../src/config/profiles.ts";
import type { RequestRecord } from "../../src/session/mod.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { type RecordedRequest, startFakeServer } from "../support/fake_server.ts";
import { fakeServerEntry, writeMcpConfig } from "../support/mcp.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";
import { isSummaryRequest, lastMessage, lastUserText, text, toolCall } from "../support/scripts.ts";
import { skipWithout } from "../support/programs.ts";

const LIST = [{ text: "Write the test", status: "in_progress" }];

/** The prefix segments of a request as the server received them: system, tools, messages. */
function segments(request: RecordedRequest): string[] {
  const raw = request.raw as { tools?: unknown[]; messages: unknown[] };
  const [system, ...messages] = raw.messages;
  return [system, ...(raw.tools ?? []), ...messages].map((part) => JSON.stringify(part));
}

function extendsPrevious(now: string[], before: string[]): boolean {
  return before.every((segment, index) => now[index] === segment);
}

Deno.test({
  name:
    "cache contract: every feature keeps the prefix byte-equal, except after a model switch, a compaction or an undo",
  ignore: skipWithout("bwrap"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startFakeServer({
      promptCache: true,
      handler: (request, index) => {
        if (isSummaryRequest(request)) return text("## User Goal\nThe tasks so far.");
        const fresh = lastMessage(request)?.role === "user";
        const task = lastUserText(request);
        if (fresh && task.includes("use the todo tool")) return toolCall("todo", { items: LIST });
        if (fresh && task.includes("take your time")) {
          return text(`done-${index}`, { delayMs: 1500 });
        }
        return text(`done-${index}`);
      },
    });
    const providers: ProviderProfiles = {
      defaultProfile: "main",
      profiles: new Map([
        ["main", { baseURL: server.url, apiKey: "k", model: "m", contextWindow: 32000 }],
        ["other", { baseURL: server.url, apiKey: "k", model: "m2", contextWindow: 32000 }],
      ]),
      named: true,
    };
    const dir = await Deno.makeTempDir({ prefix: "powercode-cache-" });
    try {
      await prepare(dir);
      const mcp = {
        configDir: `${dir}/.powercode`,
        stateDir: `${dir}/.powercode`,
        env: () => undefined,
        version: "0.0.0-test",
      };
      const boundaries = new Set<number>();
      const boundary = () => boundaries.add(server.requests.length);
      const open = (resume: boolean) =>
        openReplDouble([], {
          dir,
          height: 40,
          assemble: () => ({
            providers,
            mcp,
            ...(resume ? { session: { kind: "latest" as const } } : {}),
          }),
        });

      const repl = await open(false);
      const step = stepper(repl, server.requests);
      await step.task("hello");
      await step.command("/plan on", "Plan mode on");
      await step.task("plan the work");
      await step.command("/plan off", "Plan mode off");
      await step.task("use the todo tool");
      await step.task("/greet Ann");
      await step.task("/skill:notes");
      await step.command("/mcp restart fake", "fake");
      await step.task("after the restart");
      await step.command("/model main", "main");
      await step.task("same model");
      boundary();
      await step.command("/model other", "other");
      await step.task("other model");
      await step.command("/effort high", "high");
      await step.task("with effort");
      await step.command("!echo shell-output", "shell-output");
      await step.task("after the command");
      await step.task("read @note.txt");
      await step.steer("take your time", "steered message");
      await step.command("/approval edits", "edits");
      await step.task("after approval");
      boundary();
      await step.command("/undo", "undo");
      await step.task("after undo");
      boundary();
      await step.command("/rewind 4 --chat", "Rewound");
      await step.task("after rewind");
      boundary();
      await step.command("/compact", "compress");
      await step.task("after compaction");
      await step.command("/cache", "Cache:");
      const cacheLines = repl.lines().filter((line) => line.includes("Cache:"));
      assertEquals(await repl.end(), 0);

      const resumed = await open(true);
      await stepper(resumed, server.requests).task("after resume");
      assertEquals(await resumed.end(), 0);

      const tasks = server.requests.map((request, index) => ({ request, index }))
        .filter(({ request }) => !isSummaryRequest(request));
      assert(tasks.length >= 18, `${tasks.length} task requests`);
      const breaks: number[] = [];
      for (let i = 1; i < tasks.length; i++) {
        const [before, now] = [tasks[i - 1]!, tasks[i]!];
        if (!extendsPrevious(segments(now.request), segments(before.request))) {
          breaks.push(now.index);
        }
      }
      const allowed = (index: number) =>
        [...boundaries].some((at) =>
          at <= index && !tasks.some((t) => t.index >= at && t.index < index)
        );
      assertEquals(breaks.filter((index) => !allowed(index)), []);
      assert(breaks.length > 0, "the compaction changes the prefix");

      // The session's records say the same: one per task request, each miss at a boundary.
      const records = await requestRecords(`${dir}/state/sessions`);
      assertEquals(records.length, tasks.length);
      const misses = records.filter((record) => record.miss !== undefined);
      assertEquals(misses.length, breaks.length);
      assertEquals(misses.filter((record) => record.miss?.after === undefined), []);
      assert(
        cacheLines.some((line) => line.includes("served from the provider's cache")),
        `${cacheLines}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

async function requestRecords(sessions: string): Promise<RequestRecord[]> {
  const records: RequestRecord[] = [];
  for await (const entry of Deno.readDir(sessions)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    const lines = (await Deno.readTextFile(`${sessions}/${entry.name}`)).split("\n");
    for (const line of lines.filter((line) => line.includes('"type":"request"'))) {
      records.push(JSON.parse(line));
    }
  }
  return records;
}

/** The workspace's files: a note, a custom command, a skill, the MCP config. */
async function prepare(dir: string): Promise<void> {
  const workspace = `${dir}/workspace`;
  await Deno.mkdir(`${workspace}/.powercode/commands`, { recursive: true });
  await Deno.mkdir(`${workspace}/.powercode/skills/notes`, { recursive: true });
  await Deno.mkdir(`${dir}/.powercode`, { recursive: true });
  await Deno.writeTextFile(`${workspace}/note.txt`, "a note\n");
  await Deno.writeTextFile(`${workspace}/.powercode/commands/greet.md`, "Greet $ARGUMENTS.\n");
  await Deno.writeTextFile(
    `${workspace}/.powercode/skills/notes/SKILL.md`,
    "---\nname: notes\ndescription: Takes notes\n---\nTake notes.\n",
  );
  await writeMcpConfig(`${dir}/.powercode/mcp.json`, { fake: await fakeServerEntry(workspace) });
}

/** Types tasks and commands and waits until each is done. */
function stepper(repl: ReplDouble, requests: readonly RecordedRequest[]) {
  const answered = (from: number) => (lines: string[]) =>
    lines.some((line) => {
      const match = /done-(\d+)/.exec(line);
      return match !== null && Number(match[1]) >= from;
    });
  const idle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    await repl.until((lines) => !lines.some((line) => line.includes("interrupt")), "idle");
  };
  return {
    async task(line: string) {
      const from = requests.length;
      await repl.type(`${KEYS.ctrlU}${line}${KEYS.enter}`);
      await repl.until(answered(from), `the answer to ${line}`);
      await idle();
    },
    async command(line: string, shows: string) {
      await repl.type(`${KEYS.ctrlU}${line}${KEYS.enter}`);
      await repl.until((lines) => lines.some((l) => l.includes(shows)), line);
      await idle();
    },
    async steer(line: string, queued: string) {
      const from = requests.length;
      await repl.type(`${KEYS.ctrlU}${line}${KEYS.enter}`);
      await repl.until(() => requests.length > from, "the slow request");
      await repl.type(`${queued}${KEYS.enter}`);
      await repl.until(answered(from + 1), "the answer after the steering");
      await idle();
    },
  };
}
