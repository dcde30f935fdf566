// Query-time expansion through developer abbreviations and synonyms. Each line is one group of
// interchangeable words; a query word found in a group also searches the others, at a discount
// (see rank weights) so the word the user typed still ranks first.
//
// Config extends the table: `[search.synonyms] ci = ["continuous integration", "pipeline"]` adds
// a group {ci, continuous integration, pipeline}. Multi-word entries match only when every word is
// present in the memory.
import { tokenize } from './tokenize.ts';

const BUILT_IN = `
db database databases
pg postgres postgresql psql
mysql mariadb
mongo mongodb
k8s kubernetes kube
repo repository repositories
config configuration configs cfg conf
auth authentication authn
authz authorization
prod production
dev development
env environment environments
stg staging
admin administrator
api apis endpoint
app application
arg argument args params parameter parameters
async asynchronous
cmd command
cli command-line
ci continuous-integration pipeline
cd continuous-deployment
deps dependencies dependency
dir directory folder
doc docs documentation
err error errors
exec execute
fn function func
impl implementation
info information
init initialize initialization
lib library libraries
msg message messages
num number
perf performance
pkg package packages
pr pull-request
mr merge-request
req request
res response resp
spec specification
src source
str string
sync synchronize synchronization
temp tmp temporary
ts typescript
js javascript
py python
tf terraform
gh github
gl gitlab
ui frontend
fe frontend
var variable variables
vm virtual-machine
js node nodejs
secret credential credentials
jwt token
test tests spec specs
bug defect issue
docker container containers
img image
mem memory
os operating-system
regex regexp
url link
util utility utilities
ver version
log logs logging
`;

export type SynonymTable = ReadonlyMap<string, readonly string[][]>;

/** An entry as its index terms, in order (`continuous-integration` -> [continu..., integr...]). */
function entryTerms(entry: string): string[] {
  return tokenize(entry)
    .filter((t) => !t.whole && !t.stop)
    .map((t) => t.term);
}

/**
 * Builds the lookup: single index term -> the alternative entries (each a list of terms that must
 * all match). Groups sharing a word merge, so config can extend a built-in group.
 */
export function buildSynonyms(extra: Record<string, string[]> = {}): SynonymTable {
  const groups: string[][] = BUILT_IN.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map((w) => w.replace(/-/g, ' ')));
  for (const [term, list] of Object.entries(extra)) groups.push([term, ...list]);

  // entry key -> set of entry keys it is interchangeable with (union of all groups it is in)
  const peers = new Map<string, Set<string>>();
  const termsOf = new Map<string, string[]>();
  for (const g of groups) {
    const keys: string[] = [];
    for (const e of g) {
      const terms = entryTerms(e);
      if (terms.length === 0) continue;
      const key = terms.join(' ');
      termsOf.set(key, terms);
      keys.push(key);
    }
    for (const k of keys) {
      let s = peers.get(k);
      if (!s) peers.set(k, (s = new Set()));
      for (const o of keys) if (o !== k) s.add(o);
    }
  }
  // Only single-term entries can be looked up from a query word.
  const out = new Map<string, string[][]>();
  for (const [k, s] of peers) {
    if (k.includes(' ') || s.size === 0) continue;
    out.set(k, [...s].sort().map((o) => termsOf.get(o)!));
  }
  return out;
}
