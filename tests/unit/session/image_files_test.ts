import { assertEquals, assertRejects } from "@std/assert";
import { imageOf } from "../../../src/core/image.ts";
import { SessionError } from "../../../src/session/store.ts";
import { pngImage } from "../../support/images.ts";
import { withStore } from "../../support/store.ts";

Deno.test("SessionFile.write() keeps an image by its hash beside the session; load() reads it back", async () => {
  await withStore(async (store, dir) => {
    const image = await imageOf(await pngImage(8, 8), "a.png");
    const file = store.create({ model: "m" });
    const message = { role: "user" as const, content: "look", images: [image] };
    file.write({ type: "message", message });
    file.close();
    const line = Deno.readTextFileSync(file.path).split("\n")[1] ?? "";
    const { data: _, ...ref } = image;
    assertEquals(JSON.parse(line), { type: "message", message: { ...message, images: [ref] } });
    assertEquals(Deno.readFileSync(`${dir}/images/${image.hash}`).toBase64(), image.data);
    const loaded = await store.load(file.id);
    loaded.file.close();
    assertEquals(loaded.records, [{ type: "message", message }]);
  });
});

Deno.test("SessionFile.write() keeps the parent a record with images names", async () => {
  await withStore(async (store) => {
    const image = await imageOf(await pngImage(2, 2), "a.png");
    using file = store.create({ model: "m" });
    const message = { role: "user" as const, content: "", images: [image] };
    file.write(Object.assign({ type: "message" as const, message }, { parent: 0 }));
    const line = JSON.parse(Deno.readTextFileSync(file.path).split("\n")[1] ?? "");
    assertEquals(line.parent, 0);
  });
});

Deno.test("SessionStore.load() refuses a session whose image file is missing or changed", async () => {
  await withStore(async (store, dir) => {
    const image = await imageOf(await pngImage(8, 8), "a.png");
    const file = store.create({ model: "m" });
    file.write({ type: "message", message: { role: "user", content: "", images: [image] } });
    file.close();
    const path = `${dir}/images/${image.hash}`;
    await Deno.writeFile(path, await pngImage(8, 8, 1));
    await assertRejects(
      () => store.load(file.id),
      SessionError,
      `Cannot load session "${file.path}": image "${path}" does not hold the image its name says`,
    );
    await Deno.remove(path);
    await assertRejects(
      () => store.load(file.id),
      SessionError,
      `Cannot load session "${file.path}": image "${path}" is missing`,
    );
  });
});
