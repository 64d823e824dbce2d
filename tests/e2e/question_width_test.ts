/**
 * The questions before tool calls fit a narrow terminal (the REPL in-process at 50
 * columns): a long command, the reason, what a command asks for and the choices wrap by word
 * under the question; a preview's report wraps its paths and cuts long diff lines with `…`.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import type { ApprovalSetup } from "../../src/app/assemble.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { skipWithout } from "../support/programs.ts";
import { openReplDouble, type ReplDouble } from "../support/repl_double.ts";
import { call } from "../support/scripted_model.ts";

const WIDTH = 50;

const screenHas = (text: string) => (lines: string[]) => lines.some((line) => line.includes(text));

const askMode = (dir: string): ApprovalSetup => ({
  mode: "ask",
  rules: { allow: [], ask: [], deny: [] },
  files: { user: `${dir}/config/settings.json` },
});

/** The screen's rows from the one starting with `first` to the one ending with `last`. */
function rowsBetween(repl: ReplDouble, first: string, last: string): string[] {
  const lines = repl.lines();
  const from = lines.findIndex((line) => line.startsWith(first));
  const to = lines.findIndex((line, index) => index > from && line.endsWith(last));
  assert(from >= 0 && to >= from, lines.join("\n"));
  return lines.slice(from, to + 1);
}

Deno.test("a question for a long command wraps by word at 50 columns, each row under the question", async () => {
  const command = "npm install --no-audit --registry http://registry.example.org/ left-pad";
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "bash", { command, need_hosts: ["registry.example.org"] })] },
    "Understood.",
  ], { approval: askMode, width: WIDTH, height: 40 });
  await repl.type(`install${KEYS.enter}`);
  await repl.until(screenHas("n [reason] no"), "the question's choices");
  assertEquals(rowsBetween(repl, "? bash asks to run:", "n [reason] no"), [
    "? bash asks to run: npm install --no-audit",
    "  --registry http://registry.example.org/",
    "  left-pad",
    '  approval mode "ask" asks before every command',
    "  and for this command only: network to",
    "  registry.example.org",
    "  y yes · a always (saves allow bash(npm install",
    "  *), net(registry.example.org)) · p preview: run",
    "  it, then keep or revert · n [reason] no",
  ]);
  await repl.type(`n${KEYS.enter}`);
  await repl.until(screenHas("Understood."), "the answer after the refusal");
  assertEquals(await repl.end(), 0);
});

Deno.test("a fetch's question for a host not allowed fits 50 columns, the URL broken under it", async () => {
  const url = "http://docs.example.org/guides/getting-started/installation.html";
  const repl = await openReplDouble([
    { toolCalls: [call("c1", "fetch", { url })] },
    "Understood.",
  ], {
    approval: (dir) => ({ ...askMode(dir), mode: "auto" }),
    width: WIDTH,
    height: 40,
    undo: false,
  });
  await repl.type(`read the guide${KEYS.enter}`);
  await repl.until(screenHas("n [reason] no"), "the question's choices");
  const rows = rowsBetween(repl, "? fetch asks to run:", "n [reason] no");
  assertEquals(rows.slice(0, 6), [
    "? fetch asks to run:",
    "  http://docs.example.org/guides/getting-started/",
    "  installation.html",
    '  host "docs.example.org" is not on network.allow',
    "  y yes · a always (saves docs.example.org to",
    "  network.allow in",
  ]);
  for (const row of rows) assert(row.length < WIDTH, `as wide as the terminal: ${row}`);
  await repl.type(`n${KEYS.enter}`);
  await repl.until(screenHas("Understood."), "the answer after the refusal");
  assertEquals(await repl.end(), 0);
});

Deno.test({
  name: "a preview's report fits 50 columns: a long path wraps, a long diff line is cut with …",
  ignore: skipWithout("bwrap"),
  fn: async () => {
    const path = "docs/a-rather-long-directory-name/and-a-long-file-name.txt";
    const line = "a line of text far wider than the fifty columns of this terminal";
    const repl = await openReplDouble([
      { toolCalls: [call("c1", "bash", { command: `printf '${line}\\n' > ${path}` })] },
      "Reverted.",
    ], { approval: askMode, width: WIDTH, height: 40 });
    await Deno.mkdir(`${repl.workspace}/docs/a-rather-long-directory-name`, { recursive: true });
    await repl.type(`write it${KEYS.enter}`);
    await repl.until(screenHas("p preview"), "the question with preview");
    await repl.type(`p${KEYS.enter}`);
    await repl.until(screenHas("k keep · r revert"), "the preview's report");
    assertEquals(rowsBetween(repl, "  created", "k keep · r revert"), [
      "  created",
      "    docs/a-rather-long-directory-name/and-a-long-",
      "    file-name.txt",
      "    +a line of text far wider than the fifty col…",
      "  hosts tried: none",
      "  k keep · r revert",
    ]);
    await repl.type(`r${KEYS.enter}`);
    await repl.until(screenHas("Reverted."), "the answer after the revert");
    assertEquals(await repl.end(), 0);
  },
});
