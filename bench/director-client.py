#!/usr/bin/env python3
# director-client.py latency HOST PORT N: N sequential GET /small on new connections; prints p50 p99 in us.
# director-client.py bulk HOST PORT BYTES: one GET /big?BYTES; prints MB/s.
import socket, sys, time

def get(host, port, path):
    s = socket.create_connection((host, port), timeout=30)
    s.sendall(b"GET " + path + b" HTTP/1.0\r\n\r\n")
    n = 0
    while True:
        b = s.recv(1 << 20)
        if not b:
            break
        n += len(b)
    s.close()
    return n

mode, host, port, arg = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if mode == "latency":
    for _ in range(200):
        get(host, port, b"/small")
    t = []
    for _ in range(arg):
        t0 = time.perf_counter()
        get(host, port, b"/small")
        t.append((time.perf_counter() - t0) * 1e6)
    t.sort()
    print("%.0f %.0f" % (t[len(t) // 2], t[int(len(t) * 0.99)]))
else:
    t0 = time.perf_counter()
    n = get(host, port, b"/big?%d" % arg)
    print("%.0f" % (n / (time.perf_counter() - t0) / 1e6))
