#!/usr/bin/env python3
"""The adversarial pass of issue 54 against a running kinrow server (docs/performance.md).

Five categories, run one after the other, with a fixed share of `--requests` each:

  hostile  hostile inputs on every endpoint: malformed JSON, wrong types, missing and extra
           fields, huge and negative numbers, boards over the limits, bad board strings and
           gravity sequences, unknown engines, invalid limits, wrong content types, bodies
           over 64 KiB, corrupt gzip, long URLs, bad methods, broken HTTP heads; plus
           random one-field mutations of valid bodies. Every 4xx must be the JSON error
           shape; actix-http's own empty 400/431 (broken heads) and 408 are allowed.
  budgets  every engine of /v1/engines on legal positions (3x3, 7x6 gravity, 9x9, 15x15
           midgame, renju, special pieces) through suggest, analyse, play, review and opening
           with time_ms 20-300: an overrun is an answer later than the budget + the server's
           margin + --slack-ms.
  bursts   bursts of 200 clients at once on /v1/suggest: every 503 carries Retry-After
           (answers later than budget + margin are reported apart, as `client_side_late`:
           200 Python threads on the server's cores time their own scheduling too).
  slow     connections that send the head or the body a byte at a time, or read the answer
           slowly, while other clients' requests must still be answered promptly.
  sse      POST /v1/analyse, the socket closed after the head, the first event, a random
           time (some with a reset) or read to the end; then /metrics must show
           kinrow_searches_in_flight and kinrow_searches_queued back at 0 within 2 s.

A failure is a 5xx other than 503, a 503 without Retry-After, an error body not in the
JSON shape, a hang (no answer within --timeout), a refused connection (a crash), an
`internal` error event, a `panic` search, metrics not back at 0, or the server dead at the
end. Every second it samples VmRSS/VmHWM of --pid and /metrics' gauges. It prints
progress on stderr and one JSON line per category (counts by status, latency p50/p99/max,
overruns and max_overrun_ms: the latest answer past budget + margin, negative when all
were in time), then a summary line (RSS, 1-minute load average at start and end, the
/metrics deltas), on stdout and to --out; the exit status is 1 when anything failed.

  target/release/kinrow serve &     # KINROW_ADDR=127.0.0.1:18500
  python3 scripts/adversarial.py --url http://127.0.0.1:18500 --pid $(pgrep -n kinrow) \\
      --requests 920000 --out adversarial.jsonl                # the whole pass
  python3 scripts/adversarial.py --pid PID --requests 3000    # a smoke run
  python3 scripts/adversarial.py --only hostile,sse --requests 2000
"""

import argparse
import gzip
import json
import random
import socket
import struct
import sys
import threading
import time
import zlib
from array import array
from collections import Counter
from urllib.parse import urlsplit

SHARES = {"hostile": 0.887, "bursts": 0.10, "budgets": 0.005, "sse": 0.005, "slow": 0.003}
ORDER = ["hostile", "budgets", "bursts", "slow", "sse"]
BURST = 200
EXAMPLES = 8  # examples kept per failure kind


# ---------------------------------------------------------------- a small HTTP/1.1 client


class NoAnswer(Exception):
    """No (whole) answer: `kind` is refused, reset, closed or timeout."""

    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


class Answer:
    __slots__ = ("status", "headers", "body", "ms")

    def __init__(self, status, headers, body, ms):
        self.status, self.headers, self.body, self.ms = status, headers, body, ms


def request_bytes(method, path, body=None, headers=None, ctype="application/json", host="kinrow"):
    """An HTTP/1.1 request; `headers` adds to (None removes) Host, Content-Type, Content-Length."""
    h = {"Host": host}
    if body is not None:
        if ctype is not None:
            h["Content-Type"] = ctype
        h["Content-Length"] = str(len(body))
    for k, v in (headers or {}).items():
        if v is None:
            h.pop(k, None)
        else:
            h[k] = v
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    return head.encode("latin-1") + (body or b"")


class Conn:
    """One keep-alive connection; reconnects when the server closed it."""

    def __init__(self, addr, timeout):
        self.addr, self.timeout = addr, timeout
        self.sock, self.buf, self.used = None, b"", 0

    def close(self, reset=False):
        if self.sock is not None:
            if reset:
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock, self.buf, self.used = None, b"", 0

    def open(self):
        if self.sock is None:
            try:
                self.sock = socket.create_connection(self.addr, timeout=self.timeout)
            except ConnectionRefusedError:
                raise NoAnswer("refused")
            except socket.timeout:
                raise NoAnswer("timeout")
            except OSError:
                raise NoAnswer("connect_failed")  # say the client ran out of ports
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def exchange(self, raw, head_request=False):
        """Sends `raw`, reads one answer. A reused connection the server had closed is
        retried once on a fresh one."""
        for attempt in (0, 1):
            reused = self.sock is not None and self.used > 0
            self.open()
            t = time.perf_counter()
            try:
                try:
                    self.sock.sendall(raw)
                except socket.timeout:
                    raise NoAnswer("timeout")
                except OSError:
                    pass  # the server may have answered early (413) and closed: read it
                status, headers, body, close = read_answer(self, head_request)
            except NoAnswer as e:
                self.close()
                if reused and attempt == 0 and e.kind in ("closed", "reset"):
                    continue
                raise
            self.used += 1
            if close:
                self.close()
            return Answer(status, headers, body, (time.perf_counter() - t) * 1000)

    def recv(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise NoAnswer("timeout")
        except (ConnectionResetError, BrokenPipeError):
            raise NoAnswer("reset")
        except OSError:
            raise NoAnswer("reset")
        return data


def read_head(conn):
    """(status, headers) of the next answer, skipping 1xx; the body stays in conn.buf."""
    while True:
        while b"\r\n\r\n" not in conn.buf:
            data = conn.recv()
            if not data:
                raise NoAnswer("closed")
            conn.buf += data
        head, conn.buf = conn.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if not lines[0].startswith("HTTP/1.") or len(parts) < 2 or not parts[1].isdigit():
            raise NoAnswer("garbled")
        status = int(parts[1])
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            k = k.strip().lower()
            headers[k] = headers[k] + ", " + v.strip() if k in headers else v.strip()
        if not 100 <= status < 200:
            return status, headers


def need(conn, n):
    while len(conn.buf) < n:
        data = conn.recv()
        if not data:
            raise NoAnswer("closed")
        conn.buf += data


def read_answer(conn, head_request=False):
    status, headers = read_head(conn)
    close = "close" in headers.get("connection", "").lower()
    if head_request or status in (204, 304):
        return status, headers, b"", close
    body, to_close = read_body(conn, headers)
    return status, headers, body, close or to_close


def read_body(conn, headers):
    """(body, whether it ran to the close): chunked, Content-Length or up to the close."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = []
        while True:
            while b"\r\n" not in conn.buf:
                need(conn, len(conn.buf) + 1)
            line, conn.buf = conn.buf.split(b"\r\n", 1)
            size = int(line.split(b";")[0], 16)
            if size == 0:
                while b"\r\n" not in conn.buf:  # trailers: none expected, up to the blank line
                    need(conn, len(conn.buf) + 1)
                while not conn.buf.startswith(b"\r\n"):
                    conn.buf = conn.buf.split(b"\r\n", 1)[1]
                    while b"\r\n" not in conn.buf:
                        need(conn, len(conn.buf) + 1)
                conn.buf = conn.buf[2:]
                return b"".join(body), False
            need(conn, size + 2)
            body.append(conn.buf[:size])
            conn.buf = conn.buf[size + 2:]
    if "content-length" in headers:
        n = int(headers["content-length"])
        need(conn, n)
        body, conn.buf = conn.buf[:n], conn.buf[n:]
        return body, False
    body = conn.buf
    while True:
        try:
            data = conn.recv()
        except NoAnswer:
            break
        if not data:
            break
        body += data
    conn.buf = b""
    return body, True


def decoded(answer):
    enc = answer.headers.get("content-encoding", "").lower()
    if enc == "gzip":
        return gzip.decompress(answer.body)
    if enc == "deflate":
        return zlib.decompress(answer.body)
    return answer.body


def error_shape_ok(answer):
    """The API's error shape: {"error": {"code": str, "message": str, ...}}."""
    try:
        doc = json.loads(decoded(answer))
    except (ValueError, OSError, zlib.error):
        return False
    e = doc.get("error") if isinstance(doc, dict) else None
    return isinstance(e, dict) and isinstance(e.get("code"), str) and isinstance(e.get("message"), str)


# ---------------------------------------------------------------- results


def pct(values, q):
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * len(s)))], 2)


