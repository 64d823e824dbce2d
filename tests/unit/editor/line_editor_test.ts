import { assert, assertEquals } from "@std/assert";
import { createCompleter } from "../../../src/editor/completion.ts";
import { InputHistory } from "../../../src/editor/input_history.ts";
import { LineEditor, type LineEditorOptions } from "../../../src/editor/line_editor.ts";
import { type FakeTerminal, fakeTerminal, KEYS } from "../../support/fake_terminal.ts";

interface Harness extends AsyncDisposable {
  term: FakeTerminal;
  editor: LineEditor;
  interrupts: () => number;
  submitted: string[];
}

function open(
  options: Partial<LineEditorOptions> & { width?: number; history?: InputHistory } = {},
): Harness {
  const term = fakeTerminal(options.width ?? 40);
  let interrupts = 0;
  const submitted: string[] = [];
  const editor = new LineEditor({
    io: term.io,
    onInterrupt: () => interrupts++,
    history: options.history ?? new InputHistory([], 100),
    onSubmit: (entry) => submitted.push(entry),
    color: false,
    escapeTimeoutMs: 5,
    ...options,
  });
  return {
    term,
    editor,
    interrupts: () => interrupts,
    submitted,
    async [Symbol.asyncDispose]() {
      editor.close();
      term.end();
      await editor.done;
    },
  };
}

/** Types `keys` at a prompt and returns what the editor submits. */
async function submit(h: Harness, keys: string): Promise<string | undefined> {
  const line = h.editor.next("> ");
  await h.term.type(keys);
  return await line;
}

Deno.test("LineEditor returns a typed line and leaves it on screen", async () => {
  await using h = open();
  assertEquals(await submit(h, `hello world${KEYS.enter}`), "hello world");
  assertEquals(h.term.lines(), ["> hello world"]);
  assertEquals(h.term.screen.cursor, { row: 1, col: 0 });
});

Deno.test("LineEditor makes a multi-line paste one line of input, shown with its rows", async () => {
  await using h = open();
  const paste = "first line\nsecond line\nthird\nfourth\nfifth";
  assertEquals(await submit(h, `${KEYS.paste(paste.replaceAll("\n", "\r"))}${KEYS.enter}`), paste);
  assertEquals(h.term.lines(), ["> first line", "  second line", "  third", "  fourth", "  fifth"]);
});

Deno.test("LineEditor shows large pastes compactly and submits them whole", async () => {
  await using h = open();
  const lines = Array.from({ length: 120 }, (_, i) => `row ${i}`).join("\n");
  const long = "x".repeat(7209);
  const line = h.editor.next("> ");
  await h.term.type(`see ${KEYS.paste(lines)} and ${KEYS.paste(long)}`);
  // The input wraps by word (issue 19.11), a label's words too.
  assertEquals(h.term.lines(), ["> see [pasted 120 lines] and [pasted", "7209 chars]"]);
  const written = h.term.writes.join("").length;
  assert(written < 200, `the pastes wrote ${written} characters`);
  await h.term.type(KEYS.enter);
  assertEquals(await line, `see ${lines} and ${long}`);
});

Deno.test("LineEditor deletes a paste placeholder with one backspace", async () => {
  await using h = open();
  const paste = "y".repeat(2000);
  assertEquals(await submit(h, `a${KEYS.paste(paste)}${KEYS.backspace}b${KEYS.enter}`), "ab");
});

Deno.test("LineEditor enters newlines with Alt+Enter, Ctrl+J and a trailing backslash", async () => {
  await using h = open();
  const keys = `one${KEYS.altEnter}two${KEYS.ctrlJ}three\\${KEYS.enter}four${KEYS.enter}`;
  assertEquals(await submit(h, keys), "one\ntwo\nthree\nfour");
  assertEquals(h.term.lines(), ["> one", "  two", "  three", "  four"]);
});

Deno.test("LineEditor edits with arrows, Home/End, Delete and the Emacs keys", async () => {
  await using h = open();
  assertEquals(
    await submit(h, `helo${KEYS.left}l${KEYS.home}>${KEYS.end}!${KEYS.enter}`),
    ">hello!",
  );
  assertEquals(
    await submit(
      h,
      `abc def${KEYS.ctrlA}${KEYS.delete}${KEYS.ctrlE}${KEYS.backspace}${KEYS.enter}`,
    ),
    "bc de",
  );
  assertEquals(await submit(h, `keep remove${KEYS.ctrlW}${KEYS.enter}`), "keep ");
  assertEquals(await submit(h, `gone${KEYS.ctrlU}new${KEYS.enter}`), "new");
  assertEquals(await submit(h, `abcdef${KEYS.left.repeat(3)}${KEYS.ctrlK}${KEYS.enter}`), "abc");
  assertEquals(await submit(h, `x${KEYS.ctrlA}${KEYS.ctrlD}y${KEYS.enter}`), "y");
});

