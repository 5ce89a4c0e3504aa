# An earlier instance of the service, still running: it listens on a free
# loopback port and writes the port to PORTFILE.
import os
import socket
import sys
import time

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(float(sys.argv[2]))
