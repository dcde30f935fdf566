#!/usr/bin/env bash
# Proves the plugin loads in the real Claude Code CLI (issue 6), offline and without an API key:
#   1. `claude plugin validate --strict` on the manifests, commands and skill;
#   2. `claude --plugin-dir <plugin> mcp list` reports the plugin's cairn server as connected;
#   3. `claude plugin marketplace add <plugin>` + `claude plugin install cairn@cairn`, then
#      `claude mcp list` again: the path a user takes;
#   4. a logged-out `claude -p` session start with a one-memory store: Claude Code loads the
#      skill and the commands, runs the SessionStart hook, and the hook's line is the counts line
#      (read from --debug-file; the wording of that log is pinned with the CLI version).
# The plugin is staged from the files git would ship (tracked + untracked-not-ignored), so no
# node_modules and no local .cairn store: the server must start from the committed bundle alone,
# exactly as it does from a clone. HOME is a temp dir, so nothing of the caller's Claude Code
# config or cairn store is read or touched.
#
# Needs: node, npm (registry reachable once, for the CLI), git, a built server/dist/cairn.mjs.
# Env: CLAUDE_CODE_VERSION overrides the pinned CLI; CLAUDE_BIN uses an existing claude binary
# instead of installing one; KEEP_TMP=1 keeps the temp dir for debugging.
set -euo pipefail

PINNED_CLAUDE_CODE_VERSION=2.1.330
version="${CLAUDE_CODE_VERSION:-$PINNED_CLAUDE_CODE_VERSION}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="server/dist/cairn.mjs"

fail() { echo "ci-claude: FAIL: $*" >&2; exit 1; }
step() { echo "ci-claude: $*"; }

[ -f "$repo/$bundle" ] || fail "$bundle is missing: run npm run build first"
command -v git >/dev/null || fail "git is needed to stage the plugin files"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/cairn-ci-claude.XXXXXX")"
cleanup() { if [ "${KEEP_TMP:-0}" = 1 ]; then echo "ci-claude: kept $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT

# Hermetic Claude Code: its own HOME, no inherited config dir, no update checks or telemetry.
export HOME="$tmp/home"
mkdir -p "$HOME"
unset CLAUDE_CONFIG_DIR
export DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1
export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
# The cairn server resolves its store from CAIRN_DIR, then ~/.cairn: keep it on the temp HOME.
unset CAIRN_DIR
# No credentials: step 4 must stay a logged-out session start, never a paid model call.
unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN CLAUDE_CODE_OAUTH_TOKEN CLAUDE_CODE_USE_BEDROCK CLAUDE_CODE_USE_VERTEX

# --- the CLI -------------------------------------------------------------------------------
if [ -n "${CLAUDE_BIN:-}" ]; then
  claude=("$CLAUDE_BIN")
else
  step "installing @anthropic-ai/claude-code@$version into $tmp/cli"
  npm install --prefix "$tmp/cli" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$version" >"$tmp/npm.log" 2>&1 || { cat "$tmp/npm.log" >&2; fail "npm install of the Claude Code CLI failed"; }
  claude=("$tmp/cli/node_modules/.bin/claude")
  # The package's postinstall swaps a placeholder for the native binary; when an npm policy
  # skipped install scripts, its wrapper finds the same platform binary at run time.
  if ! "${claude[@]}" --version >/dev/null 2>&1; then
    claude=(node "$tmp/cli/node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs")
  fi
fi
got="$("${claude[@]}" --version 2>&1)" || fail "claude --version failed: $got"
step "claude --version: $got"
case "$got" in "$version"*) ;; *) fail "expected Claude Code $version, got: $got" ;; esac

run_claude() { timeout 180 "${claude[@]}" "$@"; }

# --- stage the plugin as a clone would hold it ---------------------------------------------
plugin="$tmp/plugin"
mkdir -p "$plugin"
while IFS= read -r -d '' f; do
  # A tracked file deleted in the work tree is simply not shipped.
  [ -f "$repo/$f" ] || continue
  mkdir -p "$plugin/$(dirname "$f")"
  cp -p "$repo/$f" "$plugin/$f"
