#!/usr/bin/env python3
"""p50 / p99 / max of POST /v1/suggest on 7x6 Connect Four, per range of stones, measured by
the client (sequential requests, one connection at a time), and how many answers had every
column proven. Positions: the moves of a file of scripts/connect4-reference.py's lines (the
first PER of each range), the empty board PER times.

    python3 scripts/connect4-latency.py URL ENGINE TIME_MS PER FILE
"""
import json, sys, time, urllib.request
url, engine, time_ms, per = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = [l.split()[0] for l in open(sys.argv[5]) if l.strip()]
groups = [(0,0),(1,11),(12,12),(13,14),(15,17),(18,21),(22,41)]
def post(board):
    body = json.dumps({"rules":{"m":7,"n":6,"k":4,"gravity":True},"board":board,
                       "engine":{"name":engine,"time_ms":time_ms}}).encode()
    req = urllib.request.Request(url + "/v1/suggest", body, {"content-type":"application/json"})
    t = time.perf_counter()
    a = json.load(urllib.request.urlopen(req))
    return (time.perf_counter() - t) * 1e3, a
for lo, hi in groups:
    boards = [""] * per if lo == 0 else [m for m in lines if lo <= len(m) <= hi][:per]
    ts, complete = [], 0
    for b in boards:
        ms, a = post(b)
        ts.append(ms)
        complete += all(m["outcome"] != "unknown" for m in a["moves"])
    ts.sort()
    q = lambda x: ts[min(len(ts)-1, max(0, int(len(ts)*x + 0.999999) - 1))]
    print(f"| {lo}-{hi} | {len(ts)} | {complete} | {q(0.5):.1f} | {q(0.99):.1f} | {ts[-1]:.1f} |", flush=True)
