// The shapes of the on-disk format (docs/format.md), shared by every core module.

export const SCHEMA_VERSION = 1;
export const CONFIDENCES = ['low', 'medium', 'high'] as const;
export const SOURCES = ['explicit-statement', 'inferred', 'user-correction'] as const;
export const CATEGORIES = ['fact', 'user-inference'] as const;

export type Confidence = (typeof CONFIDENCES)[number];
export type Source = (typeof SOURCES)[number];
export type Category = (typeof CATEGORIES)[number];

export interface Origin {
  cwd: string | null;
  repo: string | null;
  branch: string | null;
  worktree_root: string | null;
}

/** One memory as cairn understands it: the known frontmatter keys plus the body. */
export interface MemoryRecord {
  id: string;
  created: string;
  updated: string;
  scopes: string[];
  confidence: Confidence;
  source: Source;
  category: Category;
  last_verified_at: string | null;
  /**
   * The caller's HEAD commit when the memory was last verified from its own repo; absent when
   * unknown (never verified, verified elsewhere, or before cairn recorded it). Commit drift
   * counts from it exactly, where time alone (whole seconds) cannot.
   */
  verified_head?: string;
  expires: string | null;
  origin: Origin;
  body: string;
  /** Other words a later search may use (frontmatter `aliases`); absent when none. */
  aliases?: readonly string[];
  /** The ids this memory was merged from (memory_merge's provenance); absent when none. */
  merged_from?: readonly string[];
  /**
   * Set only while memory_merge is in progress (or was interrupted): the ids being merged. A
   * record with it is not active (the store keeps it out of view, store/table.ts) until the merge finishes or
   * is rolled back (docs/format.md, "Merging").
   */
  merging?: readonly string[];
  /** Tombstone keys; present only on removed memories. */
  removed?: string;
  removed_reason?: string;
  removed_session?: string | null;
}

/** A record as loaded from a file: where it lives and what the file looked like. */
export interface StoredMemory extends MemoryRecord {
  /** Absolute path of the file. */
  file: string;
  tombstoned: boolean;
  /** size and mtime of the file when read: the cheap change check. */
  size: number;
  mtimeMs: number;
  /**
   * Top-level frontmatter blocks cairn does not know, verbatim, in file order.
   * Written back byte-for-byte (forward compatibility).
   */
  extra: string[];
  /** true when the file had no id and one was assigned in memory (written on next write-back). */
  idAssigned?: boolean;
  /**
   * Set on notes only (files under the store's notes/ area, the `memory` tool's /memories): the
   * note's /memories path. The file is the note's text, byte for byte; everything else in the
   * record is derived (store/notes.ts).
   */
  note?: string;
}

export interface SkippedFile {
  file: string;
  reason: string;
}

/** A write after validation: what would be stored. */
export interface ValidWrite {
  content: string;
  scopes: string[];
  /** absent in pending writes saved before aliases existed */
  aliases?: string[];
  confidence: Confidence;
  source: Source;
  category: Category;
  expires: string | null;
}

/**
 * How a one-shot command (watch: false) keeps its view fresh: 'every-read' lists the store before
 * each read (in-process callers), 'once' counts the open's load as the command's one check (the
 * CLI), 'cache' takes the index cache's records unchecked (the session-start hook).
 */
export type OneShotFreshness = 'every-read' | 'once' | 'cache';

/** Told how a long phase goes: `done` of `total` (in `unit`, when it is not items), e.g. ("loading files", 800, 20000). */
export type PhaseProgress = (phase: string, done: number, total: number, unit?: string) => void;
