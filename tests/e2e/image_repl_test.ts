import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { pngImage } from "../support/images.ts";
import { openReplDouble } from "../support/repl_double.ts";
import { text } from "../support/scripts.ts";

const screenHas = (part: string) => (lines: string[]) => lines.some((line) => line.includes(part));

/** The REPL over a fake server, the profile saying whether the model takes images. */
async function openOver(url: string, vision: boolean) {
  const config = { baseURL: url, apiKey: "k", model: "m", contextWindow: 32000 };
  const repl = await openReplDouble([], {
    undo: false,
    assemble: () => ({ config: vision ? { ...config, vision } : config }),
  });
  const png = await pngImage(20, 10);
  await Deno.writeFile(`${repl.workspace}/shot.png`, png);
  return { repl, png };
}

Deno.test("the REPL in-process: @shot.png sends the task's text and the image to a vision model", async () => {
  await using server = await startFakeServer({ handler: () => text("A grey strip.") });
  const { repl, png } = await openOver(server.url, true);
  await repl.type(`what is @shot.png${KEYS.enter}`);
  await repl.until(screenHas("A grey strip."), "the answer");
  assertEquals(repl.lines().some((line) => line.includes("attached shot.png (PNG 20×10)")), true);
  const task = server.requests.at(-1)?.body?.messages.at(-1);
  assertEquals(task?.content, "what is @shot.png");
  assertEquals(task?.role === "user" ? task.images?.map((image) => image.data) : [], [
    png.toBase64(),
  ]);
  assertEquals(await repl.end(), 0);
});

Deno.test("the REPL in-process: an image path pasted on its own goes as the image", async () => {
  await using server = await startFakeServer({ handler: () => text("Seen.") });
  const { repl, png } = await openOver(server.url, true);
  await repl.type(`'${repl.workspace}/shot.png'${KEYS.enter}`);
  await repl.until(screenHas("Seen."), "the answer");
  const task = server.requests.at(-1)?.body?.messages.at(-1);
  assertEquals(task?.role === "user" ? task.images?.map((image) => image.data) : [], [
    png.toBase64(),
  ]);
  assertEquals(await repl.end(), 0);
});

Deno.test("the REPL in-process: @shot.png for a model without vision is one line, nothing sent", async () => {
  await using server = await startFakeServer({ handler: () => text("never") });
  const { repl } = await openOver(server.url, false);
  await repl.type(`what is @shot.png${KEYS.enter}`);
  await repl.until(screenHas('has no "vision": true'), "the refusal");
  const refusal = repl.lines().filter((line) => line.includes("Cannot send the image"));
  assertEquals(refusal.length, 1);
  assertEquals(server.requests.length, 0);
  assertEquals(await repl.end(), 0);
});
