"""The demo's unreachable CDN: a TCP listener on 127.0.0.1 that never answers.

It listens with a backlog of 0, never accepts, and fills its own accept
queue with two connections, so the kernel drops every later SYN: a
client's connect() is neither accepted nor refused, it times out -- what
a firewalled network does to a real CDN.  Writes its port to argv[1] and
lives until killed, or for argv[2] seconds (default 300) at most.
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
fillers = []
for _ in range(2):
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect(srv.getsockname())
    except BlockingIOError:
        pass
    fillers.append(c)
time.sleep(0.2)

with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % srv.getsockname()[1])
os.rename(portfile + ".tmp", portfile)
time.sleep(lifetime)
