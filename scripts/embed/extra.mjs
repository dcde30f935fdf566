// Extra distillation sentences beyond the developer-docs corpus: everyday English from WordNet's
// example sentences and definitions, and FOLDOC's computing definitions (lexicon.mjs), embedded by
// the teacher (cached like the corpus). Deterministic: hash-ordered, capped.
import { loadLexicon } from './lexicon.mjs';
import { fnv1a } from './corpus.mjs';
import { teacherEmbedAll } from './data.mjs';

export const EXTRA_CAP = 20000;

export function extraSentences(tools, cap = EXTRA_CAP) {
  const lx = loadLexicon(tools);
  const seen = new Set();
  for (const [ex, def] of lx.examples) { seen.add(ex); seen.add(def); }
  for (const [, def] of lx.foldoc) seen.add(def);
  const all = [...seen].filter((s) => s.length >= 20 && s.split(' ').length >= 4);
  all.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1));
  return all.slice(0, cap);
}

export async function loadExtra(tools, cap = EXTRA_CAP) {
  const sentences = extraSentences(tools, cap);
  const Y = await teacherEmbedAll(tools, sentences, 'extra');
  return { sentences, Y };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tools = process.env.CAIRN_EMBED_TOOLS ?? '/tmp/cairn-embed-tools';
  const { sentences } = await loadExtra(tools);
  console.log(sentences.length, sentences.slice(0, 5));
}
