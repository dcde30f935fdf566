// memory_list's `sort: "recent"`: pages by latest activity (an edit or a verification), newest
// first, with a cursor that carries the last item's (activity, id).
import { ValidationError } from '../errors.ts';
import type { StoredMemory } from '../types.ts';

/** A memory's latest activity: the later of its last change and its last verification. */
function activityOf(m: StoredMemory): string {
  return m.last_verified_at !== null && m.last_verified_at > m.updated ? m.last_verified_at : m.updated;
}
export const recentCursor = (m: StoredMemory): string => Buffer.from(`v2:${activityOf(m)}|${m.id}`).toString('base64url');
const RECENT_CURSOR = /^v2:(\d{4}-\d\d-\d\dT[\d:.]+Z)\|([0-9A-HJKMNP-TV-Z]{26})$/;

/** A page by latest activity (ties: newer id first); the cursor carries the last item's (activity, id). */
export function recentPage(source: Iterable<StoredMemory>, keep: (m: StoredMemory) => boolean, cursor: string | undefined, limit: number) {
  let after: { at: string; id: string } | null = null;
  if (cursor !== undefined) {
    const m = RECENT_CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!m) throw new ValidationError(`cursor ${JSON.stringify(cursor.slice(0, 40))} was not issued for sort "recent": pass next_cursor from a previous page with the same sort, or omit it to start over`);
    after = { at: m[1]!, id: m[2]! };
  }
  const rows: Array<{ at: string; m: StoredMemory }> = [];
  for (const m of source) {
    if (!keep(m)) continue;
    const at = activityOf(m);
    if (after !== null && (at > after.at || (at === after.at && m.id >= after.id))) continue;
    rows.push({ at, m });
  }
  rows.sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.m.id < b.m.id ? 1 : a.m.id > b.m.id ? -1 : 0));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page: page.map((r) => r.m), next_cursor: rows.length > limit && last ? recentCursor(last.m) : null };
}
