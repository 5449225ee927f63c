#!/usr/bin/env node
/**
 * Draws the PNG app icons the web manifest lists (pwa-192.png, pwa-512.png) and iOS's
 * apple-touch-icon.png from code, so
 * no image tool is needed: an indigo-to-violet rounded square with a white ballot box and a
 * green tick, matching the logo (src/components/layout/logo-drawing.ts). Run once after changing the design; output is committed.
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

function png(size, pixel) {
  const stride = size * 4 + 1;
  const raw = Buffer.alloc(stride * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) raw.set(pixel(x / size, y / size), y * stride + 1 + x * 4);
  }
  const head = Buffer.alloc(13);
  head.writeUInt32BE(size, 0);
  head.writeUInt32BE(size, 4);
  head[8] = 8;
  head[9] = 6;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", head), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
const inRect = (u, v, x0, y0, x1, y1) => u >= x0 && u <= x1 && v >= y0 && v <= y1;
const nearSegment = (u, v, [ax, ay], [bx, by], w) => {
  const t = Math.max(0, Math.min(1, ((u - ax) * (bx - ax) + (v - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(u - (ax + t * (bx - ax)), v - (ay + t * (by - ay))) < w;
};

// Full-bleed background (maskable safe): content stays within the central 60%.
const pixel = (u, v) => {
  const bg = mix([79, 70, 229], [124, 58, 237], (u + v) / 2);
  if (nearSegment(u, v, [0.41, 0.36], [0.47, 0.42], 0.035) || nearSegment(u, v, [0.47, 0.42], [0.6, 0.28], 0.035)) return [22, 163, 74, 255];
  if (inRect(u, v, 0.36, 0.2, 0.64, 0.5)) return [224, 231, 255, 255]; // ballot paper
  if (inRect(u, v, 0.25, 0.47, 0.75, 0.8)) return inRect(u, v, 0.38, 0.47, 0.62, 0.52) ? [199, 210, 254, 255] : [255, 255, 255, 255]; // box and slot
  return [...bg, 255];
};

for (const size of [192, 512]) {
  writeFileSync(new URL(`../public/pwa-${size}.png`, import.meta.url), png(size, pixel));
  console.log(`public/pwa-${size}.png`);
}

// iOS takes its home-screen icon from apple-touch-icon, not the manifest: 180 px, opaque and
// full-bleed (iOS rounds the corners itself).
writeFileSync(new URL("../public/apple-touch-icon.png", import.meta.url), png(180, pixel));
console.log("public/apple-touch-icon.png");

// The maskable icon gets its own file with the artwork shrunk to 80%, so a launcher's circle
// or squircle mask (the safe zone is a circle of 40% radius) never clips the ballot box.
const padded = (u, v) => pixel(0.5 + (u - 0.5) * 1.25, 0.5 + (v - 0.5) * 1.25);
writeFileSync(new URL("../public/pwa-maskable-512.png", import.meta.url), png(512, padded));
console.log("public/pwa-maskable-512.png");
