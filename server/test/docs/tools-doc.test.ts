// docs/tools.md is the reference a client author reads: it must name exactly the tools the server
// registers, state their number, and document every input parameter of each (read from the zod
// schemas in the registry), so a tool or parameter added or removed in code fails here until the
// page says so too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { allTools } from '../../src/mcp/registry.ts';

const doc = readFileSync(new URL('../../../docs/tools.md', import.meta.url), 'utf8');
const lines = doc.split('\n');

function diff(documented: Iterable<string>, actual: Iterable<string>): string {
  const d = new Set(documented);
  const a = new Set(actual);
  const missing = [...a].filter((x) => !d.has(x));
  const extra = [...d].filter((x) => !a.has(x));
  return [missing.length ? `not documented: ${missing.join(', ')}` : '', extra.length ? `documented but not registered: ${extra.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
}

/** The lines of the `### ...` section whose heading names the tool (up to the next heading). */
function section(tool: string): string[] {
  const start = lines.findIndex((l) => /^###\s/.test(l) && l.replace(/^###\s+/, '').split(/\s*\/\s*/).includes(tool));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && /^#{1,3}\s/.test(l));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** First-column names of the rows of every table in `sec` whose header's first cell is "argument". */
function tableArguments(sec: string[]): string[] {
  const out: string[] = [];
  let inArgs = false;
  for (const l of sec) {
    if (!l.startsWith('|')) { inArgs = false; continue; }
    const first = l.split('|')[1]?.trim() ?? '';
    if (first === 'argument') { inArgs = true; continue; }
    const name = /^`([a-z_]+)`$/.exec(first)?.[1];
    if (inArgs && name) out.push(name);
  }
  return out;
}

test('docs/tools.md states how many tools the server registers', () => {
  const m = /It registers (\d+) tools/.exec(doc);
  assert.ok(m, 'docs/tools.md has no "It registers N tools" sentence');
  assert.equal(Number(m[1]), allTools.length, `docs/tools.md says ${m[1]} tools, the registry has ${allTools.length}`);
});

test('the tool list in docs/tools.md names exactly the registered tools', () => {
  const start = lines.indexOf('## Tool list');
  assert.ok(start >= 0, 'docs/tools.md has no "## Tool list" section');
  const listed: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (/^##\s/.test(l)) break;
    const name = /^\|\s*`([a-z_]+)`\s*\|/.exec(l)?.[1];
    if (name) listed.push(name);
  }
  assert.equal(diff(listed, allTools.map((t) => t.name)), '');
  assert.equal(listed.length, new Set(listed).size, 'a tool is listed twice');
});

test('each tool has a section in docs/tools.md that documents every parameter it takes, and no other', () => {
  const problems: string[] = [];
  for (const tool of allTools) {
    const sec = section(tool.name);
    if (sec.length === 0) { problems.push(`${tool.name}: no "### ${tool.name}" section`); continue; }
    const params = Object.keys(tool.input.shape);
    const text = sec.join('\n');
    const unmentioned = params.filter((p) => !text.includes(`\`${p}\``));
    if (unmentioned.length) problems.push(`${tool.name}: parameters not documented: ${unmentioned.join(', ')}`);
    const unknown = tableArguments(sec).filter((a) => !params.includes(a));
    if (unknown.length) problems.push(`${tool.name}: documented arguments it does not take: ${unknown.join(', ')}`);
  }
  assert.deepEqual(problems, []);
});
