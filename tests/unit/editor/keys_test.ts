import { assertEquals } from "@std/assert";
import { type Key, KeyDecoder } from "../../../src/editor/keys.ts";

const encoder = new TextEncoder();

function decode(...chunks: string[]): Key[] {
  const decoder = new KeyDecoder();
  const keys = chunks.flatMap((chunk) => decoder.feed(encoder.encode(chunk)));
  return [...keys, ...decoder.flush()];
}

function named(...names: string[]): Key[] {
  return names.map((name) => ({ type: "key", name }));
}

Deno.test("KeyDecoder turns typed runs into one text key and controls into named keys", () => {
  assertEquals(decode("héllo 天\r"), [{ type: "text", text: "héllo 天" }, ...named("enter")]);
  assertEquals(
    decode("\x01\x05\x15\x0b\x17\x03\x04\x0c\t\x7f\n"),
    named(
      "ctrl+a",
      "ctrl+e",
      "ctrl+u",
      "ctrl+k",
      "ctrl+w",
      "ctrl+c",
      "ctrl+d",
      "ctrl+l",
      "tab",
      "backspace",
      "ctrl+j",
    ),
  );
});

Deno.test("KeyDecoder decodes arrows, Home/End, Delete and modifiers in CSI and SS3 form", () => {
  assertEquals(
    decode("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[1~\x1b[4~\x1b[3~\x1b[1;5D\x1b[1;3C"),
    named(
      "up",
      "down",
      "right",
      "left",
      "home",
      "end",
      "home",
      "end",
      "delete",
      "ctrl+left",
      "alt+right",
    ),
  );
});

Deno.test("KeyDecoder decodes Alt+Enter, Shift+Enter, Alt+letter and Alt+Backspace", () => {
  assertEquals(
    decode("\x1b\r", "\x1b[13;2u", "\x1b[27;2;13~", "\x1bb", "\x1b\x7f"),
    named("alt+enter", "shift+enter", "shift+enter", "alt+b", "alt+backspace"),
  );
});

Deno.test("KeyDecoder decodes Alt+Up as xterm sends it and as ESC before the arrow", () => {
  assertEquals(
    decode("\x1b[1;3A", "\x1b\x1b[A", "\x1b\x1bOB", "\x1b\x1b[H"),
    named("alt+up", "alt+up", "alt+down", "escape", "home"),
  );
});

Deno.test("KeyDecoder waits for a sequence split across chunks and flushes a lone ESC", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.feed(encoder.encode("a\x1b")), [{ type: "text", text: "a" }]);
  assertEquals(decoder.waiting, true);
  assertEquals(decoder.feed(encoder.encode("[")), []);
  assertEquals(decoder.feed(encoder.encode("1;5C")), named("ctrl+right"));
  assertEquals(decoder.waiting, false);
  assertEquals(decoder.feed(encoder.encode("\x1b")), []);
  assertEquals(decoder.flush(), named("escape"));
});

Deno.test("KeyDecoder joins a multi-byte character split across chunks", () => {
  const bytes = encoder.encode("天");
  const decoder = new KeyDecoder();
  assertEquals(decoder.feed(bytes.subarray(0, 1)), []);
  assertEquals(decoder.feed(bytes.subarray(1)), [{ type: "text", text: "天" }]);
});

Deno.test("KeyDecoder returns a bracketed paste as one key, whatever its chunks and content", () => {
  const content = "line 1\r\nline 2\rline 3\n\x1b[31mred\x03\x04";
  const whole = `\x1b[200~${content}\x1b[201~`;
  const expected: Key[] = [
    { type: "text", text: "x" },
    { type: "paste", text: "line 1\nline 2\nline 3\n\x1b[31mred\x03\x04" },
    ...named("enter"),
  ];
  assertEquals(decode(`x${whole}\r`), expected);
  const chunks = [...`x${whole}\r`].map((char) => char);
  assertEquals(decode(...chunks), expected);
});

Deno.test("KeyDecoder keeps a paste that never ends open instead of guessing", () => {
  const decoder = new KeyDecoder();
  assertEquals(decoder.feed(encoder.encode("\x1b[200~half of a paste\x1b[20")), []);
  assertEquals(decoder.waiting, false);
  assertEquals(decoder.feed(encoder.encode("1~")), [{ type: "paste", text: "half of a paste" }]);
});

Deno.test("KeyDecoder ignores unknown sequences and C1 characters", () => {
  assertEquals(decode("\x1b[0n\x1b[12;40R\x1b[?1;2c\u009bok"), [{ type: "text", text: "ok" }]);
});

Deno.test("KeyDecoder reads focus reports (CSI I, CSI O) as focus_in and focus_out", () => {
  assertEquals(decode("\x1b[O", "a\x1b[I"), [
    ...named("focus_out"),
    { type: "text", text: "a" },
    ...named("focus_in"),
  ]);
});