done < <(cd "$repo" && git ls-files -z --cached --others --exclude-standard)
# The bundle ships even if a local ignore rule hides it.
mkdir -p "$plugin/$(dirname "$bundle")"
cp -p "$repo/$bundle" "$plugin/$bundle"
[ -f "$plugin/.claude-plugin/plugin.json" ] || fail "staging lost .claude-plugin/plugin.json"
[ ! -e "$plugin/node_modules" ] || fail "staged plugin must not contain node_modules"

# --- 1. validate ---------------------------------------------------------------------------
for target in . .claude-plugin/plugin.json commands skills; do
  step "claude plugin validate $target --strict"
  (cd "$plugin" && run_claude plugin validate "$target" --strict) >"$tmp/validate.log" 2>&1 ||
    { cat "$tmp/validate.log" >&2; fail "claude plugin validate $target --strict"; }
  grep -E '✔|passed' "$tmp/validate.log" | tail -1
done

# A work dir outside any git repo and without .cairn, so the server sees an empty temp store.
work="$tmp/work"
mkdir -p "$work"

# Exactly one line for the plugin's server, and it must say connected (mcp list exits 0 even
# when a server failed, so the text is the verdict).
expect_connected() {
  local label="$1" out="$2"
  echo "$out" | sed 's/^/    /'
  echo "$out" | grep -E '^plugin:cairn:cairn: ' | grep -qiE '(✔|✓) *connected' ||
    fail "$label: the plugin's cairn server is not reported as connected"
}

# --- 2. --plugin-dir -----------------------------------------------------------------------
step "claude --plugin-dir <plugin> mcp list"
out="$(cd "$work" && run_claude --plugin-dir "$plugin" mcp list 2>&1)" || fail "mcp list (plugin-dir) exited non-zero: $out"
expect_connected "--plugin-dir" "$out"

# --- 3. marketplace add + install, as a user does ------------------------------------------
step "claude plugin marketplace add <plugin> && claude plugin install cairn@cairn"
(cd "$work" && run_claude plugin marketplace add "$plugin") >"$tmp/mkt.log" 2>&1 || { cat "$tmp/mkt.log" >&2; fail "marketplace add"; }
(cd "$work" && run_claude plugin install cairn@cairn) >"$tmp/inst.log" 2>&1 || { cat "$tmp/inst.log" >&2; fail "plugin install cairn@cairn"; }
step "claude mcp list (installed)"
out="$(cd "$work" && run_claude mcp list 2>&1)" || fail "mcp list (installed) exited non-zero: $out"
expect_connected "installed" "$out"

# --- 4. a session start runs the hook -----------------------------------------------------
# One global memory in the default store (~/.cairn on the temp HOME), written in the on-disk
# format by hand, so the hook has something to count.
mkdir -p "$HOME/.cairn"
cat >"$HOME/.cairn/2026-03-14-ci-hook-memory-000001.md" <<'MEM'
---
schema_version: 1
id: 01JQ3Z8V7M2K4T6Y9B1C000001
created: 2026-03-14T10:23:00.000Z
updated: 2026-03-14T10:23:00.000Z
scopes: [tools]
confidence: high
source: explicit-statement
category: fact
last_verified_at: null
expires: null
origin:
  cwd: /tmp
  repo: null
  branch: null
  worktree_root: null
---
Prefer node:test over Jest for new packages.
MEM
step "claude -p (logged out) --plugin-dir <plugin>: SessionStart hook"
(cd "$work" && run_claude -p "hello" --plugin-dir "$plugin" --debug-file "$tmp/session.log") >"$tmp/session.out" 2>&1 || true
want_hook='Hook SessionStart:startup (SessionStart) success:\ncairn memory: 1 memory for this project (tools 1). Search them only when stored context could help.'
grep -F 'SessionStart' "$tmp/session.log" | grep -F 'cairn' | sed 's/^/    /' || true
grep -qF "$want_hook" "$tmp/session.log" || fail "the SessionStart hook did not print the expected counts line (see $tmp/session.log with KEEP_TMP=1)"
grep -qF 'Loaded 4 commands from plugin cairn' "$tmp/session.log" || fail "Claude Code did not load the 4 cairn commands"
grep -qF 'Loaded 1 skills from plugin cairn' "$tmp/session.log" || fail "Claude Code did not load the cairn memory skill"

step "OK: Claude Code $version validates the plugin, connects to its cairn server and runs its hook"
