#!/usr/bin/env bash
# Proves the plugin loads in the real Claude Code CLI, offline and without an API key:
#   1. `claude plugin validate --strict` on the manifests, commands and skill;
#   2. `claude --plugin-dir <plugin> mcp list` reports the plugin's cairn server as connected;
#   3. `claude plugin marketplace add <plugin>` + `claude plugin install cairn@cairn`, then
#      `claude mcp list` again: the path a user takes from a clone. The installed copy in the
#      plugin cache must be lean: exactly the runtime tree plugin/ (marketplace.json's source),
#      no node_modules (Claude Code runs `npm ci` only where it finds a lockfile), at most 3 MB
#      besides the embedding data and 45 MB in all, and it must pass `claude plugin validate --strict` itself;
#   3b. the same from a git marketplace (what `marketplace add owner/repo` does): the staged
#      tree is served as a git repository through a url.insteadOf rewrite in the temp HOME's
#      .gitconfig, so Claude Code clones it, copies plugin/ (following its symlinks) into the
#      cache and runs the server from there; then a new commit with a version bump,
#      `claude plugin marketplace update cairn` + `claude plugin update cairn@cairn`, and an
#      uninstall + install, each checked the same way;
#   4. a logged-out `claude -p` session start with a one-memory store: Claude Code loads the
#      skill and the commands, runs the SessionStart hook, and the hook's line is the counts line
#      (read from --debug-file; the wording of that log is pinned with the CLI version).
# The plugin is staged from the files git would ship (tracked + untracked-not-ignored, symlinks
# kept as symlinks), so no node_modules and no local .cairn store: the server must start from the
# committed bundle alone, exactly as it does from a clone. HOME is a temp dir, so nothing of the caller's Claude Code
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
  mkdir -p "$plugin/$(dirname "$f")"
  # plugin/ links to the runtime parts of the repository: a link is staged as a link.
  if [ -L "$repo/$f" ]; then cp -P "$repo/$f" "$plugin/$f"; continue; fi
  # A tracked file deleted in the work tree is simply not shipped.
  [ -f "$repo/$f" ] || continue
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
  # The whole report, warnings included (the plugin-directory checks warn without failing).
  grep -v '^[[:space:]]*$' "$tmp/validate.log" | sed 's/^/    /'
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
# The installed copy: exactly the runtime tree, no node_modules, small, and valid on its own.
runtime_top='.claude-plugin README.md commands hooks package.json scripts server skills'
check_cache() {
  local label="$1" dir="$2" top size
  [ -d "$dir" ] || fail "$label: no installed plugin at $dir"
  [ -z "$(find "$dir" -name node_modules -print -quit)" ] || fail "$label: the installed plugin holds node_modules (Claude Code ran a dependency install)"
  [ -z "$(find "$dir" -type l -print -quit)" ] || fail "$label: the installed plugin holds symlinks (they must be copied as files)"
  # .in_use is Claude Code's own marker of a copy a running session uses (not shipped by us).
  top="$(cd "$dir" && ls -A | grep -vx '.in_use' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
  [ "$top" = "$runtime_top" ] || fail "$label: the installed plugin's top level is \"$top\", expected \"$runtime_top\""
  [ -x "$dir/server/dist/cairn.mjs" ] || fail "$label: the installed plugin lacks an executable server/dist/cairn.mjs"
  # Bytes of the program (everything but the embedding data: the static table, the model and
  # ONNX Runtime's wasm), bounded on its own, and of the whole installed copy.
  size="$(node -e '
    const fs = require("fs"), path = require("path");
    const DATA = new Set(["cairn-embed.bin", "cairn-model.bin", "cairn-ort.wasm.br"].map((f) => path.join("server", "dist", f)));
    let rest = 0, data = 0;
    const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) { if (e.name !== ".in_use") walk(p); } else { const n = fs.statSync(p).size; if (DATA.has(path.relative(process.argv[1], p))) data += n; else rest += n; } } };
    walk(process.argv[1]);
    console.log(rest, data);' "$dir")"
  set -- $size
  step "    $label: $(printf '%s' "$top" | wc -w | tr -d ' ') top-level entries, $1 bytes + embedding data $2 bytes, no node_modules"
  [ "$1" -le 3145728 ] || fail "$label: the installed plugin is $1 bytes besides the embedding data (limit 3 MB)"
  [ "$(( $1 + $2 ))" -le 47185920 ] || fail "$label: the installed plugin is $(( $1 + $2 )) bytes in all (limit 45 MB)"
  (cd "$work" && run_claude plugin validate "$dir" --strict) >"$tmp/validate-installed.log" 2>&1 ||
    { cat "$tmp/validate-installed.log" >&2; fail "$label: claude plugin validate <installed copy> --strict"; }
}
installed_path() {
  node -e '
    const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const e = (j.plugins?.["cairn@cairn"] ?? [])[0];
    if (!e) process.exit(1);
    console.log(e.installPath);' "$HOME/.claude/plugins/installed_plugins.json"
}

