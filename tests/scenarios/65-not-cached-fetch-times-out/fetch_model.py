"""Loads a voice model from the local cache, downloading it first when it
is not there (as huggingface_hub and torch.hub do)."""
import os
import socket
import sys

cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "voices")
path = os.path.join(cache, "narrator-v2.pth")
try:
    with open(path, "rb") as f:
        weights = f.read()
except FileNotFoundError:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2.5)
    s.sendall(b"GET /voices/narrator-v2.pth HTTP/1.0\r\n\r\n")
