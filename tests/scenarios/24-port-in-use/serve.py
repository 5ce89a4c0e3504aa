# The inference service's start: it takes its port, then would load the
# model and serve. The port is taken, so socketserver's bind raises
# "OSError: [Errno 98] Address already in use" and the service exits 1.
import socketserver
import sys


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        pass


with socketserver.TCPServer(("127.0.0.1", int(sys.argv[1])), Handler) as server:
    server.serve_forever()
