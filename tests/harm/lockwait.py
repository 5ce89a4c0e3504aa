"""A Python service whose worker thread waits on a lock held by the main
thread, for the live `rootcause stack` test (see README.md). Run it with
the interpreter under test (no #! line: it is meant for every one of them).

    PYTHON lockwait.py OUT CTL

The main thread takes `lock` and, holding it, works in hold_and_work():
it appends "main N" (N = 1, 2, 3... with no gap) to OUT, one write(2) per
line, and sleeps 5 ms, until SIGUSR1 comes. The thread "worker" (its
kernel name too, in /proc/PID/task/TID/comm) runs worker_main() ->
load_config() -> fetch(), which blocks at `with lock:`.
When the worker has been asleep in that wait for 0.2 s, CTL/ready gets
"PID MAIN_TID WORKER_TID". On SIGUSR1 the main thread leaves its loop and
releases the lock; the worker then appends "worker got the lock" to OUT,
the main thread joins it, appends "exit" and exits 0. With no SIGUSR1 in
300 s it appends "ERROR never released" and exits 3.

Lines marked `# @NAME` are found by the test, which computes the line
numbers it expects from these markers: move code freely, keep the markers
on the lines they name. @loop-begin to @loop-end is hold_and_work's loop.
"""
import os
import signal
import sys
import threading
import time

out_path, ctl = sys.argv[1], sys.argv[2]
out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
lock = threading.Lock()
released = False
trying = threading.Event()
worker_tid = []


def emit(text):
	os.write(out, (text + "\n").encode())


def fetch():
	trying.set()
	with lock:  # @fetch-with
		emit("worker got the lock")


def load_config():
	fetch()  # @load-call


def worker_main():
	tid = threading.get_native_id()
	# The kernel's name for the thread (threading's name stays in Python):
	# the report names threads by it.
	with open("/proc/self/task/%d/comm" % tid, "w") as f:
		f.write("worker")
	worker_tid.append(tid)
	load_config()  # @worker-call


def on_usr1(sig, frame):
	global released
	released = True


def state_of(tid):
	with open("/proc/self/task/%d/stat" % tid) as f:
		return f.read().rsplit(")", 1)[1].split()[0]


def announce():
	"""CTL/ready once the worker has slept for 0.2 s after reaching the
	lock: a thread still running Python, or waiting a moment for the GIL,
	would not stay asleep that long."""
	asleep = 0
	while asleep < 10:
		if not trying.is_set() or state_of(worker_tid[0]) != "S":
			asleep = 0
		else:
			asleep += 1
		time.sleep(0.02)
	tmp = os.path.join(ctl, "ready.tmp")
	with open(tmp, "w") as f:
		f.write("%d %d %d\n" % (os.getpid(), threading.get_native_id(), worker_tid[0]))
	os.rename(tmp, os.path.join(ctl, "ready"))


def hold_and_work():
	"""Only C functions are called in the loop, so that hold_and_work is
	the innermost Python frame whenever the thread is caught."""
	n = 0
	deadline = time.monotonic() + 300
	while not released:  # @loop-begin
		n += 1
		os.write(out, b"main %d\n" % n)
		if time.monotonic() > deadline:
			os.write(out, b"ERROR never released\n")
			os._exit(3)
		time.sleep(0.005)  # @loop-end


def main():
	signal.signal(signal.SIGUSR1, on_usr1)
	with lock:
		worker = threading.Thread(target=worker_main, name="worker")
		worker.start()
		while not worker_tid:
			time.sleep(0.001)
		announce()
		hold_and_work()  # @main-call
	worker.join()
	emit("exit")


main()  # @module-call
