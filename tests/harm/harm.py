#!/usr/bin/python3
"""Helpers for tests/harm/run: looking at a process from /proc, sending
signals one at a time, running rootcause and telling its wait status.

  harm.py spawn STATUS PIDFILE CMD...   run CMD with SIGINT/SIGQUIT at their
        defaults (a background job of a script has them ignored), write its
        pid to PIDFILE, and when it ends "exit N" or "signal N" to STATUS.
  harm.py threads PID                   one line per thread: tid State TracerPid
  harm.py state PID running|stopped [WITHIN]
        every thread R/S/D (running) or T (stopped), TracerPid 0 for all,
        within WITHIN seconds (default 0.3); exit 1 with the states if not.
  harm.py traced-by PID TRACER [WITHIN] every thread's TracerPid is TRACER (or a thread of it)
  harm.py progress OUT PID [WITHIN]     every worker writes a new line
  harm.py usr1 PID ACK N                send N SIGUSR1, each after the last
        one's handler ran; exit 1 if one is lost (no handler run within 5 s)
        or counted twice. The last line printed is "sent K".
  harm.py usr1-until PID ACK FLAG       the same while the file FLAG exists.
  harm.py rt-flood PID FLAG [PAUSE]     send SIGRTMIN+1 (queued, never merged)
        every PAUSE s (default 0.0002; 0: flat out) while the file FLAG
        exists; prints "sent N".
  harm.py kill-mid PID TRACER DELAY     once TRACER traces all of PID, wait
        DELAY s, SIGKILL TRACER; then PID must run untraced within 1 s.
  harm.py pending PID SIG               SIG is pending for the process (ShdPnd)
  harm.py count ACK                     the last count in ACK (0 if none)
  harm.py final OUT NWORKERS USR1 USR2  the whole output: lines 1..M with no
        gap or repeat for every worker, no ERROR, the clean exit line last,
        with these signal counts.
"""
import os
import re
import signal
import sys
import time


def status_of(path):
	fields = {}
	try:
		with open(path) as f:
			for line in f:
				k, _, v = line.partition(":")
				fields[k] = v.strip()
	except (FileNotFoundError, ProcessLookupError):
		return None
	return fields


def threads(pid):
	"""[(tid, state letter, tracer pid)] for every thread still there."""
	out = []
	try:
		tids = sorted(os.listdir("/proc/%d/task" % pid), key=int)
	except FileNotFoundError:
		return None
	for tid in tids:
		st = status_of("/proc/%d/task/%s/status" % (pid, tid))
		if st is None:
			continue	# a short-lived thread ended meanwhile
		out.append((int(tid), st["State"].split()[0], int(st["TracerPid"])))
	return out


def show(ts):
	return ", ".join("%d:%s/tracer %d" % t for t in ts)


def wait_for(pred, within):
	deadline = time.monotonic() + within
	while True:
		ok, what = pred()
		if ok or time.monotonic() >= deadline:
			return ok, what
		time.sleep(0.01)


def cmd_state(pid, want, within=0.3):
	pid, within = int(pid), float(within)
	good = "RSD" if want == "running" else "T"

	def pred():
		ts = threads(pid)
		if not ts:
			return False, "process %d is gone" % pid
		bad = [t for t in ts if t[1] not in good or t[2] != 0]
		return not bad, "not %s: %s (all: %s)" % (want, show(bad), show(ts))
	ok, what = wait_for(pred, within)
	if ok:
		return 0
	print(what)
	time.sleep(1)
	ts = threads(pid)
	print("one second later: %s" % (show(ts) if ts else "gone"))
	return 1


def cmd_traced_by(pid, tracer, within=5):
	pid, tracer, within = int(pid), int(tracer), float(within)

	def pred():
		ts = threads(pid)
		if not ts:
			return False, "process %d is gone" % pid
		# The tracer may be any thread of TRACER: the eBPF backend's
		# signal watch seizes from a thread of its own.
		bad = [t for t in ts if t[2] != tracer and not os.path.exists("/proc/%d/task/%d" % (tracer, t[2]))]
		return not bad, "not traced by %d: %s" % (tracer, show(bad))
	ok, what = wait_for(pred, within)
	if not ok:
		print(what)
	return 0 if ok else 1


