#!/usr/bin/env bash
# The npm package as a user of any MCP client meets it: `npm pack`, the tarball's size and
# contents, a global install into a clean prefix and HOME, `cairn --version`, `cairn init
# --client <each> --print-only`, an MCP exchange with the installed binary, and `npx -y <tarball>`
# started the way a client config starts it. Needs a built server/dist (npm run build) and the
# devDependencies (the SDK client drives the exchange). Nothing is published.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_BYTES=$((20 * 1024 * 1024))
fail() { echo "ci-package: FAIL: $*" >&2; exit 1; }
step() { echo "ci-package: $*"; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/cairn-ci-package.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/prefix" "$tmp/npm-cache"
# A clean user: no npmrc, no git identity, no cairn store of the caller's.
export HOME="$tmp/home" npm_config_cache="$tmp/npm-cache" npm_config_userconfig="$tmp/home/.npmrc" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

name="$(node -p "require('./package.json').name")"
version="$(node -p "require('./package.json').version")"
tarball="$(npm pack --silent --pack-destination "$tmp" | tail -n 1)"
[ -f "$tmp/$tarball" ] || fail "npm pack wrote no tarball"
bytes="$(stat -c %s "$tmp/$tarball")"
step "packed $tarball: $bytes bytes ($(( bytes / 1024 )) KiB)"
[ "$bytes" -le "$MAX_BYTES" ] || fail "$tarball is $bytes bytes, over the $MAX_BYTES limit"
listing="$(tar -tzf "$tmp/$tarball")"
if grep -Eq '^package/(server/src|server/test|bench|scripts|node_modules)/' <<<"$listing"; then
  fail "the tarball carries files that do not run: $(grep -E '^package/(server/src|server/test|bench|scripts|node_modules)/' <<<"$listing" | head -5 | tr '\n' ' ')"
fi
grep -qx 'package/server/dist/cairn.mjs' <<<"$listing" || fail "the tarball lacks server/dist/cairn.mjs"
deps="$(node -p "Object.keys(require('./package.json').dependencies ?? {}).join(' ')")"
[ -z "$deps" ] || fail "runtime dependencies would make npx fetch more than one package: $deps"

step "global install into a clean prefix"
npm install -g --prefix "$tmp/prefix" "$tmp/$tarball" >/dev/null
cairn="$tmp/prefix/bin/cairn"
[ -x "$cairn" ] || fail "the install made no cairn binary"
got="$("$cairn" --version)"
[ "$got" = "$version" ] || fail "cairn --version printed '$got', expected $version"
step "cairn --version: $got"

clients="$("$cairn" init --help | sed -n 's/.*--client \([a-z|-]*\)\].*/\1/p' | head -n 1 | tr '|' ' ')"
[ -n "$clients" ] || fail "could not read the client list from cairn init --help"
for c in $clients; do
  out="$(CAIRN_DIR="$tmp/store-init" "$cairn" init --client "$c" --print-only 2>&1)" || fail "cairn init --client $c --print-only: $out"
  grep -q 'cairn' <<<"$out" || fail "cairn init --client $c --print-only printed no cairn entry: $out"
done
[ ! -e "$tmp/store-init" ] || [ -z "$(ls -A "$tmp/store-init")" ] || true
step "cairn init --print-only for: $clients"

step "MCP over stdio with the installed binary"
CAIRN_DIR="$tmp/store-global" node scripts/package-smoke.mjs "$cairn"
step "MCP over stdio through npx -y, as a client config starts it"
CAIRN_DIR="$tmp/store-npx" node scripts/package-smoke.mjs npx -y --package "$tmp/$tarball" cairn
step "ok: $name@$version"
