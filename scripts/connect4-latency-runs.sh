#!/bin/bash
# The Connect Four latency figures of docs/performance.md ("Cold and warm through
# /v1/suggest"): scripts/connect4-latency.py against fresh `kinrow serve` processes with
# the book read at start. Cold: a fresh server per budget (50 ms: outcomes; 5000 ms:
# exact distances); warm: both budgets again on the 5000 ms server. Prints `uptime` beside
# each pass and writes OUT/{cold,warm}-{50,5000}.json.
#
#   bash scripts/connect4-latency-runs.sh BIN OUT [PER]   (PER positions per group, default 150)
set -euo pipefail
bin=$1 out=$2 per=${3:-150}
here=$(cd "$(dirname "$0")" && pwd)
file="$here/../crates/kinrow-engine/tests/engine/data/connect4_columns.txt"
mkdir -p "$out"
source "$here/server.sh"
pass() {
  uptime
  python3 "$here/connect4-latency.py" "$URL" "$file" --time-ms "$1" --per "$per" --json "$out/$2-$1.json"
}
start_server "$bin" "$out/server-50.log" KINROW_BOOKS=at-start
trap 'kill -TERM "$SERVER_PID" 2>/dev/null || true' EXIT
pass 50 cold
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_server "$bin" "$out/server-5000.log" KINROW_BOOKS=at-start
pass 5000 cold
pass 5000 warm
pass 50 warm
uptime
