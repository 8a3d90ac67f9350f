#!/usr/bin/env python3
"""Captures a real server's answer to the conversation a jheartbeat health check holds, for the
answer fuzzers' seeds (director/src/test/resources/org/jheartbeat/director/check/answers/).

Usage: capture-check-answers.py PROTOCOL PORT OUT [ARGS]
  dns PORT OUT NAME          the check's DNS query (id 0, RD, type A, class IN) over TCP; writes the
                             answer message without its 2-byte length prefix
  ftp PORT OUT USER PASS FILE  greeting, USER, PASS, then (if logged in) CWD /, TYPE I, PASV, RETR FILE
                             (reading the data connection to its end), QUIT; writes the control stream
  nntp PORT OUT              greeting, QUIT
  sip PORT OUT               the check's OPTIONS sip:ldirectord@localhost over TCP, the answer
  proxy PORT OUT TARGET_PORT one connection relayed to 127.0.0.1:TARGET_PORT (for a client such as
                             ldapsearch); writes what the server sent

Loopback only: every connection goes to 127.0.0.1. Each reply is read until the line protocol's
reply is complete (a line 'NNN ' for FTP/NNTP) or the server closes, with a 5 s limit.
"""
import os
import random
import re
import socket
import struct
import sys

HOST = "127.0.0.1"


def recv_reply(s, buf):
    """Reads one FTP/NNTP-style reply (last line 'NNN '); returns it, appending to buf."""
    data = b""
    while True:
        lines = data.split(b"\r\n")
        for line in lines[:-1]:
            if re.match(rb"^\d{3} ", line):
                buf.extend(data)
                return data.decode("latin-1")
        chunk = s.recv(4096)
        if not chunk:
            buf.extend(data)
            return data.decode("latin-1")
        data += chunk


def dns(port, out, name):
    q = struct.pack(">HBBHHHH", 0, 0x01, 0x00, 1, 0, 0, 0)
    for label in name.rstrip(".").split("."):
        q += bytes([len(label)]) + label.encode("ascii")
    q += b"\x00" + struct.pack(">HH", 1, 1)
    with socket.create_connection((HOST, port), timeout=5) as s:
        s.sendall(struct.pack(">H", len(q)) + q)
        data = b""
        while len(data) < 2 or len(data) < 2 + struct.unpack(">H", data[:2])[0]:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data[2:]


def ftp(port, out, user, password, file):
    buf = bytearray()
    with socket.create_connection((HOST, port), timeout=5) as s:
        recv_reply(s, buf)
        s.sendall(b"USER " + user.encode() + b"\r\n")
        r = recv_reply(s, buf)
        if r.startswith("331") or r.startswith("332"):
            s.sendall(b"PASS " + password.encode() + b"\r\n")
            r = recv_reply(s, buf)
        if r.startswith("2"):
            for cmd in (b"CWD /", b"TYPE I"):
                s.sendall(cmd + b"\r\n")
                recv_reply(s, buf)
            s.sendall(b"PASV\r\n")
            m = re.search(r"(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)", recv_reply(s, buf))
            with socket.create_connection((HOST, int(m.group(5)) * 256 + int(m.group(6))), timeout=5) as d:
                s.sendall(b"RETR " + file.encode() + b"\r\n")
                r = recv_reply(s, buf)
                while r[:1] in ("1", "2") and d.recv(4096):
                    pass  # the check reads the data connection only when RETR was accepted
            if r.startswith("1"):
                recv_reply(s, buf)  # 226 after the data connection's end
        s.sendall(b"QUIT\r\n")
        recv_reply(s, buf)
    return bytes(buf)


def nntp(port, out):
    buf = bytearray()
    with socket.create_connection((HOST, port), timeout=5) as s:
        recv_reply(s, buf)
        s.sendall(b"QUIT\r\n")
        recv_reply(s, buf)
    return bytes(buf)


def sip(port, out):
    login = "ldirectord@localhost"
    with socket.create_connection((HOST, port), timeout=5) as s:
        host, lport = s.getsockname()
        r = random.Random(0)
        req = ("OPTIONS sip:%s SIP/2.0\r\nVia: SIP/2.0/TCP %s:%d;branch=z9hG4bK%x\r\nMax-Forwards: 70\r\n"
               "To: <sip:%s>\r\nFrom: <sip:%s>;tag=%x\r\nCall-ID: %x\r\nCSeq: 1 OPTIONS\r\n"
               "Contact: <sip:%s>\r\nAccept: application/sdp\r\nContent-Length: 0\r\n\r\n") % (
            login, host, lport, r.getrandbits(63), login, login, r.getrandbits(31), r.getrandbits(63), login)
        s.sendall(req.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data


def proxy(port, out, target):
    with socket.create_server((HOST, int(port))) as ls:
        print("listening on %s:%s" % (HOST, port), flush=True)
        c, _ = ls.accept()
        buf = bytearray()
        with c, socket.create_connection((HOST, int(target)), timeout=5) as s:
            import selectors
            sel = selectors.DefaultSelector()
            sel.register(c, selectors.EVENT_READ)
            sel.register(s, selectors.EVENT_READ)
            open_ = True
            while open_:
                for key, _ in sel.select(timeout=5):
                    data = key.fileobj.recv(4096)
                    if not data:
                        open_ = False
                        break
                    if key.fileobj is s:
                        buf.extend(data)
                        c.sendall(data)
                    else:
                        s.sendall(data)
                else:
                    continue
    return bytes(buf)


def main():
    proto, port, out, *rest = sys.argv[1:]
    data = {"dns": dns, "ftp": ftp, "nntp": nntp, "sip": sip, "proxy": proxy}[proto](int(port), out, *rest)
    with open(out, "wb") as f:
        f.write(data)
    print("%s: %d bytes" % (out, len(data)))


if __name__ == "__main__":
    main()
