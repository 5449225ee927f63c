/**
 * Candidate photos are judged by their bytes, not their name or declared type, and then
 * rebuilt from their pixels:
 * 1. the header must be PNG, JPEG, WebP or GIF AND the file must end the way that format ends
 *    (PNG's IEND chunk, JPEG's EOI marker, GIF's trailer, WebP's RIFF length): SVG, HTML and
 *    scripts never reach the decoder;
 * 2. the image is decoded and encoded again with sharp (libvips) in the same format. Only
 *    pixels survive: text chunks, comments, EXIF, unknown chunks and anything hidden between
 *    the header and the trailer (a PNG that is also an HTML page, say) are gone. A file that
 *    does not decode, or decodes as another format than its header claims, is refused.
 * Photos are served back only with their type, `nosniff` and a sandboxing CSP.
 */
import sharp from "sharp";

export type ImageMime = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_TAIL = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const endsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[b.length - sig.length + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

export function sniffImage(bytes: Uint8Array): ImageMime | null {
  if (bytes.length < 16) return null;
  if (startsWith(bytes, PNG_HEAD)) return endsWith(bytes, PNG_TAIL) ? "image/png" : null;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return endsWith(bytes, [0xff, 0xd9]) ? "image/jpeg" : null;
  const head6 = ascii(bytes, 0, 6);
  if (head6 === "GIF87a" || head6 === "GIF89a") return bytes[bytes.length - 1] === 0x3b ? "image/gif" : null;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") {
    const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
    return declared + 8 === bytes.length ? "image/webp" : null;
  }
  return null;
}

/** A decompression bomb guard: a 2 MB file may claim any size; 4,000 x 4,000 is plenty for a face. */
const MAX_PIXELS = 16_000_000;

const FORMAT: Record<ImageMime, "png" | "jpeg" | "webp" | "gif"> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "image/gif": "gif",
};

/**
 * The one entry point for an uploaded photo (create and edit): the sniffed type and the
 * re-encoded bytes, or null when the file is not an image of an allowed type.
 */
export async function cleanImage(bytes: Uint8Array, { maxPixels = MAX_PIXELS }: { maxPixels?: number } = {}): Promise<{ mime: ImageMime; data: Buffer } | null> {
  const mime = sniffImage(bytes);
  if (!mime) return null;
  const format = FORMAT[mime];
  try {
    const animated = format === "gif" || format === "webp";
    // failOn "none": a damaged file still yields pixels (as a browser would show them), and
    // only those pixels are written back; what the decoder cannot read at all is refused below.
    const input = sharp(bytes, { limitInputPixels: maxPixels, failOn: "none", animated });
    const meta = await input.metadata();
    if (meta.format !== format) return null;
    // rotate() applies the EXIF orientation to the pixels before the metadata is dropped.
    const image = animated ? input : input.rotate();
    const data =
      format === "png"
        ? await image.png({ compressionLevel: 9 }).toBuffer()
        : format === "jpeg"
          ? await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer()
          : format === "webp"
            ? await image.webp({ quality: 90 }).toBuffer()
            : await image.gif().toBuffer();
    return { mime, data };
  } catch {
    return null;
  }
}
