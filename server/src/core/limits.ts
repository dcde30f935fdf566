// The limits every adapter advertises and the core enforces: one number each, used by the zod
// schemas at the MCP boundary, by the CLI and by the ops that check them (docs/tools.md).
export const LIMITS = {
  /** memory_search query length, in characters. */
  queryChars: 2000,
  /** memory_search alternates: rephrasings per call (each at most queryChars). */
  alternates: 4,
  /** Aliases per memory (memory_write, memory_update), and the length of one. */
  aliases: 8,
  aliasChars: 100,
  /** memory_search max_results. */
  maxResults: 50,
  /** Scope filters per call, and the length of one filter. */
  scopeFilters: 20,
  scopeFilterChars: 200,
  /** Scopes per memory, and the length of one scope. */
  scopes: 16,
  scopeChars: 64,
  /** memory_show ids per call. */
  idsPerCall: 10,
  /** memory_merge: memories merged in one call (at least 2). */
  mergeIds: 10,
  /** memory_record_use ids per call. */
  useIds: 50,
  /** Page size of list and list_tombstones. */
  pageSize: 200,
  defaultPageSize: 50,
  /** Notes and reasons (verify note, remove reason, record_use note). */
  noteChars: 2000,
  /** What the boundary accepts for content before the core applies behavior.max_body_chars. */
  contentChars: 1_000_000,
  /** Opaque strings: cursors, pending ids; and ISO dates. */
  tokenChars: 200,
  dateChars: 40,
  /** memory_health parameters. */
  healthWindowDays: 3650,
  healthTopK: 100,
  healthMinApplied: 10_000,
  /**
   * Characters of JSON any retrieval answer may hold (search, show, list, list_tombstones): the
   * default and the ceiling of `max_chars`; list pages end early (with next_cursor) to fit it.
   */
  responseChars: 16_000,
  /** memory_consolidate groups per page. */
  consolidateGroups: 50,
  defaultConsolidateGroups: 20,
  /** The smallest `max_chars` accepted. */
  minResponseChars: 300,
  /** cairn import --from: the largest source file read (a JSON export, a JSONL store, a note). */
  importFileBytes: 64 * 1024 * 1024,
} as const;