def last_lines(out):
	"""{worker: last line number} from the service's output."""
	last = {}
	with open(out, "rb") as f:
		for raw in f:
			m = re.match(rb"thread (\d+) line (\d+)\n", raw)
			if m:
				last[int(m.group(1))] = int(m.group(2))
	return last


def cmd_progress(out, pid, within=3):
	pid, within = int(pid), float(within)
	before = last_lines(out)
	if len(before) < 4:
		print("only %d workers have written anything" % len(before))
		return 1

	def pred():
		now = last_lines(out)
		stuck = [w for w in before if now.get(w, 0) <= before[w]]
		return not stuck, "no new line from worker(s) %s in %g s (last: %s)" % (
			stuck, within, {w: now.get(w) for w in sorted(before)})
	ok, what = wait_for(pred, within)
	if not ok:
		print(what)
		ts = threads(pid)
		print("threads: %s" % (show(ts) if ts else "gone"))
	return 0 if ok else 1


def count(ack):
	try:
		with open(ack, "rb") as f:
			lines = f.read().split()
	except FileNotFoundError:
		return 0
	return int(lines[-1]) if lines else 0


def send_one(pid, ack, n):
	"""Send SIGUSR1 number N; None if its handler ran once, else why not."""
	os.kill(pid, signal.SIGUSR1)
	deadline = time.monotonic() + 5
	while True:
		c = count(ack)
		if c >= n:
			break
		if time.monotonic() >= deadline:
			return "SIGUSR1 number %d lost: the handler count stayed %d for 5 s" % (n, c)
		time.sleep(0.002)
	if c > n:
		return "SIGUSR1 number %d counted %d times" % (n, c - n + 1)
	return None


def cmd_usr1(pid, ack, n):
	pid, n = int(pid), int(n)
	base = count(ack)
	for k in range(1, n + 1):
		err = send_one(pid, ack, base + k)
		if err:
			print(err)
			print("sent %d" % k)
			return 1
	time.sleep(0.2)
	print("sent %d" % n)
	if count(ack) != base + n:
		print("late duplicates: count %d after %d signals" % (count(ack) - base, n))
		return 1
	return 0


def cmd_usr1_until(pid, ack, flag):
	pid = int(pid)
	base, k = count(ack), 0
	while os.path.exists(flag):
		k += 1
		err = send_one(pid, ack, base + k)
		if err:
			print(err)
			print("sent %d" % k)
			return 1
	time.sleep(0.2)
	if count(ack) != base + k:
		print("late duplicates: count %d after %d signals" % (count(ack) - base, k))
		print("sent %d" % k)
		return 1
	print("sent %d" % k)
	return 0


def cmd_rt_flood(pid, flag, pause="0.0002"):
	"""SIGRTMIN+1 every PAUSE seconds (0: as fast as we can) while FLAG
	exists; a full queue (EAGAIN) is not a send."""
	pid, pause, n = int(pid), float(pause), 0
	while os.path.exists(flag):
		for _ in range(10):
			try:
				os.kill(pid, signal.SIGRTMIN + 1)
				n += 1
			except BlockingIOError:
				pass
			if pause:
				time.sleep(pause)
		# The queue limit is per user: keep our backlog small, so that
		# the user's other processes can still queue signals and timers.
		st = status_of("/proc/%d/status" % pid)
		if st and int(st["SigQ"].split("/")[0]) > 2000:
			time.sleep(0.001)
	print("sent %d" % n)
	return 0


def cmd_kill_mid(pid, tracer, delay):
	"""Once TRACER traces every thread of PID, wait DELAY s, SIGKILL it,
	and check that PID runs untraced within 1 s."""
	if cmd_traced_by(pid, tracer, 5):
		return 1
	time.sleep(float(delay))
	os.kill(int(tracer), signal.SIGKILL)
	return cmd_state(pid, "running", 1)


