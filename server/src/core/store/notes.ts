// The notes area: <store>/notes/, which the `memory` tool shows to the model as /memories. A note
// is any regular file in there, at any folder depth (names starting with `.` excluded). Its text
// is the model's, byte for byte: cairn writes none of its bookkeeping into it. Everything a
// record needs besides the text is derived, so every process derives the same record from the
// same file and nothing needs rebuilding (docs/format.md "Notes"):
//   id      from the /memories path (a rename gives a new id; links resolve by title or path)
//   scopes  the folder: projects/widgets/api.md -> projects:widgets (a root note: `notes`)
//   created, updated  the file's mtime
// A deleted note becomes an ordinary tombstone file in .tombstones/ whose frontmatter keeps the
// note's path and exact text (note_path, note_text), so memory_restore can put it back.
import { lstatSync, readdirSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { derivedId, storedMemory } from './entries.ts';
import { isTempName } from './fsatomic.ts';
import { pidAlive } from './pid.ts';
import { sharedOrigin, sharedScopeList } from './canonical.ts';
import { SCOPE_RE } from '../scopes.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';

/** The notes area's folder inside the store. */
export const NOTES_DIR = 'notes';
/** What the model calls the notes area. */
export const MEMORIES_ROOT = '/memories';
/** The scope of a note directly in /memories. */
export const ROOT_NOTE_SCOPE = 'notes';
/** Folder depth the listing descends to: deeper files are not notes (a runaway tree stays cheap). */
export const MAX_NOTE_DEPTH = 16;

const EPOCH = new Date(0).toISOString();

/** A note's path relative to the notes area ("projects/widgets/api.md") -> its /memories path. */
export function memoriesPath(rel: string): string {
  return rel === '' ? MEMORIES_ROOT : `${MEMORIES_ROOT}/${rel}`;
}

/** The id of the note at `rel`: the same in every process, a ULID (time part zero). */
export function noteId(rel: string): string {
  return derivedId(`${MEMORIES_ROOT}/${rel}`, EPOCH);
}

/** A note's scope from its folder: projects/widgets/api.md -> projects:widgets; root -> notes. */
export function noteScope(rel: string): string {
  const parts = rel.split('/').slice(0, -1)
    .map((p) => p.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, ''))
    .filter((p) => p !== '');
  let scope = parts.join(':');
  while (scope.length > 64) scope = scope.slice(0, scope.lastIndexOf(':') > 0 ? scope.lastIndexOf(':') : 64);
  return scope !== '' && SCOPE_RE.test(scope) ? scope : ROOT_NOTE_SCOPE;
}

/** The record of a note file. `body` is the file's text exactly. */
export function noteRecord(file: string, rel: string, text: string, size: number, mtimeMs: number): StoredMemory {
  const when = new Date(Math.floor(mtimeMs)).toISOString();
  const rec: MemoryRecord = {
    id: noteId(rel),
    created: when,
    updated: when,
    scopes: sharedScopeList([noteScope(rel)]),
    confidence: 'medium',
    source: 'explicit-statement',
    category: 'fact',
    last_verified_at: null,
    expires: null,
    origin: sharedOrigin(null, null, null, null),
    body: text,
  };
  const m = storedMemory(rec, file, size, mtimeMs, []);
  m.note = memoriesPath(rel);
  return m;
}

/** true when a path relative to the notes area may be a note: no hidden segment, no temp file. */
export function isNoteRel(rel: string): boolean {
  if (rel === '') return false;
  const parts = rel.split(/[\\/]/);
  return parts.length <= MAX_NOTE_DEPTH + 1 && parts.every((p) => p !== '' && p !== '..' && !p.startsWith('.')) && !isTempName(parts[parts.length - 1]!);
}

function pidOfTemp(name: string): number {
  const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return m ? Number(m[1]) : 0;
}

/**
 * Lists every note under `notesDir` (missing: none). Symbolic links are never followed, neither
 * files nor folders (they could point outside the store): `onSymlink` hears of each.
 */
export function listNoteFiles(
  notesDir: string,
  add: (rel: string, size: number, mtimeMs: number) => void,
  onSymlink: (path: string) => void,
  cleanTemps: boolean,
  onLinked?: (rel: string) => void,
): void {
  const walk = (dir: string, prefix: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // absent, or removed meanwhile
    }
    for (const name of names) {
      const p = join(dir, name);
      if (isTempName(name)) {
        const pid = pidOfTemp(name);
        if (cleanTemps && pid && pid !== process.pid && !pidAlive(pid)) rmSync(p, { force: true });
        continue;
      }
      if (name.startsWith('.')) continue;
      let st: Stats;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      if (st.isFile()) {
        add(rel, st.size, st.mtimeMs);
        // A second name for the same file: what an interrupted link-then-unlink rename left.
        if (st.nlink > 1 && onLinked) onLinked(rel);
      } else if (st.isDirectory()) {
        if (depth < MAX_NOTE_DEPTH) walk(p, rel, depth + 1);
      } else if (st.isSymbolicLink()) onSymlink(p);
    }
  };
  walk(notesDir, '', 0);
}

// ---- note tombstones ------------------------------------------------------------------------

/** The frontmatter blocks a note's tombstone carries: where it lived and its exact text. */
export function noteTombExtra(path: string, text: string): string[] {
  return [`note_path: ${quoted(path)}`, `note_text: ${quoted(text)}`];
}

/**
 * JSON quoting (a valid YAML double-quoted scalar) with the characters YAML will not take raw
 * (DEL, C1 controls, line and paragraph separators, BOM, U+FFFE/U+FFFF) escaped as well.
 */
function quoted(v: string): string {
  return JSON.stringify(v).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A tombstone's note path and exact text, when it is a deleted note's. */
export function noteOfTombstone(m: StoredMemory): { path: string; text: string } | null {
  let path: string | null = null;
  let text: string | null = null;
  for (const block of m.extra) {
    const k = /^(note_path|note_text): (".*")$/s.exec(block);
    if (!k) continue;
    try {
      const v = JSON.parse(k[2]!) as unknown;
      if (typeof v !== 'string') continue;
      if (k[1] === 'note_path') path = v;
      else text = v;
    } catch {
      // not ours: left alone
    }
  }
  return path !== null && text !== null ? { path, text } : null;
}
