// Draws .claude-plugin/icon.png (the plugin's listing icon, which `claude plugin validate --strict` asks for):
// three stacked stones on a transparent 512x512 background. Run: node scripts/make-icon.mjs .claude-plugin/icon.png
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
const N = 512;
const px = Buffer.alloc(N * N * 4);
const stones = [
  { cx: 256, cy: 392, rx: 170, ry: 62, c: [92, 99, 112] },
  { cx: 250, cy: 282, rx: 128, ry: 52, c: [122, 130, 142] },
  { cx: 262, cy: 186, rx: 90, ry: 44, c: [150, 158, 168] },
  { cx: 254, cy: 110, rx: 52, ry: 32, c: [178, 186, 194] },
];
for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
  for (const s of stones) {
    const d = ((x - s.cx) / s.rx) ** 2 + ((y - s.cy) / s.ry) ** 2;
    if (d <= 1) {
      const shade = 1 - 0.25 * Math.max(0, (y - s.cy) / s.ry);
      const o = (y * N + x) * 4;
      px[o] = s.c[0] * shade; px[o + 1] = s.c[1] * shade; px[o + 2] = s.c[2] * shade; px[o + 3] = 255;
    }
  }
}
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) { raw[y * (N * 4 + 1)] = 0; px.copy(raw, y * (N * 4 + 1) + 1, y * N * 4, (y + 1) * N * 4); }
const crcT = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (b) => { let c = 0xffffffff; for (const x of b) c = crcT[(c ^ x) & 255] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (t, d) => { const l = Buffer.alloc(4); l.writeUInt32BE(d.length); const td = Buffer.concat([Buffer.from(t), d]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([l, td, c]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(N, 0); ihdr.writeUInt32BE(N, 4); ihdr[8] = 8; ihdr[9] = 6;
writeFileSync(process.argv[2], Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
