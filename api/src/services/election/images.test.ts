import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cleanImage } from "./images.ts";
import { chunk as pngChunk } from "./png.ts";

const HTML = "<html><body><script>alert(document.cookie)</script></body></html>";

const solid = (format: "png" | "jpeg" | "webp" | "gif") => {
  const image = sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 200, g: 30, b: 90 } } });
  return image[format]().toBuffer();
};

/** Inserts chunks right after IHDR (8-byte signature + 25-byte IHDR chunk). */
const withChunks = (png: Buffer, ...chunks: Buffer[]) => Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);

const hasHtml = (b: Buffer) => b.includes("<script") || b.includes("<html");

describe("cleanImage: only pixels survive", () => {
  it("a PNG carrying HTML between its header and IEND comes back without it, same picture", async () => {
    const original = await solid("png");
    const polyglot = withChunks(original, pngChunk("tEXt", Buffer.from(`Comment\0${HTML}`)), pngChunk("htMl", Buffer.from(HTML)));
    expect(hasHtml(polyglot)).toBe(true);
    const clean = await cleanImage(polyglot);
    expect(clean?.mime).toBe("image/png");
    expect(hasHtml(clean!.data)).toBe(false);
    const [a, b] = await Promise.all([original, clean!.data].map((x) => sharp(x).raw().toBuffer()));
    expect(b.equals(a)).toBe(true);
  });

  it("JPEG comments, WebP and GIF are rebuilt in their own format", async () => {
    const jpeg = await solid("jpeg");
    // A COM segment right after SOI.
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0, HTML.length + 2]), Buffer.from(HTML)]);
    const jpegPolyglot = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
    const cleanJpeg = await cleanImage(jpegPolyglot);
    expect(cleanJpeg?.mime).toBe("image/jpeg");
    expect(hasHtml(cleanJpeg!.data)).toBe(false);
    expect((await cleanImage(await solid("webp")))?.mime).toBe("image/webp");
    const gif = await cleanImage(await solid("gif"));
    expect(gif?.mime).toBe("image/gif");
    expect((await sharp(gif!.data).metadata()).format).toBe("gif");
  });

  it("refuses what does not decode, or decodes as something else than its header says", async () => {
    const png = await solid("png");
    const broken = Buffer.concat([png.subarray(0, 33), Buffer.from(HTML), png.subarray(png.length - 12)]);
    expect(await cleanImage(broken)).toBeNull();
    expect(await cleanImage(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${HTML}</svg>`))).toBeNull();
    expect(await cleanImage(Buffer.concat([png, Buffer.from(HTML)]))).toBeNull();
  });

  it("refuses a decompression bomb (a small file claiming a huge picture)", async () => {
    const bomb = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await cleanImage(bomb)).toBeNull();
  });
});
