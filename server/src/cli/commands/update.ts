// `cairn update ID`: memory_update — change a memory in place (same id; a new text resets its
// verification). Options replace what they name; what is not named stays.
import { type Command, JSON_OPTION, UsageError, asCli, openCairn, parse, printJson } from '../io.ts';
import { WRITE_WORDS, committedLine } from '../writeText.ts';

const options = {
  text: { type: 'string', arg: 'T', help: 'the new text (resets verification); "-" reads stdin' },
  scope: { type: 'string', multiple: true, arg: 'S', help: 'replaces the scopes (give every scope the memory should have)' },
  confidence: { type: 'string', arg: 'low|medium|high', help: 'how sure the fact is' },
  expires: { type: 'string', arg: 'DATE', help: 'an ISO date after which the memory leaves search and list' },
  'no-expires': { type: 'boolean', help: 'clear the expiry date' },
  alias: { type: 'string', multiple: true, arg: 'A', help: 'replaces the aliases (other words a later search may use)' },
  'no-aliases': { type: 'boolean', help: 'clear the aliases' },
  'acknowledge-transient': { type: 'boolean', help: 'store new time-bound wording ("currently", "today") in the text or aliases as written' },
  json: JSON_OPTION,
} as const;

export const update: Command = {
  name: 'update',
  summary: 'change a memory in place: text, scopes, confidence, expiry or aliases (same id)',
  usage: 'cairn update ID [--text T] [--scope S]... [--confidence C] [--expires DATE | --no-expires] [--alias A]... [--no-aliases] [--acknowledge-transient] [--json]',
  options,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    if (positionals.length !== 1) throw new UsageError(`give exactly one memory id, then what to change: cairn update ID --text "..."${positionals.length > 1 ? ` (got ${positionals.length} arguments: quote the text and pass it with --text)` : ''}`);
    if (values.expires !== undefined && values['no-expires']) throw new UsageError('give --expires DATE or --no-expires, not both');
    if (values.alias?.length && values['no-aliases']) throw new UsageError('give --alias A or --no-aliases, not both');
    let text = values.text;
    if (text === '-') text = io.readStdin ? (await io.readStdin()).trim() : undefined;
    const input = {
      id: positionals[0]!,
      ...(text !== undefined ? { content: text } : {}),
      ...(values.scope?.length ? { scopes: values.scope } : {}),
      ...(values.confidence !== undefined ? { confidence: values.confidence as 'medium' } : {}),
      ...(values.expires !== undefined ? { expires: values.expires } : values['no-expires'] ? { expires: null } : {}),
      ...(values.alias?.length ? { aliases: values.alias } : values['no-aliases'] ? { aliases: [] } : {}),
    };
    const changes = Object.keys(input).length - 1;
    if (values['acknowledge-transient']) Object.assign(input, { acknowledge_transient: true });
    if (changes === 0) throw new UsageError('give at least one of --text, --scope, --confidence, --expires, --no-expires, --alias or --no-aliases to change');
    const c = await openCairn(io);
    try {
      const out = await asCli(WRITE_WORDS, () => c.update(input));
      if (values.json) printJson(io, out);
      else io.out(committedLine('updated', out));
      return 0;
    } finally {
      await c.close();
    }
  },
};