def cmd_pending(pid, sig):
	st = status_of("/proc/%d/status" % int(pid))
	if st is None:
		print("process %s is gone" % pid)
		return 1
	mask = int(st["ShdPnd"], 16)
	if mask & (1 << (int(sig) - 1)):
		return 0
	print("signal %s is not pending (ShdPnd %s)" % (sig, st["ShdPnd"]))
	return 1


def cmd_final(out, nworkers, usr1, usr2):
	nworkers = int(nworkers)
	want = {w: 1 for w in range(nworkers)}
	problems = []
	lines = open(out, "rb").read().split(b"\n")
	if lines and lines[-1] == b"":
		lines.pop()
	for i, raw in enumerate(lines, 1):
		m = re.fullmatch(rb"thread (\d+) line (\d+)", raw)
		if m:
			w, k = int(m.group(1)), int(m.group(2))
			if w not in want:
				problems.append("line %d: no worker %d" % (i, w))
			elif k != want[w]:
				problems.append("line %d: worker %d line %d, expected line %d (%s)" %
						(i, w, k, want[w], "a gap" if k > want[w] else "a repeat"))
				want[w] = max(want[w], k + 1)
			else:
				want[w] = k + 1
		elif i != len(lines):
			problems.append("line %d: %r" % (i, raw[:200]))
	if not lines or not lines[-1].startswith(b"clean exit "):
		problems.append("the last line is not 'clean exit': %r" % (lines[-1][:200] if lines else b""))
	else:
		m = re.search(rb"usr1=(\d+) usr2=(\d+)", lines[-1])
		if not m or (int(m.group(1)), int(m.group(2))) != (int(usr1), int(usr2)):
			problems.append("%r: expected usr1=%s usr2=%s" % (lines[-1], usr1, usr2))
	for p in problems[:20]:
		print(p)
	if len(problems) > 20:
		print("... %d more" % (len(problems) - 20))
	if not problems:
		print("%s lines" % "+".join(str(want[w] - 1) for w in sorted(want)))
	return 1 if problems else 0


def cmd_spawn(status, pidfile, *cmd):
	pid = os.fork()
	if pid == 0:
		signal.signal(signal.SIGINT, signal.SIG_DFL)
		signal.signal(signal.SIGQUIT, signal.SIG_DFL)
		try:
			os.execv(cmd[0], list(cmd))
		except OSError as e:
			sys.stderr.write("harm.py spawn: cannot run %s: %s\n" % (cmd[0], e.strerror))
		os._exit(127)
	with open(pidfile + ".tmp", "w") as f:
		f.write("%d\n" % pid)
	os.rename(pidfile + ".tmp", pidfile)
	# Signals sent to the test's process group are for rootcause.
	for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
		signal.signal(s, signal.SIG_IGN)
	_, st = os.waitpid(pid, 0)
	with open(status, "w") as f:
		if os.WIFSIGNALED(st):
			f.write("signal %d\n" % os.WTERMSIG(st))
		else:
			f.write("exit %d\n" % os.WEXITSTATUS(st))
	return 0


def main(argv):
	cmds = {
		"spawn": cmd_spawn, "state": cmd_state, "traced-by": cmd_traced_by,
		"progress": cmd_progress, "usr1": cmd_usr1, "usr1-until": cmd_usr1_until,
		"pending": cmd_pending, "final": cmd_final, "rt-flood": cmd_rt_flood,
		"kill-mid": cmd_kill_mid,
		"threads": lambda pid: print("\n".join("%d %s %d" % t for t in threads(int(pid)) or [])),
		"count": lambda ack: print(count(ack)),
	}
	if len(argv) < 2 or argv[1] not in cmds:
		sys.stderr.write(__doc__)
		return 2
	return cmds[argv[1]](*argv[2:]) or 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
