#!/usr/bin/env python3
# Item 8 of issue 34 (docs/performance.md): 70 hard searches (15x15 minimax, 150 ms) from
# N client threads (default 7) against URL; prints statuses, latencies and the answers
# later than budget + margin (250 ms). Run the server and busy loops pinned with taskset.
#   python3 scripts/starved.py http://127.0.0.1:18100/v1/suggest [clients]
import json, sys, threading, time, urllib.request, urllib.error
url = sys.argv[1]; n_clients = int(sys.argv[2]) if len(sys.argv) > 2 else 7
B = ["...............","...............","...............","...............","...............","......o........","......xx.......",".......xo......","........o......","...............","...............","...............","...............","...............","..............."]
body = json.dumps({"rules": {"m": 15, "n": 15, "k": 5}, "board": B, "engine": {"name": "minimax", "time_ms": 150}}).encode()
res = []
def client():
    for _ in range(70 // n_clients):
        t = time.perf_counter()
        try:
            r = urllib.request.urlopen(urllib.request.Request(url, body, {"Content-Type": "application/json"}), timeout=10)
            code = r.status; r.read()
        except urllib.error.HTTPError as e:
            code = e.code; e.read()
        res.append((code, (time.perf_counter() - t) * 1000))
ts = [threading.Thread(target=client) for _ in range(n_clients)]
[t.start() for t in ts]; [t.join() for t in ts]
lat = sorted(ms for _, ms in res)
late = [(c, round(ms)) for c, ms in res if ms > 250]
codes = {}
for c, _ in res: codes[c] = codes.get(c, 0) + 1
print(f"{len(res)} requests, statuses {codes}, p50 {lat[len(lat)//2]:.0f} ms, p90 {lat[int(len(lat)*.9)]:.0f} ms, max {lat[-1]:.0f} ms, past 250 ms: {len(late)} {sorted(late, key=lambda x: -x[1])[:5]}")
