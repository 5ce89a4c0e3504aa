#!/usr/bin/python3
"""Checks of tests/harm/run's live lock-wait test (the service is
lockwait.py; see README.md). READY is the service's CTL/ready file ("PID
MAIN_TID WORKER_TID"); the lines expected in a report are computed from
the `# @NAME` markers in SCRIPT (lockwait.py), never written down here.
Each command prints what is wrong and exits 1, or exits 0 silently.

  lockcheck.py json REPORT SCRIPT READY   a `stack --format json` report
        shows the worker waiting in fetch() at `with lock:` (under
        load_config, worker_main), natively in the lock wait, and the main
        thread, whose tid is the pid, in hold_and_work's loop (under main,
        <module>).
  lockcheck.py text REPORT SCRIPT READY   the same Python frames as `py`
        lines in the text report, in each thread's block, innermost first,
        just above a _PyEval_EvalFrameDefault frame.
  lockcheck.py alive OUT READY            the service is unharmed: every
        thread R or S with no tracer (within 0.3 s), the main thread writes
        new lines within 3 s, numbered 1..N with no gap or repeat, and the
        worker still waits (asleep, and it has not got the lock).
  lockcheck.py final OUT                  after the release: main 1..N with
        no gap, then "worker got the lock", then "exit", nothing else.
"""
import json
import os
import re
import sys
import time

# The waiting thread's native frames, between the lock and the
# interpreter: CPython's lock wait, or libc's futex/semaphore wait under it.
LOCK_WAIT = re.compile(r"^(PyThread_acquire_lock_timed|.*futex.*|.*sem_(clock|timed)?wait.*|.*lll_lock_wait.*)$")


def markers(script):
	"""{marker name: line number} from the `# @NAME` comments."""
	found = {}
	with open(script) as f:
		for no, line in enumerate(f, 1):
			m = re.search(r"#\s*@([\w-]+)\s*$", line)
			if m:
				found[m.group(1)] = no
	need = ("fetch-with", "load-call", "worker-call", "loop-begin", "loop-end",
		"main-call", "module-call")
	missing = [k for k in need if k not in found]
	if missing:
		sys.exit("%s has no marker(s) %s" % (script, ", ".join(missing)))
	return found


def expected(script):
	"""Per thread ("worker", "main"): the script's Python frames, innermost
	first, as (function, set of allowed lines)."""
	m = markers(script)
	loop = set(range(m["loop-begin"], m["loop-end"] + 1))
	return {
		"worker": [("fetch", {m["fetch-with"]}), ("load_config", {m["load-call"]}),
			   ("worker_main", {m["worker-call"]})],
		"main": [("hold_and_work", loop), ("main", {m["main-call"]}),
			 ("<module>", {m["module-call"]})],
	}


def ready(path):
	pid, main, worker = (int(x) for x in open(path).read().split())
	return pid, main, worker


def show_lines(lines):
	lines = sorted(lines)
	if len(lines) > 1 and lines == list(range(lines[0], lines[-1] + 1)):
		return "%d-%d" % (lines[0], lines[-1])
	return "/".join(str(x) for x in lines)


def same_file(a, b):
	try:
		return os.path.samefile(a, b)
	except OSError:
		return False


def check_python(who, frames, want, script, exact):
	"""Problems with one thread's Python frames: the script's frames first,
	as WANT says; then, unless EXACT, only frames of other files (the
	threading module's) and at least one of them."""
	problems = []
	got = ["%s (%s:%s)" % (p.get("function"), os.path.basename(str(p.get("file"))), p.get("line"))
	       for p in frames]
	for i, (fn, lines) in enumerate(want):
		if i >= len(frames):
			problems.append("%s: %d Python frame(s), expected %s at %s:%s as frame %d"
					% (who, len(frames), fn, os.path.basename(script), show_lines(lines), i))
			break
		p = frames[i]
		if (p.get("function") != fn or not same_file(str(p.get("file")), script)
		    or p.get("line") not in lines):
			problems.append("%s: Python frame %d is %s, expected %s (%s:%s)"
					% (who, i, got[i], fn, os.path.basename(script), show_lines(lines)))
	rest = frames[len(want):]
	if exact and rest:
		problems.append("%s: more Python frames than expected: %s" % (who, got[len(want):]))
	if not exact:
		if not rest:
			problems.append("%s: no Python frames of the threading module below the script's" % who)
		for i, p in enumerate(rest, len(want)):
			if same_file(str(p.get("file")), script):
				problems.append("%s: Python frame %d is %s, below worker_main" % (who, i, got[i]))
	if problems:
		problems.append("  %s's Python frames: %s" % (who, ", ".join(got) or "none"))
	return problems


