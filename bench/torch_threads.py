"""A multi-threaded PyTorch "service" for the second benchmark trace: torch
with two intra-op threads, and Python worker threads that each read their
input in 1 KiB chunks, run tensor work on it and hand results back through
a queue. That gives what such a service's strace -f log is made of: futex
waits (the GIL, the queue, torch's thread pool), calls split into
<unfinished ...> and <... resumed> halves by the other threads, 1 KiB
reads, and mmap/munmap churn from tensors too big for the heap."""
import os
import queue
import sys
import tempfile
import threading

import torch

torch.set_num_threads(2)
work = tempfile.mkdtemp(prefix="rc-bench-")
inputs = os.path.join(work, "input.bin")
with open(inputs, "wb") as f:
    f.write(os.urandom(16 * 1024))

weights = torch.randn(256, 256)
results = queue.Queue()
requests = int(sys.argv[1]) if len(sys.argv) > 1 else 60
workers = 4


def worker(n):
    for i in range(requests // workers):
        fd = os.open(inputs, os.O_RDONLY)
        chunks = []
        while True:
            b = os.read(fd, 1024)
            if not b:
                break
            chunks.append(b)
        os.close(fd)
        x = torch.frombuffer(bytearray(b"".join(chunks)), dtype=torch.float32)
        x = torch.nan_to_num(x).reshape(16, 256)
        # A big temporary on every request: its buffer is mmap'd and
        # munmap'd, as a service's activations are.
        big = torch.ones(256 + 64 * (i % 4), 1024) * float(n)
        y = (x @ weights).sum() + big.sum()
        results.put(float(y))


threads = [threading.Thread(target=worker, args=(n,)) for n in range(workers)]
for t in threads:
    t.start()
got = 0
while got < (requests // workers) * workers:
    results.get(timeout=30)
    got += 1
for t in threads:
    t.join()
os.unlink(inputs)
os.rmdir(work)
print("served", got)
