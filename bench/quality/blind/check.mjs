// Sanity checker for the blind retrieval eval. No dependencies.
// Usage: node bench/quality/blind/check.mjs   (exit 1 on any violation)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const memories = JSON.parse(readFileSync(join(here, "memories.json"), "utf8"));
const queries = JSON.parse(readFileSync(join(here, "queries.json"), "utf8"));

const errors = [];
const err = (m) => errors.push(m);

// ---------- normaliser ----------
const STOPWORDS = new Set(`
a about above after again against all also am an and any are aren around as at be because been before
being below between both but by can cannot could did didn do does doesn doing don down during each
else etc even ever every few for from further get got had has have having he her here hers him his how
i if in into is isn it its itself just let me might more most must my myself no nor not now of off on
once only or other our ours ourselves out over own same shall she should so some such than that the
their theirs them then there these they this those through to too under until up upon us use used uses
using very via was we were what when where which while who whom whose why will with within without
would you your yours yourself e g ie eg s t d ll re ve m like vs one's anything something someone
`.split(/\s+/).filter(Boolean));

const SUFFIXES = ["ations", "ation", "ions", "ion", "ment", "ing", "ed", "es", "er", "ly", "s"];

export function stem(w) {
  let s = w;
  for (const suf of SUFFIXES) {
    if (s.endsWith(suf) && s.length - suf.length >= 3) { s = s.slice(0, -suf.length); break; }
  }
  if (s.length > 4 && s.endsWith("e")) s = s.slice(0, -1); // merge/merging, name/naming
  if (s.length >= 6) s = s.slice(0, 5);                    // crude prefix match for long words
  return s;
}

export function contentStems(text) {
  return new Set(
    text.toLowerCase().split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t && !STOPWORDS.has(t))
      .map(stem)
  );
}

// ---------- memories ----------
const DOMAIN_OF_SCOPE = {
  "projects:ledgerly": "webapp",
  "infra": "infra",
  "homelab": "homelab",
  "preferences": "preferences",
  "data": "data",
  "team": "team",
  "projects:ledgerly-mobile": "mobile",
};
const REQUIRED_DOMAINS = ["webapp", "infra", "homelab", "preferences", "data", "team"];
const MIN_PER_DOMAIN = 20;
const MIN_MEMORIES = 160;

const byId = new Map();
const domainCount = {};
for (const m of memories) {
  if (typeof m.id !== "string" || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(m.id)) err(`bad id: ${m.id}`);
  if (byId.has(m.id)) err(`duplicate id: ${m.id}`);
  byId.set(m.id, m);
  if (!Array.isArray(m.scopes) || m.scopes.length < 1 || m.scopes.length > 2) err(`${m.id}: needs 1-2 scopes`);
  const domain = DOMAIN_OF_SCOPE[m.scopes?.[0]];
  if (!domain) err(`${m.id}: first scope ${m.scopes?.[0]} maps to no domain`);
  domainCount[domain] = (domainCount[domain] || 0) + 1;
  const words = (m.body || "").trim().split(/\s+/).length;
  if (words < 20 || words > 60) err(`${m.id}: body has ${words} words (want 20-60)`);
  if (!Number.isInteger(m.age_days) || m.age_days < 0 || m.age_days > 400) err(`${m.id}: bad age_days ${m.age_days}`);
}
if (memories.length < MIN_MEMORIES) err(`only ${memories.length} memories (want >= ${MIN_MEMORIES})`);
for (const d of REQUIRED_DOMAINS) {
  if ((domainCount[d] || 0) < MIN_PER_DOMAIN) err(`domain ${d} has ${domainCount[d] || 0} memories (want >= ${MIN_PER_DOMAIN})`);
}

// ---------- queries ----------
const MIN_KIND = { paraphrase: 45, lexical: 25, identifier: 15, morphology: 15, negative: 20 };
const MIN_QUERIES = 130;
const kindCount = {};
const seenQ = new Set();
for (const [i, q] of queries.entries()) {
  const tag = `query #${i} (${q.kind}) "${q.q}"`;
  if (!(q.kind in MIN_KIND)) { err(`${tag}: unknown kind`); continue; }
  kindCount[q.kind] = (kindCount[q.kind] || 0) + 1;
  if (seenQ.has(q.q.toLowerCase())) err(`${tag}: duplicate query text`);
  seenQ.add(q.q.toLowerCase());
  if (!Array.isArray(q.relevant)) { err(`${tag}: relevant must be an array`); continue; }
  for (const id of q.relevant) if (!byId.has(id)) err(`${tag}: unknown relevant id ${id}`);
  if (q.kind === "negative" && q.relevant.length) err(`${tag}: negative must have relevant: []`);
  if (q.kind !== "negative" && !q.relevant.length) err(`${tag}: non-negative needs relevant ids`);

  const qs = contentStems(q.q);
  if (q.kind === "paraphrase") {
    for (const id of q.relevant) {
      const m = byId.get(id);
      if (!m) continue;
      const ms = contentStems(m.body + " " + m.scopes.join(" "));
      const shared = [...qs].filter((s) => ms.has(s));
      if (shared.length) err(`${tag}: shares content stems with ${id}: ${shared.join(", ")}`);
    }
  }
  if (q.kind === "lexical" || q.kind === "morphology") {
    for (const id of q.relevant) {
      const m = byId.get(id);
      if (!m) continue;
      const ms = contentStems(m.body + " " + m.scopes.join(" "));
      const shared = [...qs].filter((s) => ms.has(s));
      if (shared.length < 2) err(`${tag}: ${q.kind} query shares only [${shared.join(", ")}] with ${id} (want >= 2)`);
    }
  }
}
if (queries.length < MIN_QUERIES) err(`only ${queries.length} queries (want >= ${MIN_QUERIES})`);
for (const [k, min] of Object.entries(MIN_KIND)) {
  if ((kindCount[k] || 0) < min) err(`kind ${k} has ${kindCount[k] || 0} queries (want >= ${min})`);
}

// ---------- summary ----------
console.log(`memories: ${memories.length}  queries: ${queries.length}`);
console.log("per domain:", Object.entries(domainCount).map(([k, v]) => `${k}=${v}`).join(" "));
console.log("per kind:  ", Object.entries(kindCount).map(([k, v]) => `${k}=${v}`).join(" "));
const covered = new Set(queries.flatMap((q) => q.relevant));
console.log(`memories targeted by at least one query: ${covered.size}/${memories.length}`);
if (errors.length) {
  console.log(`\n${errors.length} violation(s):`);
  for (const e of errors) console.log("  - " + e);
  process.exit(1);
}
console.log("OK");