def cmd_json(report, script, readyf):
	pid, main_tid, worker_tid = ready(readyf)
	want = expected(script)
	try:
		r = json.load(open(report))
	except ValueError as e:
		print("no JSON report (%s); it begins: %r" % (e, open(report).read(200)))
		return 1
	problems = []
	subj = r.get("subject", {})
	if subj.get("kind") != "stack" or subj.get("pid") != pid:
		problems.append("subject %s, expected kind stack, pid %d" % (subj, pid))
	threads = {t.get("tid"): t for t in r.get("threads", [])}
	if main_tid != pid:
		problems.append("the service says its main thread is %d, not its pid %d" % (main_tid, pid))
	if main_tid == worker_tid:
		problems.append("the main thread and the worker have the same tid %d" % main_tid)
	if sorted(threads) != sorted({pid, worker_tid}):
		problems.append("threads %s in the report, expected %s (main) and %s (worker)"
				% (sorted(threads), pid, worker_tid))
	if len(threads) != len(r.get("threads", [])):
		problems.append("a thread is listed twice: %s" % [t.get("tid") for t in r["threads"]])
	w, m = threads.get(worker_tid), threads.get(pid)
	for who, t, exact in (("worker", w, False), ("main", m, True)):
		if t is None:
			continue
		if not t.get("frames"):
			problems.append("%s (tid %d): no native frames" % (who, t["tid"]))
		problems += check_python("%s (tid %d)" % (who, t["tid"]), t.get("python", []),
					 want[who], script, exact)
	if w is not None:
		if w.get("name") != "worker":
			problems.append("the worker (tid %d) is named %r, not 'worker'" % (worker_tid, w.get("name")))
		if w.get("gil") is True:
			problems.append("the worker (tid %d), asleep on the lock, is said to hold the GIL" % worker_tid)
		# The lock wait sits between the innermost frame and the
		# interpreter frame that runs fetch().
		names = []
		for f in w.get("frames", []):
			fn = f.get("function") or "??"
			if fn.startswith("_PyEval_EvalFrame"):
				break
			names.append(fn)
		if not any(LOCK_WAIT.match(n) for n in names):
			problems.append("the worker's native frames above the interpreter show no lock wait: %s" % names)
	for p in problems:
		print(p)
	for n in r.get("notes", []) + r.get("problems", []):
		if problems:
			print("  report: %s" % (n if isinstance(n, str) else json.dumps(n)))
	return 1 if problems else 0


def cmd_text(report, script, readyf):
	pid, main_tid, worker_tid = ready(readyf)
	want = expected(script)
	text = open(report).read().split("\n")
	blocks, cur = {}, None
	for line in text:
		m = re.match(r"thread (\d+)\b(.*)", line)
		if m:
			cur = int(m.group(1))
			blocks[cur] = [line]
		elif cur is not None:
			if not line.strip():
				cur = None
			else:
				blocks[cur].append(line)
	problems = []
	for who, tid in (("worker", worker_tid), ("main", pid)):
		b = blocks.get(tid)
		if b is None:
			problems.append("no 'thread %d' (%s) block in the text report" % (tid, who))
			continue
		if who == "worker" and "'worker'" not in b[0]:
			problems.append("the worker's header does not name it 'worker': %r" % b[0])
		py = [(i, l) for i, l in enumerate(b) if re.match(r"\s*py\s", l)]
		frames = []
		for i, l in py:
			m = re.match(r"\s*py\s+(\S+) \((.*):(\d+)\)\s*$", l)
			if not m:
				problems.append("%s: a py line of an unexpected form: %r" % (who, l))
				continue
			frames.append({"function": m.group(1), "file": m.group(2), "line": int(m.group(3))})
		problems += check_python("%s (tid %d)" % (who, tid), frames, want[who], script, who == "main")
		# Each run of py lines is followed by the interpreter frame running it.
		for i, l in py:
			nxt = b[i + 1] if i + 1 < len(b) else ""
			if not re.match(r"\s*py\s", nxt) and "_PyEval_EvalFrame" not in nxt:
				problems.append("%s: a run of py lines ends above %r, not above _PyEval_EvalFrameDefault"
						% (who, nxt.strip()))
	if problems:
		problems.append("  the report's first lines:")
		problems += ["    " + l for l in text[:6]]
	for p in problems:
		print(p)
	return 1 if problems else 0


