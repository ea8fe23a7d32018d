#!/usr/bin/env bash
# Lose a replica under load, on loopback, without Docker.
#
# Starts N release kinrow processes on their own loopback ports and nginx (from
# Debian's packages) in front of them with passive health checks and retry on
# the next replica (deploy/nginx-proxy.conf, the same settings as compose).
# Drives nginx with a mix of POST /v1/suggest for DURATION seconds, kills one
# replica (SIGKILL by default) at KILL_AT, restarts it DOWN_FOR seconds later,
# and reports requests/s, p50/p99 latency and failed requests before, during
# and after the loss, from nginx's access log, plus the load generator's own
# totals (every request it sent and how each one ended).
#
# Usage: scripts/replicas.sh            (settings through the environment below)
#   REPLICAS=3 DURATION=30 KILL_AT=10 DOWN_FOR=5 THREADS=1
#   CONNECTIONS (default (REPLICAS-1) x KINROW_MAX_CONCURRENT_SEARCHES)
#   BASE_PORT=18080 (nginx; replicas on BASE_PORT+1..N) KILL_SIGNAL=KILL
#   KINROW_WORKERS=1 KINROW_MAX_CONCURRENT_SEARCHES=1 (per replica)
#   LOADGEN=wrk (default: scripts/suggest-mix.lua, valid suggest bodies only) or
#   LOADGEN=loadtest (LOADTEST=scripts/loadtest.sh --url nginx --duration DURATION
#   per phase; the kill lands in its phase 3, an intended overload)
#   SKIP_BUILD=1 (use the existing binary)  KINROW_BIN=path (default target/release/kinrow)
#
# Everything stays on 127.0.0.1, every load run is bounded by DURATION, and the
# script stops every process it started when it exits. Run artefacts (logs,
# nginx.conf, access log, summary.json) go to target/replicas/<time>/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

REPLICAS=${REPLICAS:-3}
DURATION=${DURATION:-30}
KILL_AT=${KILL_AT:-$((DURATION / 3))}
DOWN_FOR=${DOWN_FOR:-5}
THREADS=${THREADS:-1}
BASE_PORT=${BASE_PORT:-18080}
KILL_SIGNAL=${KILL_SIGNAL:-KILL}
VICTIM=${VICTIM:-2}
LOADGEN=${LOADGEN:-wrk}
LOADTEST=${LOADTEST:-$ROOT/scripts/loadtest.sh}
export KINROW_WORKERS=${KINROW_WORKERS:-1}
export KINROW_MAX_CONCURRENT_SEARCHES=${KINROW_MAX_CONCURRENT_SEARCHES:-1}
export RUST_LOG=${RUST_LOG:-warn}
# Default load: as many requests in flight as the replicas LEFT after the loss
# have search slots, i.e. what N-1 replicas can carry without queueing (a
# queued request spends its own time budget waiting). More than that is an
# overload test: expect 503 + Retry-After.
CONNECTIONS=${CONNECTIONS:-$(((REPLICAS - 1) * KINROW_MAX_CONCURRENT_SEARCHES))}

die() { echo "replicas.sh: $*" >&2; exit 1; }
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*"; }
now() { date +%s.%N; }

[ "$REPLICAS" -ge 2 ] || die "REPLICAS must be at least 2"
[ "$VICTIM" -ge 1 ] && [ "$VICTIM" -le "$REPLICAS" ] || die "VICTIM must be 1..REPLICAS"
[ $((KILL_AT + DOWN_FOR + 3)) -lt "$DURATION" ] ||
  die "KILL_AT + DOWN_FOR must leave a few seconds of DURATION for 'after'"

