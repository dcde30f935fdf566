// Reads a store directly from disk (not through cairn's Store) so the reliability suites can
// check what is really there: every memory file parses, each id lives in exactly one file, temp
// files are only temp files, and the event log is valid JSONL.
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fileNameFor, parseMemoryText, serializeMemory, type ParsedFile } from '../../src/core/store/memfile.ts';
import { newId } from '../../src/core/ids.ts';
import type { MemoryRecord } from '../../src/core/types.ts';
import { isTempName } from '../../src/core/store/fsatomic.ts';
import { testRecord } from './records.ts';

export interface DiskRecord {
  id: string;
  file: string;
  where: 'active' | 'tombstones';
  tombstoned: boolean;
  rec: ParsedFile['record'] & { created: string; updated: string };
}

export interface DiskState {
  byId: Map<string, DiskRecord>;
  /** Anything a correct store never holds: unparseable files, duplicate ids, files without ids. */
  problems: string[];
  /** Temp files left by killed writers (absolute paths). */
  temps: string[];
  /**
   * Files whose keys and directory disagree: a remove or restore killed between its two steps
   * (rewrite in place, then move). The keys decide what the memory is; the next write moves it.
   */
  misplaced: string[];
}

export function readDisk(store: string): DiskState {
  const state: DiskState = { byId: new Map(), problems: [], temps: [], misplaced: [] };
  for (const [dir, where] of [[store, 'active'], [join(store, '.tombstones'), 'tombstones']] as const) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name);
      if (isTempName(name)) {
        state.temps.push(file);
        continue;
      }
      if (!name.endsWith('.md') || name.startsWith('.')) continue;
      if (!lstatSync(file).isFile()) {
        state.problems.push(`${file} is not a regular file`);
        continue;
      }
      let parsed: ParsedFile;
      try {
        parsed = parseMemoryText(readFileSync(file, 'utf8'));
      } catch (err) {
        state.problems.push(`${file} does not parse: ${(err as Error).message}`);
        continue;
      }
      const id = parsed.record.id;
      if (!id) {
        state.problems.push(`${file} has no id`);
        continue;
      }
      const { created, updated } = parsed.record;
      if (!created || !updated) {
        state.problems.push(`${file} has no created/updated`);
        continue;
      }
      const tombstoned = parsed.record.removed !== undefined;
      if ((where === 'tombstones') !== tombstoned) state.misplaced.push(file);
      const dup = state.byId.get(id);
      if (dup) state.problems.push(`id ${id} is in two files: ${dup.file} and ${file}`);
      else state.byId.set(id, { id, file, where, tombstoned, rec: { ...parsed.record, created, updated } });
    }
  }
  return state;
}

export interface EventLogState {
  lines: number;
  byKind: Map<string, number>;
  /** Successful calls per kind: write events count only committed ones. */
  sessions: Set<string>;
  events: Record<string, unknown>[];
  problems: string[];
  files: string[];
}

/** Validates the active event log and every rotated archive (plain or gzip). */
export function readEventLogs(store: string): EventLogState {
  const st: EventLogState = { lines: 0, byKind: new Map(), sessions: new Set(), events: [], problems: [], files: [] };
  if (!existsSync(store)) return st;
  const names = readdirSync(store).filter((n) => n === '.events.jsonl' || /^\.events-.*\.jsonl(\.gz)?$/.test(n)).sort();
  for (const name of names) {
    const file = join(store, name);
    st.files.push(file);
    let text: string;
    try {
      const raw = readFileSync(file);
      text = name.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    } catch (err) {
      st.problems.push(`${name}: cannot be read: ${(err as Error).message}`);
      continue;
    }
    if (text !== '' && !text.endsWith('\n')) st.problems.push(`${name}: last line is not terminated`);
    const lines = text.split('\n');
    lines.pop();
    lines.forEach((line, i) => {
      let ev: Record<string, unknown>;
      try {
        ev = JSON.parse(line);
      } catch {
        st.problems.push(`${name}:${i + 1}: not JSON: ${line.slice(0, 120)}`);
        return;
      }
      if (typeof ev !== 'object' || ev === null || typeof ev.ts !== 'string' || typeof ev.session !== 'string' || typeof ev.kind !== 'string') {
        st.problems.push(`${name}:${i + 1}: missing ts/session/kind: ${line.slice(0, 120)}`);
        return;
      }
      st.lines++;
      st.events.push(ev);
      st.sessions.add(ev.session as string);
      const kind = ev.kind === 'write' ? `write:${String(ev.status)}` : (ev.kind as string);
      st.byKind.set(kind, (st.byKind.get(kind) ?? 0) + 1);
    });
  }
  return st;
}

/**
 * Writes `n` memories straight into a store in cairn's own format (as if an earlier cairn had
 * written them), returning id -> body. Fast way to give a suite a store big enough that loading
 * and saving the index cache take real time.
 */
export function populate(store: string, n: number, body: (i: number) => string, scopes = ['bulk']): Map<string, string> {
  mkdirSync(store, { recursive: true, mode: 0o700 });
  const out = new Map<string, string>();
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  for (let i = 0; i < n; i++) {
    const at = new Date(t0 + i * 1000).toISOString();
    const rec: MemoryRecord = testRecord({ id: newId(t0 + i * 1000), created: at, scopes, body: body(i) });
    writeFileSync(join(store, fileNameFor(rec)), serializeMemory(rec), { mode: 0o600 });
    out.set(rec.id, rec.body);
  }
  return out;
}
