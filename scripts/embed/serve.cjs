// A real small embedding model behind the two HTTP APIs cairn's providers speak, on loopback only:
// Universal Sentence Encoder lite (the teacher of the built-in table) answering
//   POST /v1/embeddings  {model, input: string | string[]}  (OpenAI-compatible)
//   POST /api/embed      {model, input: string | string[]}  (Ollama)
// It exists to measure and exercise cairn's provider path with a real model on a machine that
// has no Ollama and no network (bench/quality/provider.ts, README "Stronger embedders").
//
//   node scripts/embed/serve.cjs [port]     # prints "listening http://127.0.0.1:<port>"
//
// Needs the tools prefix that scripts/embed/build.mjs installs ($CAIRN_EMBED_TOOLS); nothing of it
// is used by cairn itself.
const http = require('node:http');
const { loadTeacher } = require('./teacher.cjs');

const MAX_BODY = 8 * 1024 * 1024;
const BATCH = 32;

async function main() {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
  const teacher = await loadTeacher();
  // One request at a time: tfjs on one thread; queued requests wait their turn.
  let chain = Promise.resolve();
  const embedAll = (texts) => {
    const run = chain.then(async () => {
      const out = [];
      for (let i = 0; i < texts.length; i += BATCH) out.push(...(await teacher.embed(texts.slice(i, i + BATCH))));
      return out;
    });
    chain = run.catch(() => undefined);
    return run;
  };
  const server = http.createServer((req, res) => {
    const send = (code, body) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || (req.url !== '/v1/embeddings' && req.url !== '/api/embed')) return send(404, { error: `no route ${req.method} ${req.url}` });
    let size = 0;
    const chunks = [];
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', async () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { error: 'body is not JSON' });
      }
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(input) || input.some((t) => typeof t !== 'string')) return send(400, { error: '`input` must be a string or an array of strings' });
      try {
        const vecs = (await embedAll(input)).map((v) => Array.from(v));
        if (req.url === '/api/embed') return send(200, { model: body.model, embeddings: vecs });
        send(200, {
          object: 'list',
          model: body.model,
          data: vecs.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        });
      } catch (err) {
        send(500, { error: String(err && err.message) });
      }
    });
  });
  server.listen(port, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
