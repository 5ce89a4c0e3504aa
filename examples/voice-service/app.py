"""Start-up of a small text-to-speech service, as in rootcause's story 1.

On a new machine the model cache is empty, so the service tries to
download its weights from the CDN named by $VOICE_CDN (host:port), falls
back to a tiny bundled voice when the CDN does not answer, and keeps that
in the cache for the next start.  Any of these steps can fail; when the
model cannot be set up it says "model load failed" and exits 1.
"""
import os
import socket
import sys

CACHE = "cache_hub"
WEIGHTS = os.path.join(CACHE, "model_v23.pth")
CACHED_MODEL = os.path.join(CACHE, "model.pth")
# Loopback by default: this example never reaches outside the machine.
CDN = os.environ.get("VOICE_CDN", "127.0.0.1:9")
# A 4-in, 2-out linear layer of float32 zeros: the bundled fallback voice.
FALLBACK_WEIGHTS = bytes(4 * 2 * 4 + 2 * 4)


def cached_weights():
    try:
        with open(WEIGHTS, "rb") as f:
            return f.read()
    except FileNotFoundError:
        print("%s is not in the cache, downloading it" % WEIGHTS, flush=True)
        return None


def download():
    host, port = CDN.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=3) as conn:
            conn.sendall(b"GET /voices/model_v23.pth HTTP/1.0\r\n\r\n")
            return conn.recv(1 << 20) or None
    except OSError as e:
        print("download from %s failed: %s" % (CDN, e), file=sys.stderr)
        return None


def store(weights):
    with open(CACHED_MODEL, "wb") as f:
        f.write(weights)


def main():
    weights = cached_weights()
    if weights is None:
        weights = download()
        if weights is None:
            print("using the bundled fallback voice", flush=True)
            weights = FALLBACK_WEIGHTS
        try:
            store(weights)
        except OSError as e:
            print("model load failed: %s" % e, file=sys.stderr)
            return 1
    print("voice service ready on :%s" % os.environ.get("VOICE_PORT", "7860"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
