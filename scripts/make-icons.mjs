#!/usr/bin/env node
// Draws StudyLoop's app icons (no image tools, no downloads): a loop (a ring with a gap and a dot,
// the study loop) on the accent green. Writes the PNGs the web app manifest and iOS use and the
// favicon; app/icon.svg is the same drawing as a vector. Run again after changing the drawing:
//   node scripts/make-icons.mjs
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const ROOT = path.resolve(import.meta.dirname, "..");
const GREEN = [0x2f, 0x6f, 0x5e];
const CREAM = [0xf7, 0xf5, 0xef];

/** Coverage (0..1) of the drawing at (x, y) in a 1x1 square; `maskable` keeps it in the safe zone. */
function shapeAt(x, y, { maskable }) {
  const scale = maskable ? 0.72 : 1;
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  const dx = u - 0.5;
  const dy = v - 0.5;
  const r = Math.hypot(dx, dy);
  const angle = Math.atan2(dy, dx); // 0 at the right, clockwise (y grows down)
  // The ring: radius 0.3, 0.09 thick, open between -70 and -20 degrees (top right), where a dot sits.
  const ring = Math.abs(r - 0.28) - 0.055;
  const gap = angle > (-75 * Math.PI) / 180 && angle < (-15 * Math.PI) / 180;
  const dotX = 0.5 + 0.28 * Math.cos((-45 * Math.PI) / 180);
  const dotY = 0.5 + 0.28 * Math.sin((-45 * Math.PI) / 180);
  const dot = Math.hypot(u - dotX, v - dotY) - 0.075;
  return Math.min(gap ? 1 : ring, dot);
}

function render(size, { maskable = false, rounded = true } = {}) {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let ink = 0;
      let inside = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          // A rounded square (corner radius 0.2), or the full square for a maskable icon.
          const cx = Math.max(Math.abs(x - 0.5) - 0.3, 0);
          const cy = Math.max(Math.abs(y - 0.5) - 0.3, 0);
          const inBox = !rounded || maskable || Math.hypot(cx, cy) <= 0.2;
          if (!inBox) continue;
          inside++;
          if (shapeAt(x, y, { maskable }) <= 0) ink++;
        }
      }
      const n = samples * samples;
      const t = inside ? ink / inside : 0;
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(GREEN[c] * (1 - t) + CREAM[c] * t);
      pixels[i + 3] = Math.round((inside / n) * 255);
    }
  }
  return png(size, pixels);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
/** An .ico holding PNG images (every current browser reads those). */
function ico(images) {
  const head = Buffer.alloc(6 + images.length * 16);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(images.length, 4);
  let offset = head.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + i * 16;
    head[e] = size >= 256 ? 0 : size;
    head[e + 1] = size >= 256 ? 0 : size;
    head.writeUInt16LE(1, e + 4);
    head.writeUInt16LE(32, e + 6);
    head.writeUInt32LE(data.length, e + 8);
    head.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([head, ...images.map((i) => i.data)]);
}

const write = (file, data) => {
  fs.writeFileSync(path.join(ROOT, file), data);
  console.log(`wrote ${file} (${data.length} bytes)`);
};
write("public/icon-192.png", render(192));
write("public/icon-512.png", render(512));
write("public/icon-maskable-512.png", render(512, { maskable: true }));
write("app/apple-icon.png", render(180, { rounded: false }));
write("app/favicon.ico", ico([16, 32, 48].map((size) => ({ size, data: render(size) }))));
