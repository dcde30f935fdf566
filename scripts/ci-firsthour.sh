#!/usr/bin/env bash
# The README's first command as a new user meets it: a fresh `git clone` of this repository, an
# empty HOME, no git identity anywhere (no ~/.gitconfig, no system config, no GIT_AUTHOR_*,
# GIT_COMMITTER_* or EMAIL), then `npm ci` and `npm run demo`. Passes when the demo exits 0 and
# leaves no cairn-demo-* folder in the temp directory. The clone is removed at the end.
# Run from the repository root after `npm ci`. Needs node, npm and git; the npm registry is
# reached once by `npm ci` in the clone. KEEP_TMP=1 keeps the temp dir for debugging.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fail() { echo "ci-firsthour: FAIL: $*" >&2; exit 1; }
step() { echo "ci-firsthour: $*"; }

command -v git >/dev/null || fail "git is needed"
work="$(mktemp -d "${TMPDIR:-/tmp}/cairn-ci-firsthour.XXXXXX")"
cleanup() { if [ "${KEEP_TMP:-}" = 1 ]; then echo "ci-firsthour: kept $work" >&2; else rm -rf "$work"; fi; }
trap cleanup EXIT

home="$work/home"
tmp="$work/tmp"
clone="$work/clone"
mkdir -p "$home" "$tmp"

# The clone is of the committed state (HEAD), as a user would get it.
step "git clone $repo"
git clone -q --no-hardlinks "$repo" "$clone"

# A new user's environment: nothing of the caller's identity, config, npm cache or cairn store.
run_as_new_user() {
  env -u EMAIL -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL -u GIT_AUTHOR_DATE \
      -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_COMMITTER_DATE \
      -u CAIRN_DIR -u CLAUDE_PROJECT_DIR -u XDG_CONFIG_HOME \
      HOME="$home" TMPDIR="$tmp" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
      npm_config_cache="$work/npm-cache" "$@"
}
if (cd "$clone" && run_as_new_user git var GIT_COMMITTER_IDENT >/dev/null 2>&1); then
  fail "git still finds an identity in the new-user environment; the check would prove nothing"
fi

step "npm ci (clean HOME)"
(cd "$clone" && run_as_new_user npm ci --no-audit --no-fund >/dev/null)

step "npm run demo (clean HOME, no git identity)"
set +e
(cd "$clone" && run_as_new_user npm run demo) >"$work/demo.log" 2>&1
code=$?
set -e
if [ "$code" -ne 0 ]; then
  tail -40 "$work/demo.log" >&2
  fail "npm run demo exited $code"
fi
grep -q '> memory_scope_overview' "$work/demo.log" || { tail -40 "$work/demo.log" >&2; fail "the demo did not reach its last step"; }

left="$(find "$tmp" -maxdepth 1 -name 'cairn-demo-*' -print)"
[ -z "$left" ] || fail "the demo left folders behind in TMPDIR: $left"

step "ok: the demo exits 0 from a fresh clone with no git identity and leaves nothing in TMPDIR"
