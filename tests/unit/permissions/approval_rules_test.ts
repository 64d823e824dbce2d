import { assertEquals } from "@std/assert";
import { matchesCommand, matchesPath, parseRule, type Rule } from "../../../src/permissions/mod.ts";
import { decide } from "../../../src/permissions/decide.ts";
import { suggestRules } from "../../../src/permissions/generalize.ts";
import { readCommand } from "../../../src/permissions/shell_commands.ts";
import type { ToolRequest } from "../../../src/tools/mod.ts";

function bash(command: string): ToolRequest {
  return { name: "bash", effect: "exec", args: { command }, paths: {} };
}

function rules(lists: { allow?: string[]; ask?: string[]; deny?: string[] }): Rule[] {
  return (["deny", "ask", "allow"] as const).flatMap((list) =>
    (lists[list] ?? []).map((text) => parseRule(text, list, "settings.json"))
  );
}

Deno.test("readCommand() finds every simple command through pipes, lists, subshells and $(…)", async () => {
  const read = await readCommand(
    `A=1 true && curl 'x y' | grep "$(echo hi)"; (cd a && ls) || f() { rm -rf b; }`,
  );
  assertEquals(
    read.kind === "read" ? read.commands.map((command) => command.words.join(" ")) : read,
    ["true", "curl x y", `grep "$(echo hi)"`, "echo hi", "cd a", "ls", "rm -rf b"],
  );
});

Deno.test("readCommand() reads bash -c of a literal script and refuses what it cannot follow", async () => {
  const read = await readCommand(`bash -c 'git status && curl x'`);
  assertEquals(
    read.kind === "read" ? read.commands.map((command) => command.words.join(" ")) : read,
    ["bash -c git status && curl x", "git status", "curl x"],
  );
  for (
    const line of [`eval "$x"`, `bash -c "$cmd"`, `bash <<EOF\ncurl x\nEOF`, `$tool run`, `echo $(`]
  ) {
    assertEquals((await readCommand(line)).kind, "unreadable", line);
  }
});

Deno.test("decide() stops `true && curl x` under deny bash(curl *) in auto", async () => {
  const deny = rules({ deny: ["bash(curl *)"] });
  assertEquals((await decide(bash("true && curl x"), "auto", deny)).kind, "deny");
  assertEquals((await decide(bash("env A=1 curl x"), "auto", deny)).kind, "deny");
  assertEquals((await decide(bash("curl"), "auto", deny)).kind, "deny");
  assertEquals((await decide(bash("curlew x"), "auto", deny)).kind, "allow");
  assertEquals((await decide(bash(`echo "curl x"`), "auto", deny)).kind, "allow");
});

Deno.test("decide(): deny wins over ask over allow; allow rules let calls through in ask", async () => {
  const set = rules({
    allow: ["bash(git *)", "bash(npm run test*)", "edit(src/**)"],
    ask: ["bash(git push *)"],
    deny: ["bash(git push --force *)"],
  });
  assertEquals((await decide(bash("git push --force origin"), "ask", set)).kind, "deny");
  assertEquals((await decide(bash("git push origin"), "auto", set)).kind, "ask");
  assertEquals((await decide(bash("git status"), "ask", set)).kind, "allow");
  assertEquals((await decide(bash("cd app && npm run test:unit"), "ask", set)).kind, "allow");
  assertEquals((await decide(bash("npm run build"), "ask", set)).kind, "ask");
  const write = (path: string): ToolRequest => ({
    name: "write_file",
    effect: "write",
    args: {},
    paths: { modified: [path] },
  });
  assertEquals((await decide(write("src/a/b.ts"), "ask", set)).kind, "allow");
  assertEquals((await decide(write("README.md"), "ask", set)).kind, "ask");
  assertEquals((await decide(write("README.md"), "edits", set)).kind, "allow");
});

Deno.test("decide(): an unreadable command asks where a deny or ask rule exists", async () => {
  const deny = rules({ deny: ["bash(curl *)"] });
  assertEquals(await decide(bash(`eval "$x"`), "auto", deny), {
    kind: "ask",
    why: "powercode cannot read this command: eval runs text it builds",
  });
  assertEquals(
    (await decide(bash(`eval "$x"`), "auto", rules({ allow: ["bash(ls *)"] }))).kind,
    "allow",
  );
});

Deno.test("decide() without rules never loads the parser and follows the mode", async () => {
  const never = () => Promise.reject(new Error("parser loaded"));
  assertEquals((await decide(bash("ls"), "auto", [], never)).kind, "allow");
  assertEquals((await decide(bash("ls"), "edits", [], never)).kind, "ask");
  const read: ToolRequest = { name: "read_file", effect: "read", args: {}, paths: { read: ["a"] } };
  assertEquals((await decide(read, "ask", [], never)).kind, "allow");
});

Deno.test("matchesCommand() and matchesPath() as the README says", () => {
  assertEquals(matchesCommand("git push *", ["git", "push"]), true);
  assertEquals(matchesCommand("git push *", ["git", "pushy"]), false);
  assertEquals(matchesCommand("npm run test*", ["npm", "run", "test:e2e"]), true);
  assertEquals(matchesPath(".env*", "config/.env.local"), true);
  assertEquals(matchesPath("src/**", "src/a/b.ts"), true);
  assertEquals(matchesPath("src/*", "src/a/b.ts"), false);
});

Deno.test("suggestRules() generalizes a command to its program and subcommand", async () => {
  const line = "cd app && git status && ls -la";
  assertEquals(suggestRules(bash(line), await readCommand(line)), [
    "bash(git status *)",
    "bash(ls *)",
  ]);
});
