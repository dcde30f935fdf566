import { writeFileAtomic } from '../../core/fsatomic.ts';
import { stripStored } from '../../core/ops/write.ts';
import { type Command, openCairn, parse } from '../io.ts';

export const exportCmd: Command = {
  name: 'export',
  summary: 'write every memory (and tombstone) as one JSON document',
  usage: 'cairn export [-o FILE] [--no-tombstones]',
  async run(argv, io) {
    const { values } = parse(argv, { output: { type: 'string', short: 'o' }, 'no-tombstones': { type: 'boolean' } }, false);
    const c = await openCairn(io);
    try {
      await c.store.ensureFresh();
      const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
      const doc = {
        format: 'cairn-export',
        version: 1,
        exported_at: c.now().toISOString(),
        memories: [...c.store.active()].map(stripStored).sort(byId),
        tombstones: values['no-tombstones'] ? [] : [...c.store.tombstones()].map(stripStored).sort(byId),
      };
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      if (values.output) {
        await writeFileAtomic(values.output, text); // 0600: an export holds the user's notes
        io.err(`cairn: exported ${doc.memories.length} memories and ${doc.tombstones.length} tombstones to ${values.output}\n`);
      } else io.out(text);
      return 0;
    } finally {
      await c.close();
    }
  },
};
