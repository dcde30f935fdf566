import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// Crockford base32, 26 chars; the first char caps the 48-bit time at 7.
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export function isUlid(s: string): boolean {
  return ULID_RE.test(s);
}

// ulid's own source draws one byte per call from the system's CSPRNG (16 calls, ~0.1 ms per new
// id); the same bytes, drawn 256 at a time.
const pool = new Uint8Array(256);
let at = pool.length;
function prng(): number {
  if (at === pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  return pool[at++]! / 256;
}

const next = monotonicFactory(prng);
export function newId(now = Date.now()): string {
  return next(now);
}
