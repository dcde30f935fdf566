#!/usr/bin/env bash
# Drives the built bundle with a real MCP client not written here: the MCP Inspector
# (@modelcontextprotocol/inspector, pinned, installed into a temp prefix), against a temp store
# holding a few memories written from temp git repositories.
#   1. `mcp-inspector --cli`: initialize (protocol revision, capabilities); resources/list from one
#      repository lists its memories first, then repo-less ones, and none of the other
#      repository's; resources/read of each equals the frontmatter followed by memory_show's body
#      (fetched with tools/call); resources/templates/list; prompts/list; prompts/get with an
#      argument embeds the same text the read gives.
#   2. `mcpdo` (the Inspector's connection CLI, which also answers completions and elicitation):
#      completion/complete for a prompt argument and a template variable; a claim about the user
#      put to the Inspector as a form, confirmed (committed) and declined (left pending).
# Fails loudly, naming the check, on any mismatch.
#
# Needs: node, npm (registry reachable once), git, a built server/dist/cairn.mjs.
# Env: INSPECTOR_VERSION overrides the pinned version; INSPECTOR_PREFIX uses an Inspector already
# installed under that npm prefix instead of installing one; KEEP_TMP=1 keeps the temp dir.
set -euo pipefail

PINNED_INSPECTOR_VERSION=2.12.0
version="${INSPECTOR_VERSION:-$PINNED_INSPECTOR_VERSION}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="$repo/server/dist/cairn.mjs"

fail() { echo "ci-inspector: FAIL: $*" >&2; exit 1; }
step() { echo "ci-inspector: $*"; }

[ -f "$bundle" ] || fail "server/dist/cairn.mjs is missing: run npm run build first"
command -v git >/dev/null || fail "git is needed for the temp repositories"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/cairn-ci-inspector.XXXXXX")"
daemon_started=0
cleanup() {
  if [ "$daemon_started" = 1 ]; then "$mcpdo" daemon stop >/dev/null 2>&1 || true; fi
  if [ "${KEEP_TMP:-0}" = 1 ]; then echo "ci-inspector: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# Hermetic: the Inspector's catalog and secrets under a temp HOME, kept in memory; the server's
# store in the temp dir.
export HOME="$tmp/home"
mkdir -p "$HOME"
export MCP_INSPECTOR_SECRET_STORE=memory
unset CAIRN_DIR CLAUDE_PROJECT_DIR
store="$tmp/store"

prefix="${INSPECTOR_PREFIX:-$tmp/inspector}"
if [ -z "${INSPECTOR_PREFIX:-}" ]; then
  step "installing @modelcontextprotocol/inspector@$version into $prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$version" >/dev/null
fi
inspector="$prefix/node_modules/.bin/mcp-inspector"
mcpdo="$prefix/node_modules/.bin/mcpdo"
[ -x "$inspector" ] && [ -x "$mcpdo" ] || fail "the Inspector's mcp-inspector and mcpdo binaries are not installed"

newrepo() { # dir remote
  mkdir -p "$1"
  git -C "$1" init -q -b main
  git -C "$1" remote add origin "$2"
  echo "# $(basename "$1")" >"$1/README.md"
  git -C "$1" add README.md
  git -C "$1" -c user.name=ci -c user.email=ci@example.com commit -q -m init
}
widgets="$tmp/widgets"
gadgets="$tmp/gadgets"
plain="$tmp/plain"
newrepo "$widgets" git@github.com:acme/widgets.git
newrepo "$gadgets" https://gitlab.com/acme/gadgets.git
mkdir -p "$plain"

# One Inspector CLI call against the bundle from directory $1; prints the result as JSON.
cli() {
  local cwd="$1"
  shift
  "$inspector" --cli -q --format json -e "CAIRN_DIR=$store" -e "HOME=$tmp/home" --cwd "$cwd" "$@" -- node "$bundle"
}
# Evaluates a JavaScript expression over the JSON on stdin: `r` is its `result` (an `error`
# envelope fails). Prints the value (strings raw, anything else as JSON).
q() {
  node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      let doc;
      try { doc = JSON.parse(s); } catch { console.error("not JSON: " + s.slice(0, 500)); process.exit(2); }
      if (doc.error) { console.error("error: " + JSON.stringify(doc.error)); process.exit(2); }
      const r = doc.result ?? doc;
      const v = eval(process.argv[1]);
      process.stdout.write(typeof v === "string" ? v : JSON.stringify(v));
    });' "$1"
}
write() { # cwd json -> id
  cli "$1" --method tools/call --tool-name memory_write --tool-args-json "$2" | q 'r.structuredContent.status === "committed" ? r.structuredContent.id : (() => { throw new Error(JSON.stringify(r.structuredContent)); })()'
}

