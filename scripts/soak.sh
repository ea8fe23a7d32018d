#!/usr/bin/env bash
# Soak test of kinrow's memory: starts a release server, drives it with a mixed load
# (wrk: 3x3 perfect, 15x15 threat, 15x15 minimax at 50 ms, 7x7 priority with special
# pieces, /v1/state, /v1/play, invalid bodies, /healthz, a few 60 KB bodies) for the
# whole run, samples the server's RSS every interval, and prints the curve and the RSS
# growth over the second half of the run (the target: under 5%).
#
#   bash scripts/soak.sh                         # 600 s, a sample every 10 s
#   bash scripts/soak.sh --duration 120 --interval 5 --connections 8
#
# Options: --duration SECS (default 600), --interval SECS (default 10),
#          --connections N (default 8), --bin PATH (default: target/release/kinrow, built).
# Exit status 1 when the growth over the second half is 5% or more.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server.sh

DURATION=600
INTERVAL=10
CONNECTIONS=8
BIN=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) DURATION="$2"; shift 2 ;;
    --interval) INTERVAL="$2"; shift 2 ;;
    --connections) CONNECTIONS="$2"; shift 2 ;;
    --bin) BIN="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

command -v wrk >/dev/null || { echo "soak.sh needs wrk (apt-get install wrk)" >&2; exit 2; }
if [[ -z "$BIN" ]]; then
  cargo build --release --quiet
  BIN=target/release/kinrow
fi

WORK=$(mktemp -d)
SERVER_PID=""
WRK_PID=""
cleanup() {
  [[ -n "$WRK_PID" ]] && kill "$WRK_PID" 2>/dev/null || true
  if [[ -n "$SERVER_PID" ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

start_server "$BIN" "$WORK/server.log"

B15='["...............","...............","...............","...............","...............","......o........","......xx.......",".......xo......","........o......","...............","...............","...............","...............","...............","..............."]'
PAD=$(head -c 60000 /dev/zero | tr '\0' ' ')
{
  echo 'local reqs = {}'
  add() { printf 'table.insert(reqs, {%s, %s, [==[%s]==]})\n' "$1" "$2" "$3"; }
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"engine":{"name":"perfect"}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":3,"n":3,"k":3},"engine":{"name":"perfect","seed":1}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":15,"n":15,"k":5},"board":'"$B15"',"engine":{"name":"threat"}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":15,"n":15,"k":5},"board":'"$B15"',"engine":{"name":"minimax","time_ms":50}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":7,"n":7,"k":4,"pieces":{"x":{"block":1,"remove":1},"o":{"bomb":1}}},"board":[".......",".......","..ooo..","...x...","...x...",".......","......."],"to_move":"x","engine":{"name":"priority"}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":9,"n":9,"k":5},"engine":{"name":"auto","time_ms":30}}'
  add '"POST"' '"/v1/state"' '{"rules":{"m":15,"n":15,"k":5},"board":'"$B15"'}'
  add '"POST"' '"/v1/play"' '{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"move":{"row":2,"col":2}}'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o."'
  add '"POST"' '"/v1/suggest"' '{"rules":{"m":3,"n":3,"k":0}}'
  add '"POST"' '"/v1/state"' '{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"pad":"'"$PAD"'"}'
  add '"GET"' '"/healthz"' ''
  add '"GET"' '"/v1/engines"' ''
  cat <<'LUA'
local i = 0
function request()
  i = i + 1
  local r = reqs[(i % #reqs) + 1]
  local headers = {}
  local body = nil
  if r[1] == "POST" then
    headers["Content-Type"] = "application/json"
    body = r[3]
  end
  return wrk.format(r[1], r[2], headers, body)
end
function done(summary, latency, requests)
  io.write(string.format("wrk: %d requests in %.0f s, %d non-2xx/3xx (the invalid kinds and any 503), %d socket errors\n",
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA
} >"$WORK/mix.lua"

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER_PID/status"; }
echo "kinrow soak: $URL, $DURATION s, $CONNECTIONS connections, a sample every $INTERVAL s, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "t_s rss_kb"
echo "0 $(rss_kb)" | tee "$WORK/rss"
wrk -t 2 -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s -s "$WORK/mix.lua" "$URL" >"$WORK/wrk.out" 2>&1 &
WRK_PID=$!
START=$(date +%s)
while kill -0 "$WRK_PID" 2>/dev/null; do
  sleep "$INTERVAL"
  t=$(($(date +%s) - START))
  kill -0 "$WRK_PID" 2>/dev/null || break
  echo "$t $(rss_kb)" | tee -a "$WORK/rss"
done
wait "$WRK_PID" || true
WRK_PID=""
grep -E "^wrk:|Requests/sec" "$WORK/wrk.out" || cat "$WORK/wrk.out"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
# Growth over the second half: the last sample against the first one at or after half time.
awk -v half=$((DURATION / 2)) '
  NR > 1 && $1 >= half && mid == "" { mid = $2; mid_t = $1 }
  { last = $2; last_t = $1; if (max == "" || $2 > max) max = $2 }
  END {
    g = 100 * (last - mid) / mid
    printf "RSS: %d kB at %d s, %d kB at %d s (end), peak %d kB: growth over the second half %.1f%%\n", mid, mid_t, last, last_t, max, g
    exit (g < 5 ? 0 : 1)
  }' "$WORK/rss"
