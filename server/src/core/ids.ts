import { monotonicFactory } from 'ulid';

// Crockford base32, 26 chars; the first char caps the 48-bit time at 7.
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export function isUlid(s: string): boolean {
  return ULID_RE.test(s);
}

const next = monotonicFactory();
export function newId(now = Date.now()): string {
  return next(now);
}