class Stats:
    """What one category saw; one per thread, merged at the end."""

    def __init__(self):
        self.statuses = Counter()
        self.ms = array("d")
        self.failures = Counter()
        self.examples = {}
        self.overruns = 0
        self.max_overrun_ms = None
        self.extra = Counter()  # category-specific counts

    def answer(self, status, ms=None):
        self.statuses[str(status)] += 1
        if ms is not None:
            self.ms.append(ms)

    def fail(self, kind, example):
        self.failures[kind] += 1
        ex = self.examples.setdefault(kind, [])
        if len(ex) < EXAMPLES:
            ex.append(example)

    def overrun(self, by_ms):
        """`by_ms`: how far past budget + margin the answer came (negative: in time)."""
        if self.max_overrun_ms is None or by_ms > self.max_overrun_ms:
            self.max_overrun_ms = by_ms

    def merge(self, other):
        self.statuses.update(other.statuses)
        self.ms.extend(other.ms)
        self.failures.update(other.failures)
        for k, v in other.examples.items():
            mine = self.examples.setdefault(k, [])
            mine.extend(v[: EXAMPLES - len(mine)])
        self.overruns += other.overruns
        if other.max_overrun_ms is not None:
            self.overrun(other.max_overrun_ms)
        self.extra.update(other.extra)

    def line(self, category, seconds, **more):
        return {
            "category": category,
            "requests": sum(self.statuses.values()),
            "seconds": round(seconds, 1),
            "statuses": dict(sorted(self.statuses.items())),
            "latency_ms": {"p50": pct(self.ms, 0.5), "p99": pct(self.ms, 0.99),
                           "max": round(max(self.ms), 2) if self.ms else None},
            "overruns": self.overruns,
            "max_overrun_ms": None if self.max_overrun_ms is None else round(self.max_overrun_ms, 1),
            "failures": dict(self.failures),
            "examples": self.examples,
            **({"counts": dict(self.extra)} if self.extra else {}),
            **more,
        }


class Progress:
    """`adversarial: 1200/920000 requests (0.1%), 950/s, 16m08s left; hostile` every 10 s."""

    def __init__(self, total):
        self.total, self.done, self.lock = total, 0, threading.Lock()
        self.start, self.last, self.what = time.time(), time.time(), ""

    def add(self, n=1):
        with self.lock:
            self.done += n
            now = time.time()
            if now - self.last < 10:
                return
            self.last = now
        rate = self.done / max(now - self.start, 1e-9)
        left = max(self.total - self.done, 0) / max(rate, 1e-9)
        print(f"adversarial: {self.done}/{self.total} requests ({100 * self.done / max(self.total, 1):.1f}%), "
              f"{rate:.0f}/s, {duration(left)} left; {self.what}", file=sys.stderr, flush=True)


def duration(secs):
    s = int(round(max(secs, 0)))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s // 60 % 60:02d}m"


# ---------------------------------------------------------------- positions and bodies

B3 = ["x..", ".o.", "..."]
R3 = {"m": 3, "n": 3, "k": 3}
R15 = {"m": 15, "n": 15, "k": 5}
C4 = {"m": 7, "n": 6, "k": 4, "gravity": True}
MID15 = ["...............", "...............", "...............", "...............",
         "...............", "......o........", "......xx.......", ".......xo......",
         "........o......", "...............", "...............", "...............",
         "...............", "...............", "..............."]
MID9 = [".........", ".........", "...o.....", "...xx....", "....xo...", ".....o...",
        ".........", ".........", "........."]
PIECES7 = ["#......", "..x....", "..ox...", "...o...", ".......", ".......", "......."]
PIECES_RULES = {"m": 7, "n": 7, "k": 4, "pieces": {"x": {"block": 1, "remove": 1, "bomb": 1},
                                                    "o": {"block": 1, "remove": 1, "bomb": 0}}}
REVIEW_MOVES = [{"row": 1, "col": 1}, {"row": 0, "col": 0}, {"row": 2, "col": 2}, {"row": 0, "col": 2}]

BASES = {  # one valid, cheap body per POST route (any single mutation stays cheap)
    "/v1/suggest": {"rules": R3, "board": B3, "engine": {"name": "perfect", "time_ms": 50, "seed": 1}},
    "/v1/analyse": {"rules": R3, "board": B3, "engine": {"name": "perfect", "time_ms": 50, "seed": 1}},
    "/v1/play": {"rules": R3, "board": B3, "move": {"row": 0, "col": 1}, "reply": {"name": "threat"}},
    "/v1/state": {"rules": R3, "board": B3},
    "/v1/review": {"rules": R3, "moves": REVIEW_MOVES, "engine": {"name": "perfect", "nodes": 2000},
                   "time_ms_per_move": 5},
    "/v1/opening": {"rules": {**R15, "opening": "swap2"}, "engine": {"name": "threat", "time_ms": 50}},
}
GETS = ["/healthz", "/v1/engines", "/metrics", "/openapi.json", "/docs", "/docs/", "/"]

HOSTILE_VALUES = [None, True, -1, 0, 1.5, -2**63, 2**63, 2**64, 10**30, 1e308, -1e308, "", "3",
                  "x" * 5000, "\u0000", "\U0001F600", [], [1, 2], {}, {"a": 1}, [[[[[]]]]]]


def dumps(doc):
    return json.dumps(doc, ensure_ascii=False).encode()


