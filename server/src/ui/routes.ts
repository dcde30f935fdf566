// The route table of `cairn ui`: method + path pattern -> page handler.
import type { UiRequest, UiResponse } from './request.ts';
export type { UiRequest, UiResponse } from './request.ts';
import { overviewPage } from './pages/overview.ts';
import { browsePage } from './pages/browse.ts';
import { searchPage, searchResults } from './pages/search.ts';
import { editPage, memoryPage, removeAction, restoreAction, scopesAction, updateAction, verifyAction } from './pages/memory.ts';
import { newPage, writeAction } from './pages/write.ts';
import { pruneAction, tombstonesPage } from './pages/tombstones.ts';
import { healthPage, renameScopeAction } from './pages/health.ts';
import { cancelAction, confirmAction, pendingPage } from './pages/pending.ts';
import { errorBox, layout } from './html.ts';

type Handler = (r: UiRequest, id: string) => Promise<UiResponse>;
const ID = '([0-9A-Za-z]{26})';
const PID = '(p_[0-9A-Za-z]{26})';
const ROUTES: [string, RegExp, Handler][] = [
  ['GET', /^\/$/, overviewPage],
  ['GET', /^\/browse$/, browsePage],
  ['GET', /^\/search$/, searchPage],
  ['GET', /^\/search\/results$/, searchResults],
  ['GET', new RegExp(`^/m/${ID}$`), memoryPage],
  ['GET', new RegExp(`^/m/${ID}/edit$`), editPage],
  ['POST', new RegExp(`^/m/${ID}/edit$`), updateAction],
  ['POST', new RegExp(`^/m/${ID}/scopes$`), scopesAction],
  ['POST', new RegExp(`^/m/${ID}/verify$`), verifyAction],
  ['POST', new RegExp(`^/m/${ID}/remove$`), removeAction],
  ['POST', new RegExp(`^/m/${ID}/restore$`), restoreAction],
  ['GET', /^\/new$/, newPage],
  ['POST', /^\/new$/, writeAction],
  ['GET', /^\/tombstones$/, tombstonesPage],
  ['POST', /^\/tombstones\/prune$/, pruneAction],
  ['GET', /^\/health$/, healthPage],
  ['POST', /^\/health\/rename-scope$/, renameScopeAction],
  ['GET', /^\/pending$/, pendingPage],
  ['POST', new RegExp(`^/pending/${PID}/confirm$`), confirmAction],
  ['POST', new RegExp(`^/pending/${PID}/cancel$`), cancelAction],
];

export async function route(r: UiRequest): Promise<UiResponse> {
  const method = r.method === 'HEAD' ? 'GET' : r.method;
  let pathMatched = false;
  for (const [m, re, h] of ROUTES) {
    const hit = re.exec(r.path);
    if (!hit) continue;
    pathMatched = true;
    if (m === method) return h(r, hit[1] ?? '');
  }
  const status = pathMatched ? 405 : 404;
  return { status, html: layout(r.page, { title: 'Not found', active: '', body: errorBox(pathMatched ? `${r.method} is not allowed on ${r.path}` : `no page at ${r.path}`) }) };
}