# --- tools: nginx and wrk from Debian's packages, installed when missing -----
need_pkgs=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_pkgs+=(nginx)
command -v wrk >/dev/null 2>&1 || need_pkgs+=(wrk)
command -v curl >/dev/null 2>&1 || need_pkgs+=(curl)
command -v python3 >/dev/null 2>&1 || need_pkgs+=(python3)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing ${need_pkgs[*]} from Debian's packages"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  # Keep the package's own nginx service from starting on :80 (this script
  # runs its own nginx): a policy-rc.d that refuses service starts, for the
  # duration of the install, unless the machine already has one.
  own_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    own_policy=1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${need_pkgs[@]}" >/dev/null
  [ -z "$own_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# --- build --------------------------------------------------------------------
if [ -z "${SKIP_BUILD:-}" ]; then
  log "cargo build --release --bin kinrow"
  cargo build --release --quiet --bin kinrow
fi
KINROW=${KINROW_BIN:-$ROOT/target/release/kinrow}
[ -x "$KINROW" ] || die "$KINROW missing (build it or unset SKIP_BUILD)"

RUN="$ROOT/target/replicas/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN/nginx-tmp"
log "run directory: $RUN"

# --- ports --------------------------------------------------------------------
NGINX_PORT=$BASE_PORT
ports=()
for i in $(seq 1 "$REPLICAS"); do ports+=($((BASE_PORT + i))); done
for p in "$NGINX_PORT" "${ports[@]}"; do
  if ss -Hltn "sport = :$p" | grep -q .; then die "port $p is in use (set BASE_PORT)"; fi
done

# --- process bookkeeping: stop everything we started, whatever happens --------
declare -A replica_pid=()
NGINX_PID=""
LOAD_PID=""
cleanup() {
  set +e
  [ -z "$LOAD_PID" ] || kill "$LOAD_PID" 2>/dev/null
  [ -z "$NGINX_PID" ] || kill -QUIT "$NGINX_PID" 2>/dev/null
  for i in "${!replica_pid[@]}"; do kill -TERM "${replica_pid[$i]}" 2>/dev/null; done
  for pid in "${replica_pid[@]}" $NGINX_PID $LOAD_PID; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_healthy() { # URL TIMEOUT_S
  local deadline=$(($(date +%s) + $2))
  until curl -fs -o /dev/null --max-time 1 "$1/healthz"; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.05
  done
}

start_replica() { # INDEX
  local i=$1 port=${ports[$(($1 - 1))]}
  KINROW_ADDR="127.0.0.1:$port" "$KINROW" serve >>"$RUN/replica-$i.log" 2>&1 &
  replica_pid[$i]=$!
}

# --- replicas -----------------------------------------------------------------
for i in $(seq 1 "$REPLICAS"); do start_replica "$i"; done
for i in $(seq 1 "$REPLICAS"); do
  wait_healthy "http://127.0.0.1:${ports[$((i - 1))]}" 20 ||
    die "replica $i did not become healthy (see $RUN/replica-$i.log)"
done
log "$REPLICAS replicas up on ports ${ports[*]} (workers=$KINROW_WORKERS, searches=$KINROW_MAX_CONCURRENT_SEARCHES each)"

# --- nginx --------------------------------------------------------------------
{
  [ "$(id -u)" -ne 0 ] || echo "user $(id -un) $(id -gn);"
  cat <<EOF
worker_processes 1;
pid $RUN/nginx.pid;
error_log $RUN/nginx-error.log warn;
events { worker_connections 1024; }
http {
    log_format kinrow '\$msec \$status \$request_time "\$upstream_addr" '
                      '"\$upstream_status" "\$upstream_response_time" \$request_method \$uri';
    access_log $RUN/access.log kinrow buffer=64k flush=1s;
    client_body_temp_path $RUN/nginx-tmp/body;
    proxy_temp_path $RUN/nginx-tmp/proxy;
    fastcgi_temp_path $RUN/nginx-tmp/fastcgi;
    uwsgi_temp_path $RUN/nginx-tmp/uwsgi;
    scgi_temp_path $RUN/nginx-tmp/scgi;
    upstream kinrow {
        least_conn;
EOF
  for p in "${ports[@]}"; do
    echo "        server 127.0.0.1:$p max_fails=3 fail_timeout=2s;"
  done
  cat <<EOF
        keepalive 32;
    }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            include $ROOT/deploy/nginx-proxy.conf;
            proxy_pass http://kinrow;
        }
        # As in deploy/nginx.conf: the API's 503 + Retry-After when no replica could answer.
        error_page 502 504 = @unavailable;
        location @unavailable {
            default_type application/json;
            add_header Retry-After 1 always;
            return 503 '{"error":{"code":"overloaded","message":"no kinrow replica could answer; retry later"}}\n';
        }
    }
}
EOF
} >"$RUN/nginx.conf"
"$NGINX" -t -q -p "$RUN" -e "$RUN/nginx-error.log" -c "$RUN/nginx.conf"
"$NGINX" -p "$RUN" -e "$RUN/nginx-error.log" -c "$RUN/nginx.conf" -g 'daemon off;' &
NGINX_PID=$!
TARGET="http://127.0.0.1:$NGINX_PORT"
wait_healthy "$TARGET" 10 || die "nginx did not come up (see $RUN/nginx-error.log)"
log "nginx $("$NGINX" -v 2>&1 | sed 's/.*version: //') on $TARGET"

# --- the request mix ----------------------------------------------------------
curl -fsS "$TARGET/v1/engines" >"$RUN/engines.json"
python3 - "$RUN/engines.json" >"$RUN/bodies.jsonl" <<'PY'
import json
import sys

def names(v):
    if isinstance(v, dict):
        if isinstance(v.get("name"), str):
            yield v["name"]
        for x in v.values():
            yield from names(x)
    elif isinstance(v, list):
        for x in v:
            yield from names(x)

have = set(names(json.load(open(sys.argv[1]))))
e15 = ["." * 15 for _ in range(15)]
def put(board, cells):
    rows = [list(r) for r in board]
    for (r, c), ch in cells.items():
        rows[r][c] = ch
    return ["".join(r) for r in rows]
g1 = put(e15, {(7, 7): "x", (7, 8): "o", (8, 8): "x", (6, 6): "o"})
g2 = put(e15, {(7, 7): "x", (6, 7): "o", (8, 7): "x", (6, 8): "o", (9, 7): "x", (5, 9): "o"})
r3 = {"m": 3, "n": 3, "k": 3}
r15 = {"m": 15, "n": 15, "k": 5}
mix = [
    ("perfect", {"rules": r3, "board": ["x..", ".o.", "..."], "engine": {"name": "perfect"}}),
    ("perfect", {"rules": r3, "board": ["...", "...", "..."], "engine": {"name": "perfect"}}),
    ("threat", {"rules": r15, "board": g1, "engine": {"name": "threat"}}),
    ("threat", {"rules": r15, "board": g2, "engine": {"name": "threat"}}),
    ("minimax", {"rules": r15, "board": g1, "engine": {"name": "minimax", "time_ms": 50}}),
    ("minimax", {"rules": r15, "board": g2, "engine": {"name": "minimax", "time_ms": 50}}),
]
kept = [(n, b) for n, b in mix if n in have]
if not kept:  # no engine of the mix is registered yet: let `auto` pick
    kept = [("auto", {**b, "engine": {**b["engine"], "name": "auto"}}) for _, b in mix]
for n, b in kept:
    print(json.dumps(b, separators=(",", ":")))
print("engines in the mix: " + ", ".join(sorted({n for n, _ in kept})), file=sys.stderr)
PY
# Each body must be answered 200 before the run: a mix that fails on its own
# would hide the failures this script is looking for.
while IFS= read -r body; do
  code=$(curl -sS -o "$RUN/probe.json" -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary "$body" --max-time 10 "$TARGET/v1/suggest")
  [ "$code" = 200 ] || die "probe request answered $code: $(head -c 300 "$RUN/probe.json")"
done <"$RUN/bodies.jsonl"

# --- the run ------------------------------------------------------------------
sleep 1.2 # let nginx flush the probes, then mark where the run's log starts
log_offset=$(stat -c %s "$RUN/access.log" 2>/dev/null || echo 0)
T0=$(now)
case "$LOADGEN" in
  wrk)
    log "load: wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, mix of $(wc -l <"$RUN/bodies.jsonl") suggest bodies"
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency \
      -s "$ROOT/scripts/suggest-mix.lua" "$TARGET" -- "$RUN/bodies.jsonl" >"$RUN/load.out" 2>&1 &
    ;;
  loadtest)
    # The project's load script, pointed at nginx. Its phases 1 and 2 (healthz,
    # perfect alone) run first; the replica is lost during phase 3, the mix.
    # That mix is an overload test by design (2 minimax connections per core
    # plus 12 more), so its 503s (with Retry-After) and 4xx are intended.
    [ -f "$LOADTEST" ] || die "$LOADTEST not found"
    log "load: $LOADTEST --url $TARGET --duration $DURATION --connections $CONNECTIONS"
    bash "$LOADTEST" --url "$TARGET" --duration "$DURATION" --connections "$CONNECTIONS" \
      >"$RUN/load.out" 2>&1 &
    ;;
  *) die "LOADGEN must be wrk or loadtest" ;;
