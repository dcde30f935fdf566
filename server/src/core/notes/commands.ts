// The six commands of Anthropic's memory tool (`memory_20250818`) over the store's notes area.
// Result and error texts are those of Anthropic's documentation for the tool
// (platform.claude.com/docs/en/agents-and-tools/tool-use/memory-tool, "Tool commands") and of the
// reference implementation in its TypeScript SDK (src/tools/memory/node.ts) where the
// documentation leaves a text open; server/test/notes/memory-tool.e2e.test.ts pins each one.
// What differs from that reference, on purpose: writes go through the store (atomic, locked), a
// delete is a tombstone, str_replace counts matches over the whole file (a multi-line old_str
// works), a CRLF file keeps its line endings, and the write gates apply (secrets, size).
import { promises as fsp } from 'node:fs';
import type { Store } from '../store/store.ts';
import type { MemoryRecord, StoredMemory } from '../types.ts';
import { detectSecrets } from '../trust/gates/secrets.ts';
import { SECRET_HINT } from '../trust/gates/writeGates.ts';
import { MEMORIES_ROOT } from '../store/notes.ts';
import { MemoryToolError } from './errors.ts';
import { resolveMemoryPath, type MemoryPath } from './paths.ts';

export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: number[] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str?: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };
export const MEMORY_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;

export interface NotesEnv {
  store: Store;
  /** behavior.max_body_chars: the longest note text accepted, as for memory_write. */
  maxChars: number;
  /** The tombstone record for a deleted note (ops supply the id, time and session). */
  tombstone(note: StoredMemory): MemoryRecord;
}

/** Width of the line numbers in a file view and an edit snippet (Anthropic: 6, right-aligned). */
const LINE_NUMBER_WIDTH = 6;
const MAX_LINES = 999_999;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const numbered = (lines: readonly string[], first: number) =>
  lines.map((l, i) => `${String(first + i).padStart(LINE_NUMBER_WIDTH, ' ')}\t${l}`).join('\n');

/** Human-readable sizes as in the reference implementation: 0B, 512B, 4K, 1.5K, 2.3M. */
export function formatSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const units = ['B', 'K', 'M', 'G'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const n = bytes / 1024 ** i;
  return `${n % 1 === 0 ? String(n) : n.toFixed(1)}${units[i]}`;
}

/** A file's text split into the lines the model sees: a CRLF file shows (and edits) plain lines. */
function asLines(text: string): { lines: string[]; crlf: boolean } {
  const crlf = text.includes('\r\n') && !/(?<!\r)\n/.test(text);
  return { lines: (crlf ? text.replace(/\r\n/g, '\n') : text).split('\n'), crlf };
}
const joinLines = (lines: readonly string[], crlf: boolean) => lines.join(crlf ? '\r\n' : '\n');

/** The gates a new text passes, as memory_write's: valid text, the size limit, no secret. */
function checkText(env: NotesEnv, text: unknown, arg: string, whole?: string): string {
  if (typeof text !== 'string') throw new MemoryToolError(`${arg} is required for this command: the text to write`);
  const nul = text.indexOf('\u0000');
  if (nul !== -1) throw new MemoryToolError(`${arg} contains a NUL character at position ${nul}: a note is plain text`);
  const lone = LONE_SURROGATE.exec(text);
  if (lone) throw new MemoryToolError(`${arg} contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at position ${lone.index}: send valid Unicode text`);
  const findings = detectSecrets(text);
  if (findings.length > 0) {
    const list = findings.map((f) => `${f.kind} (${f.snippet})`).join(', ');
    throw new MemoryToolError(`${arg} contains ${findings.length === 1 ? 'a secret' : `${findings.length} secrets`}: ${list}. ${SECRET_HINT}`);
  }
  const size = (whole ?? text).length;
  if (size > env.maxChars) throw new MemoryToolError(`${whole === undefined ? arg : 'the edited note'} is ${size} characters, over the limit of ${env.maxChars} (behavior.max_body_chars): keep notes shorter, split them by topic`);
  return text;
}

async function statOf(p: MemoryPath) {
  return fsp.lstat(p.abs).catch(() => null);
}

export async function runMemoryCommand(env: NotesEnv, cmd: MemoryCommand): Promise<string> {
  switch (cmd.command) {
    case 'view':
      return view(env, cmd.path, cmd.view_range);
    case 'create':
      return create(env, cmd.path, cmd.file_text);
    case 'str_replace':
      return strReplace(env, cmd.path, cmd.old_str, cmd.new_str ?? '');
    case 'insert':
      return insert(env, cmd.path, cmd.insert_line, cmd.insert_text);
    case 'delete':
      return remove(env, cmd.path);
    case 'rename':
      return rename(env, cmd.old_path, cmd.new_path);
    default:
      cmd satisfies never;
      throw new MemoryToolError(`unknown command ${JSON.stringify((cmd as { command: unknown }).command)}: use one of ${MEMORY_COMMANDS.join(', ')}`);
  }
}

