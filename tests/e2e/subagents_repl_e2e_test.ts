/**
 * End-to-end on a real terminal (tmux): three children running at once each show as their
 * tool line with a live row of their current step; Ctrl+C cancels all of them and kills
 * their commands, the next task's child works, and `/cost` splits the session by child.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { INTERRUPTED_RESULT } from "../../src/agent/agent.ts";
import type { HandledRequest, Reply } from "../support/replies.ts";
import { startFakeServer } from "../support/fake_server.ts";
import {
  lastMessage,
  lastUserText,
  systemText,
  text,
  toolCall,
  toolCalls,
} from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { processesMatching, waitUntil } from "../support/processes.ts";
import { provider } from "../support/sessions.ts";
import { screenLines, startInTmux, typeTask, waitForPrompt } from "../support/repl_pane.ts";
import { tmuxTest } from "../support/programs.ts";

const JOBS = ["job A", "job B", "job C"];

tmuxTest(
  "Ctrl+C during three children kills all their commands; the next task's child works; /cost splits by child",
  async () => {
    const stamp = crypto.getRandomValues(new Uint32Array(1))[0];
    // A `sleep` per child no other process runs, so pgrep finds exactly this test's.
    const sleeps = JOBS.map((_, index) => `sleep 40.${stamp}${index}`);
    const handler = (request: HandledRequest): Reply => {
      const last = lastMessage(request);
      const job = lastUserText(request);
      if (systemText(request).includes('Agent "explore"')) {
        if (job === "job D") return text("answer D");
        return toolCall("bash", { command: sleeps[JOBS.indexOf(job)] ?? "false" });
      }
      if (job.endsWith("and now?")) {
        return last?.role === "tool"
          ? text("Fine.")
          : toolCall("task", { description: "job D", prompt: "job D" });
      }
      return toolCalls(JOBS.map((job, index) => ({
        id: `call_${index + 1}`,
        name: "task",
        args: { description: job, prompt: job },
      })));
    };
    await using server = await startFakeServer({ model: "fake-model", handler });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    await using pane = await startInTmux(project, { env: { NO_COLOR: "1" } });
    await typeTask(pane, "fan out");
    const live = await pane.waitFor(
      (screen) => JOBS.every((job) => screen.includes(`⋯ explore · ${job}: step 1 · ● bash`)),
      "a live row per child at its bash step",
    );
    for (const job of JOBS) assert(live.includes(`● task explore · ${job}`), live);
    for (const sleep of sleeps) {
      await waitUntil(async () => (await processesMatching(sleep)).length > 0, `${sleep} to run`);
    }

    await pane.keys("C-c");
    await pane.waitFor(
      (screen) => screen.includes("⏹ Interrupted; the session is kept, type the next task"),
      "the interrupted line",
    );
    await waitForPrompt(pane, "the prompt after Ctrl+C");
    for (const sleep of sleeps) {
      await waitUntil(async () => (await processesMatching(sleep)).length === 0, "no sleep left", {
        timeoutMs: 10_000,
        detail: async () => (await processesMatching(sleep)).join("\n"),
      });
    }

    const before = server.requests.length;
    await typeTask(pane, "and now?");
    await pane.waitFor((screen) => screen.includes("Fine."), "the next answer");
    await waitForPrompt(pane, "the prompt after the next answer");
    const next = server.requests.slice(before);
    assertEquals(next.map((request) => request.status), [200, 200, 200]);
    const interrupted = (next[0]?.body?.messages ?? []).filter((message) =>
      message.role === "tool"
    );
    assertEquals(interrupted.length, 3);
    for (const message of interrupted) {
      assert(String(message.content).endsWith(INTERRUPTED_RESULT), String(message.content));
    }
    const [answer] = (next[2]?.body?.messages ?? []).filter((m) => m.role === "tool").slice(-1);
    assert(String(answer?.content).startsWith("answer D\n\n[agent explore: 1 step, "));

    await typeTask(pane, "/cost");
    const screen = await pane.waitFor(
      (screen) => screen.includes("explore · job D:"),
      "the children's lines of /cost",
    );
    const lines = screenLines(screen);
    const from = lines.indexOf("Subagents of this session (counted in it above):");
    assert(from > 0, screen);
    const rows = lines.slice(from + 1, from + 5);
    assertEquals(rows.map((row) => row.split(":")[0]), [
      "  explore · job A",
      "  explore · job B",
      "  explore · job C",
      "  explore · job D",
    ]);
    for (const row of rows) assert(/: 1 request, \d+ tokens: prompt \d+/.test(row), row);
  },
);
