#!/usr/bin/env python3
"""Junk and replayed heartbeat frames for the fault-matrix drills (FloodDrills.java).

Lab traffic only: every destination must be in 198.18.0.0/15, and the script runs only inside a
network namespace lab/lab.sh created (/run/netns/LABID-n1, -n2, -cl), e.g. with
`ip netns exec LABID-cl`. Every mode is bounded by a count and a duration.

  hb-frames.py flood DST_IP PORT COUNT SECONDS
      Sends up to COUNT datagrams to DST_IP:PORT, as fast as one process can (sendmmsg(2), 64 a call),
      for at most SECONDS.
      Each is a well-formed Heartbeat netstring frame (a node2 "status") whose authentication trailer
      is random hex of the sha1 length: a bad signature, which the daemon must parse, fail to verify,
      count and drop. Prints one line "sent=N errors=E seconds=S rate=R" (errors: datagrams the kernel
      refused to send, e.g. ENOBUFS or ECONNREFUSED; not in sent).
  hb-frames.py capture OUT SECONDS PORT SRC_IP...
      In the receiver's namespace: records every IPv4 UDP datagram from one of SRC_IP to PORT that
      arrives on any interface (a raw AF_PACKET socket, before any daemon reads it), one line per
      frame: "IFACE SRC_IP SPORT DST_IP DPORT EPOCH_MS HEX_PAYLOAD" (EPOCH_MS: when it was read).
      Prints "capturing" once the socket is open. Stops on SIGTERM, after SECONDS or after 100000
      frames; writes OUT.part and renames it to OUT when done, then prints "captured=N".
  hb-frames.py replay IN SECONDS
      In the original sender's namespace: waits for IN to appear (a capture still running), then
      sends each recorded frame again, from SRC_IP (an ephemeral port) to DST_IP:DPORT, keeping the
      recorded gaps between frames, over and over; SECONDS after the start (waiting included) it
      stops and prints "replayed=N rounds=R errors=E began_ms=EPOCH_MS ended_ms=EPOCH_MS".
"""
import ctypes
import ipaddress
import os
import random
import re
import signal
import socket
import struct
import sys
import time

LAB_NET = ipaddress.ip_network("198.18.0.0/15")
MAX_CAPTURE = 100_000
MAX_SECONDS = 600
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4


def lab_address(text):
    a = ipaddress.ip_address(text)
    if a not in LAB_NET:
        raise SystemExit("hb-frames.py: %s is outside the lab's 198.18.0.0/15; refusing" % text)
    return str(a)


def require_lab_namespace():
    """Exits unless this process lives in a network namespace lab.sh created (/run/netns/LABID-n1 etc.)."""
    me = os.stat("/proc/self/ns/net").st_ino
    try:
        names = os.listdir("/run/netns")
    except OSError:
        names = []
    for name in names:
        if re.fullmatch(r"[a-z0-9]{1,8}-(n1|n2|cl|sw)", name) and os.stat("/run/netns/" + name).st_ino == me:
            return name
    raise SystemExit("hb-frames.py: runs only inside a lab network namespace (ip netns exec LABID-n1|n2|cl);"
                     " this process is in none of them")


def bounded_seconds(text):
    s = float(text)
    if not 0 < s <= MAX_SECONDS:
        raise SystemExit("hb-frames.py: SECONDS must be in (0, %d], got %s" % (MAX_SECONDS, text))
    return s


def junk_frames(n):
    """n netstring frames shaped as node2's status messages, each with a random (wrong) sha1 trailer."""
    frames = []
    rnd = random.Random(694)
    for i in range(n):
        fields = [("t", "status"), ("st", "active"), ("dt", "2710"), ("protocol", "1"), ("src", "node2"),
                  ("seq", "%x" % (i + 1)), ("hg", "65f00000"), ("ts", "65f00000"), ("ld", "0.10 0.10 0.10 1/90 1"),
                  ("ttl", "3")]
        body = b"###\n"
        for name, value in fields:
            item = b"(0)" + name.encode() + b"=" + value.encode()
            body += str(len(item)).encode() + b":" + item + b","
        body += b"%%%\n"
        trailer = b"1 " + ("%040x" % rnd.getrandbits(160)).encode()
        frames.append(body + str(len(trailer)).encode() + b":" + trailer + b",")
    return frames


class _Iovec(ctypes.Structure):
    _fields_ = [("iov_base", ctypes.c_void_p), ("iov_len", ctypes.c_size_t)]


class _Msghdr(ctypes.Structure):
    _fields_ = [("msg_name", ctypes.c_void_p), ("msg_namelen", ctypes.c_uint32),
                ("msg_iov", ctypes.POINTER(_Iovec)), ("msg_iovlen", ctypes.c_size_t),
                ("msg_control", ctypes.c_void_p), ("msg_controllen", ctypes.c_size_t), ("msg_flags", ctypes.c_int)]


class _Mmsghdr(ctypes.Structure):
    _fields_ = [("msg_hdr", _Msghdr), ("msg_len", ctypes.c_uint)]