esac
LOAD_PID=$!
if [ "$LOADGEN" = loadtest ]; then
  until grep -q "== phase 3" "$RUN/load.out" 2>/dev/null; do
    kill -0 "$LOAD_PID" 2>/dev/null || die "the load script ended before its phase 3: $(tail -5 "$RUN/load.out")"
    sleep 0.1
  done
  T0=$(now)
fi

sleep "$KILL_AT"
victim_pid=${replica_pid[$VICTIM]}
T_KILL=$(now)
kill -"$KILL_SIGNAL" "$victim_pid"
wait "$victim_pid" 2>/dev/null || true
log "killed replica $VICTIM (pid $victim_pid, port ${ports[$((VICTIM - 1))]}) with SIG$KILL_SIGNAL"
sleep "$DOWN_FOR"
T_RESTART=$(now)
start_replica "$VICTIM"
wait_healthy "http://127.0.0.1:${ports[$((VICTIM - 1))]}" 20 || die "restarted replica did not become healthy"
T_READY=$(now)
log "restarted replica $VICTIM (pid ${replica_pid[$VICTIM]}), healthy after $(python3 -c "print(f'{$T_READY-$T_RESTART:.2f}')") s"

load_rc=0
wait "$LOAD_PID" || load_rc=$?
LOAD_PID=""
T_END=$(now)
# Peak resident memory of each replica (the restarted one only since its restart).
rss=""
for i in $(seq 1 "$REPLICAS"); do
  hwm=$(awk '/^VmHWM/ {print $2}' "/proc/${replica_pid[$i]}/status" 2>/dev/null || echo "?")
  rss+="replica $i ${hwm} kB; "
