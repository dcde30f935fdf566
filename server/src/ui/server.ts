// The `cairn ui` HTTP server (node:http, no framework). It serves server-rendered pages, two
// embedded assets and a server-sent-events stream, and sends every change through the facade.
//
// Security invariants, each checked on every request before any handler runs:
// - Bound to 127.0.0.1 only; the Host header must be exactly 127.0.0.1:<port> (a page on another
//   site reaching us through DNS rebinding carries its own host name and is refused).
// - A session cookie (HttpOnly, SameSite=Strict, named per port) is required. It is set only by
//   /auth?token=<t>, where <t> is the random one-time token printed with the URL; the token is
//   spent by its first use. Comparisons are constant-time.
// - A state-changing request (anything but GET/HEAD) needs an Origin equal to our own origin and
//   the session's CSRF token in the form.
// - Every response carries a strict CSP (default-src 'self', no inline script or style),
//   nosniff, Referrer-Policy same-origin (not no-referrer: with it Chromium sends `Origin: null`
//   on form posts, which the Origin check would refuse), frame-ancestors 'none', and no-store.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Cairn } from '../core/cairn.ts';
import { CairnError, errorMessage } from '../core/errors.ts';
import { APP_CSS, APP_JS, ICON_SVG } from './assets.ts';
import { errorBox, esc, layout, type PageCtx } from './html.ts';
import { route, type UiRequest, type UiResponse } from './routes.ts';

/** How long a flash is shown on the page its redirect went to. */
const FLASH_MS = 5_000;

export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
/** The largest form post accepted (a memory's text from the page is at most this). */
export const MAX_BODY = 256 * 1024;
const ASSETS: Record<string, [string, string]> = {
  '/assets/app.css': ['text/css; charset=utf-8', APP_CSS],
  '/assets/app.js': ['text/javascript; charset=utf-8', APP_JS],
  '/favicon.ico': ['image/svg+xml', ICON_SVG],
  '/assets/icon.svg': ['image/svg+xml', ICON_SVG],
};

interface Session {
  id: string;
  csrf: string;
  /**
   * The message about what the user just did, for the page its redirect goes to: shown on every
   * full GET of that page for a few seconds (not taken by the first GET: a live refresh or a
   * repeated navigation GET could take it before the page the user sees).
   */
  flash: { message: string; path: string | null; until: number } | null;
}

