# Sourced (not run) by the scripts that start a kinrow of their own (loadtest.sh, soak.sh,
# schemathesis.sh): `start_server BIN LOG [VAR=VALUE ...]` starts `BIN serve` on a free
# loopback port with those extra environment variables, its log in LOG, and sets
# SERVER_PID and URL; it exits the script when the server has not said where it listens
# within 10 s. Stopping it (kill -TERM "$SERVER_PID") is the caller's cleanup.
start_server() {
  local bin=$1 log=$2 port=""
  shift 2
  env KINROW_ADDR=127.0.0.1:0 RUST_LOG=warn,kinrow=info "$@" "$bin" serve 2>"$log" &
  SERVER_PID=$!
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$log" | head -1)
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  [[ -n "$port" ]] || { echo "the server did not start:" >&2; cat "$log" >&2; exit 1; }
  URL="http://127.0.0.1:$port"
}