async function view(env: NotesEnv, path: string, range: number[] | undefined): Promise<string> {
  const p = resolveMemoryPath(env.store.notesDir, path);
  const st = p.rel === '' ? await fsp.stat(p.abs).catch(() => null) : await statOf(p);
  if (p.rel === '' && !st) {
    // An empty store has no notes folder yet: /memories is an empty directory, not an error.
    return `Here're the files and directories up to 2 levels deep in ${p.shown}, excluding hidden items and node_modules:\n${formatSize(0)}\t${p.shown}`;
  }
  if (!st) throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
  if (st.isDirectory()) {
    const rows: string[] = [`${formatSize(st.size)}\t${p.shown}`];
    const walk = async (dir: string, prefix: string, depth: number) => {
      const names = (await fsp.readdir(dir).catch(() => [] as string[])).sort();
      for (const name of names) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        const s = await fsp.lstat(`${dir}/${name}`).catch(() => null);
        if (!s) continue;
        const rel = prefix === '' ? name : `${prefix}/${name}`;
        if (s.isDirectory()) {
          rows.push(`${formatSize(s.size)}\t${p.shown}/${rel}/`);
          if (depth < 2) await walk(`${dir}/${name}`, rel, depth + 1);
        } else if (s.isFile()) rows.push(`${formatSize(s.size)}\t${p.shown}/${rel}`);
      }
    };
    await walk(p.abs, '', 1);
    return `Here're the files and directories up to 2 levels deep in ${p.shown}, excluding hidden items and node_modules:\n${rows.join('\n')}`;
  }
  if (!st.isFile()) throw new MemoryToolError(`The path ${p.shown} does not exist. Please provide a valid path.`);
  const { lines } = asLines(await fsp.readFile(p.abs, 'utf8'));
  if (lines.length > MAX_LINES) throw new MemoryToolError(`File ${p.shown} exceeds maximum line limit of 999,999 lines.`);
  let first = 1;
  let shown = lines;
  if (range !== undefined) {
    const [a, b] = range;
    const ok = range.length === 2 && Number.isInteger(a) && Number.isInteger(b) && a! >= 1 && a! <= lines.length && (b === -1 || b! >= a!);
    if (!ok) throw new MemoryToolError(`Invalid \`view_range\` parameter: ${JSON.stringify(range)}. It should be [start, end] with 1 <= start <= ${lines.length} and end >= start, or end = -1 for the rest of the file`);
    first = a!;
    shown = lines.slice(a! - 1, b === -1 ? lines.length : b);
  }
  return `Here's the content of ${p.shown} with line numbers:\n${numbered(shown, first)}`;
}

async function create(env: NotesEnv, path: string, fileText: string): Promise<string> {
  const p = resolveMemoryPath(env.store.notesDir, path);
  const text = checkText(env, fileText, 'file_text');
  if (p.rel === '' || (await statOf(p))) throw new MemoryToolError(`File ${p.shown} already exists`);
  await parentsAreFolders(env, p);
  await env.store.editNote(p.abs, (cur) => {
    if (cur !== null) throw new MemoryToolError(`File ${p.shown} already exists`);
    return text;
  });
  return `File created successfully at: ${p.shown}`;
}

/** A folder on the way that is a file would make the write fail obscurely: say which. */
async function parentsAreFolders(env: NotesEnv, p: MemoryPath): Promise<void> {
  const segs = p.rel.split('/');
  for (let i = 1; i < segs.length; i++) {
    const q = resolveMemoryPath(env.store.notesDir, `${MEMORIES_ROOT}/${segs.slice(0, i).join('/')}`);
    const st = await statOf(q);
    if (st && !st.isDirectory()) throw new MemoryToolError(`Cannot create ${p.shown}: ${q.shown} is a file, not a directory`);
  }
}

/** The note's current text, or the documented not-found error (a folder is "not found" too). */
async function existingFile(p: MemoryPath, notFound: string): Promise<void> {
  const st = await statOf(p);
  if (!st || !st.isFile()) throw new MemoryToolError(notFound);
}

