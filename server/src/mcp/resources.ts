// MCP resources: every memory as cairn://memory/{id} (markdown with its frontmatter), every note
// of the `memory` tool as cairn://notes/{+path} (its text, byte for byte), and the views
// cairn://overview, cairn://health and cairn://scope/{scope}. resources/list pages through the
// memories auto_scope shows, the current repo's first; subscriptions hear of every change to a
// subscribed resource, made by this process, another process on the store or a hand edit.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode, ListResourceTemplatesRequestSchema, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema,
  type Resource, type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { Cairn, ResourceChange, ResourceRow } from '../core/cairn.ts';
import { errorMessage } from '../core/errors.ts';

export const SCHEME = 'cairn://';
export const MEMORY_TEMPLATE = 'cairn://memory/{id}';
export const NOTE_TEMPLATE = 'cairn://notes/{+path}';
export const SCOPE_TEMPLATE = 'cairn://scope/{scope}';
export const OVERVIEW_URI = 'cairn://overview';
export const HEALTH_URI = 'cairn://health';

/** The resource-not-found error code MCP names for resources/read (-32002). */
const RESOURCE_NOT_FOUND = -32002;
/** Changes are gathered this long, then each subscribed URI hears of them once. */
const NOTIFY_DEBOUNCE_MS = 50;

const MARKDOWN = 'text/markdown';
const JSON_TYPE = 'application/json';

export const memoryUri = (id: string) => `${SCHEME}memory/${id}`;
export const noteUri = (path: string) => `${SCHEME}notes/${path.split('/').map(encodeURIComponent).join('/')}`;
/** A scope in a URI: percent-encoded, with its `:` kept readable. */
export const scopeUri = (scope: string) => `${SCHEME}scope/${encodeURIComponent(scope).replace(/%3A/gi, ':')}`;

export type ParsedUri =
  | { kind: 'memory'; id: string }
  | { kind: 'note'; path: string }
  | { kind: 'scope'; scope: string }
  | { kind: 'overview' }
  | { kind: 'health' };

const ACCEPTED = `${MEMORY_TEMPLATE}, ${NOTE_TEMPLATE}, ${SCOPE_TEMPLATE}, ${OVERVIEW_URI}, ${HEALTH_URI}`;

