#!/usr/bin/env python3
"""How late a Gomocup brain answers relative to its turn (issue 60 item 7): the data that
sizes kinrow's grace for external engines (docs/external.md, "The grace").

For N random 15x15 freestyle positions (seeded, the positions of
scripts/external-overhead.py) and each turn time T, the brain is driven directly over the
protocol with exactly the lines kinrow writes per request (INFO timeout_turn T, ...,
BOARD .. DONE), one process kept for all positions as kinrow's pool keeps it. For each
answer: the time from the write to the move line. Prints, per T, the answer time's p50 /
p95 / p99 / max (and the max as a share of T), how many answers used over 90% of T, and
how many came after T, T + 10, T + 25 and T + 50 ms; and the machine's load average
before, after each T and at the end.

  scripts/brain-overrun.py --brain /work/scratch/rapfi/build/pbrain-rapfi \\
      --positions 150 --times 100,200,300,500,1000 --out /tmp/overrun.jsonl

With --kinrow BIN --plays N it asks the same brain through the API instead: a local
`kinrow serve` serving it as an external engine, and N `POST /v1/play` calls (a random
move on each position, then `reply` by the brain at each turn time), one at a time;
prints the answers by status, every 503's message, and the slowest answer against the
budget plus the margin (100 ms by default).

  scripts/brain-overrun.py --brain /work/scratch/rapfi/build/pbrain-rapfi \\
      --kinrow target/release/kinrow --plays 200 --times 300
"""

import argparse
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("overhead", os.path.join(here, "external-overhead.py"))
overhead = importlib.util.module_from_spec(spec)
spec.loader.exec_module(overhead)


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--brain", required=True, help="the brain's command line")
    a.add_argument("--positions", type=int, default=150)
    a.add_argument("--times", default="100,200,300,500,1000", help="turn times in ms")
    a.add_argument("--seed", type=int, default=53)
    a.add_argument("--out", help="one JSON line per answer")
    a.add_argument("--kinrow", help="ask through `BIN serve` instead of the brain alone")
    a.add_argument("--plays", type=int, default=200, help="POST /v1/play calls per turn time")
    args = a.parse_args()
    if args.kinrow:
        return plays(args)
    out = open(args.out, "w") if args.out else None
    print(f"load average before: {load()}", flush=True)
    boards = overhead.positions(args.positions, args.seed)
    for t_ms in [int(t) for t in args.times.split(",")]:
        brain = overhead.Brain(args.brain)
        for board, order in boards[:3]:  # warm-up
            brain.think(board, order, t_ms, 0)
        times = []
        for i, (board, order) in enumerate(boards):
            ms, line = brain.think(board, order, t_ms, 0)
            times.append(ms)
            if out:
                out.write(json.dumps({"time_ms": t_ms, "position": i, "answer_ms": ms, "move": line}) + "\n")
        brain.close()
        late = lambda d: sum(1 for ms in times if ms > t_ms + d)  # noqa: E731
        use = [ms / t_ms for ms in times]
        print(
            f"T {t_ms:5d} ms: {len(times)} answers; answer time p50 {pct(times, 0.5):7.1f} "
            f"p95 {pct(times, 0.95):7.1f} p99 {pct(times, 0.99):7.1f} max {max(times):7.1f} ms "
            f"(max {max(use):.3f} T); used > 90% of T: {sum(1 for u in use if u > 0.9)}; "
            f"after T: {late(0)}, T+10: {late(10)}, T+25: {late(25)}, T+50: {late(50)}; "
            f"load {load()}",
            flush=True,
        )
    print(f"load average after: {load()}")


def plays(args):
    """N `/v1/play` calls with the brain's reply, through a local `kinrow serve`."""
    import collections
    import http.client
    import random
    import socket
    import subprocess
    import time

    port = overhead.free_port()
    server = subprocess.Popen(
        [args.kinrow, "serve", "--addr", f"127.0.0.1:{port}", "--external-engine", f"b={args.brain}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "RUST_LOG": "error"},
    )
    print(f"load average before: {load()}", flush=True)
    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        rng = random.Random(args.seed)
        boards = overhead.positions(args.plays, args.seed)
        for t_ms in [int(t) for t in args.times.split(",")]:
            statuses = collections.Counter()
            messages = []
            slowest = 0.0
            for board, order in boards:
                to_move = "x" if len(order) % 2 == 0 else "o"
                while True:
                    r, c = rng.randrange(15), rng.randrange(15)
                    if board[r][c] == ".":
                        break
                after = [row[:] for row in board]
                after[r][c] = to_move
                if overhead.five(after):
                    continue
                body = {
                    "rules": {"m": 15, "n": 15, "k": 5},
                    "board": ["".join(row) for row in board],
                    "move": {"row": r, "col": c},
                    "reply": {"name": "b", "time_ms": t_ms},
                }
                t = time.perf_counter()
                conn.request("POST", "/v1/play", json.dumps(body), {"Content-Type": "application/json"})
                resp = conn.getresponse()
                answer = json.loads(resp.read() or b"{}")
                ms = (time.perf_counter() - t) * 1000
                slowest = max(slowest, ms)
                statuses[resp.status] += 1
                if resp.status != 200:
                    messages.append(f"{resp.status} {answer.get('error', {}).get('message')}")
            print(
                f"T {t_ms} ms: {sum(statuses.values())} plays, by status {dict(statuses)}; slowest "
                f"answer {slowest:.1f} ms (budget + margin {t_ms + 100} ms); load {load()}",
                flush=True,
            )
            for m in messages:
                print(f"  {m}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
