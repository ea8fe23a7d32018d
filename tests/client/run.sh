#!/usr/bin/env bash
# Generated clients compile: openapi-typescript (a standard generator, from npm through
# this folder's package-lock.json) turns openapi/openapi.json into TypeScript types, and
# tsc type-checks turn.ts, a frontend's one-call-per-turn loop, against them.
#
#   bash tests/client/run.sh
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/openapi-typescript ] || [ ! -x node_modules/.bin/tsc ]; then
  echo "client check: installing openapi-typescript and typescript (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p gen
node_modules/.bin/openapi-typescript ../../openapi/openapi.json -o gen/kinrow.ts
node_modules/.bin/tsc -p tsconfig.json
echo "client check: the generated TypeScript client type-checks"
