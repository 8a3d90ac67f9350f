#!/usr/bin/env python3
"""Probes for bench/failover.sh (run inside lab namespaces; lab traffic only, 198.18.0.0/15).

  failover-probe.py poll HOST PORT INTERVAL_MS
      Every INTERVAL_MS, one TCP connect to HOST:PORT (timeout INTERVAL_MS) and, if it connects, one
      HTTP/1.0 GET. Prints "EPOCH_MS STATE MAC" whenever that changes, STATE being the body's first
      line (the serving node's host name), "refused" (the address answers, nothing listens: the
      VIP is up on a node whose service is not), or "none" (no answer in time), and MAC the
      client's ARP entry for HOST (/proc/net/arp of the caller's network namespace, "-" if none):
      which node the client sends to.
  failover-probe.py sniff IFACE SRC_IP UDP_PORT
      Prints "EPOCH_MS" for every IPv4 UDP datagram from SRC_IP to UDP_PORT seen on IFACE (a raw
      AF_PACKET socket: the peer's heartbeats as they arrive, before any daemon reads them), stamped
      with the kernel's receive time (SO_TIMESTAMPNS), so a busy machine does not delay the stamp.
Both run until killed; output is line-buffered.
"""
import errno
import socket
import struct
import sys
import time


SO_TIMESTAMPNS = 35  # Linux: the kernel's receive time of each packet


def now_ms():
    return int(time.time() * 1000)


def arp_entry(host):
    try:
        with open("/proc/net/arp") as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if len(fields) >= 4 and fields[0] == host and fields[2] != "0x0":
                    return fields[3]
    except OSError:
        pass
    return "-"


def poll(host, port, interval_ms):
    interval = interval_ms / 1000.0
    last = None
    while True:
        t0 = time.monotonic()
        state = "none"
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(interval)
        try:
            s.connect((host, port))
            s.settimeout(1.0)
            s.sendall(b"GET / HTTP/1.0\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            body = data.split(b"\r\n\r\n", 1)[-1].decode("ascii", "replace").strip()
            state = body.splitlines()[0] if body else "empty"
        except ConnectionRefusedError:
            state = "refused"
        except OSError as e:
            state = "refused" if e.errno == errno.ECONNREFUSED else "none"
        finally:
            s.close()
        state += " " + arp_entry(host)
        if state != last:
            print(now_ms(), state, flush=True)
            last = state
        left = interval - (time.monotonic() - t0)
        if left > 0:
            time.sleep(left)


def sniff(iface, src, port):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.bind((iface, 0))
    want = socket.inet_aton(src)
    while True:
        pkt, anc, _, _ = s.recvmsg(2048, 64)
        stamp = now_ms()
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
                sec, nsec = struct.unpack("qq", data[:16])
                stamp = sec * 1000 + nsec // 1000000
        # Ethernet header (14 bytes), IPv4 header, UDP header
        if len(pkt) < 14 + 20 + 8 or pkt[14 + 9] != 17 or pkt[14 + 12:14 + 16] != want:
            continue
        ihl = (pkt[14] & 0x0F) * 4
        dport = struct.unpack("!H", pkt[14 + ihl + 2:14 + ihl + 4])[0]
        if dport == port:
            print(stamp, flush=True)


def main(argv):
    if len(argv) == 5 and argv[1] == "poll":
        poll(argv[2], int(argv[3]), int(argv[4]))
    elif len(argv) == 5 and argv[1] == "sniff":
        sniff(argv[2], argv[3], int(argv[4]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:
        sys.exit(0)