def paths(doc, prefix=()):
    """Every (key path) of a JSON document's objects and lists."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, prefix + (i,))
    return out


def mutated(rng, route):
    """The route's valid body with one field replaced by a hostile value, deleted, or one
    unknown field added."""
    doc = json.loads(json.dumps(BASES[route]))
    # without its engine object /v1/opening would run `auto` for the default second
    path = rng.choice([p for p in paths(doc) if not (route == "/v1/opening" and p == ("engine",))])
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    what = rng.random()
    if what < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
        label = "delete"
    elif what < 0.25 and isinstance(parent, dict):
        parent["unknown_" + str(rng.randrange(100))] = 1
        label = "extra"
    else:
        parent[path[-1]] = rng.choice(HOSTILE_VALUES)
        label = "value"
    return doc, f"mutate {label} {'.'.join(map(str, path))}"


def with_(base, **changes):
    doc = json.loads(json.dumps(base))
    for dotted, value in changes.items():
        keys = dotted.split("__")
        parent = doc
        for k in keys[:-1]:
            parent = parent.setdefault(k, {})
        if value is DELETE:
            parent.pop(keys[-1], None)
        else:
            parent[keys[-1]] = value
    return doc


DELETE = object()


class Case:
    """One hostile request. `raw_ok`: actix-http may answer it itself (an empty 4xx) or
    close the connection; `expect`: the statuses the docs lead one to expect (a mismatch
    is reported, not failed)."""

    __slots__ = ("name", "raw", "expect", "raw_ok", "head", "weight", "answers")

    def __init__(self, name, raw, expect=None, raw_ok=False, head=False, weight=1.0, answers=1):
        self.name, self.raw, self.expect, self.raw_ok, self.head, self.weight = name, raw, expect, raw_ok, head, weight
        self.answers = answers  # pipelined requests: as many answers, in order


def hostile_cases():
    """The fixed catalogue of hostile requests."""
    cases = []

    def post(name, route, body, expect, ctype="application/json", headers=None, raw_ok=False, weight=1.0):
        raw = body if isinstance(body, bytes) else dumps(body)
        cases.append(Case(f"{route} {name}", request_bytes("POST", route, raw, headers, ctype), expect, raw_ok,
                          weight=weight))

    bomb = gzip.compress(b" " * (60 << 20), 9)
    big = b'{"rules": {"m": 3, "n": 3, "k": 3}' + b" " * 70000 + b"}"
    for route, base in BASES.items():
        ok = {200, 503}  # a valid body: 503 when the searches queue up
        # malformed JSON
        for i, raw in enumerate([b"{", b'{"rules":', b"{'rules': 1}", b'{"rules": {"m": 3,}}', b"", b"null",
                                 b"[]", b"1", b'"x"', b"\xef\xbb\xbf" + dumps(base), b'{"rules": "\xff\xfe"}',
                                 b"[" * 10000, b'{"a":' * 5000, b'{"rules": {"m": NaN, "n": 3, "k": 3}}',
                                 b'{"rules": {"m": 1e999, "n": 3, "k": 3}}', b'{"' + b"k" * 30000 + b'": 1}',
                                 dumps(base)[:-1] + b', "rules": {"m": 3, "n": 3, "k": 3}}', b"\x00" * 100]):
            post(f"malformed json {i}", route, raw, {400, 413})
        # wrong types, missing fields
        for name, ch in [("rules string", {"rules": "3x3"}), ("rules list", {"rules": []}),
                         ("m string", {"rules__m": "3"}), ("m fraction", {"rules__m": 3.5}),
                         ("m bool", {"rules__m": True}), ("board number", {"board": 5}),
                         ("board object", {"board": {"a": 1}}), ("to_move z", {"to_move": "z"}),
                         ("to_move number", {"to_move": 1}), ("engine number", {"engine": 5}),
                         ("engine list", {"engine": []}), ("include string", {"include": "move"}),
                         ("include unknown", {"include": ["nonsense"]}), ("no rules", {"rules": DELETE}),
                         ("no m", {"rules__m": DELETE}), ("no k", {"rules__k": DELETE}),
                         ("extra top", {"hello": 1}), ("extra rules", {"rules__hello": 1}),
                         ("variant unknown", {"rules__variant": "chess"}), ("opening unknown", {"rules__opening": "x"}),
                         ("overline string", {"rules__overline": "yes"})]:
            post(name, route, with_(base, **ch), {400, 422})
        post("empty object", route, {}, {400})
        # huge and negative numbers, boards over the limits
        for name, ch in [("m 2^64", {"rules__m": 2**64}), ("m 1e30", {"rules__m": 10**30}),
                         ("m -2^63", {"rules__m": -2**63}),
                         ("m -1", {"rules__m": -1}), ("n -3", {"rules__n": -3}), ("k -5", {"rules__k": -5}),
                         ("m 0", {"rules__m": 0}), ("n 0", {"rules__n": 0}), ("k 0", {"rules__k": 0}),
                         ("m 65", {"rules__m": 65, "rules__n": 65, "board": DELETE}),
                         ("m 1000", {"rules__m": 1000, "rules__n": 1000, "board": DELETE}),
                         ("pieces 2^63", {"rules__pieces": {"x": {"block": 2**63}}, "to_move": "x"}),
                         ("pieces 65", {"rules__pieces": {"x": {"bomb": 65}}, "to_move": "x"}),
                         ("pieces -1", {"rules__pieces": {"o": {"remove": -1}}, "to_move": "x"}),
                         ("board 65 rows", {"rules__m": 64, "rules__n": 64, "board": ["." * 64] * 65}),
                         ("board 100x100", {"board": ["." * 100] * 100})]:
            post(name, route, with_(base, **ch), {400, 422})
        # the default engine at 50 ms; k larger than the board is a legal, drawn game
        if route not in ("/v1/state",):
            key = "reply" if route == "/v1/play" else "engine"
            post("engine null name", route, with_(base, **{key: {"name": None, "time_ms": 50}}), {200, 503, 400, 422})
        post("k 2^40", route, with_(base, rules__k=2**40), {200, 503, 422})
        # bad board strings
        for name, board in [("row short", ["x.", ".o.", "..."]), ("char z", ["xz.", ".o.", "..."]),
                            ("unicode", ["x\u00e9.", ".o.", "..."]), ("nul", ["x\u0000.", ".o.", "..."]),
                            ("too many x", ["xxx", "...", "..."]), ("both won", ["xxx", "ooo", "..."]),
                            ("cells multi", [["xx", ".", "."], [".", "o", "."], [".", ".", "."]]),
                            ("slashes broken", "x../.o"), ("empty string", ""), ("rows 4", B3 + ["..."]),
                            ("o ahead", ["o..", ".o.", "..x"])]:
            post(f"board {name}", route, with_(base, board=board), {400, 422})
        # gravity
        for name, board in [("col 0", "0"), ("col 8", "8"), ("letter", "4a"), ("overfull", "4444444"),
                            ("too long", "1234567" * 7), ("minus", "-1"), ("after win", "12121212"),
                            ("floating", ["..x....", ".......", ".......", ".......", ".......", "......."])]:
            post(f"gravity {name}", route, with_(base, rules=C4, board=board), {400, 422})
        post("gravity renju", route, with_(base, rules={**C4, "variant": "renju"}, board=DELETE), {422})
        post("gravity pieces", route, with_(base, rules={**C4, "pieces": {"x": {"block": 1}}}, board=DELETE,
                                            to_move="x"), {422})
        post("renju block", route, with_(base, rules={**R15, "variant": "renju"}, board=["#" + "." * 14] + ["." * 15] * 14),
             {422})
        # engines and limits (routes with an engine object)
        key = "reply" if route == "/v1/play" else "engine" if route != "/v1/state" else None
        if key:
            for name, eng in [("unknown", "stockfish"), ("empty", ""), ("spaced", "perfect "),
                              ("number", 12), ("path", "../auto"), ("nested name", {"name": {"x": 1}, "time_ms": 50})]:
                post(f"engine {name}", route, with_(base, **{key: eng}), {400, 422})
            for name, lim in [("time -1", {"time_ms": -1}), ("time 0", {"time_ms": 0}), ("time 1.5", {"time_ms": 1.5}),
                              ("time string", {"time_ms": "100"}), ("time 2^70", {"time_ms": 2**70}),
                              ("depth -1", {"depth": -1}), ("depth 2^64", {"depth": 2**64}), ("nodes 0", {"nodes": 0}),
                              ("nodes -5", {"nodes": -5}), ("nodes 1e25", {"nodes": 10**25}),
                              ("mistake 2", {"mistake_probability": 2}), ("mistake -1", {"mistake_probability": -1}),
                              ("mistake auto", {"name": "auto", "mistake_probability": 0.5}),
                              ("level 0", {"level": 0}), ("level 11", {"level": 11}), ("level -1", {"level": -1}),
                              ("multipv 0", {"multipv": 0}), ("multipv 1000", {"multipv": 1000}),
                              ("threads 0", {"threads": 0}), ("threads -1", {"threads": -1}),
                              ("seed -1", {"seed": -1}), ("seed 2^64", {"seed": 2**64}), ("seed 1.5", {"seed": 1.5}),
                              ("extra", {"hello": 1})]:
                eng = dict(base[key])
                eng.update(lim)
                post(f"limits {name}", route, with_(base, **{key: eng}), {400, 422})
        if route == "/v1/play":
            for name, mv in [("occupied", {"row": 0, "col": 0}), ("off board", {"row": 3, "col": 0}),
                             ("row 2^40", {"row": 2**40, "col": 0}), ("negative", {"row": -1, "col": 0}),
                             ("piece bomb", {"row": 0, "col": 1, "piece": "bomb"}), ("piece unknown", {"row": 0, "col": 1, "piece": "nuke"}),
                             ("no col", {"row": 0}), ("extra", {"row": 0, "col": 1, "x": 1})]:
                post(f"move {name}", route, with_(base, move=mv), {400, 422})
            post("gravity not landing", route, with_(base, rules=C4, board="44", move={"row": 0, "col": 3}, reply=DELETE), {422})
        if route == "/v1/review":
            for name, moves in [("illegal", [{"row": 1, "col": 1}, {"row": 1, "col": 1}]), ("string", "e5"),
                                ("after end", [{"row": 0, "col": c} for c in range(3)] + [{"row": 1, "col": c} for c in range(2)] +
                                 [{"row": 2, "col": 2}] * 3), ("huge", [{"row": 0, "col": 0}] * 3000)]:
                post(f"moves {name}", route, with_(base, moves=moves), {400, 413, 422})
            for v in (0, -1, 2**64, 1.5):
                post(f"time_ms_per_move {v}", route, with_(base, time_ms_per_move=v), {400, 422})
        # content types and encodings
        body = dumps(base)
        for ctype, expect in [("text/plain", {415}), (None, {415}), ("application/x-www-form-urlencoded", {415}),
                              ("multipart/form-data; boundary=x", {415}), ("application/jsonp", {415}),
                              ("application/json; charset=latin1", ok), ("APPLICATION/JSON", ok), ("", {415}),
                              ("application/json, text/plain", {400, 415}), ("application/vnd.kinrow+json", ok)]:
            post(f"content-type {ctype}", route, body, expect, ctype=ctype)
        post("gzip garbage", route, bytes(random.Random(1).randrange(256) for _ in range(300)), {400},
             headers={"Content-Encoding": "gzip"})
        post("gzip header then garbage", route, b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + b"garbage" * 20, {400},
             headers={"Content-Encoding": "gzip"})
        post("gzip truncated", route, gzip.compress(body)[:-9], {400}, headers={"Content-Encoding": "gzip"})
        post("gzip valid", route, gzip.compress(body), ok, headers={"Content-Encoding": "gzip"})
        post("gzip twice", route, gzip.compress(body), {400, 415}, headers={"Content-Encoding": "gzip, gzip"})
        post("gzip bomb", route, bomb, {413}, headers={"Content-Encoding": "gzip"}, weight=0.05)
        post("deflate garbage", route, b"\x78\x9c" + b"\xff" * 100, {400}, headers={"Content-Encoding": "deflate"})
        post("br garbage", route, b"\xff" * 100, {400}, headers={"Content-Encoding": "br"})
        post("zstd garbage", route, b"\x28\xb5\x2f\xfd" + b"\xff" * 100, {400}, headers={"Content-Encoding": "zstd"})
        post("encoding lzma", route, body, {415}, headers={"Content-Encoding": "lzma"})
        # oversized
        post("body 70 KB", route, big, {413}, weight=0.3)
        post("body 1 MB", route, b"[" + b"1," * (1 << 19) + b"1]", {413}, weight=0.02)
        post("content-length 10^12", route, b"", {413, 400}, headers={"Content-Length": "1000000000000"}, raw_ok=True)
        post("content-length -1", route, b"", {400}, headers={"Content-Length": "-1"}, raw_ok=True)
        post("content-length abc", route, b"", {400}, headers={"Content-Length": "abc"}, raw_ok=True)
        post("two content-lengths", route, body, {400}, headers={"Content-Length": f"{len(body)}\r\nContent-Length: 3"},
             raw_ok=True)
        post("length and chunked", route, body, {400}, headers={"Transfer-Encoding": "chunked"}, raw_ok=True)
        chunked = request_bytes("POST", route, None, {"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        cases.append(Case(f"{route} chunked valid", chunked + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body), ok))
        cases.append(Case(f"{route} chunked bad size", chunked + b"zz\r\n" + body + b"\r\n0\r\n\r\n", {400}, raw_ok=True))
        cases.append(Case(f"{route} expect 100-continue", request_bytes("POST", route, body, {"Expect": "100-continue"}), ok))
        cases.append(Case(f"{route} pipelined 3", request_bytes("POST", route, body) + request_bytes("POST", route, b"{")
                          + request_bytes("GET", "/healthz"), ok | {400}, answers=3))
        for name, value in [("t=NaN", "t=NaN"), ("t=-1", "t=-1"), ("t=1e300", "t=1e300"), ("garbage", "\u00ff\u00fe"),
                            ("200 s old", f"t={time.time() - 200:.3f}"), ("future", f"t={time.time() + 3600:.3f}")]:
            post(f"x-request-start {name}", route, body, ok, headers={"X-Request-Start": value})
        # bad methods
        for method in ("GET", "PUT", "DELETE", "PATCH", "FOO"):
            cases.append(Case(f"{route} method {method}", request_bytes(method, route, body if method != "GET" else None),
                              {405}))
        cases.append(Case(f"{route} method HEAD", request_bytes("HEAD", route), {405}, head=True))
        cases.append(Case(f"{route} OPTIONS preflight", request_bytes("OPTIONS", route, None, {
            "Origin": "http://example.com", "Access-Control-Request-Method": "POST"}), {200, 204}))
    # GET routes, paths and heads
    for path in GETS:
        # /docs redirects to /docs/, whose assets are one wildcard route (404 for other methods)
        cases.append(Case(f"GET {path}", request_bytes("GET", path), {200, 308}))
        cases.append(Case(f"GET {path} gzip", request_bytes("GET", path, None, {"Accept-Encoding": "gzip"}), {200, 308}))
        cases.append(Case(f"HEAD {path}", request_bytes("HEAD", path), {200, 308}, head=True))
        cases.append(Case(f"POST {path}", request_bytes("POST", path, b"{}"), {404, 405}))
        cases.append(Case(f"DELETE {path}", request_bytes("DELETE", path), {404, 405}))
        cases.append(Case(f"GET {path} with body", request_bytes("GET", path, b'{"a": 1}'), {200, 308}))
    for path in ["/nope", "/v1", "/v1/", "/v1//suggest", "/v1/suggest/", "/V1/SUGGEST", "/..%2f..%2fetc/passwd",
                 "/%00", "/%ff%fe", "/v1/engines/" + "a" * 2000, "/v1/engines?" + "q=" + "x" * 8000,
                 "/healthz?" + "&".join(f"a{i}=b" for i in range(2000)), "/docs/../../etc/passwd",
                 "/docs/" + "a/" * 1000]:
        cases.append(Case(f"GET {path[:40]}", request_bytes("GET", path), {200, 404}, raw_ok=True))
    cases.append(Case("GET /nope gzip", request_bytes("GET", "/nope", None, {"Accept-Encoding": "gzip"}), {404}))
    cases.append(Case("GET url 70 KB", request_bytes("GET", "/v1/engines?q=" + "x" * 70000), {400, 414, 431},
                      raw_ok=True, weight=0.2))
    cases.append(Case("TRACE /", request_bytes("TRACE", "/"), {405}))
    cases.append(Case("CONNECT", b"CONNECT kinrow:443 HTTP/1.1\r\nHost: kinrow:443\r\n\r\n", {400, 404, 405}, raw_ok=True))
    broken = [("garbage line", b"HELLO\r\n\r\n"), ("no version", b"GET /healthz\r\n\r\n"),
              ("HTTP/2.0", b"GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n"),
              ("HTTP/9.9", b"GET /healthz HTTP/9.9\r\nHost: a\r\n\r\n"),
              ("bare LF", b"GET /healthz HTTP/1.1\nHost: a\n\n"),
              ("no colon", b"GET /healthz HTTP/1.1\r\nHost a\r\n\r\n"),
              ("nul in header", b"GET /healthz HTTP/1.1\r\nHost: a\x00b\r\n\r\n"),
              ("space in name", b"GET /healthz HTTP/1.1\r\nHo st: a\r\n\r\n"),
              ("100 headers", b"GET /healthz HTTP/1.1\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(100)) + b"\r\n"),
              ("header 100 KB", b"GET /healthz HTTP/1.1\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n"),
              ("HTTP/1.0 no host", b"GET /healthz HTTP/1.0\r\n\r\n"),
              ("binary", bytes(range(256)) + b"\r\n\r\n")]
    for name, raw in broken:
        cases.append(Case(f"head {name}", raw, {200, 400, 431}, raw_ok=True, weight=0.3 if b"a" * 1000 in raw else 1.0))
    return cases


# ---------------------------------------------------------------- the categories


class Server:
    def __init__(self, url, timeout):
        u = urlsplit(url)
        self.addr = (u.hostname, u.port or 80)
        self.timeout = timeout

    def conn(self, timeout=None):
        return Conn(self.addr, timeout or self.timeout)

    def get(self, path, timeout=5):
        c = self.conn(timeout)
        try:
            return c.exchange(request_bytes("GET", path))
        finally:
            c.close()

    def post(self, path, doc, timeout=None):
        c = self.conn(timeout)
        try:
            return c.exchange(request_bytes("POST", path, dumps(doc)))
        finally:
            c.close()

    def alive(self):
        for _ in range(5):
            try:
                return self.get("/healthz").status == 200
            except NoAnswer:
                time.sleep(0.3)
        return False


def check(stats, answer, what, raw_ok=False, head=False):
    """The checks every answer gets (an answer to HEAD has no body to check)."""
    stats.answer(answer.status, answer.ms)
    s = answer.status
    if s >= 500 and s != 503:
        stats.fail("5xx", f"{what}: {s} {answer.body[:200]!r}")
    if s == 503 and "retry-after" not in answer.headers:
        stats.fail("503_no_retry_after", what)
    if s >= 400 and not head:
        if not answer.body and (s == 408 or (raw_ok and s in (400, 413, 414, 431))):
            stats.extra["plain_" + str(s)] += 1
        elif not error_shape_ok(answer):
            stats.fail("bad_error_body", f"{what}: {s} {answer.body[:200]!r}")


def no_answer(stats, server, e, what, closing_ok=False):
    """A request without an answer: refused is a crash, timeout a hang."""
    stats.answer(e.kind)
    if e.kind == "refused" or not server.alive():
        stats.fail("crash", what)
        CRASHED.append(what)
        raise SystemExit(1)
    if e.kind == "timeout":
        stats.fail("hang", what)
    elif e.kind == "garbled":
        stats.fail("garbled", what)
    elif not closing_ok:
        stats.fail("no_answer", f"{what}: {e.kind}")


CRASHED = []  # the requests after which the server no longer answered


def run_pool(n_threads, work, progress):
    """Runs work(index, stats) on n_threads threads; returns the merged stats."""
    all_stats = [Stats() for _ in range(n_threads)]
    errors = []

    def body(i):
        try:
            work(i, all_stats[i])
        except SystemExit:
            errors.append("crash")
        except Exception as e:  # a bug of this script: report it, don't hide it
            errors.append(repr(e))
            all_stats[i].fail("script_error", repr(e))

    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(n_threads)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    merged = Stats()
    for s in all_stats:
        merged.merge(s)
    if "crash" in errors:
        raise SystemExit(1)
    return merged


def hostile(server, n, args, progress):
    """Hostile inputs on every endpoint: the catalogue and random one-field mutations."""
    cases = hostile_cases()
    cum, total = [], 0.0
    for c in cases:
        total += c.weight
        cum.append(total)
    routes = list(BASES)
    per_case = {}
    lock = threading.Lock()
    counter = iter(range(n))

    def work(i, stats):
        rng = random.Random(args.seed * 1000 + i)
        conn = server.conn()
        mine = Counter()
        for _ in counter:
            if rng.random() < 0.4:
                route = rng.choice(routes)
                doc, name = mutated(rng, route)
                case = Case(f"{route} {name}", request_bytes("POST", route, dumps(doc)))
            else:
                case = rng.choices(cases, cum_weights=cum)[0]
            try:
                a = conn.exchange(case.raw, case.head)
                check(stats, a, case.name, case.raw_ok, case.head)
                status = a.status
                for _ in range(case.answers - 1):
                    if conn.sock is None:  # the server closed after the first answer
                        break
                    t = time.perf_counter()
                    st, hd, bd, close = read_answer(conn)
                    check(stats, Answer(st, hd, bd, (time.perf_counter() - t) * 1000), case.name + " (next)")
                    if close:
                        conn.close()
                        break
                if case.raw_ok or status == 413 or (status >= 400 and not a.body):
                    conn.close()  # what the server left unread must not spoil the next request
            except NoAnswer as e:
                conn.close()
                no_answer(stats, server, e, case.name, closing_ok=case.raw_ok or case.weight < 1)
                status = e.kind
            if "mutate" in case.name:
                mine[("mutations", status)] += 1
            else:
                mine[(case.name, status)] += 1
            progress.add()
        conn.close()
        with lock:
            for (name, status), k in mine.items():
                per_case.setdefault(name, Counter())[str(status)] += k

    stats = run_pool(args.concurrency, work, progress)
    expected = {c.name: c.expect for c in cases}
    surprises = {}
    for name, got in per_case.items():
        exp = expected.get(name)
        if exp and any(not (s.isdigit() and int(s) in exp) for s in got):
            surprises[name] = {"expected": sorted(exp), "got": dict(got)}
    return stats, {"cases": len(cases), "mutations": dict(per_case.get("mutations", {})), "unexpected": surprises}


def engine_positions(engines):
    """(engine, label, rules, board, extra fields, reads time_ms) for every engine and
    position; an external engine gets the 15x15 freestyle position only."""
    out = []
    for e in engines:
        name = e["name"]
        takes_time = "time_ms" in e.get("parameters", [])
        for label, rules, board, extra in [
            ("3x3", R3, B3, {}), ("3x3 empty", R3, None, {}), ("7x6 gravity", C4, "4453", {}),
            ("7x6 gravity 12", C4, "444444333333", {}),
            ("7x6 gravity 16", C4, "4444443333335555", {}), ("9x9", {"m": 9, "n": 9, "k": 5}, MID9, {}),
            ("15x15 midgame", R15, MID15, {}), ("15x15 renju", {**R15, "variant": "renju"}, MID15, {}),
            ("7x7 pieces", PIECES_RULES, PIECES7, {"to_move": "x"}),
        ]:
            if e.get("kind") == "external" and label != "15x15 midgame":
                continue
            out.append((name, label, rules, board, extra, takes_time))
    return out


def budgets(server, n, args, progress, info):
    """Budgets of every engine: suggest (and analyse, play, review, opening) with small
    time_ms; an overrun is an answer later than budget + margin + slack."""
    engines = info["engines"]
    limits = info["limits"]
    margin = limits.get("time_margin_ms", 100)
    default_ms = limits.get("default_time_ms", 1000)
    max_ms = limits.get("max_time_ms", 10000)
    jobs = engine_positions(engines)
    per = {}
    lock = threading.Lock()
    counter = iter(range(n))

    def work(i, stats):
        rng = random.Random(args.seed * 7919 + i)
        conn = server.conn(timeout=max(args.timeout, max_ms / 1000 + 5))
        for k in counter:
            name, label, rules, board, extra, takes_time = jobs[(k + i) % len(jobs)] if rng.random() < 0.8 else rng.choice(jobs)
            t_ms = rng.randint(20, 300)
            eng = {"name": name, "time_ms": t_ms, "seed": rng.randrange(1 << 30)}
            pos = {"rules": rules, **({"board": board} if board is not None else {}), **extra}
            budget = t_ms if takes_time else default_ms
            r = rng.random()
            if r < 0.65:
                route, doc = "/v1/suggest", {**pos, "engine": eng}
            elif r < 0.75:
                route, doc = "/v1/analyse", {**pos, "engine": eng}
            elif r < 0.85 and label != "7x7 pieces":
                route, doc = "/v1/play", {**pos, "move": {"col": 0} if rules.get("gravity") else first_empty(board, rules),
                                          "reply": eng}
            elif r < 0.95 and label.startswith(("3x3", "15x15 midgame", "9x9")):
                moves = [{"row": 7, "col": 7}, {"row": 6, "col": 7}, {"row": 8, "col": 8}, {"row": 6, "col": 6}] \
                    if rules["m"] >= 9 else REVIEW_MOVES
                tpm = rng.randint(5, 60)
                route, doc = "/v1/review", {"rules": rules, "moves": moves, "engine": eng, "time_ms_per_move": tpm}
                budget = min(len(moves) * tpm, max_ms)
            elif name in ("auto", "threat", "minimax") and rng.random() < 0.5:
                route = "/v1/opening"
                doc = {"rules": {**R15, "opening": rng.choice(["swap", "swap2"])}, "engine": eng}
            else:
                route, doc = "/v1/suggest", {**pos, "engine": eng}
            key = f"{name} {label}" if route == "/v1/suggest" else f"{name} {route}"
            try:
                a = conn.exchange(request_bytes("POST", route, dumps(doc)))
                check(stats, a, key)
                if route == "/v1/analyse" and a.status == 200 and b"event: result" not in a.body:
                    if b'"internal"' in a.body:
                        stats.fail("sse_internal", f"{key}: {a.body[-300:]!r}")
                    else:
                        stats.extra["analyse_without_result"] += 1
                by = a.ms - budget - margin
                stats.overrun(by)
                late = by > args.slack_ms
                if late:
                    stats.overruns += 1
                    stats.fail("overrun", f"{key} time_ms {t_ms}: {a.ms:.0f} ms, status {a.status}")
                with lock:
                    p = per.setdefault(key, {"n": 0, "statuses": Counter(), "max_over_ms": None, "overruns": 0})
                    p["n"] += 1
                    p["statuses"][str(a.status)] += 1
                    p["max_over_ms"] = round(by if p["max_over_ms"] is None else max(by, p["max_over_ms"]), 1)
                    p["overruns"] += late
            except NoAnswer as e:
                no_answer(stats, server, e, key)
            progress.add()
        conn.close()

    stats = run_pool(max(2, min(args.concurrency, limits.get("max_concurrent_searches", 2) + 2)), work, progress)
    for p in per.values():
        p["statuses"] = dict(p["statuses"])
    # overruns are reported as such, not as failures
    stats.failures.pop("overrun", None)
    overrun_examples = stats.examples.pop("overrun", [])
    return stats, {"margin_ms": margin, "slack_ms": args.slack_ms, "overrun_examples": overrun_examples,
                   "by_engine": dict(sorted(per.items()))}


def first_empty(board, rules):
    rows = board if isinstance(board, list) else ["." * rules["m"]] * rules["n"]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                return {"row": r, "col": c}
    return {"row": 0, "col": 0}


def bursts(server, n, args, progress, info):
    """Bursts of 200 clients at once on /v1/suggest: 15x15 minimax (100-300 ms), 15x15
    threat and 3x3 perfect; every 503 must carry Retry-After."""
    rounds = max(1, n // BURST)
    barrier = threading.Barrier(BURST)
    margin = info["limits"].get("time_margin_ms", 100)
    late, lock = {"n": 0, "max_ms": None}, threading.Lock()

    def work(i, stats):
        rng = random.Random(args.seed * 31 + i)
        conn = server.conn()
        for _ in range(rounds):
            r = rng.random()
            if r < 0.5:
                t_ms = rng.randint(100, 300)
                doc = {"rules": R15, "board": MID15, "engine": {"name": "minimax", "time_ms": t_ms}}
            elif r < 0.75:  # threat reads no time_ms: the default budget holds
                doc = {"rules": R15, "board": MID15, "engine": {"name": "threat"}}
                t_ms = info["limits"].get("default_time_ms", 1000)
            else:
                t_ms = rng.randint(20, 100)
                doc = {"rules": R3, "board": B3, "engine": {"name": "perfect", "time_ms": t_ms}}
            raw = request_bytes("POST", "/v1/suggest", dumps(doc))
            try:
                conn.open()
            except NoAnswer:
                pass
            try:
                barrier.wait(timeout=120)
            except threading.BrokenBarrierError:
                stats.fail("burst_barrier", "a client did not reach the burst")
                return
            try:
                a = conn.exchange(raw)
                check(stats, a, f"burst {doc['engine']['name']}")
                stats.extra[f"{doc['engine']['name']} {a.status}"] += 1
                # timed by one of 200 client threads sharing the cores with the server:
                # reported apart from the budgets' overruns (the server's own log, %D,
                # says what it took there)
                by = a.ms - t_ms - margin
                with lock:
                    late["max_ms"] = round(by if late["max_ms"] is None else max(late["max_ms"], by), 1)
                    late["n"] += by > args.slack_ms
            except NoAnswer as e:
                no_answer(stats, server, e, "burst")
            progress.add()
        conn.close()

    stats = run_pool(BURST, work, progress)
    return stats, {"bursts": rounds, "clients": BURST,
                   "client_side_late": {"past_budget_margin_slack": late["n"], "max_past_budget_margin_ms": late["max_ms"]}}


def slow(server, n, args, progress, info):
    """Slow clients: heads and bodies a byte at a time, slow readers; meanwhile probes
    (/healthz, /v1/state, 3x3 suggest) must be answered promptly."""
    waves = max(1, n // 500)
    per_wave_slow = 20 if n >= 200 else max(5, n // 10)
    probes_per_wave = max(1, n // waves - per_wave_slow)
    kinds = ["head_timeout", "head_slow_ok", "body_slow_ok", "body_timeout", "slow_reader"]
    outcomes = Counter()
    probe_ms = array("d")
    stats = Stats()
    lock = threading.Lock()

    def slow_client(kind):
        body = dumps({"rules": R3, "board": B3})
        if kind.startswith("head"):
            raw, split, gap = request_bytes("GET", "/healthz", None, {"X-Pad": "p" * 60}), 0, 0.1 if kind == "head_timeout" else 0.02
        elif kind.startswith("body"):
            raw = request_bytes("POST", "/v1/state", body)
            split, gap = raw.index(b"\r\n\r\n") + 4, 0.12 if kind == "body_slow_ok" else 0.5
        else:
            raw, split, gap = request_bytes("GET", "/openapi.json"), None, 0.05
        s = socket.socket()
        t0 = time.time()
        try:
            if kind == "slow_reader":
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(30)
            s.connect(server.addr)
            if split is None:
                s.sendall(raw)
                got = b""
                while True:
                    data = s.recv(1024)
                    if not data:
                        break
                    got += data
                    time.sleep(gap)
                    if b"\r\n\r\n" in got:
                        head, rest = got.split(b"\r\n\r\n", 1)
                        m = [l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                        if m and len(rest) >= int(m[0].split(b":")[1]) or rest.endswith(b"\r\n0\r\n\r\n"):
                            break
                return ("slow_reader " + got[9:12].decode("latin-1"), time.time() - t0)
            s.sendall(raw[:split])
            for i in range(split, len(raw)):
                s.sendall(raw[i:i + 1])
                time.sleep(gap)
            s.settimeout(20)
            got = s.recv(65536)
            return (f"{kind} {got[9:12].decode('latin-1') or 'closed'}", time.time() - t0)
        except (BrokenPipeError, ConnectionResetError):
            try:
                got = s.recv(65536)
            except OSError:
                got = b""
            return (f"{kind} {got[9:12].decode('latin-1') if got else 'cut'}", time.time() - t0)
        except socket.timeout:
            return (f"{kind} timeout", time.time() - t0)
        except ConnectionRefusedError:
            return (f"{kind} refused", time.time() - t0)
        finally:
            s.close()

    probes = [request_bytes("GET", "/healthz"), request_bytes("POST", "/v1/state", dumps({"rules": R3, "board": B3})),
              request_bytes("POST", "/v1/suggest", dumps(BASES["/v1/suggest"]))]
    for w in range(waves):
        results = []
        threads = []
        for j in range(per_wave_slow):
            kind = kinds[j % len(kinds)]
            t = threading.Thread(target=lambda k=kind: results.append(slow_client(k)), daemon=True)
            t.start()
            threads.append(t)
        sent = 0
        conn = server.conn(timeout=args.timeout)
        while sent < probes_per_wave or any(t.is_alive() for t in threads):
            raw = probes[sent % len(probes)]
            try:
                a = conn.exchange(raw)
                check(stats, a, "probe")
                if a.status != 200:
                    stats.fail("probe_not_200", f"{a.status} {a.body[:100]!r}")
                probe_ms.append(a.ms)
            except NoAnswer as e:
                no_answer(stats, server, e, "probe")
            sent += 1
            progress.add()
            if sent >= probes_per_wave:
                time.sleep(0.05)
        conn.close()
        for kind, secs in results:
            outcomes[kind] += 1
            stats.answer("slow " + kind.split()[-1])
            if kind.endswith(("500", "timeout", "refused")):  # no answer in 20 s, or a 500
                stats.fail("slow_client", f"{kind} after {secs:.1f} s")
            with lock:
                stats.extra["slow_seconds_max"] = max(stats.extra["slow_seconds_max"], int(secs))
        progress.add(len(results))
    worst = max(probe_ms) if probe_ms else None
    if worst is not None and worst > 1000:
        stats.fail("probe_slow", f"a probe took {worst:.0f} ms while slow clients were connected")
    return stats, {"waves": waves, "slow_connections": dict(outcomes),
                   "probe_latency_ms": {"p50": pct(probe_ms, 0.5), "p99": pct(probe_ms, 0.99),
                                        "max": round(worst, 2) if worst else None}}


def gauges(server):
    """(in_flight, queued, text) from /metrics."""
    a = server.get("/metrics")
    text = decoded(a).decode()
    vals = {}
    for line in text.splitlines():
        if line.startswith(("kinrow_searches_in_flight ", "kinrow_searches_queued ")):
            k, v = line.split()
            vals[k] = float(v)
    return vals.get("kinrow_searches_in_flight"), vals.get("kinrow_searches_queued"), text


def drain(server, limit_s=2.0):
    """Seconds until in-flight and queued are both 0 (None if not within limit_s)."""
    t0 = time.time()
    while True:
        f, q, _ = gauges(server)
        if f == 0 and q == 0:
            return round(time.time() - t0, 3)
        if time.time() - t0 > limit_s:
            return None
        time.sleep(0.05)


def sse(server, n, args, progress, info):
    """SSE disconnects: /v1/analyse closed after the head, the first event, a random time
    (some with a reset), or read to the end; then the gauges must drain."""
    counter = iter(range(n))
    modes = ["head", "first_event", "random", "random_reset", "first_event_reset", "full"]

    def work(i, stats):
        rng = random.Random(args.seed * 101 + i)
        for _ in counter:
            mode = rng.choice(modes)
            name = rng.choice(["auto", "minimax", "mcts", "perfect"])
            label, rules, board = rng.choice([("15x15", R15, MID15), ("7x6 gravity", C4, "4453"),
                                              ("9x9", {"m": 9, "n": 9, "k": 5}, MID9)])
            t_ms = rng.randint(100, 300) if mode == "full" else rng.randint(300, 3000)
            doc = {"rules": rules, "board": board, "engine": {"name": name, "time_ms": t_ms}}
            conn = server.conn(timeout=args.timeout)
            t0 = time.perf_counter()
            try:
                conn.open()
                conn.sock.sendall(request_bytes("POST", "/v1/analyse", dumps(doc)))
                status, headers = read_head(conn)
                ms = (time.perf_counter() - t0) * 1000
                a = Answer(status, headers, b"", ms)
                if status != 200:
                    a.body = read_rest(conn, headers)
                    check(stats, a, f"analyse {name} {label}")
                    stats.extra[f"{mode} {status}"] += 1
                    conn.close()
                    progress.add()
                    continue
                stats.answer(200, ms)
                if mode == "head":
                    pass
                elif mode.startswith("first_event"):
                    while b"\n\n" not in conn.buf:
                        data = conn.recv()
                        if not data:
                            break
                        conn.buf += data
                elif mode.startswith("random"):
                    end = time.perf_counter() + rng.uniform(0, 0.6)
                    conn.sock.settimeout(0.05)
                    while time.perf_counter() < end:
                        try:
                            if not conn.sock.recv(65536):
                                break
                        except socket.timeout:
                            pass
                        except OSError:
                            break
                else:
                    conn.sock.settimeout(args.timeout)
                    rest, _ = read_body(conn, headers)
                    if b"event: error" in rest and b'"internal"' in rest:
                        stats.fail("sse_internal", f"{name} {label}: {rest[-300:]!r}")
                    elif b"event: result" not in rest:
                        stats.extra["full_without_result"] += 1
                stats.extra[mode] += 1
                conn.close(reset=mode.endswith("reset"))
            except NoAnswer as e:
                conn.close()
                no_answer(stats, server, e, f"analyse {mode} {name} {label}")
            progress.add()

    stats = run_pool(max(2, min(args.concurrency, 8)), work, progress)
    time.sleep(0.1)
    secs = drain(server, 2.0)
    if secs is None:
        f, q, _ = gauges(server)
        stats.fail("metrics_not_drained", f"2 s after the last disconnect: in flight {f}, queued {q}")
    return stats, {"drained_s": secs}


def read_rest(conn, headers):
    try:
        return read_body(conn, headers)[0]
    except NoAnswer:
        return conn.buf


# ---------------------------------------------------------------- monitor and main


def read_status(pid):
    out = {}
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(("VmRSS", "VmHWM")):
                k, v = line.split(":")
                out[k] = int(v.split()[0]) / 1024
    except OSError:
        pass
    return out


def loadavg():
    return float(open("/proc/loadavg").read().split()[0])


class Monitor(threading.Thread):
    """Every second: VmRSS/VmHWM of the server and /metrics' two gauges."""

    def __init__(self, server, pid, info):
        super().__init__(daemon=True)
        self.server, self.pid, self.stop = server, pid, threading.Event()
        self.rss, self.hwm, self.samples = [], 0.0, []
        self.max_in_flight = self.max_queued = 0.0
        self.negative = []
        self.limits = info["limits"]

    def run(self):
        t0 = time.time()
        while not self.stop.is_set():
            if self.pid:
                st = read_status(self.pid)
                if "VmRSS" in st:
                    self.rss.append((round(time.time() - t0), round(st["VmRSS"], 1)))
                    self.hwm = max(self.hwm, st.get("VmHWM", 0))
            try:
                f, q, _ = gauges(self.server)
                if f is not None:
                    self.max_in_flight = max(self.max_in_flight, f)
                    self.max_queued = max(self.max_queued, q)
                    if f < 0 or q < 0:
                        self.negative.append((round(time.time() - t0), f, q))
            except (NoAnswer, ValueError, OSError):
                pass
            self.stop.wait(1.0)


