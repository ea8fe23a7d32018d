#!/bin/bash
# The peak memory of one search: starts BIN on PORT with one search slot, sends one 64x64
# `mcts` suggestion of TIME_MS, prints the RSS before and the peak (VmHWM) after.
#   bash scripts/search-rss.sh target/release/kinrow 18420 8000
BIN=$1; PORT=$2; T=$3
KINROW_MAX_CONCURRENT_SEARCHES=1 $BIN serve --addr 127.0.0.1:$PORT > /tmp/kinrow-rss_$PORT.log 2>&1 &
PID=$!
sleep 1.5
before=$(grep VmRSS /proc/$PID/status | awk '{print $2}')
python3 - "$PORT" "$T" <<'PY'
import json,sys,urllib.request,time
port,t=sys.argv[1],int(sys.argv[2])
rows=["."*64 for _ in range(64)]
r=list(rows[32]); r[32]="x"; rows[32]="".join(r)
r=list(rows[33]); r[33]="o"; rows[33]="".join(r)
body=json.dumps({"rules":{"m":64,"n":64,"k":5},"board":rows,"engine":{"name":"mcts","time_ms":t,"seed":1},"include":["move","stats"]}).encode()
req=urllib.request.Request(f"http://127.0.0.1:{port}/v1/suggest",body,{"content-type":"application/json"})
s=time.time(); a=json.load(urllib.request.urlopen(req)); print("answer in %.2f s, nodes %d"%(time.time()-s,a["stats"]["nodes"]))
PY
echo "RSS before $before KB; $(grep -E 'VmHWM|VmRSS' /proc/$PID/status | tr -s ' ' | tr '\n' ' ')"
kill $PID
