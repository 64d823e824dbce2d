/**
 * End-to-end: the line editor on a real pseudo-terminal (tmux), through a small driver
 * that reports each submitted line: bracketed pastes (one submission, compact display,
 * speed), wrapping in a narrow pane, type-ahead while busy, history across runs.
 */
import { assert, assertEquals } from "@std/assert";
import { waitUntil } from "../support/processes.ts";
import { childEnv } from "../support/project.ts";
import { startTmux, type TmuxPane } from "../support/tmux.ts";
import { wrapText } from "../../src/terminal/wrap.ts";
import { tmuxTest } from "../support/programs.ts";

const DRIVER = new URL("../support/editor_driver.ts", import.meta.url).pathname;

async function startDriver(history: string, columns = 80): Promise<TmuxPane> {
  const pane = await startTmux({
    cwd: Deno.cwd(),
    command: `deno run --quiet --allow-read --allow-write ${DRIVER} ${history}`,
    env: { ...childEnv(), TERM: "xterm-256color" },
    columns,
    rows: 20,
  });
  await pane.waitFor((screen) => lastLine(screen) === ">", "the prompt");
  return pane;
}

function lines(screen: string): string[] {
  return screen.split("\n").map((line) => line.trimEnd()).filter((line) => line !== "");
}

function lastLine(screen: string): string | undefined {
  return lines(screen).at(-1);
}

/** `text` wrapped by word at `width` columns, as the editor lays out its input (issue 19.11). */
function rowsOf(text: string, width: number): string[] {
  return wrapText(text, width);
}

function sameRows(actual: string[], expected: string[]): boolean {
  return actual.join("\n") === expected.join("\n");
}

async function withHistory(test: (history: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pc-history-" });
  try {
    await test(`${dir}/history`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

tmuxTest(
  "line editor on a terminal shows a 7 KB one-line paste at once and submits it whole",
  async () => {
    await withHistory(async (history) => {
      await using pane = await startDriver(history);
      await pane.type("fix this: ");
      const started = performance.now();
      await pane.paste("x".repeat(7199) + " end!");
      await pane.waitFor((s) => lastLine(s) === "> fix this: [pasted 7204 chars]", "the paste");
      const ms = performance.now() - started;
      console.log(`7 KB paste shown after ${ms.toFixed(0)} ms`);
      assert(ms < 1000, `the paste took ${ms} ms to appear`);
      await pane.keys("Enter");
      await pane.waitFor(
        (s) => s.includes("got 7214 chars, 1 lines: fix this: xxx"),
        "the submission",
      );
    });
  },
);

tmuxTest(
  "line editor on a terminal makes a 5-line paste one submission and shows its lines",
  async () => {
    await withHistory(async (history) => {
      await using pane = await startDriver(history);
      await pane.paste("one\ntwo\nthree\nfour\nfive");
      await pane.waitFor(
        (s) => lines(s).slice(-5).join("|") === "> one|  two|  three|  four|  five",
        "the rows",
      );
      await pane.keys("Enter");
      const screen = await pane.waitFor(
        (s) => lastLine(s) === ">" && s.includes("got"),
        "one task",
      );
      assertEquals(lines(screen).filter((line) => line.startsWith("got")), [
        "got 23 chars, 5 lines: one↵two↵three↵four↵five",
      ]);
    });
  },
);

tmuxTest(
  "line editor on a 50-column terminal wraps a long line by word and follows a resize",
  async () => {
    await withHistory(async (history) => {
      await using pane = await startDriver(history, 50);
      const text = "the quick brown fox jumps over the lazy dog ".repeat(3).trim();
      await pane.type(text);
      await pane.waitFor(
        (s) => sameRows(lines(s).slice(-3), rowsOf(`> ${text}`, 50)),
        "three rows of 50 columns",
      );
      await pane.resize(40);
      await pane.waitFor(
        (s) => sameRows(lines(s).slice(-4), rowsOf(`> ${text}`, 40)),
        "four rows of 40 columns after the resize",
      );
      await pane.keys("Enter");
      await pane.waitFor((s) => s.includes(`got ${text.length} chars, 1 lines`), "the whole line");
    });
  },
);

tmuxTest(
  "line editor on a terminal holds keys typed while busy and shows them in the next prompt",
  async () => {
    await withHistory(async (history) => {
      await using pane = await startDriver(history);
      await pane.type("busy");
      await pane.keys("Enter");
      await pane.waitFor((s) => s.includes("got 4 chars"), "the busy task");
      await pane.type("typed ahead");
      const during = await pane.screen();
      assertEquals(during.includes("typed ahead"), false, during);
      const screen = await pane.waitFor((s) => lastLine(s) === "> typed ahead", "the next prompt");
      assertEquals(lines(screen).slice(-2), ["done", "> typed ahead"]);
    });
  },
);

tmuxTest("line editor on a terminal recalls history from an earlier run with Up", async () => {
  await withHistory(async (history) => {
    {
      await using pane = await startDriver(history);
      await pane.type("remember me");
      await pane.keys("Enter");
      await pane.waitFor((s) => s.includes("got 11 chars"), "the first run's line");
      await pane.keys("C-d");
      await waitUntil(async () => (await pane.end()).dead, "the first run to end on Ctrl+D");
    }
    await using pane = await startDriver(history);
    await pane.keys("Up");
    await pane.waitFor((s) => lastLine(s) === "> remember me", "the recalled line");
  });
});