done
log "peak RSS: ${rss%; }"
sleep 1.5 # access log flush
log "load finished (exit $load_rc)"
cat "$RUN/load.out"

# --- report -------------------------------------------------------------------
tail -c +"$((log_offset + 1))" "$RUN/access.log" >"$RUN/access-run.log"
python3 - "$RUN" "$T0" "$T_KILL" "$T_RESTART" "$T_READY" "$T_END" \
  "127.0.0.1:${ports[$((VICTIM - 1))]}" "$REPLICAS" "$load_rc" <<'PY'
import json
import re
import statistics
import sys

run, t0, t_kill, t_restart, t_ready, t_end = sys.argv[1], *map(float, sys.argv[2:7])
victim, replicas, load_rc = sys.argv[7], int(sys.argv[8]), int(sys.argv[9])

line_re = re.compile(r'^(\S+) (\d+) (\S+) "([^"]*)" "([^"]*)" "([^"]*)" (\S+) (\S+)$')
reqs = []
for line in open(f"{run}/access-run.log"):
    m = line_re.match(line.strip())
    if not m or m.group(8) != "/v1/suggest":
        continue
    t_done = float(m.group(1))
    reqs.append({
        "done": t_done,
        "status": int(m.group(2)),
        "rt": float(m.group(3)),
        "upstreams": [u.strip() for u in m.group(4).split(",")],
        "upstream_statuses": [s.strip() for s in m.group(5).split(",")],
    })

def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * len(xs) + 0.5)) - 1))]

phases = [("before", t0, t_kill), ("during", t_kill, t_ready), ("after", t_ready, t_end)]
report = {"phases": {}}
for name, a, b in phases:
    rs = [r for r in reqs if a <= r["done"] < b]
    secs = max(b - a, 1e-9)
    rts = [r["rt"] * 1000 for r in rs]
    report["phases"][name] = {
        "seconds": round(secs, 2),
        "requests": len(rs),
        "rps": round(len(rs) / secs, 1),
        "p50_ms": pct(rts, 50),
        "p99_ms": pct(rts, 99),
        "failed_5xx": sum(r["status"] >= 500 for r in rs),
        # 499: nginx's "client closed the request", i.e. the load generator
        # stopping at the end of its run with requests in flight; not a failure.
        "non_200": sum(r["status"] not in (200, 499) for r in rs),
        "cut_at_end_499": sum(r["status"] == 499 for r in rs),
        "retried": sum(len(r["upstreams"]) > 1 for r in rs),
        "served_by_victim": sum(r["upstreams"][-1] == victim and r["status"] == 200 for r in rs),
    }

