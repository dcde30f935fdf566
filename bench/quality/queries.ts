// Judged queries for the retrieval eval. `relevant` lists the memories that answer the query;
// generic queries have none: they should get no `high` hit at all.

export type QueryKind = 'lexical' | 'morphology' | 'identifier' | 'paraphrase' | 'generic';

export interface EvalQuery {
  kind: QueryKind;
  q: string;
  relevant: string[];
}

const L = (q: string, ...relevant: string[]): EvalQuery => ({ kind: 'lexical', q, relevant });
const M = (q: string, ...relevant: string[]): EvalQuery => ({ kind: 'morphology', q, relevant });
const I = (q: string, ...relevant: string[]): EvalQuery => ({ kind: 'identifier', q, relevant });
const P = (q: string, ...relevant: string[]): EvalQuery => ({ kind: 'paraphrase', q, relevant });
const G = (q: string): EvalQuery => ({ kind: 'generic', q, relevant: [] });

export const QUERIES: EvalQuery[] = [
  // lexical: the words of the memory itself
  L('pnpm workspaces lockfile', 'pnpm'),
  L('rate limit per minute', 'rate-limit'),
  L('feature flags LaunchDarkly', 'feature-flags'),
  L('terraform state locking', 'terraform-state'),
  L('which editor do I use', 'editor'),
  L('cursor pagination', 'pagination'),
  L('Stripe webhooks signing secret', 'webhook-retries'),
  L('PagerDuty on-call rotation', 'on-call', 'alerts'),
  L('Helm charts values', 'helm-charts'),
  L('transactional email Postmark', 'email-provider'),
  L('GraphQL schema resolvers', 'graphql-schema'),
  L('Prometheus metrics port', 'metrics'),
  L('WireGuard bastion', 'vpn'),
  L('OpenSearch index per tenant', 'search-service'),
  L('money amounts cents', 'currency'),
  L('presigned URLs uploads', 'uploads'),
  L('Fastlane TestFlight', 'mobile-release'),
  L('GDPR account deletion', 'user-deletion'),
  L('ADR architecture decisions', 'meeting-notes'),
  L('Crowdin translation files', 'i18n'),
  L('dead letter queue jobs', 'queue-worker'),
  // morphology: plural/singular, tenses, -ing forms
  M('postgres backup', 'pg-backup'),
  M('restoring databases', 'pg-restore'),
  M('deploying to staging', 'staging-deploy'),
  M('retried webhook', 'webhook-retries'),
  M('flaky tests retry', 'flaky-test'),
  M('migration down functions', 'db-migrations'),
  M('rotating public key', 'auth-jwt'),
  M('invoice generated monthly', 'invoices'),
  M('component keyboard navigations', 'accessibility'),
  M('alert paging at night', 'alerts'),
  M('released iOS builds', 'mobile-release'),
  M('profiled node service', 'profiling'),
  M('indexed orders table', 'sql-indexes'),
  M('cached sessions', 'redis-cache'),
  M('merging feature branch', 'branching'),
  M('generating changelogs', 'release-process'),
  M('commit message', 'commit-style'),
  M('uploaded file', 'uploads'),
  // identifier parts: split or joined identifiers, snake/kebab/camel
  I('request id header', 'request-id'),
  I('requestId', 'request-id'),
  I('pg dump cron', 'pg-backup'),
  I('pg restore clean', 'pg-restore'),
  I('invoice generator job', 'invoices'),
  I('reindex tenant script', 'search-service'),
  I('http request duration seconds', 'metrics'),
  I('error middleware', 'error-handling'),
  I('AppError code', 'error-handling'),
  I('size limit bundle', 'web-build'),
  I('release please', 'release-process'),
  I('env local gitignored', 'env-files'),
  I('typescript eslint strict', 'lint'),
  I('no unchecked indexed access', 'type-strict'),
  I('gen schema', 'graphql-schema'),
  I('bastion 2', 'vpn'),
  I('gpu booking channel', 'gpu-training'),
  // paraphrase / abbreviation: the memory uses another word for it
  P('k8s rbac', 'k8s-namespaces'),
  P('pg backups retention', 'pg-backup'),
  P('db migration rules', 'db-migrations'),
  P('prod deploy approval', 'staging-deploy'),
  P('auth tokens signing', 'auth-jwt'),
  P('config override order', 'config-loading'),
  P('infra repo rbac', 'k8s-namespaces'),
  P('env variables dummy values', 'env-files'),
  P('ts strict mode', 'type-strict'),
  P('node version required', 'node-version'),
  P('python deps', 'python-env'),
  P('container image tag', 'image-tags'),
  P('docker base image', 'docker-images'),
  P('perf budget latency', 'perf-budget'),
  P('logging library', 'logging-format'),
  P('tutorial preferences', 'tutorial-style'),
  P('preferred indentation', 'style-tabs'),
  P('secrets storage', 'secrets-vault'),
  // generic: questions no stored memory answers; nothing should come back as `high`
  G('what is the weather like today'),
  G('write a poem about the sea'),
  G('explain recursion to me'),
  G('how do I center a div'),
  G('tell me a joke'),
  G('what time is it in Tokyo'),
  G('summarize this paragraph'),
  G('how are you doing'),
  G('translate hello into French'),
  G('what is the capital of Australia'),
  G('best pizza recipe'),
  G('sort a list in Haskell'),
  G('who won the football match yesterday'),
  G('what is a monad'),
];
