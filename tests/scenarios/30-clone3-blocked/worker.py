# A service that does its work in a background thread.
import threading
import time


def work():
    time.sleep(0.01)


print("starting worker", flush=True)
t = threading.Thread(target=work, name="worker")
t.start()
t.join()
print("done")
