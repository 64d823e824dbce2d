/**
 * End-to-end: the search tools through the real program (`deno task start` on piped stdin)
 * against the strict fake server.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import type { RecordedRequest } from "../support/fake_server.ts";
import { createTempProject } from "../support/project.ts";
import { text, toolCall } from "../support/scripts.ts";
import { ENV, provider, startScriptedServer } from "../support/sessions.ts";

function toolResults(request: RecordedRequest | undefined): unknown[] {
  return (request?.body?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
}

Deno.test("grep of a tree with 10,000 matches returns 100 lines and the count; ignored files never appear", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  const ws = project.workspace;
  for (let dir = 0; dir < 100; dir++) {
    const path = `${ws}/d${String(dir).padStart(2, "0")}`;
    Deno.mkdirSync(path);
    for (let file = 0; file < 100; file++) {
      Deno.writeTextFileSync(`${path}/f${String(file).padStart(2, "0")}.txt`, "the needle\n");
    }
  }
  await Deno.writeTextFile(`${ws}/.powercodeignore`, "d00/f00.txt\n");
  await Deno.writeTextFile(`${ws}/.gitignore`, "/d00/f01.txt\n");
  const requests = scripted.play([
    toolCall("grep", { pattern: "needle" }),
    toolCall("glob", { pattern: "d00/*" }),
    toolCall("ls", { path: "d00" }),
    text("Found."),
  ]);
  const result = await project.run([], { stdin: "find the needles\n", env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const [grep, glob, ls] = toolResults(requests().at(-1)) as string[];
  const lines = grep?.split("\n") ?? [];
  assertEquals(lines.length, 101);
  assertEquals(lines.slice(0, 2), ["d00/f02.txt:1:the needle", "d00/f03.txt:1:the needle"]);
  assertEquals(lines[100], "… 9898 more, narrow the search (9998 matches in 9998 files)");
  for (const listing of [grep, glob, ls]) {
    assert(!listing?.includes("d00/f00.txt"), "the .powercodeignore'd file never appears");
    assert(!listing?.includes("d00/f01.txt"), "the .gitignore'd file never appears");
  }
  assertEquals(glob?.split("\n").slice(0, 2), ["d00/f02.txt", "d00/f03.txt"]);
  assertEquals(ls?.split("\n").length, 98);
});
