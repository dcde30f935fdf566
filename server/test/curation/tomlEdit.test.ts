// The TOML line editor behind `cairn init --client codex`: only the lines of the keys it sets
// change, whatever the layout around them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { setTomlTable } from '../../src/core/io/tomlEdit.ts';

const set = (text: string) => setTomlTable(text, ['mcp_servers', 'cairn'], { command: '/n', args: ['/b.mjs'] });
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

test('appends the table with one blank line before it, keeping CRLF line endings', () => {
  assert.equal(set(''), '[mcp_servers.cairn]\ncommand = "/n"\nargs = ["/b.mjs"]\n');
  assert.equal(set('a = 1'), 'a = 1\n\n[mcp_servers.cairn]\ncommand = "/n"\nargs = ["/b.mjs"]\n');
  assert.equal(set('a = 1\n\n'), 'a = 1\n\n[mcp_servers.cairn]\ncommand = "/n"\nargs = ["/b.mjs"]\n');
  assert.equal(set('a = 1\r\n'), 'a = 1\r\n\r\n[mcp_servers.cairn]\r\ncommand = "/n"\r\nargs = ["/b.mjs"]\r\n');
});

test('finds the table under a quoted or spaced header and edits only its own keys', () => {
  const text = '[ mcp_servers . "cairn" ]  # mine\ncommand = "old" # c\n[[tools]]\nname = "x"\ncommand = "not this one"\n';
  const out = set(text);
  assert.equal(out, '[ mcp_servers . "cairn" ]  # mine\nargs = ["/b.mjs"]\ncommand = "/n" # c\n[[tools]]\nname = "x"\ncommand = "not this one"\n');
  assert.deepEqual(plain(parse(out)), { mcp_servers: { cairn: { command: '/n', args: ['/b.mjs'] } }, tools: [{ name: 'x', command: 'not this one' }] });
});

test('a multi-line array, strings holding brackets and # are one statement each', () => {
  const text = '[mcp_servers.cairn]\nargs = [\n  "a]#b", # x\n  """multi\n]line""",\n]\nenv = { K = "[v]" }\n';
  const out = set(text);
  assert.equal(out, '[mcp_servers.cairn]\ncommand = "/n"\nargs = ["/b.mjs"]\nenv = { K = "[v]" }\n');
  assert.deepEqual(plain(parse(out)).mcp_servers.cairn.env, { K: '[v]' });
});