async function strReplace(env: NotesEnv, path: string, oldStr: string, newStr: string): Promise<string> {
  const p = resolveMemoryPath(env.store.notesDir, path);
  if (typeof oldStr !== 'string' || oldStr === '') throw new MemoryToolError('old_str is required and must not be empty: the exact text to replace');
  checkText(env, newStr, 'new_str');
  const notFound = `The path ${p.shown} does not exist. Please provide a valid path.`;
  await existingFile(p, notFound);
  let snippet = '';
  await env.store.editNote(p.abs, (cur) => {
    if (cur === null) throw new MemoryToolError(notFound);
    const { lines, crlf } = asLines(cur);
    const text = lines.join('\n');
    const needle = oldStr.replace(/\r\n/g, '\n');
    const replacement = newStr.replace(/\r\n/g, '\n');
    // Every occurrence in the whole text (overlapping ones too: each would make the edit ambiguous).
    const at: number[] = [];
    for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) at.push(i);
    if (at.length === 0) throw new MemoryToolError(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${p.shown}.`);
    const lineOf = (i: number) => text.slice(0, i).split('\n').length;
    if (at.length > 1) {
      const nums = [...new Set(at.map(lineOf))];
      throw new MemoryToolError(`No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${nums.join(', ')}. Please ensure it is unique`);
    }
    const next = text.slice(0, at[0]) + replacement + text.slice(at[0]! + needle.length);
    const whole = joinLines(next.split('\n'), crlf);
    checkText(env, newStr, 'new_str', whole);
    // The snippet: two lines before the change through two lines after the new text.
    const start = lineOf(at[0]!) - 1;
    const newLines = next.split('\n');
    const from = Math.max(0, start - 2);
    const to = Math.min(newLines.length, start + replacement.split('\n').length + 2);
    snippet = numbered(newLines.slice(from, to), from + 1);
    return whole;
  });
  return `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet}`;
}

async function insert(env: NotesEnv, path: string, insertLine: number, insertText: string): Promise<string> {
  const p = resolveMemoryPath(env.store.notesDir, path);
  checkText(env, insertText, 'insert_text');
  if (typeof insertLine !== 'number' || !Number.isInteger(insertLine)) throw new MemoryToolError('insert_line is required: the line number after which to insert (0 = before the first line)');
  const notFound = `The path ${p.shown} does not exist`;
  await existingFile(p, notFound);
  await env.store.editNote(p.abs, (cur) => {
    if (cur === null) throw new MemoryToolError(notFound);
    const { lines, crlf } = asLines(cur);
    if (insertLine < 0 || insertLine > lines.length) {
      throw new MemoryToolError(`Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of lines of the file: [0, ${lines.length}]`);
    }
    lines.splice(insertLine, 0, insertText.replace(/\r\n/g, '\n').replace(/\n$/, ''));
    const whole = joinLines(lines, crlf);
    checkText(env, insertText, 'insert_text', whole);
    return whole;
  });
  return `The file ${p.shown} has been edited.`;
}

/** The notes at or under `p` (a file, or every note in a folder), folders deepest first. */
async function notesUnder(env: NotesEnv, p: MemoryPath): Promise<{ files: string[]; dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (abs: string) => {
    const st = await fsp.lstat(abs).catch(() => null);
    if (!st) return;
    if (st.isFile()) files.push(abs);
    else if (st.isDirectory()) {
      for (const n of await fsp.readdir(abs)) if (!n.startsWith('.')) await walk(`${abs}/${n}`);
      dirs.push(abs); // after its contents: deepest folders first
    }
  };
  await walk(p.abs);
  return { files: files.filter((f) => env.store.noteRel(f) !== null), dirs };
}

async function remove(env: NotesEnv, path: string): Promise<string> {
  const p = resolveMemoryPath(env.store.notesDir, path);
  if (p.rel === '') throw new MemoryToolError('Cannot delete the /memories directory itself');
  if (!(await statOf(p))) throw new MemoryToolError(`The path ${p.shown} does not exist`);
  const { files, dirs } = await notesUnder(env, p);
  await env.store.removeNotes(files, env.tombstone);
  // Folders emptied by the delete go too; anything cairn does not read (hidden files) stays.
  for (const d of dirs) await fsp.rmdir(d).catch(() => {});
  return `Successfully deleted ${p.shown}`;
}

async function rename(env: NotesEnv, oldPath: string, newPath: string): Promise<string> {
  const from = resolveMemoryPath(env.store.notesDir, oldPath, 'old_path');
  const to = resolveMemoryPath(env.store.notesDir, newPath, 'new_path');
  if (from.rel === '' || to.rel === '') throw new MemoryToolError('Cannot rename the /memories directory itself');
  if (!(await statOf(from))) throw new MemoryToolError(`The path ${from.shown} does not exist`);
  if (await statOf(to)) throw new MemoryToolError(`The destination ${to.shown} already exists`);
  if (`${to.rel}/`.startsWith(`${from.rel}/`)) throw new MemoryToolError(`Cannot move ${from.shown} into itself (${to.shown})`);
  await parentsAreFolders(env, to);
  try {
    await env.store.renameNote(from.abs, to.abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new MemoryToolError(`The destination ${to.shown} already exists`);
    if (code === 'ENOENT') throw new MemoryToolError(`The path ${from.shown} does not exist`);
    throw err;
  }
  return `Successfully renamed ${from.shown} to ${to.shown}`;
}
