import { assertEquals } from "@std/assert";
import { parseRule, type Rule } from "../../../src/permissions/mod.ts";
import { judgeNeeds, needRules, readNeeds } from "../../../src/permissions/needs.ts";

const dirs = (dir: string) =>
  Promise.resolve(dir === "/cache" ? { real: "/real/cache" } : { problem: `"${dir}" is not` });

function rules(lists: { allow?: string[]; deny?: string[] }): Rule[] {
  return (["deny", "allow"] as const).flatMap((list) =>
    (lists[list] ?? []).map((text) => parseRule(text, list, "settings.json"))
  );
}

Deno.test("readNeeds() checks every host entry and resolves every directory, naming the bad one", async () => {
  assertEquals(await readNeeds({ need_hosts: ["A.org", "a.org"], need_dirs: ["/cache"] }, dirs), {
    hosts: ["a.org"],
    dirs: ["/real/cache"],
  });
  assertEquals(
    await readNeeds({ need_hosts: ["*.example.org"] }, dirs),
    'need_hosts[0] "*.example.org" must name one host, not "*."',
  );
  assertEquals(await readNeeds({ need_dirs: ["/cache", "/x"] }, dirs), 'need_dirs[1]: "/x" is not');
});

Deno.test("judgeNeeds(): a deny rule refuses, net() and dir() allow rules and allowed hosts cover", () => {
  const needs = { hosts: ["a.org", "b.org:8080", "c.org"], dirs: ["/real/cache"] };
  const judged = judgeNeeds(
    needs,
    rules({ allow: ["net(*.org)", "dir(/real/cache)"], deny: ["net(c.org)"] }),
    [],
  );
  assertEquals("deny" in judged && [judged.deny.text, judged.what], ["net(c.org)", "c.org"]);
  assertEquals(judgeNeeds(needs, rules({ allow: ["net(a.org)"] }), ["b.org", "c.org:443"]), {
    uncovered: { hosts: ["c.org"], dirs: ["/real/cache"] },
  });
  assertEquals(needRules({ hosts: ["c.org"], dirs: ["/real/cache"] }), [
    "net(c.org)",
    "dir(/real/cache)",
  ]);
});
