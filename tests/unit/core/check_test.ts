import { assertEquals } from "@std/assert";
import { hasShape, isCount, isObject, isString, parseJsonObject } from "../../../src/core/check.ts";

Deno.test("hasShape() checks own fields only, so prototype names never pass", () => {
  const shape = { name: isString, constructor: isString };
  assertEquals(hasShape({ name: "a", constructor: "b" }, shape), true);
  assertEquals(hasShape({ name: "a" }, shape), false, "inherited constructor does not count");
  assertEquals(hasShape(JSON.parse('{"name":"a","__proto__":{"constructor":"b"}}'), shape), false);
  assertEquals(hasShape([], { length: isCount }), false);
});

Deno.test("isObject() and isCount() accept only plain objects and safe counts", () => {
  assertEquals([isObject({}), isObject(null), isObject([]), isObject("x")], [
    true,
    false,
    false,
    false,
  ]);
  assertEquals([isCount(0), isCount(-1), isCount(1.5), isCount(2 ** 53), isCount("1")], [
    true,
    false,
    false,
    false,
    false,
  ]);
});

Deno.test("parseJsonObject() returns the object or why it is not one", () => {
  assertEquals(parseJsonObject('{"a":1}'), { ok: true, value: { a: 1 } });
  assertEquals(parseJsonObject("[1]"), { ok: false, reason: "not a JSON object" });
  assertEquals(parseJsonObject("{"), { ok: false, reason: "not valid JSON" });
});
