"""Four workers serialise on one threading.Lock, each holding it 0.15 s."""
import threading
import time

lock = threading.Lock()
# The four requests arrive together, as a burst does: each then waits for
# the ones ahead of it, however late its thread got to run (a busy machine
# starts threads late).
ready = threading.Barrier(4)


def work(n):
    ready.wait()
    with lock:
        # The work done under the lock (an I/O call, a model step).
        time.sleep(0.15)


threads = [threading.Thread(target=work, args=(i,), name="worker-%d" % i) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("4 requests done")
