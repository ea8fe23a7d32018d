#!/usr/bin/env bash
# Schemathesis against the live server: every endpoint of /openapi.json, generated and
# mutated inputs, all checks. Fails on any 5xx or any answer that does not match the schema.
# Then the examples phase alone without the 422 exemption (scripts/schemathesis-examples.toml):
# fails when a request built from the schema's own examples is refused.
#
#   bash scripts/schemathesis.sh              # builds and starts a release server on a free port
#                                             # (KINROW_BIN=path: use that binary instead)
#   bash scripts/schemathesis.sh --url URL    # tests a server that already runs
#
# Installs schemathesis (and openapi-spec-validator) into the repository's .venv.
# SCHEMATHESIS_MAX_EXAMPLES (default 60) bounds the examples per operation and phase.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server.sh

URL=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --url) URL="$2"; shift 2 ;;
    *) echo "usage: $0 [--url http://host:port]" >&2; exit 2 ;;
  esac
done

VENV=.venv
if [[ ! -x "$VENV/bin/schemathesis" ]]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check \
    "schemathesis>=4,<5" "openapi-spec-validator>=0.7"
fi

echo "--- the committed document is valid OpenAPI"
"$VENV/bin/python" - <<'PY'
import json
from openapi_spec_validator import validate
validate(json.load(open("openapi/openapi.json")))
print("openapi/openapi.json: valid")
PY

SERVER_PID=""
LOG=""
cleanup() {
  if [[ -n "$SERVER_PID" ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  [[ -n "$LOG" ]] && rm -f "$LOG"
}
trap cleanup EXIT

if [[ -z "$URL" ]]; then
  # KINROW_BIN: a kinrow binary already built (CI passes the one `cargo test` built);
  # otherwise a release build.
  if [[ -z "${KINROW_BIN:-}" ]]; then
    cargo build --release --quiet
    KINROW_BIN=./target/release/kinrow
  fi
  LOG=$(mktemp)
  # Short budgets keep the run fast; the time cap is part of the contract.
  start_server "$KINROW_BIN" "$LOG" KINROW_MAX_TIME_MS=200 KINROW_DEFAULT_TIME_MS=50
fi

echo "--- schemathesis against $URL"
"$VENV/bin/schemathesis" --config-file scripts/schemathesis.toml run "$URL/openapi.json" \
  --url "$URL" \
  --checks all \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-60}" \
  --request-timeout 5 \
  --seed 1 \
  --no-color

echo "--- the schema's own examples, without the 422 exemption: each must be accepted"
"$VENV/bin/schemathesis" --config-file scripts/schemathesis-examples.toml run "$URL/openapi.json" \
  --url "$URL" \
  --checks all \
  --phases examples \
  --request-timeout 5 \
  --seed 1 \
  --no-color
