import { assertEquals } from "@std/assert";
import { KEYS } from "../support/fake_terminal.ts";
import { openReplDouble } from "../support/repl_double.ts";

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));
const ESC = "\x1b";

/** The rows below the prompt row that starts with `> `. */
function belowPrompt(lines: string[]): string[] {
  const at = lines.findLastIndex((line) => line.startsWith("> "));
  return lines.slice(at + 1);
}

Deno.test("the palette: / at an empty prompt lists the commands with their help, 8 rows at most", async () => {
  const repl = await openReplDouble([]);
  await repl.type("/");
  await repl.until(screenHas("› /help"), "the palette");
  assertEquals(belowPrompt(repl.lines()), [
    "› /help [command]   the commands and keys; with a command's name, what it does",
    "  /context          tokens in use, window, compaction threshold, messages, sum…",
    "  /cost             tokens, cached share, cost of the last task and session",
    "  /cache            cached share of the session's requests; where the last mis…",
    "  /compact [focus]  summarize earlier messages now, optionally focused on some…",
    "  /clear            start a new session (the current one stays on disk)",
    "  /sessions         recent sessions: id, start time, messages, first task",
    "  … 17 more (type to narrow, ↑↓ to move)",
  ]);
  assertEquals(await repl.end(), 0);
});

Deno.test("the palette: typing filters it, Down chooses, Enter runs the chosen command", async () => {
  const repl = await openReplDouble([]);
  await repl.type("/co");
  await repl.until((lines) => belowPrompt(lines).length === 3, "the filtered palette");
  assertEquals(belowPrompt(repl.lines()).map((row) => row.slice(0, 20)), [
    "› /context          ",
    "  /cost             ",
    "  /compact [focus]  ",
  ]);
  await repl.type(KEYS.down);
  await repl.until(screenHas("› /cost"), "/cost chosen");
  await repl.type(KEYS.enter);
  await repl.until(screenHas("Last task:"), "the /cost report");
  assertEquals(repl.lines().some((line) => line.includes("/context ")), false, "palette gone");
  assertEquals(repl.lines().includes("> /cost"), true);
  assertEquals(await repl.end(), 0);
});

Deno.test("the palette: Tab takes the chosen name, Esc closes it, no match says so", async () => {
  const repl = await openReplDouble([]);
  await repl.type("/mo");
  await repl.until(screenHas("› /model [name]"), "/model listed");
  await repl.type(KEYS.tab);
  await repl.until((lines) => lines.at(-1) === "> /model", "/model taken");
  assertEquals(belowPrompt(repl.lines()), []);
  await repl.type(`${KEYS.ctrlU}/zz`);
  await repl.until(screenHas('no command starts with "/zz"'), "no match");
  await repl.type(ESC);
  await repl.until((lines) => lines.at(-1) === "> /zz", "palette closed");
  await repl.type(`${KEYS.ctrlU}/e`);
  await repl.until(screenHas("› /export"), "palette open again");
  await repl.type(KEYS.backspace);
  await repl.until((lines) => lines.at(-1)?.startsWith("  … 17 more") ?? false, "all listed");
  await repl.type(KEYS.backspace);
  await repl.until((lines) => lines.at(-1) === ">", "palette closed with the /");
  assertEquals(await repl.end(), 0);
});

Deno.test("the palette: a / typed after /undo filled the input replaces the text and opens it", async () => {
  const repl = await openReplDouble(["Done."]);
  await repl.type(`a task${KEYS.enter}`);
  await repl.until(screenHas("Done."), "the answer");
  await repl.type(`/undo${KEYS.enter}`);
  await repl.until((lines) => lines.at(-1) === "> a task", "the task given back");
  await repl.type("/re");
  await repl.until(screenHas("› /redo"), "the palette over the replaced text");
  assertEquals(belowPrompt(repl.lines()).map((row) => row.slice(0, 12)), [
    "› /redo [--f",
    "  /rewind [N",
  ]);
  assertEquals(await repl.end(), 0);
});

Deno.test("/help fits a 24-row screen; /help NAME prints that command's usage and help", async () => {
  const repl = await openReplDouble([]);
  await repl.type(`/help${KEYS.enter}`);
  await repl.until(screenHas("@path attaches a file"), "/help");
  const lines = repl.lines();
  assertEquals(lines[0], "> /help");
  assertEquals(lines.length <= 24, true, `${lines.length} rows`);
  assertEquals(lines.some((line) => line.includes("/rewind") && line.includes("/undo")), true);
  await repl.type(`/help model${KEYS.enter}`);
  await repl.until(screenHas("/model [name]: list"), "/help model");
  assertEquals(
    repl.lines().at(-2),
    "/model [name]: list the profiles; with a name, switch to that one",
  );
  await repl.type(`/help nope${KEYS.enter}`);
  await repl.until(screenHas('Unknown command "/nope"'), "/help of no command");
  assertEquals(await repl.end(), 0);
});
