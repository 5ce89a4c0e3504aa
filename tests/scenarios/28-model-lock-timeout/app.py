# The service: takes the model cache's lock (fcntl F_SETLKW), then loads.
import fcntl
import sys

with open("cache/model.lock", "w") as f:
    print("waiting for the model cache lock", file=sys.stderr, flush=True)
    fcntl.lockf(f, fcntl.LOCK_EX)
    print("model loaded")
