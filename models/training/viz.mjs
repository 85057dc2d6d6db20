import sharp from 'sharp';
import { readFileSync } from 'node:fs';
const dir = process.argv[2], k = Number(process.argv[3]);
const meta = JSON.parse(readFileSync(dir + '/meta.json'));
const W = meta.width, H = meta.height;
const buf = readFileSync(dir + '/images.u8').subarray(k * W * H * 3, (k + 1) * W * H * 3);
const img = Buffer.from(buf);
const labels = readFileSync(dir + '/labels.jsonl', 'utf8').split('\n')[k];
for (const l of JSON.parse(labels)) {
  for (let a = 0; a < 64; a++) {
    const x = Math.round(l.u + (l.r + 1) * Math.cos(a / 64 * 2 * Math.PI)), y = Math.round(l.v + (l.r + 1) * Math.sin(a / 64 * 2 * Math.PI));
    if (x >= 0 && x < W && y >= 0 && y < H) { const o = (y * W + x) * 3; img[o] = l.visible ? 255 : 0; img[o + 1] = l.visible ? 0 : 255; img[o + 2] = 255; }
  }
}
await sharp(img, { raw: { width: W, height: H, channels: 3 } }).resize(W * 2, H * 2, { kernel: 'nearest' }).png().toFile(process.argv[4]);
