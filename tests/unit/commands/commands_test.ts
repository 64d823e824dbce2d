import { assertEquals } from "@std/assert";
import { COMMANDS, findCommand, formatHelp, unknownCommand } from "../../../src/commands/table.ts";

Deno.test("formatHelp() lists the command names compactly, then the keys, in 17 rows", () => {
  assertEquals(
    formatHelp(COMMANDS),
    [
      "Type a task and press Enter; / opens the list of commands. Commands (/help NAME",
      "says what one does):",
      "  /help  /context  /cost  /cache  /compact  /clear  /sessions  /export  /plan",
      "  /approval  /permissions  /model  /effort  /mcp  /scope  /undo  /redo  /rewind",
      "  /tree  /fork  /init  /ps  /kill  /exit",
      "Keys:",
      "  Enter             run the input; Alt+Enter or Ctrl+J: a new line",
      "  Up/Down, Ctrl+R   earlier inputs (kept across runs); search them",
      "  Tab               complete commands, their words and paths (after @ too)",
      "  Shift+Tab         cycle the approval mode: auto, edits, ask",
      "  Ctrl+W/U/K, Ctrl+Y cut a word, to the line's start or end; put it back",
      "  Ctrl+L, Ctrl+Z    clear the screen; suspend (fg brings powercode back)",
      "  Ctrl+C            interrupt a task; clear the line; twice when empty: exit",
      "  Ctrl+D            exit, at an empty prompt",
      "While a task runs, Enter queues a message for its next step, Alt+Enter a task",
      "for after it; Alt+Up takes the queue back to edit, Esc too, interrupting. !cmd",
      "runs a command (!!cmd: the model does not see it); @path attaches a file.",
    ].join("\n"),
  );
});

Deno.test("formatHelp() lists a new command's name among the others", () => {
  const undo = { name: "/undo", usage: "/undo [n]", help: "put back files", run: () => {} };
  assertEquals(formatHelp([COMMANDS[0]!, undo]).split("\n")[2], "  /help  /undo");
});

Deno.test("findCommand() finds a command by its name and passes the rest as arguments", () => {
  const found = findCommand(COMMANDS, "/compact  the  failing tests");
  assertEquals([found?.command.name, found?.args], ["/compact", "the failing tests"]);
  assertEquals(findCommand(COMMANDS, "/help")?.args, "");
  assertEquals(findCommand(COMMANDS, "/hel"), undefined);
  assertEquals(unknownCommand("/nope now"), 'Unknown command "/nope": type /help for the list');
});

Deno.test("COMMANDS names the commands Tab completes, in the order /help lists them", () => {
  assertEquals(COMMANDS.map((command) => command.name), [
    "/help",
    "/context",
    "/cost",
    "/cache",
    "/compact",
    "/clear",
    "/sessions",
    "/export",
    "/plan",
    "/approval",
    "/permissions",
    "/model",
    "/effort",
    "/mcp",
    "/scope",
    "/undo",
    "/redo",
    "/rewind",
    "/tree",
    "/fork",
    "/init",
    "/ps",
    "/kill",
    "/exit",
  ]);
});
