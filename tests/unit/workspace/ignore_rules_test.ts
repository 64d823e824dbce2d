import { assertEquals } from "@std/assert";
import { IgnoreRules } from "../../../src/workspace/ignore_rules.ts";

/** The paths of `paths` that `text` ignores (by `match`, parents included); dirs end in `/`. */
function ignored(text: string, paths: string[]): string[] {
  const rules = IgnoreRules.parse(text);
  return paths.filter((path) =>
    rules.match(path.replace(/\/$/, ""), path.endsWith("/")) !== undefined
  );
}

Deno.test("IgnoreRules matches a name without a slash at any depth", () => {
  assertEquals(ignored(".env\n", [".env", "app/.env", "app/.env.local", "env"]), [
    ".env",
    "app/.env",
  ]);
});

Deno.test("IgnoreRules anchors a pattern with a leading or middle slash", () => {
  assertEquals(ignored("/secret.txt\n", ["secret.txt", "a/secret.txt"]), ["secret.txt"]);
  assertEquals(ignored("config/keys.json\n", ["config/keys.json", "a/config/keys.json"]), [
    "config/keys.json",
  ]);
});

Deno.test("IgnoreRules applies a trailing slash to directories only, and ignores what they hold", () => {
  assertEquals(ignored("secrets/\n", ["secrets/", "secrets", "secrets/a.txt", "x/secrets/b"]), [
    "secrets/",
    "secrets/a.txt",
    "x/secrets/b",
  ]);
});

Deno.test("IgnoreRules reads *, ?, classes and ** as git does", () => {
  assertEquals(ignored("*.pem\n", ["a.pem", "d/b.pem", "pem", "a.pem.txt"]), ["a.pem", "d/b.pem"]);
  assertEquals(ignored("/a*/x\n", ["ab/x", "a/b/x"]), ["ab/x"]);
  assertEquals(ignored("key?.txt\n", ["key1.txt", "key12.txt", "key/.txt"]), ["key1.txt"]);
  assertEquals(ignored("[ab].txt\n", ["a.txt", "c.txt"]), ["a.txt"]);
  assertEquals(ignored("[!ab].txt\n", ["a.txt", "c.txt"]), ["c.txt"]);
  assertEquals(ignored("**/deep.txt\n", ["deep.txt", "a/b/deep.txt"]), [
    "deep.txt",
    "a/b/deep.txt",
  ]);
  assertEquals(ignored("logs/**\n", ["logs/a", "logs/a/b", "logs"]), ["logs/a", "logs/a/b"]);
  assertEquals(ignored("a/**/z\n", ["a/z", "a/b/z", "a/b/c/z", "b/a/z"]), [
    "a/z",
    "a/b/z",
    "a/b/c/z",
  ]);
});

Deno.test("IgnoreRules lets a later ! re-include, but never inside an ignored directory", () => {
  assertEquals(ignored("*.env\n!example.env\n", ["a.env", "example.env"]), ["a.env"]);
  assertEquals(ignored("secrets/\n!secrets/ok.txt\n", ["secrets/ok.txt"]), ["secrets/ok.txt"]);
});

Deno.test("IgnoreRules skips comments and blank lines, and honours escapes and trailing spaces", () => {
  const rules = IgnoreRules.parse("# a comment\n\n   \n\\#hash\n\\!bang\nspace\\ \ntrail   \n");
  assertEquals(rules.size, 4);
  assertEquals(
    ["#hash", "!bang", "space ", "trail", "trail   ", "# a comment"].map((path) =>
      rules.ignores(path, false)
    ),
    [true, true, true, true, false, false],
  );
});

Deno.test("IgnoreRules.match() names the ignored parent", () => {
  assertEquals(IgnoreRules.parse("build/\n").match("build/out/a.js", false), "build");
  assertEquals(IgnoreRules.parse("build/\n").match("src/a.js", false), undefined);
  assertEquals(IgnoreRules.NONE.match(".env", false), undefined);
});
