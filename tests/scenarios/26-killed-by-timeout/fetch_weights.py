# The model fetcher: takes 300 MiB for the weights, then waits for the
# mirror to send them (a pipe nobody writes to stands in for the stalled
# download), so it never finishes.
import os
import sys

buf = bytearray(300 * 1024 * 1024)
for i in range(0, len(buf), 4096):
    buf[i] = 1
r, w = os.pipe()
print("fetching weights...", flush=True)
os.read(r, 1)