step "initialize: protocol revision and capabilities"
init="$(cli "$widgets" --method initialize)"
[ "$(q 'r.protocolVersion' <<<"$init")" = 2025-11-25 ] || fail "initialize negotiated $(q 'r.protocolVersion' <<<"$init"), expected 2025-11-25"
[ "$(q 'r.capabilities.resources?.subscribe === true && r.capabilities.resources?.listChanged === true && !!r.capabilities.completions && !!r.capabilities.prompts' <<<"$init")" = true ] ||
  fail "capabilities lack resources (subscribe, listChanged), completions or prompts: $(q 'r.capabilities' <<<"$init")"

step "writing memories from two repositories and from outside any"
gadget="$(write "$gadgets" '{"content":"Gadgets deploys through the staging cluster before production.","scopes":["projects:gadgets"]}')"
loose="$(write "$plain" '{"content":"The household router admin page is at the address printed under the device.","scopes":["home-network"]}')"
w1="$(write "$widgets" '{"content":"Widgets stores its data in Postgres 16; SQLite only in tests.","scopes":["projects:widgets"]}')"
w2="$(write "$widgets" '{"content":"Widgets API handlers live in src/api/<resource>.ts, one file per resource.","scopes":["projects:widgets"]}')"
w3="$(write "$widgets" '{"content":"# Release process\n\nWidgets releases are cut from main with the Makefile target dist-images.","scopes":["projects:widgets"]}')"

step "resources/list from the widgets repository: its memories first"
list="$(cli "$widgets" --method resources/list)"
uris="$(q 'r.resources.map((x) => x.uri).join(" ")' <<<"$list")"
want="cairn://memory/$w3 cairn://memory/$w2 cairn://memory/$w1 cairn://memory/$loose cairn://overview cairn://health"
[ "$uris" = "$want" ] || fail "resources/list gave
  $uris
expected
  $want"
case "$uris" in *"$gadget"*) fail "resources/list shows the gadgets repository's memory $gadget from widgets" ;; esac
[ "$(q 'r.resources[0].name' <<<"$list")" = "Release process" ] || fail "the first resource's name is not its first line: $(q 'r.resources[0]' <<<"$list")"

step "resources/read of each equals its frontmatter followed by memory_show's body"
for id in "$w1" "$w2" "$w3" "$loose"; do
  cli "$widgets" --method resources/read --uri "cairn://memory/$id" >"$tmp/read.json"
  cli "$widgets" --method tools/call --tool-name memory_show --tool-args-json "{\"id\":\"$id\"}" >"$tmp/show.json"
  node -e '
    const fs = require("fs");
    const [readFile, showFile, id] = process.argv.slice(1);
    const read = JSON.parse(fs.readFileSync(readFile, "utf8")).result.contents[0];
    const body = JSON.parse(fs.readFileSync(showFile, "utf8")).result.structuredContent.memories[0].body;
    const fail = (m) => { console.error(`ci-inspector: FAIL: cairn://memory/${id}: ${m}`); process.exit(1); };
    if (read.mimeType !== "text/markdown") fail(`mime type ${read.mimeType}`);
    if (!read.text.endsWith(body)) fail(`the text does not end with the body memory_show gives\n--- read:\n${read.text}\n--- body:\n${body}`);
    const head = read.text.slice(0, read.text.length - body.length);
    if (!new RegExp(`^---\\nschema_version: 1\\nid: ${id}\\n[\\s\\S]*\\n---\\n$`).test(head)) fail(`what precedes the body is not its frontmatter:\n${head}`);
  ' "$tmp/read.json" "$tmp/show.json" "$id"
