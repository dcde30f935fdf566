// What a page handler gets and returns. Handlers never touch node:http: server.ts does the
// security checks, parses the form, and turns the answer into a response.
import type { Cairn } from '../core/cairn.ts';
import type { PageCtx } from './html.ts';

export interface UiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed form of a POST (empty for GET). */
  form: URLSearchParams;
  cairn: Cairn;
  page: PageCtx;
  /** A one-line message shown once on the next page (after a redirect). */
  flash(message: string): void;
}

/** A full page, a redirect (after a change: POST/redirect/GET), or a fragment for the page's script. */
export type UiResponse = { status?: number; html: string } | { redirect: string } | { fragment: string };

/**
 * Splits a list field (scopes: commas, spaces or new lines) and trims each item. Separators are
 * single-character classes, so the split is linear on any input (`\s*,\s*` would backtrack over
 * a long run of spaces).
 */
export function splitList(v: string | null, sep: RegExp = /[\s,]+/): string[] {
  return (v ?? '').split(sep).map((s) => s.trim()).filter(Boolean);
}

/** A same-site path to return to after an action (never an absolute URL). */
export function backTo(v: string | null, dflt: string): string {
  return v && /^\/(?!\/)[\w\-./?=&%:+~#]*$/.test(v) ? v : dflt;
}
