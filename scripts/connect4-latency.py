#!/usr/bin/env python3
"""Latency of POST /v1/suggest on 7x6 Connect Four by stone count, measured by the client
(sequential requests, one at a time), with every column's label checked. Starts nothing:
give it a running server.

    python3 scripts/connect4-latency.py URL FILE [--engine perfect] [--time-ms 5000]
        [--per 150] [--json OUT]

FILE: one position a line, its moves as 1-based column digits, optionally followed by
each column's score in the published benchmarks' unit (`-` for a full column), as
scripts/connect4-reference.py writes them (crates/kinrow-engine/tests/engine/data/
connect4_columns.txt is such a file). The first PER positions of each group of stone
counts are asked (the empty board PER times), each once, in file order: on a fresh server
each position is the first of its line that the server sees, so the figures are cold ones
(run the script twice on one server for warm ones).

Start the server with KINROW_BOOKS=at-start: the script first waits for GET /readyz to
say 200 (the book read), as a replica behind a load balancer would be. Per group: answers,
how many had every column's outcome proven, how many every column's
distance exact (no `plies_bound`), p50 / p99 / max of the wall time, and the labels that
disagree with the file's scores (`wrong`: an outcome, an exact distance, or a bound that
the exact distance exceeds). A budget of 50 ms measures the outcomes (every outcome proven
within the budget means an outcome answer within it); a budget of seconds measures the
exact distances (each answer's time is then the time to the last exact distance, where
every distance is exact). `errors`: answers that were no 200 (a 503 when nothing was
proven within the budget). The human table goes to stdout, and with --json the same figures
as JSON to OUT.
"""
import argparse
import json
import sys
import time
import urllib.request

GROUPS = [(0, 0), (1, 11), (12, 12), (13, 13), (14, 14), (15, 15), (16, 16), (17, 17),
          (18, 21), (22, 41)]


def expected(stones, score):
    """(outcome, plies) of a column whose score in the published unit is `score`, the
    position having `stones` stones (the mover's move included in the plies)."""
    if score == 0:
        return "draw", 42 - stones
    # The winning stone t has the winner's parity; the score is floor((44 - t) / 2).
    winner = (stones + 1) % 2 if score > 0 else stones % 2
    v = abs(score)
    t = next(t for t in (44 - 2 * v, 43 - 2 * v) if t % 2 == winner)
    return ("win" if score > 0 else "loss"), t - stones


def wrong_labels(moves, scores, answer):
    """The labels of `answer` that the listed scores contradict."""
    bad = []
    stones = len(moves)
    for m in answer["moves"]:
        listed = scores[m["col"]]
        if listed == "-":
            bad.append((m["col"], "a full column was answered"))
            continue
        outcome, plies = expected(stones, int(listed))
        if m["outcome"] == "unknown":
            continue
        if m["outcome"] != outcome:
            bad.append((m["col"], f"{m['outcome']} where {outcome}"))
        elif m.get("plies_bound") == "upper":
            if m["plies"] is None or m["plies"] < plies:
                bad.append((m["col"], f"within {m['plies']} plies where {plies}"))
        elif outcome != "draw" and m["plies"] != plies:
            bad.append((m["col"], f"{m['plies']} plies where {plies}"))
    return bad


def quantile(ts, x):
    return ts[min(len(ts) - 1, max(0, int(len(ts) * x + 0.999999) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("url")
    ap.add_argument("file")
    ap.add_argument("--engine", default="perfect")
    ap.add_argument("--time-ms", type=int, default=5000)
    ap.add_argument("--per", type=int, default=150)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--wait-ready", type=int, default=120, metavar="SECONDS",
                    help="wait up to this long for GET /readyz to say 200 first")
    args = ap.parse_args()
    lines = []
    for line in open(args.file):
        parts = line.split()
        if parts:
            lines.append((parts[0], parts[1:8] if len(parts) >= 8 else None))

    def post(moves):
        body = json.dumps({"rules": {"m": 7, "n": 6, "k": 4, "gravity": True},
                           "board": moves,
                           "engine": {"name": args.engine, "time_ms": args.time_ms}}).encode()
        req = urllib.request.Request(args.url + "/v1/suggest", body,
                                     {"content-type": "application/json"})
        t = time.perf_counter()
        try:
            a = json.load(urllib.request.urlopen(req))
        except urllib.error.HTTPError as e:
            a = {"status": e.code, "body": e.read().decode(errors="replace")}
        return (time.perf_counter() - t) * 1e3, a

    # A server started with KINROW_BOOKS=at-start is ready once Connect Four's book is read.
    for _ in range(args.wait_ready * 10):
        try:
            if urllib.request.urlopen(args.url + "/readyz").status == 200:
                break
        except urllib.error.HTTPError:
            time.sleep(0.1)

    print(f"engine {args.engine}, time_ms {args.time_ms}, {args.url}, {args.file}")
    print("| stones | answers | every outcome | every distance exact | p50 ms | p99 ms | max ms | wrong | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for lo, hi in GROUPS:
        if lo == 0:
            chosen = [("", None)] * args.per
        else:
            chosen = [(m, s) for m, s in lines if lo <= len(m) <= hi][:args.per]
        if not chosen:
            continue
        ts, outcomes, distances, wrong, errors = [], 0, 0, 0, 0
        for moves, scores in chosen:
            ms, a = post(moves)
            ts.append(ms)
            if "moves" not in a:
                print(f"error: {moves}: {a}", file=sys.stderr)
                errors += 1
                continue
            outcomes += all(m["outcome"] != "unknown" for m in a["moves"])
            distances += all(m["outcome"] != "unknown" and m.get("plies_bound") is None
                             for m in a["moves"])
            if scores is not None:
                bad = wrong_labels(moves, scores, a)
                for col, why in bad:
                    print(f"wrong: {moves} column {col + 1}: {why}", file=sys.stderr)
                wrong += len(bad)
        ts.sort()
        row = {"stones": [lo, hi], "answers": len(ts), "every_outcome": outcomes,
               "every_distance_exact": distances, "p50_ms": round(quantile(ts, 0.5), 2),
               "p99_ms": round(quantile(ts, 0.99), 2), "max_ms": round(ts[-1], 2),
               "wrong": wrong, "errors": errors}
        rows.append(row)
        name = f"{lo}" if lo == hi else f"{lo}-{hi}"
        print(f"| {name} | {len(ts)} | {outcomes} | {distances} | {row['p50_ms']:.1f} | "
              f"{row['p99_ms']:.1f} | {row['max_ms']:.1f} | {wrong} | {errors} |", flush=True)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"url": args.url, "engine": args.engine, "time_ms": args.time_ms,
                       "file": args.file, "groups": rows}, f, indent=1)


if __name__ == "__main__":
    main()
