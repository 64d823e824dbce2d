import { assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { pngImage } from "../support/images.ts";
import { createTempProject } from "../support/project.ts";
import type { ChatMessage, RecordedRequest } from "../support/fake_server.ts";
import { text, toolCall } from "../support/scripts.ts";
import {
  allSessionText,
  ENV,
  provider,
  sessionIds,
  startScriptedServer,
} from "../support/sessions.ts";

const VISION = { vision: true };

/** The user messages a request carried, without the system prompt. */
function userMessages(request: RecordedRequest | undefined): ChatMessage[] {
  return request?.body?.messages.filter((message) => message.role === "user") ?? [];
}

/** The content parts' types of the last user message of `request`, as sent. */
function lastUserParts(request: RecordedRequest | undefined): unknown {
  const raw = request?.raw as { messages: { role: string; content: unknown }[] };
  const content = raw.messages.findLast((message) => message.role === "user")?.content;
  return Array.isArray(content) ? content.map((part) => part.type) : typeof content;
}

Deno.test("powercode -p -i sends the task's text part and the image's bytes as an image_url part", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url, VISION));
  const png = await pngImage(1000, 700);
  await Deno.writeFile(`${project.workspace}/shot.png`, png);
  const requests = scripted.play([text("A grey picture.")]);
  const result = await project.run(["-p", "What is this?", "-i", "workspace/shot.png"], {
    env: ENV,
  });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "A grey picture.\n");
  const [request] = requests();
  assertEquals(lastUserParts(request), ["text", "image_url"]);
  const [task] = userMessages(request);
  assertEquals(task?.content, "What is this?");
  assertEquals(task?.role === "user" ? task.images?.map((image) => image.data) : [], [
    png.toBase64(),
  ]);
});

Deno.test("powercode -c re-sends an image with the bytes it sent first; the session file holds its hash", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url, VISION));
  const png = await pngImage(64, 48, 7);
  await Deno.writeFile(`${project.workspace}/shot.png`, png);
  const first = scripted.play([text("Seen.")]);
  const sent = await project.run(["-p", "Look", "-i", "workspace/shot.png"], { env: ENV });
  assertEquals(sent.code, 0, sent.stderr);
  await Deno.remove(`${project.workspace}/shot.png`);
  const second = scripted.play([text("Still seen.")]);
  const resumed = await project.run(["-c", "-p", "Again"], { env: ENV });
  assertEquals(resumed.code, 0, resumed.stderr);
  const before = first()[0]?.raw as { messages: unknown[] };
  const after = second()[0]?.raw as { messages: unknown[] };
  // The first task's message, image and all, goes again exactly as it went first.
  assertEquals(JSON.stringify(after.messages[1]), JSON.stringify(before.messages[1]));
  const hash = await sha256(png);
  const session = await allSessionText(project.dir);
  assertStringIncludes(session, `"hash":"${hash}"`);
  assertEquals(session.includes(png.toBase64()), false);
  assertEquals(await Deno.readFile(`${project.dir}/.powercode/sessions/images/${hash}`), png);
});

Deno.test("powercode -c --model on a profile without vision sends a note in place of the image", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider({
    default: "eyes",
    profiles: {
      eyes: provider(scripted.server.url, VISION),
      blind: provider(scripted.server.url),
    },
  });
  await Deno.writeFile(`${project.workspace}/shot.png`, await pngImage(30, 20));
  scripted.play([text("Seen.")]);
  const sent = await project.run(["-p", "Look", "-i", "workspace/shot.png"], { env: ENV });
  assertEquals(sent.code, 0, sent.stderr);
  const requests = scripted.play([text("Told.")]);
  const blind = await project.run(["-c", "--model", "blind", "-p", "Again"], { env: ENV });
  assertEquals(blind.code, 0, blind.stderr);
  const [task] = userMessages(requests()[0]);
  assertEquals(task, {
    role: "user",
    content: 'Look\n[image PNG 30×20 left out: profile "blind" has no "vision": true]',
  });
});

Deno.test("powercode -p -i without a vision profile prints one line and sends nothing", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeFile(`${project.workspace}/shot.png`, await pngImage(10, 10));
  scripted.play([text("never")]);
  const result = await project.run(["-p", "What is this?", "-i", "workspace/shot.png"], {
    env: ENV,
  });
  assertEquals(result.code, 2);
  assertEquals(result.stdout, "");
  assertMatch(
    result.stderr.trim(),
    /^[^\n]*Cannot send the image "workspace\/shot.png": profile "default" has no "vision": true$/,
  );
  assertEquals(scripted.server.requests.filter((r) => r.path.endsWith("/completions")), []);
  assertEquals(await sessionIds(project.dir), []);
});

Deno.test("powercode -p -i refuses an image file that is no image, and more than eight", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url, VISION));
  await Deno.writeTextFile(`${project.workspace}/fake.png`, "not a picture");
  const fake = await project.run(["-p", "x", "-i", "workspace/fake.png"], { env: ENV });
  assertEquals(fake.code, 2);
  assertStringIncludes(
    fake.stderr,
    'Cannot attach "workspace/fake.png": it is no PNG, JPEG, GIF or WebP image that can be read',
  );
  const nine = Array.from({ length: 9 }, () => ["-i", "workspace/fake.png"]).flat();
  const many = await project.run(["-p", "x", ...nine], { env: ENV });
  assertEquals(many.code, 2);
  assertStringIncludes(many.stderr, "it has 9 images, more than the 8 one message may carry");
  assertEquals(scripted.server.requests.length, 0);
});

Deno.test("read_file of a PNG gives a vision model the text result, then the image in a user message", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url, VISION));
  const png = await pngImage(20, 10);
  await Deno.writeFile(`${project.workspace}/pic.png`, png);
  const requests = scripted.play([toolCall("read_file", { path: "pic.png" }), text("Grey.")]);
  const result = await project.run(["-p", "Read pic.png"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const messages = requests()[1]?.body?.messages ?? [];
  const [tool, note] = messages.slice(-2);
  assertEquals(tool?.role, "tool");
  assertEquals(
    tool?.content,
    `Image "pic.png" (PNG 20×10, ${png.length} B): it follows in the next message`,
  );
  assertEquals(note?.role === "user" ? note.images?.map((image) => image.data) : [], [
    png.toBase64(),
  ]);
});

Deno.test("read_file of a PNG is refused for a model without vision, and no image is sent", async () => {
  await using scripted = await startScriptedServer();
  await using project = await createTempProject();
  await project.writeProvider(provider(scripted.server.url));
  await Deno.writeFile(`${project.workspace}/pic.png`, await pngImage(20, 10));
  const requests = scripted.play([toolCall("read_file", { path: "pic.png" }), text("Ok.")]);
  const result = await project.run(["-p", "Read pic.png"], { env: ENV });
  assertEquals(result.code, 0, result.stderr);
  const messages = requests()[1]?.body?.messages ?? [];
  assertEquals(messages.at(-1), {
    role: "tool",
    "tool_call_id": (messages.at(-1) as { tool_call_id: string }).tool_call_id,
    content: 'Error: Cannot show the image: the model of profile "default" does not take images ' +
      '("vision": true in its provider.json profile says it does)',
  });
  assertEquals(messages.some((message) => message.role === "user" && message.images), false);
});

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