def batch_sender(sock, frames):
    """A function sending all of frames (at most 64) on the connected sock in one sendmmsg(2) call, returning
    how many went out (0: refused). Python's send() loop costs about twice as much per datagram."""
    libc = ctypes.CDLL(None, use_errno=True)
    n = len(frames)
    keep = [ctypes.create_string_buffer(f, len(f)) for f in frames]
    iovs = (_Iovec * n)()
    msgs = (_Mmsghdr * n)()
    for i, f in enumerate(frames):
        iovs[i].iov_base = ctypes.cast(keep[i], ctypes.c_void_p)
        iovs[i].iov_len = len(f)
        msgs[i].msg_hdr.msg_iov = ctypes.pointer(iovs[i])
        msgs[i].msg_hdr.msg_iovlen = 1
    fd = sock.fileno()
    call = libc.sendmmsg

    def send(count):
        r = call(fd, msgs, count, 0)
        _ = keep  # the buffers live as long as the sender
        return r if r > 0 else 0
    return send


def flood(dst, port, count, seconds):
    frames = junk_frames(64)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((dst, port))
    send = batch_sender(s, frames)
    sent = errors = 0
    t0 = time.monotonic()
    end = t0 + seconds
    while sent + errors < count and time.monotonic() < end:
        want = min(len(frames), count - sent - errors)
        n = send(want)
        sent += n
        errors += want - n
    took = time.monotonic() - t0
    print("sent=%d errors=%d seconds=%.2f rate=%d" % (sent, errors, took, sent / took if took > 0 else 0), flush=True)


def capture(out, seconds, port, sources):
    want = {socket.inet_aton(a) for a in sources}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_IP))
    s.settimeout(0.1)
    print("capturing", flush=True)
    t0 = time.monotonic()
    n = 0
    part = out + ".part"
    with open(part, "w") as f:
        while n < MAX_CAPTURE and not stop and time.monotonic() - t0 < seconds:
            try:
                pkt, addr = s.recvfrom(65600)
            except socket.timeout:
                continue
            if addr[2] == PACKET_OUTGOING or len(pkt) < 14 + 20 + 8:
                continue
            ip = pkt[14:]
            ihl = (ip[0] & 0x0F) * 4
            if ip[9] != 17 or ip[12:16] not in want:
                continue
            sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
            if dport != port:
                continue
            total = struct.unpack("!H", ip[2:4])[0]
            f.write("%s %s %d %s %d %d %s\n" % (addr[0], socket.inet_ntoa(ip[12:16]), sport,
                                                 socket.inet_ntoa(ip[16:20]), dport, int(time.time() * 1000),
                                                 ip[ihl + 8:total].hex()))
            n += 1
    # complete: a replay waiting for OUT starts now
    os.rename(part, out)
    print("captured=%d" % n, flush=True)


def replay(path, seconds):
    end = time.monotonic() + seconds
    while not os.path.exists(path):
        if time.monotonic() >= end:
            raise SystemExit("hb-frames.py: %s did not appear within %s s" % (path, seconds))
        time.sleep(0.02)
    frames = []
    with open(path) as f:
        for line in f:
            _, src, _, dst, dport, ms, payload = line.split()
            frames.append((lab_address(src), lab_address(dst), int(dport), int(ms), bytes.fromhex(payload)))
    if not frames:
        raise SystemExit("hb-frames.py: %s holds no frame" % path)
    socks = {}
    for src, _, _, _, _ in frames:
        if src not in socks:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind((src, 0))
            socks[src] = s
    sent = errors = rounds = 0
    first_ms = frames[0][3]
    # a round lasts the recording plus one mean gap, so the first frame follows the last as it followed its
    # predecessor
    span = (frames[-1][3] - first_ms) / 1000.0
    period = max(0.05, span + (span / (len(frames) - 1) if len(frames) > 1 else 0.5))
    base = time.monotonic()
    started = int(time.time() * 1000)
    while True:
        for src, dst, dport, ms, payload in frames:
            due = base + (ms - first_ms) / 1000.0
            if due >= end or time.monotonic() >= end:
                break
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                socks[src].sendto(payload, (dst, dport))
                sent += 1
            except OSError:
                errors += 1
        else:
            rounds += 1
            base += period
            continue
        break
    print("replayed=%d rounds=%d errors=%d began_ms=%d ended_ms=%d" % (sent, rounds, errors, started,
                                                                     int(time.time() * 1000)), flush=True)


def main(argv):
    if len(argv) == 6 and argv[1] == "flood":
        require_lab_namespace()
        count = int(argv[4])
        if not 0 < count <= 100_000_000:
            raise SystemExit("hb-frames.py: COUNT must be in (0, 100000000]")
        flood(lab_address(argv[2]), int(argv[3]), count, bounded_seconds(argv[5]))
    elif len(argv) >= 6 and argv[1] == "capture":
        require_lab_namespace()
        capture(argv[2], bounded_seconds(argv[3]), int(argv[4]), [lab_address(a) for a in argv[5:]])
    elif len(argv) == 4 and argv[1] == "replay":
        require_lab_namespace()
        replay(argv[2], bounded_seconds(argv[3]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