# Per-second throughput: baseline = median of the whole seconds before the kill
# (the first second left out as warm-up); recovery = the first second after
# the restarted replica is healthy in which the restarted replica answers and
# throughput is back to 90% of the baseline.
def rate(a):
    return sum(a <= r["done"] < a + 1 for r in reqs)
base_secs = [rate(t0 + s) for s in range(1, int(t_kill - t0))]
baseline = statistics.median(base_secs) if base_secs else 0
recovered = None
s = 0.0
while t_ready + s + 1 <= t_end:
    a = t_ready + s
    served = any(a <= r["done"] < a + 1 and r["upstreams"][-1] == victim for r in reqs)
    if served and rate(a) >= 0.9 * baseline:
        recovered = round(s + 1, 1)  # the end of that one-second window
        break
    s += 0.5
first_victim = min((r["done"] for r in reqs if r["done"] >= t_ready and r["upstreams"][-1] == victim
                    and r["status"] == 200), default=None)
report["baseline_rps_median"] = baseline
report["restart_to_healthy_s"] = round(t_ready - t_restart, 2)
report["healthy_to_first_answer_s"] = None if first_victim is None else round(first_victim - t_ready, 2)
report["recovered_within_s_of_healthy"] = recovered

wrk = None
try:
    for line in open(f"{run}/load.out"):
        if line.startswith("wrk-summary "):
            wrk = json.loads(line[len("wrk-summary "):])
except FileNotFoundError:
    pass
report["load_generator"] = wrk
report["load_exit"] = load_rc
json.dump(report, open(f"{run}/summary.json", "w"), indent=2)

print()
print(f"kinrow replica loss: {replicas} replicas, victim {victim} killed at "
      f"+{t_kill - t0:.1f} s, restarted at +{t_restart - t0:.1f} s, healthy at +{t_ready - t0:.1f} s, "
      f"run {t_end - t0:.1f} s")
print(f"{'phase':<8}{'secs':>7}{'requests':>10}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}"
      f"{'5xx':>6}{'non-200':>9}{'retried':>9}{'by victim':>11}")
for name, _, _ in phases:
    p = report["phases"][name]
    f = lambda v: "-" if v is None else f"{v:.0f}"
    print(f"{name:<8}{p['seconds']:>7.1f}{p['requests']:>10}{p['rps']:>8.1f}{f(p['p50_ms']):>8}"
          f"{f(p['p99_ms']):>8}{p['failed_5xx']:>6}{p['non_200']:>9}{p['retried']:>9}"
          f"{p['served_by_victim']:>11}")
print(f"baseline {baseline} req/s (median per second before the kill); restarted replica healthy "
      f"{report['restart_to_healthy_s']} s after start, first answer "
      f"{report['healthy_to_first_answer_s']} s after healthy; throughput >= 90% of baseline "
      f"with the victim serving: "
      + (f"within {recovered} s of healthy" if recovered is not None else "NOT within the run"))
lost = None
if wrk:
    errs = wrk["connect_errors"] + wrk["read_errors"] + wrk["write_errors"] + wrk["timeouts"]
    bad = sum(v for k, v in wrk["statuses"].items() if k != "200")
    lost = errs + bad
    print(f"load generator: {wrk['requests']} requests completed, socket errors {errs} "
          f"(connect {wrk['connect_errors']}, read {wrk['read_errors']}, write {wrk['write_errors']}, "
          f"timeout {wrk['timeouts']}), statuses {wrk['statuses']}, p99 {wrk['p99_ms']:.1f} ms")
    print("verdict: " + ("no request lost" if lost == 0 else f"{lost} requests failed"))
else:
    print("load generator: see the load script's own lines above (socket-errors per kind)")
print(f"details: {run}/summary.json")
PY
