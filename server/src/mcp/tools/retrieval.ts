// Retrieval tools: memory_search, memory_show, memory_list, memory_scope_overview.
import { z } from 'zod';
import { LIMITS } from '../../core/limits.ts';
import { READ_ONLY, defineTool } from '../tool.ts';
import { cursor, fullRecord, hitFields, id, leanHitFields, maxChars, pathDrift, commitDrift, scopeFilters } from '../schemas.ts';

const search = defineTool({
  name: 'memory_search',
  title: 'Search memory',
  description:
    'Search stored memories. Call it only when stored context could change the answer (an ambiguity, a reference to earlier decisions or preferences), not for generic questions. ' +
    'Branch on `relevance` (high/medium/low from query-term coverage), never on `score`. Every hit carries staleness signals: when `staleness_verdict` is not `fresh`, spot-check the claim before relying on it. ' +
    'Query with the words the memory would contain (tool names, file names, nouns), not the whole request; when asking in your own words, also pass 2-4 alternates (rephrasings, likely words). ' +
    'Results are limited to the current repo plus repo-less memories (outside a git repo: repo-less plus global scopes) unless auto_scope=false. In a repository with a team store (.cairn/), its memories are searched too, in one ranking: each hit says `store` (personal or team). When a hit shapes your answer, say so, then call memory_record_use.',
  input: z.strictObject({
    query: z.string().min(1).max(LIMITS.queryChars).describe('What you are looking for, in plain words or identifiers'),
    alternates: z
      .array(z.string().min(1).max(LIMITS.queryChars))
      .max(LIMITS.alternates)
      .optional()
      .describe(`Up to ${LIMITS.alternates} rephrasings or likely words the memory may use instead (e.g. for "which editor do I like": "preferred editor", "neovim vscode"); searched too and fused with the query`),
    scopes: scopeFilters,
    max_results: z.number().int().min(1).max(LIMITS.maxResults).optional().describe(`1..${LIMITS.maxResults}, default from config (5)`),
    expand_top: z.boolean().optional().describe('Include the full body and drift detail of the top hit when its relevance is high'),
    auto_scope: z.boolean().optional().describe('true (default): only the caller repo\'s memories plus repo-less ones (outside a repo: repo-less plus global scopes); false: search everything'),
    for_user: z.boolean().optional().describe('true only when the user asked to see memories (e.g. /memory-search): logged as their lookup, not your retrieval'),
    tags: z.array(z.string().min(1).max(100)).max(LIMITS.scopeFilters).optional().describe('Only memories and notes carrying every one of these #tags'),
    category: z.string().min(1).max(100).optional().describe('Only those with an observation of this category ("- [decision] ...")'),
    max_chars: maxChars,
    explain: z.boolean().optional().describe('true: each hit says why it ranked there (bm25, semantic, recency and feedback parts)'),
  }),
  output: z.object({
    stale_after_days: z.number().optional(),
    truncated: z.object({ hits_dropped: z.number(), snippets_shortened: z.number() }).optional(),
    hits: z.array(
      z.object({
        ...leanHitFields,
        snippet: z.string(),
        score: z.number(),
        relevance: z.enum(['high', 'medium', 'low']),
        match_terms: z.array(z.string()).optional().describe('query words that matched; absent when none did (a hit found by meaning or through alternates)'),
        body: z.string().optional(),
        path_drift: pathDrift.optional(),
        commit_drift: commitDrift.optional(),
        explain: z
          .object({
            bm25: z.number(),
            semantic: z.number().optional(),
            recency: z.number(),
            feedback: z.object({ multiplier: z.number(), applied: z.number(), sunk: z.number(), idle: z.number() }),
            final: z.number(),
          })
          .optional(),
      }),
    ),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.search(a),
});

const show = defineTool({
  name: 'memory_show',
  title: 'Show memories',
  description: 'Full records (body, origin, cited paths missing on disk, commits since verify) for one id or up to 10 ids. Use it before relying on a medium-relevance hit or to read the text behind a snippet. Removed or unknown ids in `ids` are reported in `missing`.',
  input: z.strictObject({
    id: id.optional(),
    ids: z.array(z.string()).min(1).max(LIMITS.idsPerCall).optional().describe(`Up to ${LIMITS.idsPerCall} ids`),
    for_user: z.boolean().optional().describe('true only when the user asked to see memories (e.g. /memory-search): logged as their lookup, not your retrieval'),
    max_chars: maxChars,
    body_offset: z.number().int().min(0).optional().describe('With id: the body from this character on; pass truncated.next_body_offset to read the rest of a body larger than the budget'),
  }),
  output: z.object({
    memories: z.array(fullRecord),
    missing: z.array(z.object({ id: z.string(), reason: z.string() })),
    truncated: z
      .object({ ids_dropped: z.array(z.string()), bodies_shortened: z.array(z.string()), body_chars: z.number().optional(), next_body_offset: z.number().optional() })
      .optional(),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.show(a),
});

const list = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description: 'Page through memories, newest first, with a one-line summary each (bodies on request). For finding something specific, prefer memory_search.',
  input: z.strictObject({
    scopes: scopeFilters,
    with_bodies: z.boolean().optional().describe('Include full bodies (default false)'),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, default ${LIMITS.defaultPageSize}`),
    cursor,
    sort: z.enum(['created', 'recent']).optional().describe('created (default): newest first; recent: latest activity first (last edit or verification), e.g. the notes worked on lately'),
    kind: z.enum(['note', 'memory']).optional().describe('note: only files of the memory tool (/memories); memory: only the others; default both'),
  }),
  output: z.object({
    items: z.array(z.object({ ...hitFields, summary: z.string(), body: z.string().optional() })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.list(a),
});

const overview = defineTool({
  name: 'memory_scope_overview',
  title: 'Memory overview',
  description: 'Counts only (no bodies): memories per scope in view (the current repo plus repo-less memories; outside a git repo, repo-less plus global scopes), how many more exist in other repos (elsewhere), disabled scopes, and how many need curation. Cheap; use it to decide whether a search is worth it.',
  input: z.strictObject({
    auto_scope: z.boolean().optional().describe('true (default): the current repo plus repo-less memories (outside a repo: repo-less plus global scopes); false: the whole store'),
  }),
  output: z.object({
    current_repo: z.string().nullable(),
    view: z.enum(['repo', 'outside_repo', 'all']),
    global_scopes: z.array(z.string()),
    total: z.number(),
    repo_total: z.number().describe('Of total, the memories written in the current repo; the rest carry no repo (or, outside a repo, are in view through a global scope)'),
    scopes: z.record(z.string(), z.number()),
    disabled_scopes: z.array(z.string()),
    elsewhere: z.object({ total: z.number(), repos: z.array(z.object({ repo: z.string(), count: z.number() })) }),
    curation_pending: z.object({ stale: z.number(), never_verified: z.number(), drifted: z.number(), expired: z.number(), dead: z.number() }),
  }),
  annotations: READ_ONLY,
  run: (c, a) => c.scopeOverview(a),
});

export default [search, show, list, overview];
