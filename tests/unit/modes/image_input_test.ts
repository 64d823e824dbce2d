import { assertEquals } from "@std/assert";
import { pastedImagePath, visionProblem } from "../../../src/modes/image_input.ts";

Deno.test("pastedImagePath() reads a dropped image's path, quoted, escaped or as a file URL", () => {
  assertEquals(pastedImagePath("/home/me/shot.png"), "/home/me/shot.png");
  assertEquals(pastedImagePath("  '/home/me/my shot.PNG' "), "/home/me/my shot.PNG");
  assertEquals(pastedImagePath("/home/me/my\\ shot.jpeg"), "/home/me/my shot.jpeg");
  assertEquals(pastedImagePath("file:///tmp/a%20b.webp"), "/tmp/a b.webp");
});

Deno.test("pastedImagePath() leaves a task, and a path that names no image, as text", () => {
  assertEquals(pastedImagePath("look at shot.png please"), undefined);
  assertEquals(pastedImagePath("/home/me/notes.txt"), undefined);
  assertEquals(pastedImagePath("'a.png' and 'b.png'"), undefined);
});

Deno.test("visionProblem() names the profile and the field that turns images on", () => {
  assertEquals(visionProblem("a.png", { profile: "big", vision: true }), undefined);
  assertEquals(
    visionProblem("a.png", { profile: "small", vision: false }),
    'Cannot send the image "a.png": profile "small" has no "vision": true',
  );
});
