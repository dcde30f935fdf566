// `cairn import --from FORMAT PATH` end to end through the built bundle, one test per format
// against its fixture (server/test/io/fixtures/<format>/, written from each tool's public
// documentation): the dry run reports and writes nothing; --apply writes what it reported; a
// second run changes nothing; the item holding a secret is refused and listed (its text never
// printed or stored); a near-duplicate of a memory already in the store is reported and skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../helpers/mcp.ts';
import { git, removeDir, tempDir } from '../helpers/env.ts';

const FIX = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
/** The fake secrets the fixtures carry: none may reach the output or the store. */
const SECRETS = ['Wq7rT2mZp9LxV4cN', 'Tr0ub4dor-Kx92mq', 'h8Jk2LmQ9zXw4RtY7pVb'];

interface Item { label: string; key: string; status: string; id?: string; scopes?: string[]; kinds?: string[]; matches?: { id: string }[]; duplicate_of_item?: string; reason?: string }
interface Report { format: string; applied: boolean; total: number; counts: Record<string, number>; items: Item[]; skipped: { label: string; reason: string }[] }

function setup() {
  const home = tempDir('cairn-import-');
  const store = join(home, 'store');
  const run = (...args: string[]) => cli(args, { store, cwd: home });
  const snapshot = () => {
    const out: Record<string, string> = {};
    for (const sub of ['', '.tombstones']) {
      const d = join(store, sub);
      if (existsSync(d)) for (const f of readdirSync(d).filter((n) => n.endsWith('.md'))) out[join(sub, f)] = readFileSync(join(d, f), 'utf8');
    }
    return out;
  };
  const importJson = (format: string, path: string, ...extra: string[]): Report => {
    const r = run('import', '--from', format, path, '--json', ...extra);
    assert.equal(r.code, 0, r.stderr);
    for (const s of SECRETS) assert.ok(!r.stdout.includes(s) && !r.stderr.includes(s), 'a secret never reaches the output');
    return JSON.parse(r.stdout) as Report;
  };
  const remember = (text: string, scope = 'seed') => {
    const r = run('remember', text, '--scope', scope, '--json');
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { id: string }).id;
  };
  return { home, store, run, snapshot, importJson, remember };
}

const by = (r: Report, status: string) => r.items.filter((i) => i.status === status);

/**
 * The shared life cycle: dry run (report, nothing written), apply (writes exactly the reported
 * additions, each carrying imported_from), second run (no change), secrets nowhere on disk.
 */
function lifecycle(s: ReturnType<typeof setup>, format: string, path: string, expect: { added: number; tombstones?: number; secretLabel: RegExp; duplicateLabel: RegExp }, ...extra: string[]) {
  const before = s.snapshot();
  const dry = s.importJson(format, path, ...extra);
  assert.equal(dry.applied, false);
  assert.deepEqual(s.snapshot(), before, 'a dry run writes nothing');
  assert.equal(dry.counts.added, expect.added, JSON.stringify(dry.items, null, 1));
  assert.equal(dry.counts.added_tombstone, expect.tombstones ?? 0);
  const secret = by(dry, 'secret');
  assert.equal(secret.length, 1, JSON.stringify(dry.items, null, 1));
  assert.match(secret[0]!.label, expect.secretLabel);
  assert.ok(secret[0]!.kinds!.length > 0);
  assert.ok(by(dry, 'duplicate').some((i) => expect.duplicateLabel.test(i.label)), `a duplicate is reported: ${JSON.stringify(by(dry, 'duplicate'))}`);

  const text = s.run('import', '--from', format, path, ...extra);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^dry run of /);
  assert.match(text.stdout, /refused, holds a secret \(never stored\): 1/);
  assert.match(text.stdout, /Run again with --apply/);
  for (const sec of SECRETS) assert.ok(!text.stdout.includes(sec));

  const applied = s.importJson(format, path, '--apply', ...extra);
  assert.equal(applied.applied, true);
  assert.deepEqual(applied.counts, dry.counts, 'apply does what the dry run said');
  const after = s.snapshot();
  const written = Object.keys(after).filter((f) => !(f in before));
  assert.equal(written.length, expect.added + (expect.tombstones ?? 0));
  for (const f of written) assert.match(after[f]!, new RegExp(`^imported_from: \\{format: "${format}", key: ".+", hash: "[0-9a-f]{16}"\\}$`, 'm'));
  for (const body of Object.values(after)) for (const sec of SECRETS) assert.ok(!body.includes(sec), 'a secret is never stored');
  assert.equal(by(applied, 'added').filter((i) => /^[0-9A-Z]{26}$/.test(i.id ?? '')).length, expect.added);

  const again = s.importJson(format, path, '--apply', ...extra);
  assert.equal(again.counts.added, 0);
  assert.equal(again.counts.added_tombstone, 0);
  // Every written item is found by its key (a repeat of an item within the source is found too).
  assert.ok(again.counts.already_imported! >= expect.added + (expect.tombstones ?? 0));
  for (const it of [...by(applied, 'added'), ...by(applied, 'added_tombstone')]) assert.equal(again.items.find((i) => i.label === it.label)!.status, 'already_imported');
  assert.deepEqual(s.snapshot(), after, 'a second run changes nothing');
  return { dry, applied, after, written };
}

