"""Fetch missing weights from the CDN, giving up after a short connect timeout."""
import socket
import sys


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    print("downloading model_v23.pth from %s:%d" % (host, port), flush=True)
    try:
        conn = socket.create_connection((host, port), timeout=2)
    except OSError as e:
        print("cannot reach CDN %s:%d: %s" % (host, port, e), file=sys.stderr)
        return 1
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
