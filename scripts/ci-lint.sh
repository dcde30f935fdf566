#!/usr/bin/env bash
# Lint and format check: eslint with typescript-eslint's type-aware rules (unused variables,
# imports and parameters; floating and misused promises) and @stylistic's checks of the style
# the code is written in (quotes, semicolons, indent, trailing blanks, final newline, LF).
# eslint, typescript-eslint and @stylistic are pinned devDependencies (installed by `npm ci`).
# Runs from the repository root after `npm ci`; exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x node_modules/.bin/eslint ] || npm ci --no-audit --no-fund
node_modules/.bin/eslint --max-warnings 0 .
echo "lint: clean"
