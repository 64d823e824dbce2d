import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { toToolOutput } from "../../../src/mcp/call_result.ts";

Deno.test("toToolOutput() keeps text parts and replaces others by a one-line note", () => {
  assertEquals(
    toToolOutput({
      content: [
        { type: "text", text: "first" },
        { type: "image", mimeType: "image/png", data: "A".repeat(4000) },
        { type: "audio", mimeType: "audio/wav", data: "AAAA" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside a.txt" } },
        { type: "resource", resource: { uri: "file:///a.bin", mimeType: "x/y", blob: "AAAA" } },
        { type: "resource_link", uri: "file:///b.md", name: "b" },
        { type: "hologram" },
      ],
    }),
    {
      content: [
        "first",
        "[image/png image, 2.9 KB: not shown, powercode passes only text to the model]",
        "[audio/wav audio, 3 B: not shown, powercode passes only text to the model]",
        "inside a.txt",
        "[x/y resource file:///a.bin, 3 B: not shown, powercode passes only text to the model]",
        "[resource link: file:///b.md (b)]",
        '[a "hologram" part: not shown]',
      ].join("\n"),
      summary: "7 lines",
      isError: false,
    },
  );
});

Deno.test("toToolOutput() keeps the server's isError and shows its first line", () => {
  assertEquals(
    toToolOutput({ content: [{ type: "text", text: "no such file\ndetails" }], isError: true }),
    { content: "no such file\ndetails", summary: "no such file", isError: true },
  );
});

Deno.test("toToolOutput() uses structured content when there are no parts, and says when there is nothing", () => {
  assertEquals(toToolOutput({ content: [], structuredContent: { n: 1 } }).content, '{"n":1}');
  assertEquals(toToolOutput({ content: [] }).content, "(no output)");
});

Deno.test("toToolOutput() sums up a result with no text as `no output`, not `1 line`", () => {
  const nothing = { content: "(no output)", summary: "no output", isError: false };
  assertEquals(toToolOutput({ content: [] }), nothing);
  assertEquals(toToolOutput({ content: [{ type: "text", text: "" }] }), nothing);
  assertEquals(toToolOutput({}), nothing);
});

Deno.test("toToolOutput() cuts a long result to 2000 lines with a note", () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`);
  const { content } = toToolOutput({ content: [{ type: "text", text: lines.join("\n") }] });
  assertEquals(content.split("\n").slice(1998, 2000), ["line 1999", "line 2000"]);
  assertStringIncludes(
    content,
    "\n\n[Result cut: showing the first 2000 of 3000 lines (18.5 KB of 28.2 KB); results keep " +
      "at most 2000 lines / 50 KB: ask the tool for less]",
  );
});

Deno.test("toToolOutput() refuses an answer that is not a tool result", () => {
  assertThrows(() => toToolOutput("text"), Error, "the server's answer is not a tool result");
  assertThrows(() => toToolOutput({ content: "text" }), Error, "not a tool result");
});
