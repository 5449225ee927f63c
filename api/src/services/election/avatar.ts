/** Draws a simple PNG portrait for demo candidates: a two-tone figure on a tinted square. */
import { encodePng, type Rgba } from "./png.ts";

function hsl(h: number, s: number, l: number): Rgba {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4), 255];
}

export function avatarPng(hue: number, size = 128): Buffer {
  const bg = hsl(hue, 0.55, 0.88);
  const figure = hsl(hue, 0.45, 0.42);
  return encodePng(size, size, (x, y) => {
    const cx = x - size / 2;
    const inHead = cx ** 2 + (y - size * 0.38) ** 2 < (size * 0.2) ** 2;
    const inBody = cx ** 2 / (size * 0.34) ** 2 + (y - size * 0.95) ** 2 / (size * 0.36) ** 2 < 1;
    return inHead || inBody ? figure : bg;
  });
}