Deno.test("LineEditor redraws only from the change: typing at the end writes the new text", async () => {
  await using h = open();
  const line = h.editor.next("> ");
  await h.term.type("a".repeat(100));
  const before = h.term.writes.length;
  await h.term.type("b");
  assertEquals(h.term.writes.slice(before), ["b\x1b[K"]);
  await h.term.type(`${KEYS.home}`);
  const atStart = h.term.writes.length;
  await h.term.type("c");
  const written = h.term.writes.slice(atStart).join("");
  assert(written.length < 140, JSON.stringify(written));
  assertEquals(h.term.lines(), ["> c" + "a".repeat(37), "a".repeat(40), "a".repeat(23) + "b"]);
  await h.term.type(KEYS.enter);
  assertEquals(await line, `c${"a".repeat(100)}b`);
});

Deno.test("LineEditor wraps wide characters whole and keeps the cursor in place", async () => {
  await using h = open({ width: 10 });
  const line = h.editor.next("> ");
  await h.term.type("漢字漢字漢");
  assertEquals(h.term.lines(), ["> 漢字漢字", "漢"]);
  assertEquals(h.term.screen.cursor, { row: 1, col: 2 });
  await h.term.type(`${KEYS.left}${KEYS.left}x`);
  assertEquals(h.term.lines(), ["> 漢字漢x", "字漢"]);
  await h.term.type(KEYS.enter);
  assertEquals(await line, "漢字漢x字漢");
});

Deno.test("LineEditor redraws cleanly when the terminal gets narrower", async () => {
  await using h = open({ width: 30 });
  const line = h.editor.next("> ");
  await h.term.type("the quick brown fox jumps over the lazy dog");
  h.term.screen.resize(20);
  h.editor.resize();
  assertEquals(h.term.lines(), ["> the quick brown", "fox jumps over the", "lazy dog"]);
  await h.term.type(KEYS.enter);
  assertEquals(await line, "the quick brown fox jumps over the lazy dog");
});

Deno.test("LineEditor shows control characters of a paste visibly and submits them as pasted", async () => {
  await using h = open();
  const attack = "ls\x1b]0;pwned\x07\x1b[2K";
  assertEquals(await submit(h, `${KEYS.paste(attack)}${KEYS.enter}`), attack);
  assertEquals(h.term.lines(), ["> ls^[]0;pwned^G^[[2K"]);
  assertEquals(h.term.screen.unknown, []);
});

Deno.test("LineEditor recalls history with Up and Down and gives back the draft", async () => {
  await using h = open({ history: new InputHistory(["older", "newer"], 100) });
  const line = h.editor.next("> ");
  await h.term.type(`draft${KEYS.up}`);
  assertEquals(h.term.lines(), ["> newer"]);
  await h.term.type(KEYS.up);
  assertEquals(h.term.lines(), ["> older"]);
  await h.term.type(`${KEYS.down}${KEYS.down}`);
  assertEquals(h.term.lines(), ["> draft"]);
  await h.term.type(`${KEYS.up}${KEYS.enter}`);
  assertEquals(await line, "newer");
  assertEquals(await submit(h, `fresh${KEYS.enter}`), "fresh");
  assertEquals(h.submitted, ["fresh"]);
  assertEquals(await submit(h, `${KEYS.up}${KEYS.enter}`), "fresh");
});

Deno.test("LineEditor moves between the lines of a multi-line input before going to history", async () => {
  await using h = open({ history: new InputHistory(["old"], 100) });
  const keys = `ab${KEYS.ctrlJ}cd${KEYS.up}X${KEYS.down}Y${KEYS.enter}`;
  assertEquals(await submit(h, keys), "abX\ncdY");
});

Deno.test("LineEditor completes slash commands and lists ambiguous ones", async () => {
  const complete = createCompleter({ commands: ["/help", "/clear", "/compact", "/context"] });
  await using h = open({ complete });
  assertEquals(await submit(h, `/he${KEYS.tab}${KEYS.enter}`), "/help ");
  const line = h.editor.next("> ");
  await h.term.type(`/co${KEYS.tab}`);
  await h.term.type(KEYS.tab);
  assertEquals(h.term.lines().slice(-2), ["/compact  /context", "> /co"]);
  await h.term.type(`m${KEYS.tab}${KEYS.enter}`);
  assertEquals(await line, "/compact ");
});

