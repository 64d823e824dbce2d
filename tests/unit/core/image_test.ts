import { assertEquals, assertRejects } from "@std/assert";
import { describeImage, imageHeader, imageOf, looksLikeImage } from "../../../src/core/image.ts";
import { estimateImageTokens } from "../../../src/context/image_tokens.ts";
import { estimateMessageTokens } from "../../../src/context/tokens.ts";
import { pngImage } from "../../support/images.ts";

function bytes(...parts: (string | number[])[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    parts.flatMap((part) =>
      typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part
    ),
  );
}

Deno.test("imageHeader() reads the type and size of PNG, GIF, JPEG and WebP headers", async () => {
  assertEquals(imageHeader(await pngImage(300, 200)), {
    mediaType: "image/png",
    width: 300,
    height: 200,
  });
  assertEquals(imageHeader(bytes("GIF89a", [0x40, 0x01, 0xf0, 0x00])), {
    mediaType: "image/gif",
    width: 320,
    height: 240,
  });
  // SOI, an APP0 segment of 4 bytes, then SOF0: precision 8, height 480, width 640.
  const jpeg = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 1, 0xe0, 2, 0x80]);
  assertEquals(imageHeader(bytes([...jpeg, ...new Array(12).fill(0)])), {
    mediaType: "image/jpeg",
    width: 640,
    height: 480,
  });
  const vp8x = bytes("RIFF", [0, 0, 0, 0], "WEBPVP8X", new Array(8).fill(0), [
    0x7f,
    2,
    0,
    0xdf,
    1,
    0,
  ]);
  assertEquals(imageHeader(vp8x), { mediaType: "image/webp", width: 640, height: 480 });
});

Deno.test("imageHeader() gives undefined for text, a torn header and a size of zero", () => {
  assertEquals(imageHeader(bytes("hello world, no picture")), undefined);
  assertEquals(imageHeader(bytes("\x89PNG\r\n\x1a\n", [0, 0, 0, 13], "IHDR", [0, 0])), undefined);
  assertEquals(imageHeader(bytes("GIF89a", [0, 0, 0, 0])), undefined);
});

Deno.test("looksLikeImage() knows a picture by its first bytes", async () => {
  assertEquals(looksLikeImage(await pngImage(2, 2)), true);
  assertEquals(looksLikeImage(bytes([0xff, 0xd8, 0xff, 0xe0])), true);
  assertEquals(looksLikeImage(bytes("GIF87a")), true);
  assertEquals(looksLikeImage(bytes("%PDF-1.7")), false);
});

Deno.test("imageOf() names the bytes by their SHA-256 and refuses what is no image", async () => {
  const png = await pngImage(4, 3);
  const image = await imageOf(png, "a.png");
  assertEquals(image.hash.length, 64);
  assertEquals(image.data, png.toBase64());
  assertEquals(describeImage(image), "PNG 4×3");
  await assertRejects(
    () => imageOf(bytes("plain text"), "notes.png"),
    TypeError,
    'Cannot attach "notes.png": it is no PNG, JPEG, GIF or WebP image that can be read',
  );
});

Deno.test("estimateImageTokens() follows OpenAI's tile rule", () => {
  assertEquals(estimateImageTokens({ width: 100, height: 100 }), 85 + 170);
  // The shorter side is under 768: not scaled, 2 × 2 tiles.
  assertEquals(estimateImageTokens({ width: 1000, height: 700 }), 85 + 4 * 170);
  // 1600×1200 → shorter side 768 → 1024×768: 2 × 2 tiles.
  assertEquals(estimateImageTokens({ width: 1600, height: 1200 }), 85 + 4 * 170);
  // 4096×8192 → 1024×2048 → 768×1536: 2 × 3 tiles.
  assertEquals(estimateImageTokens({ width: 4096, height: 8192 }), 85 + 6 * 170);
});

Deno.test("estimateMessageTokens() counts a user message's images", async () => {
  const image = await imageOf(await pngImage(1000, 700), "shot.png");
  const alone = estimateMessageTokens({ role: "user", content: "What is this?" });
  const withImage = estimateMessageTokens({
    role: "user",
    content: "What is this?",
    images: [image],
  });
  assertEquals(withImage - alone, 765);
});
