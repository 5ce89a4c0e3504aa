"""A small PyTorch "service" for the benchmark trace: start-up (imports, a
model built and saved, weights loaded back), then requests served from a
thread pool, each reading an input file and running the model."""
import os
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import torch

work = tempfile.mkdtemp(prefix="rc-bench-")
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 8))
weights = os.path.join(work, "model.pt")
torch.save(model.state_dict(), weights)
model.load_state_dict(torch.load(weights))
model.eval()

inputs = os.path.join(work, "input.bin")
with open(inputs, "wb") as f:
    f.write(os.urandom(64 * 4 * 16))

lock = threading.Lock()
served = 0


def handle(i):
    global served
    with open(inputs, "rb") as f:
        data = f.read()
    x = torch.frombuffer(bytearray(data), dtype=torch.float32).reshape(16, 64)
    with torch.no_grad():
        y = model(torch.nan_to_num(x))
    with lock:
        served += 1
    return float(y.sum())


with ThreadPoolExecutor(max_workers=4) as pool:
    list(pool.map(handle, range(int(sys.argv[1]) if len(sys.argv) > 1 else 200)))

os.unlink(weights)
os.unlink(inputs)
os.rmdir(work)
print("served", served)
