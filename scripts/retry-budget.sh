#!/usr/bin/env bash
# Checks deploy/nginx-proxy.conf's end-to-end budget: nginx in front of two upstreams,
# one that takes a request, works 500 ms and dies (a reset), and a real kinrow. A request
# with an 800 ms budget that first lands on the dying one is retried on kinrow, which
# searches only for what is left (about 300 ms): the answer comes about 800 ms after the
# request, not 1300. A 400 ms budget is spent by then: kinrow answers 503 at once.
#
#   bash scripts/retry-budget.sh            # needs nginx and python3; builds a release kinrow
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || { echo "retry-budget.sh needs nginx (apt-get install nginx)" >&2; exit 2; }
cargo build --release --quiet
WORK=$(mktemp -d)
pids=()
cleanup() {
  nginx -c "$WORK/nginx.conf" -s stop 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
DYING=$(free_port); KINROW=$(free_port); PROXY=$(free_port)
cat >"$WORK/dying.py" <<PY
import socket, struct, time, threading
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", $DYING)); s.listen(16)
def handle(c):
    c.recv(65536); time.sleep(0.5)
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); c.close()
while True:
    c, _ = s.accept(); threading.Thread(target=handle, args=(c,), daemon=True).start()
PY
python3 "$WORK/dying.py" & pids+=($!)
KINROW_ADDR=127.0.0.1:$KINROW RUST_LOG=warn target/release/kinrow serve & pids+=($!)
cat >"$WORK/nginx.conf" <<NGX
worker_processes 1; pid $WORK/nginx.pid; error_log $WORK/error.log warn;
events { worker_connections 64; }
http {
  access_log off; client_body_temp_path $WORK/cb; proxy_temp_path $WORK/p;
  fastcgi_temp_path $WORK/f; uwsgi_temp_path $WORK/u; scgi_temp_path $WORK/s;
  # The dying replica first: every request tries it before kinrow.
  upstream kinrow { server 127.0.0.1:$DYING max_fails=0; server 127.0.0.1:$KINROW backup; }
  server { listen $PROXY; location / { include $PWD/deploy/nginx-proxy.conf; proxy_pass http://kinrow; } }
}
NGX
sleep 1
nginx -c "$WORK/nginx.conf"
sleep 0.3
B='["...............","...............","...............","...............","...............","......o........","......xx.......",".......xo......","........o......","...............","...............","...............","...............","...............","..............."]'
fail=0
for budget in 800 400; do
  out=$(curl -s -w ' %{http_code} %{time_total}' "localhost:$PROXY/v1/suggest" -H 'Content-Type: application/json' \
    -d '{"rules":{"m":15,"n":15,"k":5},"board":'"$B"',"engine":{"name":"minimax","time_ms":'"$budget"'}}')
  read -r status secs <<<"$(awk '{print $(NF-1), $NF}' <<<"$out")"
  used=$(grep -o '"time_ms":[0-9]*' <<<"$out" || echo "-")
  echo "budget $budget ms: status $status after ${secs}s, engine $used"
  want=200; [[ $budget == 400 ]] && want=503
  awk -v s="$secs" -v b="$budget" 'BEGIN { exit !(s * 1000 < b + 150) }' || { echo "  late: past budget + 150 ms"; fail=1; }
  [[ $status == "$want" ]] || { echo "  expected $want"; fail=1; }
done
exit $fail