/** A cairn:// URI, or an InvalidParams error naming the forms cairn serves. */
export function parseUri(uri: string): ParsedUri {
  const shown = JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}...` : uri);
  const bad = (why: string) => new McpError(ErrorCode.InvalidParams, `resource ${shown} ${why}: cairn serves ${ACCEPTED}`);
  if (!uri.startsWith(SCHEME)) throw bad('is not a cairn:// URI');
  const rest = uri.slice(SCHEME.length).replace(/[?#].*$/s, '');
  const slash = rest.indexOf('/');
  const head = slash < 0 ? rest : rest.slice(0, slash);
  const tail = slash < 0 ? '' : rest.slice(slash + 1);
  let value: string;
  try {
    value = decodeURIComponent(tail);
  } catch {
    throw bad('has a malformed percent-encoding');
  }
  switch (head) {
    case 'overview':
    case 'health':
      if (tail !== '') throw bad(`takes nothing after ${head}`);
      return { kind: head };
    case 'memory':
      if (value === '' || value.includes('/')) throw bad('names no memory id');
      return { kind: 'memory', id: value };
    case 'notes':
      if (value === '') throw bad('names no note path');
      return { kind: 'note', path: value };
    case 'scope':
      if (value === '' || value.includes('/')) throw bad('names no scope');
      return { kind: 'scope', scope: value };
    default:
      throw bad(`is of no kind cairn knows (${JSON.stringify(head.slice(0, 40))})`);
  }
}

/** One spelling per resource (an id in capitals, a path or scope decoded), to match changes against subscriptions. */
function canonicalUri(p: ParsedUri): string {
  switch (p.kind) {
    case 'memory':
      return memoryUri(p.id.trim().toUpperCase());
    case 'note':
      return noteUri(p.path.replace(/^\/?memories\//, ''));
    case 'scope':
      return scopeUri(p.scope);
    case 'overview':
      return OVERVIEW_URI;
    case 'health':
      return HEALTH_URI;
    default:
      return p satisfies never;
  }
}

function rowResource(r: ResourceRow): Resource {
  const where = r.kind === 'note' ? `note /memories/${r.path}` : r.current_repo ? 'memory of the current repo' : 'memory';
  return {
    uri: r.kind === 'note' ? noteUri(r.path!) : memoryUri(r.id),
    name: r.name,
    description: `${where}; scopes ${r.scopes.join(', ')}; id ${r.id}`,
    mimeType: MARKDOWN,
    size: r.size,
    annotations: { lastModified: r.updated, priority: r.current_repo ? 1 : 0.5 },
  };
}

const VIEWS: Resource[] = [
  { uri: OVERVIEW_URI, name: 'overview', title: 'cairn overview', description: 'Counts per scope in view, memories in other repos, disabled scopes, curation pending (memory_scope_overview as JSON)', mimeType: JSON_TYPE },
  { uri: HEALTH_URI, name: 'health', title: 'cairn health', description: 'The store\'s health report (memory_health as JSON): stale, drifted, dead, duplicate and conflicting memories', mimeType: JSON_TYPE },
];

export const TEMPLATES: ResourceTemplate[] = [
  { uriTemplate: MEMORY_TEMPLATE, name: 'memory', title: 'A memory by id', description: 'One memory as markdown: its frontmatter, then its body as memory_show gives it', mimeType: MARKDOWN },
  { uriTemplate: NOTE_TEMPLATE, name: 'note', title: 'A note in /memories', description: 'One note of the memory tool, its text byte for byte; path as inside /memories, e.g. projects/widgets/api.md', mimeType: MARKDOWN },
  { uriTemplate: SCOPE_TEMPLATE, name: 'scope', title: 'The memories of one scope', description: 'Every memory in a scope (nested scopes included), newest first, as one markdown document', mimeType: MARKDOWN },
  { uriTemplate: OVERVIEW_URI, name: 'overview', title: 'cairn overview', description: VIEWS[0]!.description!, mimeType: JSON_TYPE },
  { uriTemplate: HEALTH_URI, name: 'health', title: 'cairn health', description: VIEWS[1]!.description!, mimeType: JSON_TYPE },
];

/** A core error as the protocol error a client shows: not found as MCP's resource-not-found, bad input as InvalidParams. */
function asMcpError(err: unknown, uri: string): McpError {
  if (err instanceof McpError) return err;
  const name = (err as { name?: string })?.name;
  const msg = errorMessage(err);
  if (name === 'NotFoundError' || name === 'TombstonedError') return new McpError(RESOURCE_NOT_FOUND, msg, { uri });
  if (name === 'ValidationError' || name === 'MalformedIdError') return new McpError(ErrorCode.InvalidParams, msg);
  return new McpError(ErrorCode.InternalError, msg);
}

/** Reads one resource: its text and mime type. */
export async function readResource(c: Cairn, uri: string): Promise<{ text: string; mimeType: string }> {
  const p = parseUri(uri);
  try {
    switch (p.kind) {
      case 'memory':
        return { text: (await c.readMemoryResource(p.id)).text, mimeType: MARKDOWN };
      case 'note':
        return { text: (await c.readNoteResource(p.path)).text, mimeType: MARKDOWN };
      case 'scope':
        return { text: (await c.scopeDocument(p.scope)).text, mimeType: MARKDOWN };
      case 'overview':
        return { text: JSON.stringify(await c.scopeOverview({ auto_scope: true }), null, 2), mimeType: JSON_TYPE };
      case 'health':
        // Reused until the store or the event log changes: a subscribed client rereading it after
        // every change must not recompute the whole report each time.
        return { text: JSON.stringify(await c.healthCached({}), null, 2), mimeType: JSON_TYPE };
      default:
        return p satisfies never;
    }
  } catch (err) {
    throw asMcpError(err, uri);
  }
}

/**
 * Registers resources/list, resources/templates/list, resources/read and the subscriptions on
 * `server`. `ready` opens the store (at the first request that needs it).
 */
export function registerResources(server: Server, ready: () => Promise<Cairn>): void {
  /** Canonical URI (canonicalUri) -> the URI as the client subscribed to it, which its notifications carry. */
  const subscribed = new Map<string, string>();
  server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    const c = await ready();
    startWatching(); // a client that listed hears of list changes from now on
    const cursor = req.params?.cursor;
    let page;
    try {
      page = await c.during(() => c.resourcePage({ cursor }));
    } catch (err) {
      throw asMcpError(err, 'resources/list');
    }
    const resources = page.items.map(rowResource);
    // The views close the listing: the memories come first.
    if (page.next_cursor === null) resources.push(...VIEWS);
    return { resources, ...(page.next_cursor !== null ? { nextCursor: page.next_cursor } : {}) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    parseUri(uri); // a malformed URI is refused before the store opens
    const c = await ready();
    startWatching();
    const r = await c.during(() => readResource(c, uri));
    return { contents: [{ uri, mimeType: r.mimeType, text: r.text }] };
  });

  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    subscribed.set(canonicalUri(parseUri(req.params.uri)), req.params.uri);
    startWatching();
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(canonicalUri(parseUri(req.params.uri)));
    return {};
  });

  // Changes are gathered for NOTIFY_DEBOUNCE_MS: a write touching many memories (a scope rename)
  // sends one notification per subscribed URI and one list_changed.
  const due = new Set<string>();
  let listChanged = false;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const uris = [...due];
    due.clear();
    const list = listChanged;
    listChanged = false;
    const warn = (err: unknown) => process.stderr.write(`cairn: resource notification: ${errorMessage(err)}\n`);
    for (const uri of uris) server.sendResourceUpdated({ uri }).catch(warn);
    if (list) server.sendResourceListChanged().catch(warn);
  };
  const onChange = (ch: ResourceChange) => {
    const own = subscribed.get(ch.kind === 'note' ? noteUri(ch.path!) : memoryUri(ch.id));
    if (own !== undefined) due.add(own);
    // The views sum up every memory: any change may change them.
    for (const [key, uri] of subscribed) if (key === OVERVIEW_URI || key === HEALTH_URI || key.startsWith(`${SCHEME}scope/`)) due.add(uri);
    if (ch.listChanged) listChanged = true;
    if ((due.size > 0 || listChanged) && timer === null) {
      timer = setTimeout(flush, NOTIFY_DEBOUNCE_MS);
      timer.unref();
    }
  };
  // The change feed runs from the first resources request on (a client that never asks for
  // resources never pays for it), and once the store is open.
  let watching = false;
  let stop: (() => void) | null = null;
  const startWatching = () => {
    if (watching) return;
    watching = true;
    ready()
      .then((c) => {
        stop = c.watchResources(onChange);
      })
      .catch(() => {});
  };
  const prevClose = server.onclose;
  server.onclose = () => {
    stop?.();
    if (timer) clearTimeout(timer);
    prevClose?.();
  };
}