const fileWith = (snap: Record<string, string>, needle: string) => {
  const hit = Object.entries(snap).find(([, t]) => t.includes(needle));
  assert.ok(hit, `a memory file holds ${JSON.stringify(needle)}`);
  return hit[1];
};

test('claude-code: auto memory and (opt-in) CLAUDE.md, origin from the project repo, previously removed reported', () => {
  const s = setup();
  const repo = join(s.home, 'src', 'my-widgets');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'remote', 'add', 'origin', 'https://ci:hunter2token@github.com/acme/widgets.git');
  cpSync(join(FIX, 'claude-code', 'project', 'CLAUDE.md'), join(repo, 'CLAUDE.md'));
  const claude = join(s.home, '.claude');
  const project = join(claude, 'projects', repo.replace(/[^a-zA-Z0-9]/g, '-'));
  cpSync(join(FIX, 'claude-code', 'memory'), join(project, 'memory'), { recursive: true });
  cpSync(join(FIX, 'claude-code', 'home', 'CLAUDE.md'), join(claude, 'CLAUDE.md'));
  s.remember('Integration tests need Docker running; without it they are skipped silently.');
  const gone = s.remember('Release builds need NODE_ENV=production, otherwise the bundle keeps its source maps.');
  assert.equal(s.run('remove', gone, '--reason', 'we ship source maps on purpose now').code, 0);

  // Without the flag, CLAUDE.md files are not read.
  const plain = s.importJson('claude-code', claude);
  assert.ok(!plain.items.some((i) => i.label.includes('CLAUDE.md')));

  const { dry, after } = lifecycle(s, 'claude-code', claude, { added: 10, secretLabel: /memory\/MEMORY\.md:10$/, duplicateLabel: /MEMORY\.md:13$/ }, '--include-claude-md');
  const removed = by(dry, 'previously_removed');
  assert.equal(removed.length, 1);
  assert.equal(removed[0]!.matches![0]!.id, gone);
  assert.ok(dry.skipped.some((x) => /MEMORY\.md:3$/.test(x.label) && /index entry pointing to testing\.md/.test(x.reason)));
  // A topic file with frontmatter is one memory; its type maps to category and source.
  const role = fileWith(after, 'The user is a backend engineer');
  assert.match(role, /^category: user-inference$/m);
  assert.match(role, /^aliases: \["User role", "Who the user is"\]$/m);
  assert.match(role, /^scopes: \[projects:my-widgets\]$/m);
  assert.match(role, new RegExp(`^  repo: https://github.com/acme/widgets.git$`, 'm'), 'the project repo is the origin (credentials removed)');
  assert.match(role, new RegExp(`^  cwd: ${repo}$`, 'm'));
  assert.match(fileWith(after, 'pnpm vitest run'), /^source: user-correction$/m);
  // CLAUDE.md pieces say they are instructions.
  assert.match(fileWith(after, 'Use named exports only'), /^scopes: \[projects:my-widgets, instructions\]$/m);
  assert.match(fileWith(after, 'Write in British English.'), /^scopes: \[instructions\]$/m);
  // --scope replaces the derived scopes but keeps the instructions mark.
  const t = tempDir('cairn-import-scope-');
  const r = cli(['import', '--from', 'claude-code', claude, '--include-claude-md', '--scope', 'widgets', '--json'], { store: join(t, 'store'), cwd: t });
  const scoped = JSON.parse(r.stdout) as Report;
  assert.deepEqual(scoped.items.find((i) => i.label.endsWith('.claude/CLAUDE.md:1'))!.scopes, ['widgets', 'instructions']);
  assert.deepEqual(scoped.items.find((i) => i.label.endsWith('testing.md'))!.scopes, ['widgets']);
  removeDir(t);
  removeDir(s.home);
});