done

step "resources/templates/list"
templates="$(cli "$widgets" --method resources/templates/list | q 'r.resourceTemplates.map((t) => t.uriTemplate).join(" ")')"
[ "$templates" = "cairn://memory/{id} cairn://notes/{+path} cairn://scope/{scope} cairn://overview cairn://health" ] || fail "resources/templates/list gave $templates"

step "prompts/list and prompts/get with an argument"
prompts="$(cli "$widgets" --method prompts/list | q 'r.prompts.map((p) => p.name + "(" + (p.arguments ?? []).map((a) => a.name).join(",") + ")").join(" ")')"
[ "$prompts" = "memory_guide() memory_scope(scope) memory_review(id)" ] || fail "prompts/list gave $prompts"
embedded="$(cli "$widgets" --method prompts/get --prompt-name memory_review --prompt-args "id=$w1" | q 'r.messages[1].content.resource.text')"
read1="$(cli "$widgets" --method resources/read --uri "cairn://memory/$w1" | q 'r.contents[0].text')"
[ "$embedded" = "$read1" ] || fail "prompts/get memory_review embeds a text other than resources/read gives"

step "mcpdo: completions and the confirmation form"
# A private daemon (a Unix socket in the temp dir) for this run only; stopped on exit.
export TMPDIR="$tmp"
eval "$("$mcpdo" private)"
daemon_started=1
"$mcpdo" --format json connect --connection cairn -e "CAIRN_DIR=$store" -e "HOME=$tmp/home" --cwd "$widgets" -- node "$bundle" >/dev/null
do_() { "$mcpdo" --format json --connection cairn "$@"; }
scopes="$(do_ prompts/complete --complete-ref-type ref/prompt --complete-ref memory_scope --complete-arg-name scope --complete-arg-value proj | q 'r.values.join(" ")')"
case " $scopes " in *" projects:widgets "*) ;; *) fail "completion of memory_scope's scope for \"proj\" gave \"$scopes\"" ;; esac
case " $scopes " in *" home-network "*) fail "completion for \"proj\" offered home-network" ;; esac
ids="$(do_ prompts/complete --complete-ref-type ref/resource --complete-ref 'cairn://memory/{id}' --complete-arg-name id --complete-arg-value "${w2:0:20}" | q 'r.values.join(" ")')"
[ "$ids" = "$w2" ] || fail "completion of cairn://memory/{id} for ${w2:0:20} gave \"$ids\""

claim='{"content":"The user prefers short answers without preamble.","scopes":["user"],"category":"user-inference"}'
asked="$(do_ tools/call memory_write --tool-args-json "$claim")"
eid="$(q 'r.elicitationPending.elicitationId' <<<"$asked")" || fail "memory_write of a claim about the user asked no form: $asked"
[ "$(q 'r.elicitationPending.message.includes("The user prefers short answers without preamble.") && r.elicitationPending.message.includes("Scopes: user")' <<<"$asked")" = true ] ||
  fail "the form does not show the claim and its scopes: $(q 'r.elicitationPending.message' <<<"$asked")"
confirmed="$(do_ elicitation/respond "$eid" decision:=confirm)"
[ "$(q 'r.structuredContent.status + " " + r.structuredContent.elicitation' <<<"$confirmed")" = "committed confirmed" ] || fail "confirming in the form gave $confirmed"

asked="$(do_ tools/call memory_write --tool-args-json '{"content":"The user works late on Fridays.","scopes":["user"],"category":"user-inference"}')"
eid="$(q 'r.elicitationPending.elicitationId' <<<"$asked")" || fail "the second claim asked no form: $asked"
declined="$(do_ elicitation/respond "$eid" --decline)"
[ "$(q 'r.structuredContent.status + " " + (r.structuredContent.elicitation ?? "-") + " " + /^p_/.test(r.structuredContent.pending_id)' <<<"$declined")" = "pending - true" ] ||
  fail "declining the form did not leave the write pending: $declined"
"$mcpdo" disconnect cairn >/dev/null 2>&1 || true

step "all checks passed (Inspector $version)"
