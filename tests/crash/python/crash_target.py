# A multi-threaded Python program that crashes in a C extension several
# functions deep, for tests/crash/python-cores.  Valid for Python 2.7 and
# 3.6 on.  Four threads, each stopped in a known place when the crasher
# faults:
#   crasher  crasher -> parse -> Reader.read_frames -> ctypes.memmove(buf, 0x10)
#   sleeper  sleeper -> nap -> time.sleep(60)
#   waiter   waiter -> lock.acquire() on a lock the main thread holds
#   main     <module> -> main -> wait_all -> crasher_thread.join()
#
#   crash_target.py TIDFILE
# Each thread appends "ROLE TID NAME" to TIDFILE before it blocks, NAME
# being its threading name (Thread.name, UTF-8): the main thread's is
# "MainThread", the others' are set below (one not ASCII, one whose
# attributes were moved into a dict of their own by vars()).  The lines
# the stacks must show are marked "@stack ROLE DEPTH" (depth 0 = innermost
# frame); check.py reads the markers, so lines may move freely.
import ctypes
import os
import sys
import threading
import time

libc = ctypes.CDLL(None, use_errno=True)
SYS_gettid = 186  # x86_64
tidfile = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
ready = dict((role, threading.Event()) for role in ("sleeper", "waiter", "main"))
lock = threading.Lock()


def announce(role):
    """Record this thread's id and say it is about to block."""
    line = "%s %d %s\n" % (role, libc.syscall(SYS_gettid), threading.current_thread().name)
    os.write(tidfile, line.encode("utf-8"))
    if role in ready:
        ready[role].set()


class Reader(object):
    def __init__(self):
        self.buf = ctypes.create_string_buffer(64)

    def read_frames(self):
        ctypes.memmove(self.buf, 0x10, 64)  # @stack crasher 0


def parse():
    Reader().read_frames()  # @stack crasher 1


def crasher():
    announce("crasher")
    for event in ready.values():
        event.wait()
    # Each event is set on the line before the blocking call: let every
    # thread get into it.
    time.sleep(0.3)
    parse()  # @stack crasher 2


def nap():
    announce("sleeper")
    time.sleep(60)  # @stack sleeper 0


def sleeper():
    nap()  # @stack sleeper 1


def waiter():
    announce("waiter")
    lock.acquire()  # @stack waiter 0


def wait_all(crasher_thread):
    announce("main")
    crasher_thread.join()  # @stack main 0


# Thread names: an ASCII one, a dict-held one, and (Python 3) one of
# UCS-2 characters.
NAMES = {"crasher": "crasher", "sleeper": "sleeper-in-dict",
         "waiter": u"waiter-\u0142\u00f3d\u017a" if sys.version_info[0] >= 3 else "waiter"}


def main():
    lock.acquire()
    threads = {}
    for role, fn in (("sleeper", sleeper), ("waiter", waiter), ("crasher", crasher)):
        threads[role] = threading.Thread(target=fn, name=NAMES[role])
        threads[role].daemon = True
        threads[role].start()
    # Its attributes now live in a dict, not in the values its class's
    # instances share (3.11+).
    vars(threads["sleeper"])
    wait_all(threads["crasher"])  # @stack main 1
    sys.exit("crash_target.py: the crasher did not crash")


main()  # @stack main 2