test('server-memory: an entity with its observations and relations is one memory; removed after import is not added back', () => {
  const s = setup();
  const path = join(FIX, 'server-memory', 'memory.jsonl');
  s.remember('Acme Corp (organization): customer since 2021; invoices are issued on the first business day of each month.');
  const { after, applied } = lifecycle(s, 'server-memory', path, { added: 3, secretLabel: /^entity "Billing_Service" \(memory\.jsonl:2\)$/, duplicateLabel: /^entity "Acme_Corp"/ });
  assert.equal(fileWith(after, 'Alice_Martin (person)').split('---\n')[2], 'Alice_Martin (person)\n- Maintains the billing service\n- Prefers review comments grouped by file\n- Works from Lisbon\n- maintains [[Billing_Service]]\n');
  assert.match(fileWith(after, 'Grace_Hopper_Team'), /- owns \[\[Release_Pipeline\]\]/);
  assert.match(fileWith(after, 'Alice_Martin (person)'), /^scopes: \[person\]$/m);
  assert.ok(applied.skipped.some((x) => /Onboarding_Checklist/.test(x.label)));
  // The user removes an imported memory: the next import leaves it removed.
  const alice = by(applied, 'added').find((i) => i.label.startsWith('entity "Alice_Martin"'))!.id!;
  assert.equal(s.run('remove', alice, '--reason', 'Alice moved teams').code, 0);
  const again = s.importJson('server-memory', path, '--apply');
  assert.equal(again.counts.added, 0);
  assert.equal(by(again, 'removed_here')[0]!.id, alice);
  // The source changed since: reported, the memory kept as imported.
  const t = tempDir('cairn-import-sm-');
  const changed = join(t, 'memory.jsonl');
  writeFileSync(changed, readFileSync(path, 'utf8').replace('Customer since 2021', 'Customer since 2020'));
  const c = s.importJson('server-memory', changed, '--apply');
  assert.equal(by(c, 'changed_at_source').length, 0, 'Acme_Corp was never imported here (it was a duplicate)');
  writeFileSync(changed, readFileSync(path, 'utf8').replace('Works from Lisbon', 'Works from Porto'));
  assert.equal(by(s.importJson('server-memory', changed, '--apply'), 'removed_here').length, 1);
  writeFileSync(changed, readFileSync(path, 'utf8').replace('Written in Go 1.22', 'Written in Go 1.23').replace('"owns"', '"runs"'));
  const c2 = s.importJson('server-memory', changed, '--apply');
  assert.deepEqual(by(c2, 'changed_at_source').map((i) => i.label), ['entity "Grace_Hopper_Team" (memory.jsonl:9)']);
  assert.equal(c2.counts.added, 0);
  removeDir(t);
  removeDir(s.home);
});

