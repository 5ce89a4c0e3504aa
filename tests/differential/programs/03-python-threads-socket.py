# Python with threads and a loopback TCP connection: a server thread echoes
# upper-cased messages to the client in the main thread, while two worker
# threads write, stat and fail to open files.  Loopback only.
import os
import socket
import threading

MESSAGES = [b"hello", b"threads", b"and", b"sockets"]


def server(srv):
    conn, _ = srv.accept()
    with conn:
        while True:
            data = conn.recv(64)
            if not data:
                break
            conn.sendall(data.upper())
    srv.close()


def worker(i):
    name = "worker%d.txt" % i
    with open(name, "w") as f:
        f.write("line\n" * (i + 1))
    os.stat(name)
    try:
        open("missing-%d.txt" % i)
    except FileNotFoundError:
        pass
    os.unlink(name)


srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(1)
port = srv.getsockname()[1]

threads = [threading.Thread(target=server, args=(srv,))]
threads += [threading.Thread(target=worker, args=(i,)) for i in range(2)]
for t in threads:
    t.start()

cli = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
cli.connect(("127.0.0.1", port))
for m in MESSAGES:
    cli.sendall(m)
    reply = cli.recv(64)
    assert reply == m.upper(), reply
cli.close()

for t in threads:
    t.join()
print("ok")
