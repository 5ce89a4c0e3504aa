"""A TCP listener on 127.0.0.1 that never answers a new connection.

It listens with a backlog of 0 and never accepts, then fills its own
accept queue with two connections: the kernel drops every later SYN, so a
client's connect() neither succeeds nor is refused -- it times out, like a
firewalled CDN.  Writes the port to argv[1] and lives until killed (or
for argv[2] seconds, so that nothing lingers if the caller dies).
"""
import os
import socket
import sys
import time

portfile = sys.argv[1]
lifetime = float(sys.argv[2]) if len(sys.argv) > 2 else 300.0

srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.bind(("127.0.0.1", 0))
srv.listen(0)
port = srv.getsockname()[1]

fillers = []
for _ in range(2):
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    fillers.append(c)
time.sleep(0.2)

with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % port)
os.rename(portfile + ".tmp", portfile)
time.sleep(lifetime)
