/**
 * End-to-end: `--output-format json` and `stream-json` escape every control character a
 * terminal or a line reader would act on (issue 35, item 10), not only those JSON requires.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { sequence, text, toolCall } from "../support/scripts.ts";
import { createTempProject } from "../support/project.ts";
import { ENV, provider } from "../support/sessions.ts";

/** C0 (which JSON.stringify escapes), DEL, C1, line separators and bidi controls. */
const HOSTILE = "a\x1b]0;title\x07b\x7fc\x9b2Jd\x85e\u2028f\u2029g\u202eh\u2066i\u200fj";
// deno-lint-ignore no-control-regex
const RAW = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

for (const format of ["json", "stream-json"]) {
  Deno.test(`-p --output-format ${format} escapes every control character in its JSON`, async () => {
    await using server = await startFakeServer({
      handler: sequence([toolCall("read_file", { path: `x${HOSTILE}` }), text(HOSTILE)]),
    });
    await using project = await createTempProject();
    await project.writeProvider(provider(server.url));
    const result = await project.run(["-p", "go", "--output-format", format], { env: ENV });
    assertEquals(result.code, 0, result.stderr);
    const lines = result.stdout.slice(0, -1).split("\n");
    for (const line of lines) assert(!RAW.test(line), `raw control character in ${line}`);
    assert(result.stdout.includes("\\u001b]0;title\\u0007b\\u007fc\\u009b2Jd\\u0085e\\u2028f"));
    const events = lines.map((line) => JSON.parse(line));
    assertEquals(events.at(-1)?.result, HOSTILE);
    if (format === "stream-json") {
      const call = events.find((event) => event.type === "tool_call");
      assertEquals(JSON.parse(call?.arguments ?? "{}"), { path: `x${HOSTILE}` });
    }
  });
}
