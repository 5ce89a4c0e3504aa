"""A tiny DNS server on 127.0.0.1:53 (UDP) for scenarios in a netns.

    dnsd.py nxdomain|silent READYFILE [LIFETIME]

nxdomain answers every query "no such name" (RCODE 3), echoing the
question; silent reads queries and never answers.  READYFILE is written
once the socket is bound.  Exits after LIFETIME seconds (default 300) so
that nothing lingers if the caller dies.
"""
import socket
import sys
import time

mode, ready = sys.argv[1], sys.argv[2]
lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 300.0
if mode not in ("nxdomain", "silent"):
    sys.exit("dnsd: unknown mode %r" % mode)

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 53))
with open(ready, "w") as f:
    f.write("ready\n")

deadline = time.monotonic() + lifetime
while time.monotonic() < deadline:
    sock.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        query, peer = sock.recvfrom(512)
    except socket.timeout:
        break
    if mode == "silent" or len(query) < 12:
        continue
    # Header: same id, QR=1, opcode and RD copied, RA=1, RCODE=3; one
    # question (echoed), no answers.
    flags = 0x8000 | (query[2] << 8 & 0x7900) | 0x0080 | 3
    reply = query[:2] + flags.to_bytes(2, "big") + b"\x00\x01\x00\x00\x00\x00\x00\x00" + query[12:]
    sock.sendto(reply, peer)
