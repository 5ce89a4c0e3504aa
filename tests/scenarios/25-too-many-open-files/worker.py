# A worker that opens a shard per request and never closes it. Under its
# open-file limit (ulimit -n 32, as a container may set) the leak stops it
# after a few dozen requests: "OSError: [Errno 24] Too many open files".
import os
import sys

shard = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shard.bin")
held = []
for request in range(100):
    held.append(open(shard, "rb"))  # leaked: never closed
print("served", request, file=sys.stderr)
