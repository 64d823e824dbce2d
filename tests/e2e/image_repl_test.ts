import { assertEquals } from "@std/assert";
import { startFakeServer } from "../support/fake_server.ts";
import { KEYS } from "../support/fake_terminal.ts";
import { pngImage } from "../support/images.ts";
import { openReplDouble } from "../support/repl_double.ts";
import { text, toolCall } from "../support/scripts.ts";

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

Deno.test("the REPL in-process: a steering message typed during a step goes with its @image, and a pasted path as the image", async () => {
  const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
  await using server = await startFakeServer({
    handler: async (_request, index) => {
      const gate = gates[index];
      if (gate === undefined) return text("Seen both.");
      await gate.promise;
      return toolCall("glob", { pattern: "*.txt" });
    },
  });
  const { repl, png } = await openOver(server.url, true);
  const steer = async (line: string, request: number) => {
    await repl.until(() => server.requests.length === request + 1, "the held request");
    await repl.type(`${line}${KEYS.enter}`);
    await repl.until(screenHas(`queued: ${line}`), "the steering message queued");
    gates[request]?.resolve();
  };
  await repl.type(`start${KEYS.enter}`);
  await steer("and this @shot.png", 0);
  await steer(`'${repl.workspace}/shot.png'`, 1);
  await repl.until(screenHas("Seen both."), "the answer after both steps");
  const sent = (request: number) => {
    const message = server.requests[request]?.body?.messages.at(-1);
    return message?.role === "user"
      ? [message.content, message.images?.map((image) => image.data)]
      : [];
  };
  assertEquals(sent(1), ["and this @shot.png", [png.toBase64()]]);
  assertEquals(sent(2), [`'${repl.workspace}/shot.png'`, [png.toBase64()]]);
  assertEquals(repl.lines().includes("  attached shot.png (PNG 20×10)"), true);
  assertEquals(await repl.end(), 0);
});
