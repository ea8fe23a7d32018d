#!/usr/bin/env bash
# scripts/wrk-compare.sh BIN_A BIN_B [rounds]: wrk -t1 -c50 -d5s on /healthz and a 3x3 perfect suggest,
# A then B, alternating; prints answers/s, the ratio, and the server's CPU µs per answer.
# Binds 127.0.0.1:18431 and :18432. Run both builds back to back: the ratio and the CPU per
# answer are what compare, answers/s move with the machine's load.
set -u
A=$1; B=$2; R=${3:-2}
D=$(mktemp -d)
cat > $D/suggest.lua <<'LUA'
wrk.method = "POST"
wrk.body = '{"rules":{"m":3,"n":3,"k":3},"board":["x..",".o.","..."],"engine":{"name":"perfect","time_ms":1000,"seed":7}}'
wrk.headers["Content-Type"] = "application/json"
LUA
KINROW_ADDR=127.0.0.1:18431 $A serve >/dev/null 2>&1 & PA=$!
KINROW_ADDR=127.0.0.1:18432 $B serve >/dev/null 2>&1 & PB=$!
sleep 3
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
run() { # port path pid [wrk args]
  local c0=$(cpu $3) out; out=$(wrk -t1 -c50 -d5s ${4:-} http://127.0.0.1:$1$2)
  local c1=$(cpu $3)
  local rps=$(echo "$out" | awk '/Requests\/sec/{print $2}') n=$(echo "$out" | awk '/requests in/{print $1}')
  echo "$rps $(python3 -c "print(round(($c1-$c0)*1e6/100/$n,1))")"
}
for r in $(seq $R); do
  for side in A:18431:$PA B:18432:$PB; do
    IFS=: read name port pid <<< "$side"
    read h hc <<< "$(run $port /healthz $pid)"; read s sc <<< "$(run $port /v1/suggest $pid "-s $D/suggest.lua")"
    echo "round $r $name healthz=$h/s (${hc}us cpu) suggest=$s/s (${sc}us cpu) ratio=$(python3 -c "print(round($s/$h,3))") cpu-ratio=$(python3 -c "print(round($hc/$sc,3))") load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
kill $PA $PB; wait 2>/dev/null; rm -r "$D"
