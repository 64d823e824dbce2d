import { assertEquals } from "@std/assert";
import { COMMANDS, findCommand, formatHelp, unknownCommand } from "../src/commands/table.ts";

Deno.test("formatHelp() lists each command's usage and wrapped help, then the keys", () => {
  assertEquals(
    formatHelp(COMMANDS),
    [
      "Type a task and press Enter. Commands:",
      "  /help             this list",
      "  /context          tokens in use, window, compaction threshold, messages,",
      "                    summary",
      "  /cost             tokens, cached share, cost of the last task and session",
      "  /compact [focus]  summarize earlier messages now, optionally focused on",
      "                    some text",
      "  /clear            start a new session (the current one stays on disk)",
      "  /sessions         recent sessions: id, start time, messages, first task",
      "  /export [FILE]    write the session to .md, .html or .jsonl, refused if it",
      "                    holds a key (--redact replaces it)",
      "  /plan [on|off]    plan mode: only PLAN.md may change, bash read-only",
      "  /approval [mode]  when tool calls ask first: auto, edits or ask (Shift+Tab",
      "                    cycles)",
      "  /permissions      the approval mode and the rules, each with its file",
      "  /model [name]     list the profiles; with a name, switch to that one",
      "  /effort [level]   reasoning effort: minimal, low, medium, high or off",
      "  /mcp              MCP servers: state, sandbox, tools; /mcp restart NAME",
      "                    restarts one",
      "  /scope            what this run may read, write and run: roots, Deno",
      "                    permissions, bash sandbox",
      "  /undo [--force]   take back the last task: its file changes (bash too) and",
      "                    its messages",
      "  /redo [--force]   bring back what /undo or /rewind took, until a new task",
      "                    starts",
      "  /rewind [N]       list the tasks; with N, go back to before task N",
      "                    (--files or --chat: only those)",
      "  /tree [ID]        the session's branches, one line per task; with ID,",
      "                    continue after that entry",
      "  /fork [ID]        a new session file holding the conversation up to here",
      "                    (or entry ID)",
      "  /init [focus]     write or improve AGENTS.md from the project (only",
      "                    AGENTS.md may change meanwhile)",
      "  /exit             leave (also: exit, quit, Ctrl+D)",
      "Keys:",
      "  Enter             run the task; a paste is one task, however many lines",
      "  Alt+Enter, Ctrl+J a new line (so does a trailing \\ before Enter)",
      "  Up/Down, Ctrl+R   earlier tasks (kept across runs); search them",
      "  Tab               complete commands, profile names and paths (after @ too)",
      "  Shift+Tab         cycle the approval mode: auto, edits, ask",
      "  Ctrl+W/U/K, Ctrl+Y cut a word, to the line's start or end; put it back",
      "  Ctrl+L, Ctrl+Z    clear the screen; suspend (fg brings powercode back)",
      "  Ctrl+C            interrupt a running task (what was queued is dropped);",
      "                    clear the line; twice at an empty prompt: exit",
      "  Ctrl+D            exit, at an empty prompt",
      "While a task runs the input stays below it: Enter queues a message the model",
      "reads after its current step, Alt+Enter a task for after it, Esc interrupts",
      "and gives the queue back. !cmd runs a command (!!cmd: the model does not see",
      "it); @path attaches a file.",
    ].join("\n"),
  );
});

Deno.test("formatHelp() wraps a new command's help under its description column", () => {
  const undo = {
    name: "/undo",
    usage: "/undo [n]",
    help: "put back the files the last n tasks changed, newest first, and say which ones",
    run: () => {},
  };
  assertEquals(formatHelp([undo]).split("\n").slice(1, 3), [
    "  /undo [n]         put back the files the last n tasks changed, newest",
    "                    first, and say which ones",
  ]);
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
    "/exit",
  ]);
});
