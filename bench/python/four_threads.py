"""The workload of bench/python-core-vs-gdb: a process of four threads.

Three are blocked a few Python functions deep (on a lock, in time.sleep,
in Thread.join); the fourth, once they are all there, calls
ctypes.memmove from address 0x10 and dies of SIGSEGV inside libc, under
three Python frames of its own. Run it with a core limit to get a core.
The function names below are what the benchmark expects to find, per
thread, in rootcause's report: change them together.
"""
import ctypes
import threading
import time

held = threading.Lock()
held.acquire()  # never released: whoever asks for it waits for good
ready = threading.Semaphore(0)


def wait_for_job():
    ready.release()
    held.acquire()


def handle():
    wait_for_job()


def serve():
    handle()


def flush_cache():
    ready.release()
    time.sleep(3600)


def housekeeping():
    flush_cache()


def read_frames(buf):
    ctypes.memmove(buf, 0x10, 16)


def decode(buf):
    read_frames(buf)


def stream():
    for _ in range(3):
        ready.acquire()
    # The others said they were ready just before blocking: give them
    # time to get there.
    time.sleep(0.3)
    decode(ctypes.create_string_buffer(16))


def supervise(workers):
    ready.release()
    for t in workers:
        t.join()


def main():
    workers = [threading.Thread(target=f, name=f.__name__)
               for f in (serve, housekeeping, stream)]
    for t in workers:
        t.start()
    supervise(workers)


main()
