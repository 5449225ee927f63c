/**
 * Candidate photos are judged by their bytes, not their name or declared type: the header
 * must be PNG, JPEG, WebP or GIF AND the file must end the way that format ends (PNG's IEND
 * chunk, JPEG's EOI marker, GIF's trailer, WebP's RIFF length). That refuses SVG, HTML, scripts
 * and most polyglots that merely start with an image signature. Photos are served back only
 * with their sniffed type, `nosniff` and a sandboxing CSP.
 */
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
