#!/usr/bin/env python3
# Issue 34, item 1 (docs/performance.md): opens N connections (default 2000) that each send
# a request's headers and part of its body, then stall; prints the server's RSS (PID given)
# before, with them open and after, and how long until the server has closed them all.
#   python3 scripts/stalled.py PORT PID [N]
import socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
def rss_mb():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
head = (b"POST /v1/state HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{\"rules\": {\"m\": 3,")
before = rss_mb()
socks = []
start = time.time()
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(head)
    s.setblocking(False)
    socks.append(s)
time.sleep(1)
print(f"{n} stalled connections: RSS {before:.0f} MB before, {rss_mb():.0f} MB with them open")
opened = time.time() - start
open_ = set(range(n))
closed = []
answers = {}
while open_ and time.time() - start < 120:
    for i in list(open_):
        try:
            data = socks[i].recv(65536)
            if data[:12]:
                answers[data[9:12]] = answers.get(data[9:12], 0) + 1
            if data == b"":
                open_.discard(i)
                closed.append(time.time() - start)
        except BlockingIOError:
            pass
        except OSError:
            open_.discard(i)
            closed.append(time.time() - start)
    time.sleep(0.2)
closed.sort()
print(f"opened in {opened:.1f} s; closed by the server: {len(closed)} of {n}, the first at {closed[0]:.1f} s, "
      f"half by {closed[len(closed) // 2]:.1f} s, the last at {closed[-1]:.1f} s; answers {answers}; RSS after {rss_mb():.0f} MB")