def counters(text):
    """The counters of /metrics worth comparing: requests and searches by result."""
    http = 0.0
    searches = Counter()
    for line in text.splitlines():
        if line.startswith("kinrow_http_requests_total{"):
            http += float(line.rsplit(" ", 1)[1])
        elif line.startswith("kinrow_searches_total{"):
            labels, v = line.rsplit(" ", 1)
            result = labels.split('result="')[1].split('"')[0]
            searches[result] += float(v)
    return http, searches


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:18500")
    p.add_argument("--pid", type=int, help="the server's pid, for VmRSS/VmHWM")
    p.add_argument("--requests", type=int, default=920000, help="total, split by fixed shares")
    p.add_argument("--concurrency", type=int, default=16, help="client threads (bursts use 200)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="also write the JSON lines here")
    p.add_argument("--only", help="comma-separated categories: " + ",".join(ORDER))
    p.add_argument("--slack-ms", type=float, default=50, help="allowed past budget + margin")
    p.add_argument("--timeout", type=float, default=15, help="seconds without an answer that count as a hang")
    args = p.parse_args()

    server = Server(args.url, args.timeout)
    if not server.alive():
        sys.exit(f"no server answers /healthz at {args.url}")
    info = json.loads(server.get("/v1/engines").body)
    only = args.only.split(",") if args.only else ORDER
    shares = {c: SHARES[c] for c in ORDER if c in only}
    scale = sum(shares.values())
    counts = {c: max(1, int(args.requests * s / scale)) for c, s in shares.items()}
    _, _, text0 = gauges(server)
    http0, searches0 = counters(text0)
    load0 = loadavg()
    rss0 = read_status(args.pid).get("VmRSS") if args.pid else None
    out = open(args.out, "w") if args.out else None

    def emit(doc):
        line = json.dumps(doc)
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()

    monitor = Monitor(server, args.pid, info)
    monitor.start()
    progress = Progress(sum(counts.values()))
    print(f"adversarial: {progress.total} requests against {args.url}: "
          + ", ".join(f"{c} {k}" for c, k in counts.items()), file=sys.stderr, flush=True)
    funcs = {"hostile": lambda n: hostile(server, n, args, progress),
             "budgets": lambda n: budgets(server, n, args, progress, info),
             "bursts": lambda n: bursts(server, n, args, progress, info),
             "slow": lambda n: slow(server, n, args, progress, info),
             "sse": lambda n: sse(server, n, args, progress, info)}
    total = Stats()
    t_start = time.time()
    for cat in counts:
        progress.what = cat
        t0 = time.time()
        try:
            stats, more = funcs[cat](counts[cat])
        except SystemExit:
            monitor.stop.set()
            emit({"summary": True, "ok": False, "category": cat, "crashed_after": CRASHED[:EXAMPLES],
                  "seconds": round(time.time() - t_start, 1), "loadavg_1m": {"start": load0, "end": loadavg()}})
            sys.exit(1)
        emit(stats.line(cat, time.time() - t0, **more))
        total.merge(stats)
    seconds = time.time() - t_start
    monitor.stop.set()
    monitor.join(2)

    alive = server.alive()
    drained = drain(server, 2.0) if alive else None
    f_end, q_end, text1 = gauges(server) if alive else (None, None, "")
    http1, searches1 = counters(text1)
    failures = Counter(total.failures)
    if not alive:
        failures["dead_at_end"] += 1
    if alive and drained is None:
        failures["metrics_not_drained"] += 1
    if monitor.negative:
        failures["negative_gauge"] += len(monitor.negative)
    panics = searches1["panic"] - searches0["panic"]
    if panics:
        failures["search_panic"] += int(panics)
    st = read_status(args.pid) if args.pid else {}
    requests = sum(total.statuses.values())
    emit({
        "summary": True,
        "ok": not failures,
        "requests": requests,
        "seconds": round(seconds, 1),
        "rate": round(requests / max(seconds, 1e-9)),
        "statuses": dict(sorted(total.statuses.items())),
        "failures": dict(failures),
        "overruns": total.overruns,
        "max_overrun_ms": None if total.max_overrun_ms is None else round(total.max_overrun_ms, 1),
        "rss_mb": {"start": rss0 and round(rss0, 1), "end": st.get("VmRSS") and round(st["VmRSS"], 1),
                   "peak_sampled": max((r for _, r in monitor.rss), default=None),
                   "hwm": st.get("VmHWM") and round(st["VmHWM"], 1),
                   "every_10s": monitor.rss[::10]},
        "loadavg_1m": {"start": load0, "end": loadavg()},
        "metrics": {"in_flight": f_end, "queued": q_end, "drained_s": drained,
                    "max_in_flight_seen": monitor.max_in_flight, "max_queued_seen": monitor.max_queued,
                    "http_requests_delta": http1 - http0,
                    "searches_delta": {k: searches1[k] - searches0[k] for k in sorted(searches1)}},
        "alive": alive,
    })
    sys.exit(0 if not failures else 1)


if __name__ == "__main__":
    main()
