#!/usr/bin/python3
"""A multi-threaded service for the tracer's do-no-harm test (see README.md).

    service.py CTL

Four worker threads write "thread N line M" lines (M = 1, 2, 3... with no
gap) to standard output, each line one write(2) of at most PIPE_BUF bytes.
Between lines a worker pwrite()s the line to its scratch file, reads it back
with pread() and again through open/read/close, passes tokens around a ring
of queue.Queue objects shared with the other workers (futex waits and wakes
all the time), and sleeps 5 ms. Anything that does not come back as written
is reported as an "ERROR ..." line.

A spawner thread starts a short-lived thread every 0.2 s and runs /bin/true
every second (fork/vfork/clone and exec for a tracer that follows children);
a child that does not exit 0 is an ERROR line.

Signals:
  SIGTERM  stop: the workers finish their line, every thread is joined, and
           the last line is "clean exit usr1=N usr2=N threads=N children=N";
           then exit 0.
  SIGUSR1  counted; the count after each one is appended to CTL/usr1.
  SIGUSR2  blocked in every thread, so it stays pending, until CTL/unblock-K
           appears: then the "pender" thread unblocks it until the K-th one
           has been handled, and blocks it again. Counted in CTL/usr2.
CTL/ready is written once every thread runs.
"""
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time

NWORKERS = 4
HOPS = 20		# ring passes per line
PAUSE = 0.005		# seconds between lines

ctl = sys.argv[1]
stop = threading.Event()
count = {"usr1": 0, "usr2": 0, "threads": 0, "children": 0}
ack = {}


def emit(text):
	"""One line, one write: a pipe write of <= PIPE_BUF is all or nothing."""
	data = text.encode()
	n = os.write(1, data)
	if n != len(data):
		os.write(1, ("ERROR short write %d of %d\n" % (n, len(data))).encode())


def on_term(sig, frame):
	stop.set()


def on_usr(sig, frame):
	name = "usr1" if sig == signal.SIGUSR1 else "usr2"
	count[name] += 1
	os.write(ack[name], b"%d\n" % count[name])


def worker(i, rings):
	path = os.path.join(ctl, "scratch%d" % i)
	fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
	mine, nxt = rings[i], rings[(i + 1) % NWORKERS]
	m = 1
	while not stop.is_set():
		line = "thread %d line %d\n" % (i, m)
		data = line.encode()
		os.ftruncate(fd, 0)
		if os.pwrite(fd, data, 0) != len(data) or os.pread(fd, 256, 0) != data:
			emit("ERROR thread %d: scratch file does not read back line %d\n" % (i, m))
		with open(path, "rb") as f:
			if f.read() != data:
				emit("ERROR thread %d: scratch file reopened differs at line %d\n" % (i, m))
		hops = 0
		while hops < HOPS and not stop.is_set():
			try:
				tok = mine.get(timeout=0.2)
			except queue.Empty:
				continue	# a neighbour is slow (traced, stopped)
			nxt.put(tok + 1)
			hops += 1
		emit(line)
		m += 1
		time.sleep(PAUSE)
	os.close(fd)


def pender():
	"""Unblock SIGUSR2 in this thread alone when asked, until handled."""
	k = 1
	while not stop.is_set():
		if not os.path.exists(os.path.join(ctl, "unblock-%d" % k)):
			time.sleep(0.02)
			continue
		signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR2})
		deadline = time.monotonic() + 5
		while count["usr2"] < k and time.monotonic() < deadline and not stop.is_set():
			time.sleep(0.01)
		signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
		k += 1


def short_lived(q):
	q.put(os.getpid())
	q.get()
	count["threads"] += 1


def spawner():
	n = 0
	while not stop.wait(0.2):
		q = queue.Queue()
		t = threading.Thread(target=short_lived, args=(q,))
		t.start()
		t.join()
		n += 1
		if n % 5 == 0:
			rc = subprocess.run(["/bin/true"]).returncode
			count["children"] += 1
			if rc != 0:
				emit("ERROR child /bin/true exited %d\n" % rc)


def main():
	for name in ("usr1", "usr2"):
		ack[name] = os.open(os.path.join(ctl, name), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
	signal.signal(signal.SIGTERM, on_term)
	signal.signal(signal.SIGUSR1, on_usr)
	signal.signal(signal.SIGUSR2, on_usr)
	# Every thread started from here on inherits the blocked SIGUSR2.
	signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
	# Handlers run in the main thread only: wake it whichever thread the
	# kernel gave a signal to.
	r, w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
	signal.set_wakeup_fd(w, warn_on_full_buffer=False)

	rings = [queue.Queue() for _ in range(NWORKERS)]
	for i in range(NWORKERS):
		rings[i].put(0)
	threads = [threading.Thread(target=worker, args=(i, rings), name="worker%d" % i)
		   for i in range(NWORKERS)]
	threads.append(threading.Thread(target=pender, name="pender"))
	threads.append(threading.Thread(target=spawner, name="spawner"))
	for t in threads:
		t.start()
	with open(os.path.join(ctl, "ready"), "w") as f:
		f.write("%d\n" % os.getpid())

	while not stop.is_set():
		select.select([r], [], [], 0.5)
		try:
			while os.read(r, 64):
				pass
		except BlockingIOError:
			pass
	for t in threads:
		t.join()
	emit("clean exit usr1=%d usr2=%d threads=%d children=%d\n" %
	     (count["usr1"], count["usr2"], count["threads"], count["children"]))
	return 0


if __name__ == "__main__":
	sys.exit(main())
