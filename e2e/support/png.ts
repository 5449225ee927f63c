/** Test photos for the browser suite, drawn with the API's own PNG encoder. */
import { encodePng } from "../../api/src/services/election/png.ts";

/** A small portrait-ish test photo: a coloured background with a lighter head and shoulders. */
export function testPhoto(hue: [number, number, number]): Buffer {
  const size = 64;
  return encodePng(size, size, (x, y) => {
    const head = (x - 32) ** 2 + (y - 24) ** 2 < 12 ** 2;
    const body = (x - 32) ** 2 + (y - 64) ** 2 < 26 ** 2;
    return head || body ? [245, 245, 250, 255] : [...hue, 255];
  });
}