export interface UiServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const token = () => randomBytes(24).toString('base64url');
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookies(req: IncomingMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error(`request body over ${MAX_BODY} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startUiServer(cairn: Cairn, opts: { port?: number } = {}): Promise<UiServer> {
  const host = '127.0.0.1';
  let oneTime: string | null = token();
  const sessions = new Map<string, Session>();
  const streams = new Set<ServerResponse>();
  let port = 0;
  let cookieName = 'cairn_ui';
  const origin = () => `http://${host}:${port}`;

  const headers = (res: ServerResponse, type: string) => {
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form posts.
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
  };
  const refuse = (res: ServerResponse, status: number, why: string) => {
    headers(res, 'text/plain; charset=utf-8');
    res.writeHead(status);
    res.end(`cairn ui: ${why}\n`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, errorMessage(err));
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    // The server's own time for the page (npm run bench reads it); set before the body is sent.
    const origWriteHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      if (!res.headersSent) res.setHeader('Server-Timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
      return origWriteHead(...args);
    }) as ServerResponse['writeHead'];
    // 1. DNS rebinding: only our own loopback address and port.
    if (req.headers.host !== `${host}:${port}`) return refuse(res, 403, `refused: Host ${JSON.stringify(req.headers.host ?? '')} is not ${host}:${port}`);
    const url = new URL(req.url ?? '/', origin());
    const method = req.method ?? 'GET';

    const sid = cookies(req).get(cookieName) ?? '';
    const session = [...sessions.values()].find((s) => same(s.id, sid));

    // 2. The one-time token, exchanged for a session cookie. The printed URL opened again in a
    // browser that already holds a session goes to the page: the session is the proof, and the
    // token (spent or not) is left as it is.
    if (url.pathname === '/auth' && session && method === 'GET') {
      res.setHeader('Location', '/');
      headers(res, 'text/plain; charset=utf-8');
      res.writeHead(303);
      res.end();
      return;
    }
    if (url.pathname === '/auth') {
      const given = url.searchParams.get('token') ?? '';
      if (oneTime === null || !same(given, oneTime)) {
        return refuse(res, 401, oneTime === null ? 'refused: this link was already used; restart `cairn ui` for a new one' : 'refused: wrong token; open the URL `cairn ui` printed');
      }
      oneTime = null;
      const s: Session = { id: token(), csrf: token(), flash: null };
      sessions.set(s.id, s);
      res.setHeader('Set-Cookie', `${cookieName}=${s.id}; HttpOnly; SameSite=Strict; Path=/`);
      res.setHeader('Location', '/');
      headers(res, 'text/plain; charset=utf-8');
      res.writeHead(303);
      res.end();
      return;
    }

    // 3. Every other request needs the session.
    if (!session) return refuse(res, 401, 'refused: no session; open the URL `cairn ui` printed (it carries a one-time token)');

    // 4. CSRF: a state change must come from our own page.
    const changes = method !== 'GET' && method !== 'HEAD';
    let form = new URLSearchParams();
    if (changes) {
      if (req.headers.origin !== origin()) return refuse(res, 403, `refused: Origin ${JSON.stringify(req.headers.origin ?? '')} is not ${origin()}`);
      form = new URLSearchParams(await readBody(req));
      if (!same(form.get('csrf') ?? '', session.csrf)) return refuse(res, 403, 'refused: missing or wrong form token; reload the page and try again');
    }

    const asset = ASSETS[url.pathname];
    if (asset) {
      headers(res, asset[0]);
      res.writeHead(200);
      res.end(asset[1]);
      return;
    }
    if (url.pathname === '/events') {
      headers(res, 'text/event-stream; charset=utf-8');
      res.writeHead(200, { Connection: 'keep-alive' });
      res.write('retry: 1000\n: connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }

    const page: PageCtx = { csrf: session.csrf, pending: (await cairn.pendingWrites()).length, store: cairn.dir };
    const r: UiRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      form,
      cairn,
      page,
      flash: (m) => (session.flash = { message: m, path: null, until: 0 }),
    };
    let out: UiResponse;
    try {
      out = await route(r);
    } catch (err) {
      if (!(err instanceof CairnError)) throw err;
      out = { status: err.name === 'NotFoundError' ? 404 : 400, html: layout(page, { title: 'Not done', active: '', body: errorBox(err.message) }) };
    }
    if ('redirect' in out) {
      if (session.flash !== null && session.flash.path === null) {
        session.flash.path = new URL(out.redirect, origin()).pathname;
        session.flash.until = Date.now() + FLASH_MS;
      }
      headers(res, 'text/plain; charset=utf-8');
      res.setHeader('Location', out.redirect);
      res.writeHead(303);
      res.end();
      return;
    }
    if ('fragment' in out) {
      headers(res, 'text/html; charset=utf-8');
      res.writeHead(200);
      res.end(out.fragment);
      return;
    }
    let body = out.html;
    const f = session.flash;
    if (f !== null && f.path !== null && Date.now() > f.until) session.flash = null;
    else if (f !== null && method === 'GET' && (f.path === null || f.path === url.pathname)) {
      body = body.replace('<main id="main" tabindex="-1">', `<main id="main" tabindex="-1"><div class="flash" role="status">${esc(f.message)}</div>`);
      if (f.path === null) session.flash = null; // set without a redirect: shown once
    }
    headers(res, 'text/html; charset=utf-8');
    res.writeHead(out.status ?? 200);
    res.end(body);
  }

  // Live updates: one SSE message per change, coalesced over 150 ms.
  let queued: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  const unsubscribe = cairn.onChange((n) => {
    queued.push(n.kind === 'memory' ? n.id : 'pending');
    timer ??= setTimeout(() => {
      timer = null;
      const data = JSON.stringify({ changed: [...new Set(queued)] });
      queued = [];
      for (const s of streams) s.write(`event: change\ndata: ${data}\n\n`);
    }, 150);
  });
  const keepAlive = setInterval(() => {
    for (const s of streams) s.write(': ping\n\n');
  }, 20_000);
  keepAlive.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
  cookieName = `cairn_ui_${port}`; // cookies ignore ports: two servers must not share one
  return {
    url: `${origin()}/auth?token=${oneTime}`,
    port,
    close: async () => {
      unsubscribe();
      clearInterval(keepAlive);
      if (timer) clearTimeout(timer);
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