test('basic-memory: observations, relations and prose of each note, dates from frontmatter', () => {
  const s = setup();
  const path = join(FIX, 'basic-memory');
  s.remember('Search Service: reindexing the whole catalogue takes about forty minutes.');
  const { dry, after } = lifecycle(s, 'basic-memory', path, { added: 9, secretLabel: /^services\/search-service\.md:18$/, duplicateLabel: /^services\/search-service\.md:17$/ });
  assert.equal(by(dry, 'duplicate').find((i) => i.label === 'people/dana-lee.md:10')!.duplicate_of_item, 'people/dana-lee.md:8');
  const syn = fileWith(after, 'Synonyms are applied at query time');
  assert.match(syn, /^Search Service: Synonyms are applied at query time, so changing them needs no reindex \(agreed in the March design review\)$/m);
  assert.match(syn, /^aliases: \["decision", "synonyms", "search", "backend"\]$/m);
  assert.match(syn, /^created: 2025-02-03T09:15:00\.000Z$/m);
  assert.match(syn, /^updated: 2025-05-20T16:40:00\.000Z$/m);
  assert.match(syn, /^scopes: \[services\]$/m);
  const rel = fileWith(after, '- depends_on [[Catalogue Service]]');
  assert.match(rel, /^Search Service\n- depends_on \[\[Catalogue Service\]\]\n- owned by \[\[Platform Team\]\]\n- links_to \[\[Storefront\]\]$/m);
  assert.match(fileWith(after, 'Check shard sizing'), /^Search Service: \[ \] Check shard sizing/m, 'a checkbox is not an observation');
  assert.match(fileWith(after, 'On-call rotates weekly'), /^scopes: \[basic-memory\]$/m);
  removeDir(s.home);
});

test('memento: the last line of an id wins, deleted entries become tombstones, ttl kept or expired, --force', () => {
  const s = setup();
  const path = join(FIX, 'memento');
  s.remember("The storefront formats prices with Intl.NumberFormat in the shop's currency, never the browser locale.");
  const { dry, after } = lifecycle(s, 'memento', path, { added: 2, tombstones: 1, secretLabel: /^entry 6f1a2b3c-.* \(decisions\.jsonl:2\)$/, duplicateLabel: /projects\/storefront\.jsonl:1\)$/ });
  assert.equal(by(dry, 'expired').length, 1);
  const jsonl = fileWith(after, 'Use JSONL for the event store: appends are cheap');
  assert.match(jsonl, /^created: 2026-02-26T14:30:00\.000Z$/m);
  assert.match(jsonl, /^updated: 2026-03-04T11:05:00\.000Z$/m);
  assert.match(jsonl, /^scopes: \[decisions\]$/m);
  assert.match(jsonl, /^aliases: \["architecture", "storage"\]$/m);
  const redis = Object.entries(after).find(([f]) => f.startsWith('.tombstones/'))!;
  assert.match(redis[1], /^removed_reason: "deleted in Memento"$/m);
  assert.match(redis[1], /^Redis was tried for the session cache/m);
  // --force writes the near-duplicate anyway (never the secret).
  const forced = s.importJson('memento', path, '--apply', '--force');
  assert.equal(forced.counts.added, 1);
  assert.equal(by(forced, 'secret').length, 1);
  removeDir(s.home);
});

test('bettermemory: every key kept one to one, tombstones stay tombstones', () => {
  const s = setup();
  const path = join(FIX, 'bettermemory');
  s.remember('Local DNS for the home lab is served by the Pi-hole on 192.168.1.2; the router hands it out through DHCP.');
  const { after } = lifecycle(s, 'bettermemory', path, { added: 1, tombstones: 1, secretLabel: /^memory 01JRA1B2C3D4E5F6G7H8J9K0M1 \(2026-04-10-nas-admin-0f9e8d\.md\)$/, duplicateLabel: /homelab-dns/ });
  const tut = fileWith(after, 'zero to hero');
  assert.match(tut, /^created: 2026-03-14T10:23:00\.000Z$/m);
  assert.match(tut, /^scopes: \[tools, learning-style\]$/m);
  assert.match(tut, /^confidence: high$/m);
  assert.match(tut, /^category: user-inference$/m, 'a claim about the user stays one; --apply confirmed it');
  const tomb = Object.entries(after).find(([f]) => f.startsWith('.tombstones/'))![1];
  assert.match(tomb, /^removed: 2026-03-01T08:30:00\.000Z$/m);
  assert.match(tomb, /^removed_reason: "CI moved to GitHub Actions in February"$/m);
  assert.match(tomb, /^removed_session: 01JNB3C4D5E6F7G8H9J0K1M2N3$/m);
  // The imported tombstone now guards against the same fact coming back.
  const w = s.run('remember', 'CI for the homelab repo runs on Travis CI.', '--scope', 'ci', '--json');
  assert.equal((JSON.parse(w.stdout) as { status: string }).status, 'previously_removed');
  removeDir(s.home);
});