Deno.test("createCompleter() completes the words a command takes, such as profile names", async () => {
  const complete = createCompleter({
    commands: ["/model", "/effort"],
    commandArguments: (command) => command === "/model" ? ["small", "big", "bigger"] : [],
    listDir: () => Promise.resolve([{ name: "big.txt", isDirectory: false }]),
  });
  assertEquals(await complete("/model b", 8), { from: 7, options: ["big", "bigger"] });
  assertEquals(await complete("/model ", 7), { from: 7, options: ["small", "big", "bigger"] });
  assertEquals(
    await complete("/effort b", 9),
    { from: 8, options: ["big.txt"] },
    "no words: paths",
  );
});

Deno.test("LineEditor completes workspace paths", async () => {
  const listDir = (dir: string) =>
    Promise.resolve(
      dir === ""
        ? [{ name: "src", isDirectory: true }, { name: ".git", isDirectory: true }]
        : [{ name: "main.ts", isDirectory: false }],
    );
  await using h = open({ complete: createCompleter({ commands: [], listDir }) });
  assertEquals(await submit(h, `read s${KEYS.tab}${KEYS.tab}${KEYS.enter}`), "read src/main.ts ");
});

Deno.test("LineEditor holds type-ahead silently and shows it in the next prompt", async () => {
  await using h = open();
  await h.term.type("typed while busy");
  assertEquals(h.term.writes.join("").replace("\x1b[?2004h", ""), "");
  const line = h.editor.next("> ");
  await h.term.type("");
  assertEquals(h.term.lines(), ["> typed while busy"]);
  await h.term.type(KEYS.enter);
  assertEquals(await line, "typed while busy");
});

Deno.test("LineEditor returns a line submitted ahead at the next prompt, echoed", async () => {
  await using h = open();
  await h.term.type(`next task${KEYS.enter}`);
  assertEquals(await h.editor.next("> "), "next task");
  assertEquals(h.term.lines(), ["> next task"]);
});

Deno.test("LineEditor drops type-ahead on Ctrl+C and reports the interrupt", async () => {
  await using h = open();
  await h.term.type(`queued${KEYS.enter}half`);
  await h.term.type(KEYS.ctrlC);
  assertEquals(h.interrupts(), 1);
  assertEquals(h.editor.pendingText(), "");
  const line = h.editor.next("> ");
  await h.term.type("");
  assertEquals(h.term.lines(), [">"]);
  await h.term.type(`fresh${KEYS.enter}`);
  assertEquals(await line, "fresh");
});

Deno.test("LineEditor reports Ctrl+C at the prompt and leaves clearing to the caller", async () => {
  await using h = open();
  const line = h.editor.next("> ");
  await h.term.type(`some text${KEYS.ctrlC}`);
  assertEquals(h.interrupts(), 1);
  assertEquals(h.editor.pendingText(), "some text");
  h.editor.clearLine();
  assertEquals(h.term.lines(), [">"]);
  h.editor.notice("(hint)");
  assertEquals(h.term.lines(), [">", "(hint)", ">"]);
  await h.term.type(`ok${KEYS.enter}`);
  assertEquals(await line, "ok");
});

Deno.test("LineEditor ends on Ctrl+D at an empty prompt and at the end of input", async () => {
  await using h = open();
  assertEquals(await submit(h, KEYS.ctrlD), undefined);
  const line = h.editor.next("> ");
  h.term.end();
  assertEquals(await line, undefined);
  assertEquals(await h.editor.next("> "), undefined);
});

Deno.test("LineEditor turns bracketed paste on at start and off when closed", async () => {
  const h = open();
  const line = h.editor.next("> ");
  await h.term.type("x");
  h.editor.close();
  assertEquals(await line, undefined);
  h.term.end();
  await h.editor.done;
  assertEquals(h.term.writes[0], "\x1b[?2004h");
  assertEquals(h.term.writes.at(-1), "\x1b[?2004l");
  assertEquals(h.term.screen.cursor.row, 1);
});

Deno.test("createCompleter() completes the path after an @ and lists the workspace for a lone @", async () => {
  const complete = createCompleter({
    commands: ["/help"],
    listDir: (dir) =>
      Promise.resolve(
        dir === ""
          ? [{ name: "a.txt", isDirectory: false }, { name: "src", isDirectory: true }]
          : [{ name: "main.ts", isDirectory: false }],
      ),
  });
  assertEquals(await complete("read @a", 7), { from: 6, options: ["a.txt"] });
  assertEquals(await complete("read @src/m", 11), { from: 6, options: ["src/main.ts"] });
  assertEquals(await complete("@", 1), { from: 1, options: ["a.txt", "src/"] });
});
