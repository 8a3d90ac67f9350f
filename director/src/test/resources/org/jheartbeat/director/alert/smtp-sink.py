#!/usr/bin/env python3
"""A real SMTP server for the alert tests, on Python's standard smtpd module.

usage: smtp-sink.py PORT OUTDIR [accept|reject] [ADDRESS]

Listens on ADDRESS:PORT (127.0.0.1 unless given). Each message received is written to OUTDIR/N.msg: a line with
the envelope sender, a line with the recipients separated by tabs, then the data as
received (dot-stuffing undone, lines ending in LF); with "reject" every message is refused at the
end of DATA with 554. Prints "ready" once listening. Ends on SIGTERM.
"""
import warnings

warnings.simplefilter("ignore")

import asyncore  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import smtpd  # noqa: E402
import sys  # noqa: E402


class Sink(smtpd.SMTPServer):
    def __init__(self, address, port, outdir, mode):
        super().__init__((address, port), None, decode_data=True)
        self.outdir = outdir
        self.mode = mode
        self.count = 0

    def process_message(self, peer, mailfrom, rcpttos, data, **kwargs):
        if self.mode == "reject":
            return "554 5.7.1 rejected by the test server"
        self.count += 1
        tmp = os.path.join(self.outdir, "%d.tmp" % self.count)
        with open(tmp, "w") as f:
            f.write(mailfrom + "\n" + "\t".join(rcpttos) + "\n" + data)
        os.rename(tmp, os.path.join(self.outdir, "%d.msg" % self.count))
        return None


def main():
    port, outdir = int(sys.argv[1]), sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else "accept"
    address = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
    Sink(address, port, outdir, mode)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    print("ready", flush=True)
    asyncore.loop(timeout=0.2)


if __name__ == "__main__":
    main()
