// The caches' checksums (index/cache.ts, index/vectorCache.ts). CRC-32 from zlib: ~2.6x faster
// than SHA-1 (8 vs 21 ms over a 40 MB index cache, read at every start), and made for what it
// guards against here: a torn or damaged file (the caches are rebuildable, and anyone who can
// write .cache/ can write the store itself). A Node without zlib.crc32 (before 20.15) writes and
// reads SHA-1. Either fills the same 40-character slot: SHA-1's hex digest, or `crc32:` and 8 hex
// digits padded with spaces; a reader takes the algorithm from the slot, so caches written by an
// older cairn (SHA-1) stay readable, and an older cairn rebuilds a CRC-32 one (checksum mismatch).
import { createHash, type Hash } from 'node:crypto';
import * as zlib from 'node:zlib';

export const SUM_CHARS = 40;
const CRC_TAG = 'crc32:';
type Crc32 = (data: Uint8Array, value?: number) => number;
const crc32 = (zlib as unknown as { crc32?: Crc32 }).crc32;

export interface Checksum {
  update(bytes: Uint8Array): void;
  /** SUM_CHARS latin1 characters for the slot */
  digest(): string;
}

class Crc32Sum implements Checksum {
  private v = 0;
  constructor(private readonly fn: Crc32) {}
  update(bytes: Uint8Array): void {
    this.v = this.fn(bytes, this.v);
  }
  digest(): string {
    return `${CRC_TAG}${(this.v >>> 0).toString(16).padStart(8, '0')}`.padEnd(SUM_CHARS, ' ');
  }
}

class Sha1Sum implements Checksum {
  private readonly h: Hash = createHash('sha1');
  update(bytes: Uint8Array): void {
    this.h.update(bytes);
  }
  digest(): string {
    return this.h.digest('hex');
  }
}

/** Is `slot` a checksum either kind could have written (a cache's identity for overviewCache.ts)? */
export function isChecksumSlot(slot: string): boolean {
  return /^(?:[0-9a-f]{40}|crc32:[0-9a-f]{8} {26})$/.test(slot);
}

/** A checksum to write with: CRC-32 where zlib has it, else SHA-1. `sha1` forces SHA-1 (tests). */
export function newChecksum(opts: { sha1?: boolean } = {}): Checksum {
  return crc32 && !opts.sha1 ? new Crc32Sum(crc32) : new Sha1Sum();
}

/** The checksum a slot was written with; null when this Node cannot compute it (the cache is then not used). */
export function checksumFor(slot: string): Checksum | null {
  if (slot.startsWith(CRC_TAG)) return crc32 ? new Crc32Sum(crc32) : null;
  return new Sha1Sum();
}