def main_lines(out):
	"""(numbers of the "main N" lines, the other lines)."""
	nums, other = [], []
	data = open(out, "rb").read()
	# A line being written as we read may be there in part: not yet a line.
	for raw in data[:data.rfind(b"\n") + 1].split(b"\n"):
		m = re.fullmatch(rb"main (\d+)", raw)
		if m:
			nums.append(int(m.group(1)))
		elif raw:
			other.append(raw.decode(errors="replace"))
	return nums, other


def gaps(nums):
	"""Problems with 1..N: the first few gaps and repeats."""
	bad = []
	for i, k in enumerate(nums):
		if k != i + 1:
			bad.append("line %d says main %d: %s" % (i + 1, k, "a gap" if k > i + 1 else "a repeat"))
			break
	return bad


def status(path):
	try:
		fields = {}
		for line in open(path):
			k, _, v = line.partition(":")
			fields[k] = v.strip()
		return fields
	except (FileNotFoundError, ProcessLookupError):
		return None


def threads(pid):
	try:
		tids = sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))
	except FileNotFoundError:
		return None
	out = []
	for tid in tids:
		st = status("/proc/%d/task/%d/status" % (pid, tid))
		if st:
			out.append((tid, st["State"].split()[0], int(st["TracerPid"])))
	return out


def cmd_alive(out, readyf):
	pid, _, worker_tid = ready(readyf)
	problems = []
	deadline = time.monotonic() + 0.3
	while True:
		ts = threads(pid)
		bad = [t for t in ts or [] if t[1] not in "RS" or t[2] != 0]
		if ts and not bad:
			break
		if time.monotonic() >= deadline:
			problems.append("process %d is gone" % pid if not ts else
					"not running untraced (tid state tracer): %s" % bad)
			break
		time.sleep(0.01)
	before, _ = main_lines(out)
	deadline = time.monotonic() + 3
	while True:
		now, other = main_lines(out)
		if len(now) > len(before):
			break
		if time.monotonic() >= deadline:
			problems.append("the main thread wrote no line in 3 s (last: main %s); threads: %s"
					% (now[-1] if now else "none", threads(pid)))
			break
		time.sleep(0.01)
	problems += gaps(now)
	if other:
		problems.append("lines other than 'main N' before the release: %s" % other[:5])
	st = status("/proc/%d/task/%d/status" % (pid, worker_tid))
	if st is None:
		problems.append("the worker thread %d is gone" % worker_tid)
	elif st["State"][0] != "S":
		problems.append("the worker thread %d is %s, not asleep on the lock" % (worker_tid, st["State"]))
	for p in problems:
		print(p)
	return 1 if problems else 0


def cmd_final(out):
	nums, other = main_lines(out)
	problems = gaps(nums)
	if not nums:
		problems.append("no 'main N' line")
	lines = [l for l in open(out, "rb").read().decode(errors="replace").split("\n") if l]
	tail = [l for l in lines if not re.fullmatch(r"main \d+", l)]
	if tail != ["worker got the lock", "exit"] or lines[-2:] != tail:
		problems.append("after the main lines: %s, expected 'worker got the lock', 'exit'" % (lines[-3:],))
	for p in problems:
		print(p)
	if not problems:
		print("main 1..%d, then the worker got the lock" % len(nums))
	return 1 if problems else 0


def main(argv):
	cmds = {"json": cmd_json, "text": cmd_text, "alive": cmd_alive, "final": cmd_final}
	if len(argv) < 2 or argv[1] not in cmds:
		sys.stderr.write(__doc__)
		return 2
	return cmds[argv[1]](*argv[2:]) or 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
