// `/memories` paths -> files in the store's notes area, and the containment every command relies
// on. Invariant: a path that passes resolveMemoryPath names a place inside <store>/notes/ reached
// through real directories only (no `..`, no encoded or backslash traversal, no NUL, no symbolic
// link anywhere on the way), so no command can read or write outside the notes area.
//
// The refusal texts are those of Anthropic's reference implementation of the memory tool
// (anthropic-sdk-typescript src/tools/memory/node.ts, validatePath / validateNoSymlinkEscape).
import { lstatSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { MEMORIES_ROOT } from '../store/notes.ts';
import { MemoryToolError } from './errors.ts';

export interface MemoryPath {
  /** As the model wrote it, without trailing slashes: what every message echoes. */
  shown: string;
  /** Relative to the notes area, '/'-separated; '' for /memories itself. */
  rel: string;
  /** Absolute path of the file or folder. */
  abs: string;
}

const escapes = (p: string) => new MemoryToolError(`Path ${p} would escape /memories directory`);

/** Percent-decoding, repeated (a doubly encoded `%252e%252e` too), tolerant of a lone `%`. */
function decoded(p: string): string {
  let cur = p;
  for (let i = 0; i < 3 && cur.includes('%'); i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      next = cur.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}

export function resolveMemoryPath(notesDir: string, path: unknown, arg = 'path'): MemoryPath {
  if (typeof path !== 'string' || path === '') throw new MemoryToolError(`${arg} is required: a path under /memories, like /memories/notes.md`);
  if (path !== MEMORIES_ROOT && !path.startsWith(`${MEMORIES_ROOT}/`)) throw new MemoryToolError(`Path must start with /memories, got: ${path}`);
  // Traversal in any spelling: NUL, `..` as a segment after splitting on both separators, and the
  // same after percent-decoding (%2e%2e%2f, %5c, doubly encoded).
  for (const form of [path, decoded(path)]) {
    if (form.includes('\u0000')) throw escapes(path);
    if (form.split(/[\\/]/).some((s) => s === '..')) throw escapes(path);
  }
  const segs = path.slice(MEMORIES_ROOT.length).split('/').filter((s) => s !== '' && s !== '.');
  const hidden = segs.find((s) => s.startsWith('.'));
  if (hidden !== undefined) throw new MemoryToolError(`Path ${path} names a hidden item (${hidden}): names starting with "." are not notes`);
  if (segs.some((s) => s.includes('\\'))) throw new MemoryToolError(`Path ${path} contains a backslash: separate folders with "/"`);
  const rel = segs.join('/');
  const abs = rel === '' ? notesDir : join(notesDir, ...segs);
  const root = resolve(notesDir);
  if (resolve(abs) !== root && !resolve(abs).startsWith(root + sep)) throw escapes(path);
  // No symbolic link on the way, the notes folder itself included: cairn never follows a link
  // out of the store (stricter than resolving it and checking where it lands: nothing to race).
  let cur = notesDir;
  for (const s of ['', ...segs]) {
    cur = s === '' ? cur : join(cur, s);
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      break; // the rest does not exist yet
    }
    if (st.isSymbolicLink()) throw new MemoryToolError('Path would escape /memories directory via symlink');
    if (!st.isDirectory()) break;
  }
  const shown = path.length > MEMORIES_ROOT.length ? path.replace(/\/+$/, '') : path;
  return { shown, rel, abs };
}