step "claude plugin marketplace add <plugin> && claude plugin install cairn@cairn"
(cd "$work" && run_claude plugin marketplace add "$plugin") >"$tmp/mkt.log" 2>&1 || { cat "$tmp/mkt.log" >&2; fail "marketplace add"; }
(cd "$work" && run_claude plugin install cairn@cairn) >"$tmp/inst.log" 2>&1 || { cat "$tmp/inst.log" >&2; fail "plugin install cairn@cairn"; }
step "claude mcp list (installed)"
out="$(cd "$work" && run_claude mcp list 2>&1)" || fail "mcp list (installed) exited non-zero: $out"
expect_connected "installed" "$out"
check_cache "installed from a folder" "$(installed_path)"
(cd "$work" && run_claude plugin uninstall cairn@cairn && run_claude plugin marketplace remove cairn) >"$tmp/rm.log" 2>&1 || { cat "$tmp/rm.log" >&2; fail "uninstall after the folder install"; }

# --- 3b. a git marketplace: the cache copy is what runs ---------------------------------------
step "claude plugin marketplace add <git url> && claude plugin install cairn@cairn"
git_id=(-c user.name=ci -c user.email=ci@cairn.invalid -c commit.gpgsign=false)
(cd "$plugin" && git init -q -b main && git add -A && git "${git_id[@]}" commit -qm staged) || fail "git init of the staged plugin"
git clone -q --bare "$plugin" "$tmp/srv/cairn.git" || fail "git clone --bare of the staged plugin"
git config --file "$HOME/.gitconfig" url."file://$tmp/srv/".insteadOf https://git.invalid/
(cd "$work" && run_claude plugin marketplace add https://git.invalid/cairn.git) >"$tmp/mkt-git.log" 2>&1 || { cat "$tmp/mkt-git.log" >&2; fail "marketplace add (git)"; }
(cd "$work" && run_claude plugin install cairn@cairn) >"$tmp/inst-git.log" 2>&1 || { cat "$tmp/inst-git.log" >&2; fail "plugin install cairn@cairn (git)"; }
expect_from_cache() {
  local label="$1" dir out
  dir="$(installed_path)" || fail "$label: cairn@cairn is not in installed_plugins.json"
  out="$(cd "$work" && run_claude mcp list 2>&1)" || fail "mcp list ($label) exited non-zero: $out"
  expect_connected "$label" "$out"
  echo "$out" | grep -F "plugin:cairn:cairn: " | grep -qF "$dir/server/dist/cairn.mjs" || fail "$label: the server does not run from the installed copy $dir"
  check_cache "$label" "$dir"
}
expect_from_cache "installed from git"

step "a new version: claude plugin marketplace update cairn && claude plugin update cairn@cairn"
bumped="$(node -e 'const [a, b, c] = process.argv[1].split("-")[0].split(".").map(Number); console.log(`${a}.${b}.${c + 1}`)' "$(node -p 'require(process.argv[1]).version' "$plugin/package.json")")"
for f in .claude-plugin/plugin.json .claude-plugin/marketplace.json plugin/.claude-plugin/plugin.json plugin/package.json package.json; do
  node -e '
    const fs = require("fs"), f = process.argv[1], v = process.argv[2], j = JSON.parse(fs.readFileSync(f, "utf8"));
    if (j.plugins) for (const p of j.plugins) p.version = v; else j.version = v;
    fs.writeFileSync(f, JSON.stringify(j, null, 2) + "\n");' "$plugin/$f" "$bumped"
done
(cd "$plugin" && git add -A && git "${git_id[@]}" commit -qm "version $bumped" && git push -q "$tmp/srv/cairn.git" main) || fail "pushing the version bump"
(cd "$work" && run_claude plugin marketplace update cairn) >"$tmp/mkt-update.log" 2>&1 || { cat "$tmp/mkt-update.log" >&2; fail "marketplace update cairn"; }
(cd "$work" && run_claude plugin update cairn@cairn) >"$tmp/update.log" 2>&1 || { cat "$tmp/update.log" >&2; fail "plugin update cairn@cairn"; }
grep -qF "$bumped" "$tmp/update.log" || { cat "$tmp/update.log" >&2; fail "plugin update did not move to $bumped"; }
case "$(installed_path)" in */"$bumped") ;; *) fail "after the update the installed path is $(installed_path), not the $bumped copy" ;; esac
expect_from_cache "updated to $bumped"

step "a reinstall: claude plugin uninstall cairn@cairn && claude plugin install cairn@cairn"
(cd "$work" && run_claude plugin uninstall cairn@cairn && run_claude plugin install cairn@cairn) >"$tmp/reinst.log" 2>&1 || { cat "$tmp/reinst.log" >&2; fail "uninstall + install"; }
expect_from_cache "reinstalled"
(cd "$work" && run_claude plugin uninstall cairn@cairn) >/dev/null 2>&1 || fail "final uninstall"

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
want_hook='Hook SessionStart:startup (SessionStart) success:\ncairn memory: 1 memory in view outside a git repo (repo-less and global scopes) (tools 1). Search them only when stored context could help.'
grep -F 'SessionStart' "$tmp/session.log" | grep -F 'cairn' | sed 's/^/    /' || true
grep -qF "$want_hook" "$tmp/session.log" || fail "the SessionStart hook did not print the expected counts line (see $tmp/session.log with KEEP_TMP=1)"
grep -qF 'Loaded 6 commands from plugin cairn' "$tmp/session.log" || fail "Claude Code did not load the 6 cairn commands"
grep -qF 'Loaded 1 skills from plugin cairn' "$tmp/session.log" || fail "Claude Code did not load the cairn memory skill"

step "OK: Claude Code $version validates the plugin, connects to its cairn server and runs its hook"
