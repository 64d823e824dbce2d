/**
 * The line editor's keys of issue 19: Ctrl+Y, Ctrl+R, Ctrl+Z and Ctrl+L, the label of a
 * paste kept for the redraw, and the input shown below a running task (`busy`): Enter and
 * Alt+Enter queue, Esc is reported, queued text comes back with `restore`.
 */
import { assertEquals } from "@std/assert";
import type { PaintedInput, Submitted } from "../../../src/editor/busy_input.ts";
import { InputHistory } from "../../../src/editor/input_history.ts";
import { LineEditor } from "../../../src/editor/line_editor.ts";
import { fakeTerminal, KEYS } from "../../support/fake_terminal.ts";

const CTRL_R = "\x12";
const CTRL_Y = "\x19";
const CTRL_Z = "\x1a";
const CTRL_L = "\x0c";
const ESC = "\x1b";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function open(history: string[] = []) {
  const term = fakeTerminal(40);
  let suspended = 0;
  const editor = new LineEditor({
    io: term.io,
    onInterrupt: () => {},
    history: new InputHistory(history, 100),
    color: false,
    escapeTimeoutMs: 5,
    onSuspend: () => suspended++,
  });
  return {
    term,
    editor,
    suspended: () => suspended,
    async [Symbol.asyncDispose]() {
      editor.close();
      term.end();
      await editor.done;
    },
  };
}

/** Busy handlers that record what they get. */
function busyRecorder() {
  const queued: Array<[Submitted, string]> = [];
  const events: string[] = [];
  let last: PaintedInput | undefined;
  return {
    queued,
    events,
    shown: () => last?.rows.map((row) => row.trimEnd()).join("\n"),
    cursor: () => last?.cursor,
    handlers: {
      draw: (input: PaintedInput) => {
        last = input;
      },
      submit: (entry: Submitted, kind: "steer" | "follow") => queued.push([entry, kind]),
      escape: () => events.push("escape"),
      recall: () => queued.splice(0).map(([entry]) => entry),
      clear: () => events.push("clear"),
      pause: () => events.push("pause"),
    },
  };
}

Deno.test("LineEditor while busy: Alt+Up takes the queued lines back before what is typed", async () => {
  await using h = open();
  const busy = busyRecorder();
  const stop = h.editor.busy(busy.handlers);
  await h.term.type(`one${KEYS.enter}two${KEYS.altEnter}three`);
  assertEquals(busy.queued.length, 2);
  await h.term.type("\x1b[1;3A");
  assertEquals(busy.queued, [], "taken out of the queue");
  assertEquals(busy.shown(), "> one\n  two\n  three");
  await h.term.type("\x1b[1;3A");
  assertEquals(busy.shown(), "> one\n  two\n  three", "nothing more to take back");
  stop();
});

Deno.test("LineEditor yanks with Ctrl+Y what Ctrl+W cut, a paste as a paste", async () => {
  await using h = open();
  const line = h.editor.next("> ");
  const paste = "p".repeat(2000);
  await h.term.type(`keep ${KEYS.paste(paste)}${KEYS.ctrlW}${KEYS.ctrlA}${CTRL_Y}`);
  assertEquals(h.term.lines(), ["> [pasted 2000 chars]keep"]);
  await h.term.type(KEYS.enter);
  assertEquals(await line, `${paste}keep `);
});

Deno.test("LineEditor searches the history backwards with Ctrl+R and takes the match on Enter", async () => {
  await using h = open(["fix the parser", "run the tests", "fix the lexer"]);
  const line = h.editor.next("> ");
  await h.term.type(`${CTRL_R}fix`);
  assertEquals(h.term.lines(), ["(reverse-i-search)'fix': fix the lexer"]);
  await h.term.type(CTRL_R);
  assertEquals(h.term.lines(), ["(reverse-i-search)'fix': fix the parser"]);
  await h.term.type(KEYS.enter);
  assertEquals(h.term.lines(), ["> fix the parser"]);
  await h.term.type(`${KEYS.ctrlU}${CTRL_R}nothing`);
  assertEquals(h.term.lines(), ["(failed reverse-i-search)'nothing':"]);
  await h.term.type(ESC);
  await delay(20);
  await h.term.type(`x${KEYS.enter}`);
  assertEquals(await line, "x");
});

Deno.test("LineEditor suspends on Ctrl+Z through its option and clears the screen for Ctrl+L typed ahead", async () => {
  await using h = open();
  await h.term.type(CTRL_Z);
  assertEquals(h.suspended(), 1);
  await h.term.type(CTRL_L);
  h.term.io.write("old output\r\n");
  const line = h.editor.next("> ");
  await h.term.type("");
  assertEquals(h.term.lines(), [">"]);
  await h.term.type(`a${KEYS.enter}`);
  assertEquals(await line, "a");
});

Deno.test("LineEditor keeps how a paste was shown, for the redraw", async () => {
  await using h = open();
  const line = h.editor.next("> ");
  const paste = Array.from({ length: 901 }, (_, i) => `row ${i}`).join("\n");
  await h.term.type(`fix ${KEYS.paste(paste)}${KEYS.enter}`);
  assertEquals(await line, `fix ${paste}`);
  assertEquals(h.editor.lastShown(), "fix [pasted 901 lines]");
  const next = h.editor.next("> ");
  await h.term.type(`plain${KEYS.enter}`);
  assertEquals(await next, "plain");
  assertEquals(h.editor.lastShown(), undefined);
});

Deno.test("LineEditor while busy draws through its handlers and queues Enter and Alt+Enter", async () => {
  await using h = open();
  const busy = busyRecorder();
  const stop = h.editor.busy(busy.handlers);
  assertEquals(busy.shown(), ">");
  await h.term.type("steer this");
  assertEquals([busy.shown(), busy.cursor()], ["> steer this", { row: 0, col: 12 }]);
  await h.term.type(`${KEYS.enter}${KEYS.enter}after it${KEYS.altEnter}`);
  assertEquals(busy.queued, [[{ text: "steer this" }, "steer"], [{ text: "after it" }, "follow"]]);
  await h.term.type(ESC);
  await delay(20);
  await h.term.type(CTRL_L);
  assertEquals(busy.events, ["escape", "clear"]);
  h.editor.pause();
  assertEquals(busy.events.at(-1), "pause");
  stop();
  assertEquals(
    h.term.writes.join("").includes("steer this"),
    false,
    "nothing is drawn at the cursor",
  );
  h.editor.restore("steer this");
  const line = h.editor.next("> ");
  await h.term.type(KEYS.enter);
  assertEquals(await line, "steer this");
});
