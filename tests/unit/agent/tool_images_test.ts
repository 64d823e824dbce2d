import { assertEquals } from "@std/assert";
import { splitImage, toolImagesNote, withoutImages } from "../../../src/agent/tool_images.ts";
import type { MessageImage } from "../../../src/core/mod.ts";

const IMAGE: MessageImage = {
  hash: "a".repeat(64),
  mediaType: "image/png",
  width: 20,
  height: 10,
  data: "iVBORw0KGgo=",
};
const RESULT = { content: 'Image "pic.png"', summary: "PNG 20×10", isError: false, image: IMAGE };

Deno.test("splitImage() takes the image out of a result for a vision model", () => {
  const { image: _, ...text } = RESULT;
  assertEquals(splitImage(RESULT, { name: "big", vision: true }), { result: text, image: IMAGE });
});

Deno.test("splitImage() makes an image result an error for a model without vision", () => {
  const message = 'Cannot show the image: the model of profile "small" does not take images ' +
    '("vision": true in its provider.json profile says it does)';
  assertEquals(splitImage(RESULT, { name: "small" }), {
    result: { content: `Error: ${message}`, summary: message, isError: true },
  });
});

Deno.test("splitImage() refuses a ninth image of one step", () => {
  const message = "Cannot show the image: the calls of one step may show at most 8 images; " +
    "read the rest in the next step";
  assertEquals(splitImage(RESULT, { name: "big", vision: true, taken: 8 }), {
    result: { content: `Error: ${message}`, summary: message, isError: true },
  });
});

Deno.test("toolImagesNote() carries the images in one powercode note", () => {
  assertEquals(toolImagesNote([IMAGE]), {
    role: "user",
    content: "[powercode] The image read by the tool calls above:",
    images: [IMAGE],
  });
});

Deno.test("withoutImages() puts a note in place of each image for a model without vision", () => {
  const request = {
    system: "s",
    messages: [{ role: "user" as const, content: "look", images: [IMAGE] }],
  };
  assertEquals(withoutImages(request, "small").messages, [
    {
      role: "user",
      content: 'look\n[image PNG 20×10 left out: profile "small" has no "vision": true]',
    },
  ]);
  const plain = { system: "s", messages: [{ role: "user" as const, content: "hi" }] };
  assertEquals(withoutImages(plain, "small"), plain);
});
