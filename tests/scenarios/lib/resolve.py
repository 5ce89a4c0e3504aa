"""Resolve the weights CDN before downloading from it."""
import socket
import sys


def main():
    host = sys.argv[1]
    try:
        addrs = socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)
    except socket.gaierror as e:
        print("cannot resolve %s: %s" % (host, e), file=sys.stderr)
        return 1
    print("%s is %s" % (host, addrs[0][4][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
