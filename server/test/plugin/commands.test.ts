import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { INSTRUCTIONS } from '../../src/mcp/instructions.ts';
import { SKILL_FILE, TOOL_PREFIX, allowedTools, commandFiles, mentionedTools, readMarkdown } from './paths.ts';
import { serverFacts } from './bundle.ts';

const EXPECTED_COMMANDS = ['memory-consolidate.md', 'memory-health.md', 'memory-remember.md', 'memory-search.md', 'memory-tombstones.md', 'memory-ui.md'];
/** /memory-ui starts the bundled `cairn ui` and reads its URL: the only command allowed to run anything. */
const UI_TOOLS = ['Bash(node "${CLAUDE_PLUGIN_ROOT}/server/dist/cairn.mjs" ui --no-open)', 'BashOutput'];

test('the six slash commands exist', () => {
  assert.deepEqual(commandFiles().map((f) => basename(f)), EXPECTED_COMMANDS);
});

for (const file of commandFiles()) {
  const name = basename(file);
  test(`${name}: frontmatter has description, argument-hint and prefixed allowed-tools`, () => {
    const { data, body } = readMarkdown(file);
    assert.deepEqual(Object.keys(data).sort(), ['allowed-tools', 'argument-hint', 'description'], `${name}: unexpected frontmatter keys`);
    assert.equal(typeof data.description, 'string');
    assert.ok((data.description as string).length >= 20 && (data.description as string).length <= 120, `${name}: description should be one short line`);
    assert.equal(typeof data['argument-hint'], 'string');
    const tools = allowedTools(data['allowed-tools']);
    assert.ok(tools.length > 0, `${name}: allowed-tools is empty`);
    if (name === 'memory-ui.md') {
      assert.deepEqual(tools, UI_TOOLS, 'memory-ui.md may run `cairn ui --no-open` and read its output, nothing else');
      return;
    }
    for (const t of tools) assert.ok(t.startsWith(`${TOOL_PREFIX}memory_`), `${name}: allowed tool ${t} is not one of the plugin's ${TOOL_PREFIX}memory_* tools`);
    // A command that takes input must use it.
    if ((data['argument-hint'] as string).trim() !== '') assert.match(body, /\$ARGUMENTS/, `${name}: has an argument-hint but never uses $ARGUMENTS`);
  });
}

test('commands pre-allow only tools the bundled server registers, and use what they allow', async () => {
  const { tools } = await serverFacts();
  assert.ok(tools.length > 0, 'the server registered no tools');
  for (const file of commandFiles()) {
    const { data, body } = readMarkdown(file);
    const allowed = allowedTools(data['allowed-tools']).filter((t) => t.startsWith(TOOL_PREFIX)).map((t) => t.slice(TOOL_PREFIX.length));
    const unknown = allowed.filter((t) => !tools.includes(t));
    assert.deepEqual(unknown, [], `${basename(file)} allows tools the server does not register: ${unknown.join(', ')}`);
    // Every tool the prompt tells the model to call must be pre-allowed, or the user is asked.
    const notAllowed = mentionedTools(body).filter((t) => !allowed.includes(t));
    assert.deepEqual(notAllowed, [], `${basename(file)} mentions tools it does not allow: ${notAllowed.join(', ')}`);
  }
});

test('the skill and the instructions name only tools the server registers', async () => {
  const { tools } = await serverFacts();
  for (const [label, text] of [['SKILL.md', readMarkdown(SKILL_FILE).body], ['INSTRUCTIONS', INSTRUCTIONS]] as const) {
    const unknown = mentionedTools(text).filter((t) => !tools.includes(t));
    assert.deepEqual(unknown, [], `${label} names tools the server does not register: ${unknown.join(', ')}`);
  }
});

test('the bundled server sends INSTRUCTIONS in its initialize result', async () => {
  const { instructions } = await serverFacts();
  assert.equal(instructions, INSTRUCTIONS);
});
