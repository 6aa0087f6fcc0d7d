#!/usr/bin/env bash
# `npm run lint`: ESLint (rules and layer boundaries) and Prettier's format check, side by side on the two cores (one
# after the other took 35-45 s here). ESLint's report is held until Prettier is done, so the two do not interleave;
# the run fails if either fails.
set -uo pipefail
cd "$(dirname "$0")/.."
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
npx eslint . >"$report" 2>&1 &
eslint_pid=$!
npx prettier --check .
prettier_status=$?
wait "$eslint_pid"
eslint_status=$?
cat "$report"
[ "$eslint_status" -eq 0 ] && [ "$prettier_status" -eq 0 ]
