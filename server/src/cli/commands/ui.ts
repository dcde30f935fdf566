// `cairn ui`: the local web page over this store. Starts the server of server/src/ui/ on
// 127.0.0.1 (a free port unless --port), prints the URL with its one-time token, opens it in the
// default browser unless --no-open (any failure to open is ignored: the URL is printed), and runs
// until interrupted.
import { spawn } from 'node:child_process';
import { Cairn } from '../../core/cairn.ts';
import { type Command, intOption, parse } from '../io.ts';

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener on this machine: the printed URL is enough
  }
}

const options = {
  port: { type: 'string', arg: 'N', help: 'listen on this port of 127.0.0.1 (default: a free one)' },
  'no-open': { type: 'boolean', help: 'print the URL without opening a browser' },
  json: { type: 'boolean', help: 'print {url, port, store} as one JSON line instead of the text' },
} as const;

export const ui: Command = {
  name: 'ui',
  summary: 'browse, search, edit and curate memory in a local web page',
  usage: 'cairn ui [--port N] [--no-open] [--json]',
  options,
  async run(argv, io) {
    const { values } = parse(argv, options, false);
    const port = intOption(values.port, '--port', 0, 65535) ?? 0;
    // The UI is a person at the keyboard: watch the store (changes from elsewhere show up live).
    const cairn = await Cairn.open({ env: io.env, cwd: io.cwd, watch: true, actor: 'user', warn: (m) => io.err(`cairn: ${m}\n`) });
    let server;
    // The web page's server (markdown, the page's assets) is loaded only by this command.
    const { startUiServer } = await import('../../ui/server.ts');
    try {
      server = await startUiServer(cairn, { port });
    } catch (err) {
      await cairn.close();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new Error(`port ${port} on 127.0.0.1 is in use: pick another with --port, or omit it for a free one`);
      throw err;
    }
    if (values.json) io.out(`${JSON.stringify({ url: server.url, port: server.port, store: cairn.dir })}\n`);
    else io.out(`cairn ui: ${server.url}\n(store ${cairn.dir}; the link works once; Ctrl-C stops the server)\n`);
    if (!values['no-open']) openInBrowser(server.url);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    await cairn.close();
    return 0;
  },
};
