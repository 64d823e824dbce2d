import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseCli } from "../../src/config/cli.ts";
import { createTempProject } from "../support/project.ts";

Deno.test("parseCli() reads every flag and its alias", () => {
  assertEquals(parseCli([]), {
    help: false,
    version: false,
    continue: false,
    chooseSession: false,
    sessions: false,
    maxSteps: 100,
    unsandboxedBash: false,
    allowGitWrites: false,
    showReasoning: false,
    plan: false,
    outputFormat: "text",
    budget: {},
    undo: false,
    force: false,
    addDirs: [],
    allowDomains: [],
    images: [],
    scope: false,
    layout: false,
  });
  assertEquals(
    parseCli(["-p", "fix it", "--max-steps", "5", "--unsandboxed-bash", "--provider", "p.json"]),
    {
      help: false,
      version: false,
      continue: false,
      chooseSession: false,
      sessions: false,
      maxSteps: 5,
      unsandboxedBash: true,
      allowGitWrites: false,
      showReasoning: false,
      plan: false,
      print: "fix it",
      provider: "p.json",
      outputFormat: "text",
      budget: {},
      undo: false,
      force: false,
      addDirs: [],
      allowDomains: [],
      images: [],
      scope: false,
      layout: false,
    },
  );
  assertEquals(parseCli(["-c"]).continue, true);
  assertEquals(parseCli(["--resume", "20261202-1"]).resume, "20261202-1");
  assertEquals(parseCli(["-r", "abc"]).resume, "abc");
  assertEquals([parseCli(["-h"]).help, parseCli(["-V"]).version], [true, true]);
  assertEquals([parseCli(["-r"]).chooseSession, parseCli(["-r"]).resume], [true, undefined]);
  assertEquals(parseCli(["--sessions"]).sessions, true);
  assertEquals(parseCli(["--allow-git-hooks"]).allowGitWrites, true);
  assertEquals(parseCli(["--allow-git-writes"]).allowGitWrites, true);
  assertEquals(parseCli(["--show-reasoning"]).showReasoning, true);
  assertEquals([parseCli(["--undo"]).undo, parseCli(["--undo", "--force"]).force], [true, true]);
  assertEquals(parseCli(["--scope"]).scope, true);
  assertEquals(parseCli(["--plan", "-p", "go"]).plan, true);
  const project = parseCli(["-C", "app", "--add-dir", "../lib", "--add-dir=../docs"]);
  assertEquals([project.dir, project.addDirs], ["app", ["../lib", "../docs"]]);
  assertEquals(parseCli(["--dir", "app"]).dir, "app");
  assertEquals(parseCli(["-p", "x", "-i", "a.png", "--image", "b.gif"]).images, ["a.png", "b.gif"]);
});

Deno.test("parseCli() refuses -i without -p, and an empty -i", () => {
  assertThrows(
    () => parseCli(["-i", "a.png"]),
    TypeError,
    'Invalid -i: images go with -p "task"; at the prompt, type @shot.png',
  );
  assertThrows(() => parseCli(["-p", "x", "-i"]), TypeError, "Invalid -i: the path is empty");
});

Deno.test("parseCli() refuses an empty --dir or --add-dir", () => {
  assertThrows(() => parseCli(["--dir"]), TypeError, "Invalid --dir: the path is empty");
  assertThrows(() => parseCli(["--add-dir"]), TypeError, "Invalid --add-dir: the path is empty");
});

Deno.test("parseCli() reads --output-format, --max-tokens and --max-cost", () => {
  const parsed = parseCli(["-p", "go", "--output-format", "stream-json", "--max-tokens", "9000"]);
  assertEquals([parsed.outputFormat, parsed.budget], ["stream-json", { tokens: 9000 }]);
  assertEquals(parseCli(["--max-cost", "0.5"]).budget, { cost: 0.5 });
  assertEquals(parseCli(["--max-cost", "$2"]).budget, { cost: 2 });
  const bad: [string[], string][] = [
    [
      ["-p", "go", "--output-format", "xml"],
      'Invalid --output-format "xml": expected text, json, stream-json',
    ],
    [["--output-format", "json"], 'Invalid --output-format "json": it applies to -p "task" only'],
    [["--max-tokens", "1.5"], 'Invalid --max-tokens "1.5": expected a positive integer'],
    [["--max-tokens", "0"], 'Invalid --max-tokens "0": expected a positive integer'],
    [["--max-cost=-1"], 'Invalid --max-cost "-1": expected a positive number of dollars'],
    [["--max-cost", "lots"], 'Invalid --max-cost "lots": expected a positive number of dollars'],
  ];
  for (const [args, message] of bad) assertThrows(() => parseCli(args), TypeError, message);
});

Deno.test("parseCli() ignores the leading -- that deno task passes on", () => {
  assertEquals(parseCli(["--", "-p", "fix it", "--max-steps", "3"]).print, "fix it");
  assertEquals(parseCli(["--", "-p", "fix it", "--max-steps", "3"]).maxSteps, 3);
});

Deno.test("parseCli() reads export --bundle FILE (with -r ID) and replay FILE", () => {
  const bundle = parseCli(["--workspace-layout", "export", "-r", "2026", "--bundle", "s.b"]);
  assertEquals([bundle.bundle, bundle.resume, bundle.replay], ["s.b", "2026", undefined]);
  const replay = parseCli(["--", "replay", "s.b"]);
  assertEquals([replay.replay, replay.bundle], ["s.b", undefined]);
});

Deno.test("parseCli() refuses bad flags with one line naming the fix", () => {
  const cases: [string[], string][] = [
    [["--max-steps", "0"], 'Invalid --max-steps "0": expected a positive integer'],
    [["--max-steps", "lots"], 'Invalid --max-steps "lots": expected a positive integer'],
    [["--verbose"], 'Unknown argument "--verbose": run powercode -h for the options'],
    [["-c", "-r", "x"], "Cannot use --continue and --resume together: choose one"],
    [["-p", " "], 'Invalid -p: the task is empty; give its text, e.g. -p "list the files"'],
    [["-p", ""], 'Invalid -p: the task is empty; give its text, e.g. -p "list the files"'],
    [["--force"], "Invalid --force: it goes with --undo (at the prompt: /undo --force)"],
    [["replay"], "Invalid replay: name the bundle, e.g. powercode replay session.bundle"],
    [["export", "x"], "Invalid export: name the bundle, e.g. powercode export --bundle s.bundle"],
  ];
  for (const [args, message] of cases) {
    assertEquals(assertThrows(() => parseCli(args), TypeError).message, message);
  }
});

Deno.test("powercode -h and -V print and exit 0 without a provider file", async () => {
  await using project = await createTempProject();
  const help = await project.run(["-h"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, 'powercode -p "task"');
  assertStringIncludes(help.stdout, "--unsandboxed-bash");
  const rows = help.stdout.trimEnd().split("\n");
  assertEquals(rows.length <= 24 && rows.every((row) => [...row].length <= 80), true, help.stdout);
  assertStringIncludes(help.stdout, "docs/");
  const version = await project.run(["-V"]);
  const { version: expected } = JSON.parse(await Deno.readTextFile(`${project.dir}/deno.json`));
  assertEquals([version.code, version.stdout], [0, `powercode ${expected}\n`]);
});