test('bettermemory: origin and verification kept', () => {
  const s = setup();
  const r = s.importJson('bettermemory', join(FIX, 'bettermemory'), '--apply');
  assert.equal(r.counts.added, 2);
  const dns = fileWith(s.snapshot(), 'Pi-hole');
  assert.match(dns, /^origin:\n {2}cwd: \/home\/sam\/src\/homelab\n {2}repo: git@github.com:sam\/homelab.git\n {2}branch: main\n {2}worktree_root: null$/m);
  assert.match(dns, /^last_verified_at: 2026-04-20T07:45:00\.000Z$/m);
  removeDir(s.home);
});

test('mem0: an OpenMemory export (categories as scopes, archived as removed) and a mem0 get_all result', () => {
  const s = setup();
  const path = join(FIX, 'mem0', 'memories.json');
  s.remember('Works as a data engineer at a logistics company, mostly writing Python and SQL.');
  const { after } = lifecycle(s, 'mem0', path, { added: 2, tombstones: 1, secretLabel: /^memory 1b2c3d4e-.* \(memories\[2\]\)$/, duplicateLabel: /\(memories\[1\]\)$/ });
  const veg = fileWith(after, 'Is vegetarian');
  assert.match(veg, /^scopes: \[personal, food-drink\]$/m);
  assert.match(veg, /^category: user-inference$/m);
  assert.match(veg, /^source: inferred$/m);
  assert.match(veg, /^created: 2025-06-01T09:12:44\.000Z$/m);
  assert.match(fileWith(after, 'standing desk'), /^scopes: \[mem0\]$/m);
  assert.match(Object.entries(after).find(([f]) => f.startsWith('.tombstones/'))![1], /^removed_reason: "archived in OpenMemory"$/m);
  const all = s.importJson('mem0', join(FIX, 'mem0', 'get_all.json'), '--apply');
  assert.equal(all.counts.added, 2);
  assert.match(fileWith(s.snapshot(), 'dark roast'), /^created: 2025-07-01T15:00:00\.000Z$/m);
  removeDir(s.home);
});

test('anthropic-memories: notes split into standalone pieces, other files whole, --scope replaces scopes', () => {
  const s = setup();
  const path = join(FIX, 'anthropic-memories');
  s.remember('CSV exports use semicolons as separators because finance opens them in Excel with a German locale.');
  const { dry, after } = lifecycle(s, 'anthropic-memories', path, { added: 4, secretLabel: /^invoice_exporter_notes\.md:8$/, duplicateLabel: /^invoice_exporter_notes\.md:4$/ });
  assert.equal(by(dry, 'duplicate').find((i) => i.label === 'user_preferences.md:4')!.duplicate_of_item, 'invoice_exporter_notes.md:5');
  assert.match(fileWith(after, 'Amounts are exported in minor units'), /^aliases: \["Decisions"\]$/m);
  assert.match(fileWith(after, 'Amounts are exported in minor units'), /^scopes: \[invoice-exporter-notes\]$/m);
  assert.match(fileWith(after, '<task>Split the invoice exporter'), /^scopes: \[progress\]$/m);
  const t = tempDir('cairn-import-am-');
  const r = cli(['import', '--from', 'anthropic-memories', path, '--scope', 'invoicing', '--scope', 'notes', '--json'], { store: join(t, 'store'), cwd: t });
  assert.ok((JSON.parse(r.stdout) as Report).items.filter((i) => i.status === 'added').every((i) => i.scopes!.join() === 'invoicing,notes'));
  removeDir(t);
  removeDir(s.home);
});
