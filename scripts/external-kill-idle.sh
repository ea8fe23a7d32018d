#!/bin/sh
# scripts/external-kill-idle.sh KINROW BRAIN: serve BRAIN as the engine "b", then 10 rounds
# of: kill -9 every child process of the server (its brain processes, as an
# out-of-memory killer would),
# then at once one POST /v1/suggest at TIME_MS (default 300); prints the status, the time
# and the answer of each round (issue 60: the next request gets its move).
BIN=$1; BRAIN=$2; PORT=$((20000 + $$ % 10000))
$BIN serve --addr 127.0.0.1:$PORT --external-engine "b=$BRAIN" >/dev/null 2>&1 &
SRV=$!
for i in $(seq 100); do curl -s -o /dev/null 127.0.0.1:$PORT/healthz && break; sleep 0.1; done
BODY='{"rules":{"m":15,"n":15,"k":5},"board":["...............","...............","...............","...............","...............","...............","...............",".......x.......","........o......","...............","...............","...............","...............","...............","..............."],"engine":{"name":"b","time_ms":'"${TIME_MS:-300}"'},"include":["move"]}'
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "$BODY" 127.0.0.1:$PORT/v1/suggest
for round in $(seq 10); do
  sleep 0.5
  KIDS=$(ps -o pid= --ppid $SRV | tr '\n' ' ')
  [ -n "$KIDS" ] && kill -9 $KIDS
  curl -s -o /tmp/kill-idle-$$.json -w "round $round: killed [$KIDS] -> %{http_code} in %{time_total}s " -X POST -H 'Content-Type: application/json' -d "$BODY" 127.0.0.1:$PORT/v1/suggest
  head -c 160 /tmp/kill-idle-$$.json; echo
done
kill $SRV; wait $SRV 2>/dev/null; rm -f /tmp/kill-idle-$$.json
