#!/usr/bin/env python3
"""The API's own cost per external request, measured against the brain alone (issue 53).

For N random 15x15 freestyle positions (seeded), each position is asked twice in turn:
  brain  the brain driven directly over the Gomocup protocol, with exactly the lines
         kinrow writes per request (INFO timeout_turn/timeout_match/time_left/thread_num,
         max_node where asked, INFO rule once, BOARD .. DONE): the time from the write to
         the move line;
  api    POST /v1/suggest to a local `kinrow serve` that serves the same command as an
         external engine (pool=1), over one keep-alive connection: the time from the
         request to the whole answer.
The overhead of a position is api - brain; the script prints the mean, p50, p95 and max
of both times and of the overhead, and of api - stats.elapsed_ms (the time outside the
server's reading of the brain). The two processes are the same program fed the same
positions in the same order, so with a node limit they search alike.

  scripts/external-overhead.py --kinrow target/release/kinrow \\
      --brain "target/release/kinrow pbrain --engine threat" --positions 200 --time-ms 300
  scripts/external-overhead.py --kinrow target/release/kinrow \\
      --brain /path/to/pbrain-rapfi --positions 100 --time-ms 1000 --nodes 20000
"""

import argparse
import http.client
import json
import random
import socket
import subprocess
import sys
import threading
import time
import queue

SIZE = 15
MATCH_MS = 100_000_000


def positions(count, seed):
    """`count` positions of 4..30 stones near the centre, x to move or o, none over."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        stones = rng.randrange(4, 31)
        board = [["."] * SIZE for _ in range(SIZE)]
        order = []
        for i in range(stones):
            while True:
                r = min(SIZE - 1, max(0, int(rng.gauss(7, 2.5))))
                c = min(SIZE - 1, max(0, int(rng.gauss(7, 2.5))))
                if board[r][c] == ".":
                    break
            board[r][c] = "x" if i % 2 == 0 else "o"
            order.append((r, c))
        if not five(board):
            out.append((board, order))
    return out


def five(board):
    for r in range(SIZE):
        for c in range(SIZE):
            p = board[r][c]
            if p == ".":
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(
                    0 <= r + i * dr < SIZE
                    and 0 <= c + i * dc < SIZE
                    and board[r + i * dr][c + i * dc] == p
                    for i in range(5)
                ):
                    return True
    return False


def board_text(board, order):
    """kinrow's BOARD lines: x's and o's stones (each in cell order) alternately, x
    first; field 1 for the side to move's stones, 2 for the other's; `col,row,field`."""
    to_move = "x" if len(order) % 2 == 0 else "o"
    xs = sorted(rc for rc in order if board[rc[0]][rc[1]] == "x")
    os_ = sorted(rc for rc in order if board[rc[0]][rc[1]] == "o")
    lines = []
    for i in range(max(len(xs), len(os_))):
        for stones, who in ((xs, "x"), (os_, "o")):
            if i < len(stones):
                r, c = stones[i]
                lines.append(f"{c},{r},{1 if who == to_move else 2}")
    return "\n".join(lines)


class Brain:
    def __init__(self, command):
        self.p = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.rule_sent = False
        self.send(f"START {SIZE}")
        self.expect_ok()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def expect_ok(self):
        while True:
            line = self.lines.get(timeout=30)
            if line is None:
                sys.exit("the brain exited at START")
            if line.upper() == "OK":
                return

    def think(self, board, order, time_ms, nodes):
        text = (
            f"INFO timeout_turn {time_ms}\nINFO timeout_match {MATCH_MS}\n"
            f"INFO time_left {MATCH_MS}\nINFO thread_num 1"
        )
        if nodes:
            text += f"\nINFO max_node {nodes}"
        if not self.rule_sent:
            text += "\nINFO rule 0"
            self.rule_sent = True
        text += "\nBOARD\n" + board_text(board, order) + "\nDONE"
        t = time.perf_counter()
        self.send(text)
        while True:
            line = self.lines.get(timeout=time_ms / 1000 + 30)
            if line is None:
                sys.exit("the brain exited while thinking")
            u = line.upper()
            if not line or u.startswith(("MESSAGE", "DEBUG", "OK")):
                continue
            return (time.perf_counter() - t) * 1000, line

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def stats(xs):
    xs = sorted(xs)
    n = len(xs)
    p = lambda q: xs[min(n - 1, int(q * n))]  # noqa: E731
    return f"mean {sum(xs) / n:8.2f}  p50 {p(0.5):8.2f}  p95 {p(0.95):8.2f}  max {xs[-1]:8.2f}"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--kinrow", default="target/release/kinrow")
    a.add_argument("--brain", required=True, help="the brain's command line")
    a.add_argument("--positions", type=int, default=100)
    a.add_argument("--time-ms", type=int, default=300)
    a.add_argument("--nodes", type=int, default=0, help="INFO max_node (nodes=yes)")
    a.add_argument("--seed", type=int, default=53)
    a.add_argument("--warmup", type=int, default=3)
    args = a.parse_args()

    port = free_port()
    spec = f"b={args.brain};pool=1" + (";nodes=yes" if args.nodes else "")
    server = subprocess.Popen(
        [args.kinrow, "serve", "--addr", f"127.0.0.1:{port}", "--external-engine", spec],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "RUST_LOG": "error"},
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=args.time_ms / 1000 + 30)
        brain = Brain(args.brain)
        engine = {"name": "b", "time_ms": args.time_ms}
        if args.nodes:
            engine["nodes"] = args.nodes
        rows = {"brain": [], "api": [], "over": [], "outside": [], "same": 0}
        all_positions = positions(args.warmup + args.positions, args.seed)
        for i, (board, order) in enumerate(all_positions):
            b_ms, b_move = brain.think(board, order, args.time_ms, args.nodes)
            body = json.dumps(
                {
                    "rules": {"m": SIZE, "n": SIZE, "k": 5, "overline": True},
                    "board": ["".join(r) for r in board],
                    "engine": engine,
                    "include": ["move", "stats"],
                }
            )
            t = time.perf_counter()
            conn.request("POST", "/v1/suggest", body, {"content-type": "application/json"})
            resp = conn.getresponse()
            answer = json.loads(resp.read())
            a_ms = (time.perf_counter() - t) * 1000
            if resp.status != 200:
                sys.exit(f"position {i}: {resp.status} {answer}")
            if i < args.warmup:
                continue
            mv = answer["move"]
            rows["same"] += b_move == f"{mv['col']},{mv['row']}"
            rows["brain"].append(b_ms)
            rows["api"].append(a_ms)
            rows["over"].append(a_ms - b_ms)
            rows["outside"].append(a_ms - answer["stats"]["elapsed_ms"])
        brain.close()
        n = args.positions
        print(f"brain: {args.brain}")
        print(f"positions {n} (after {args.warmup} warm-up), time_ms {args.time_ms}, nodes {args.nodes or '-'}")
        print(f"same move from both: {rows['same']}/{n}")
        print(f"brain alone ms      {stats(rows['brain'])}")
        print(f"through the API ms  {stats(rows['api'])}")
        print(f"overhead ms         {stats(rows['over'])}   (api - brain, per position)")
        print(f"api - elapsed_ms    {stats(rows['outside'])}   (outside the brain read)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
