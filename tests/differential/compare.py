#!/usr/bin/python3
"""Compare two strace-format logs of the same program, process by process.

    compare.py [options] A.log B.log

Each log is read as strace -f -o writes it ("PID " prefixes, or "[pid N] ",
or none), with or without -t/-tt/-ttt/-T.  Split calls ("<unfinished ...>"
then "<... NAME resumed>") are joined; "--- SIG ---" and "+++ exited +++"
lines are kept as events.  Every task (process or thread: one pid in the
log) becomes a sequence of tokens

    (syscall name, outcome, path)

where the outcome is the errno name of a failed call ("ENOENT",
"ERESTARTSYS"), "?" when the call never returned, or "ok", and the path is
the first quoted string of a call that takes a path (None for others).
Signals are ("--- SIGNAME", "", None), ends ("+++", "exited with 0", None).

Tasks are matched between the two logs by where they sit in the process
tree (the Nth successful clone/fork/vfork/clone3 of the matched parent)
and by the argv of their execve; the matched pairs are aligned by a longest common
subsequence (Myers' diff).  A program's agreement is

    sum over pairs of matched tokens
    --------------------------------------------------------------
    sum over pairs of max(len A, len B) + tokens of unmatched tasks

Everything here applies to both logs alike: nothing depends on which tool
wrote which log.  Exit status: 0, or 1 when --min is given and the total
is below it, 2 on bad usage or an unreadable log.
"""

import argparse
import difflib
import re
import sys

# Calls that take a path (or a unix socket address): their first quoted
# argument is part of the token.
PATH_CALLS = frozenset("""
    open openat openat2 creat access faccessat faccessat2 stat lstat stat64
    lstat64 newfstatat fstatat64 statx statfs statfs64 readlink readlinkat
    execve execveat chdir chroot mkdir mkdirat mknod mknodat rmdir unlink
    unlinkat rename renameat renameat2 link linkat symlink symlinkat chmod
    fchmodat chown lchown fchownat utime utimes utimensat futimesat truncate
    truncate64 getxattr lgetxattr setxattr lsetxattr listxattr llistxattr
    removexattr lremovexattr inotify_add_watch fanotify_mark
    name_to_handle_at mount umount2 pivot_root swapon swapoff acct uselib
    open_tree move_mount fsopen fspick mount_setattr
    connect bind sendto
""".split())

# Calls whose result is a new task's id.
CLONE_CALLS = frozenset(("clone", "clone3", "fork", "vfork"))

# Left out of both sequences by default: whether and how often a thread
# calls futex depends on lock contention, i.e. on scheduling, so two strace
# runs of the same program already disagree on it.
DEFAULT_IGNORE = "futex"

PREFIX_RE = re.compile(
    r"^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+)?"
    r"(?:(?:\d+:\d+:\d+(?:\.\d+)?|\d+\.\d+)\s+)?"
    r"(.*)$")
CALL_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\((.*)$", re.S)
RESUMED_RE = re.compile(r"^<\.\.\. ([A-Za-z_][A-Za-z0-9_]*) resumed>(.*)$", re.S)
UNFINISHED = "<unfinished ...>"
QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
PROC_PID_RE = re.compile(r"/proc/\d+(?=/|$)")
TASK_TID_RE = re.compile(r"/task/\d+(?=/|$)")
DURATION_RE = re.compile(r"\s+<\d+\.\d+>$")


def split_args_end(text, depth):
    """Find where the argument list closes.  TEXT starts inside the
    parentheses at nesting DEPTH (1 for a call's first argument).  Returns
    the index of the closing ')' or -1."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 1
        i += 1
    return -1


def parse_return(text):
    """The text after ') = ': its outcome class."""
    text = DURATION_RE.sub("", text.strip())
    if not text:
        return "unparsed"
    parts = text.split()
    if parts[0] == "?":
        if len(parts) > 1 and parts[1].startswith("E"):
            return parts[1]
        return "?"
    if parts[0] == "-1" and len(parts) > 1 and not parts[1].startswith("("):
        return parts[1]
    if re.match(r"^-?(?:\d+|0x[0-9a-fA-F]+)", parts[0]):
        return "ok"
    return "unparsed"


def norm_path(p):
    p = PROC_PID_RE.sub("/proc/N", p)
    return TASK_TID_RE.sub("/task/N", p)


class Call:
    __slots__ = ("pid", "name", "args", "ret", "lines", "lineno")

    def __init__(self, pid, name, args, lineno, line):
        self.pid = pid
        self.name = name
        self.args = args
        self.ret = None
        self.lines = [line]
        self.lineno = lineno


class Task:
    def __init__(self, pid, order):
        self.pid = pid
        self.order = order	# creation order: first line in the log
        self.events = []	# (token, raw lines, text) in the task's order
        self.children = []	# pids from successful clone-family calls
        self.parent = None
        self.exec_sig = None	# argv text of the first successful execve
        self.key = None


class Log:
    def __init__(self, path):
        self.path = path
        self.tasks = {}
        self.order = []
        self.unparsed = []	# (lineno, line) that are not strace's format
        self.nlines = 0

    def task(self, pid):
        t = self.tasks.get(pid)
        if t is None:
            t = self.tasks[pid] = Task(pid, len(self.order))
            self.order.append(t)
        return t


def finish_call(log, call, ignore):
    """A whole call (args and return value known): make its token."""
    t = log.task(call.pid)
    ret = call.ret
    if ret is None:
        outcome = "?"
    else:
        outcome = parse_return(ret)
    if outcome == "unparsed":
        log.unparsed.append((call.lineno, call.lines[-1]))
    path = None
    if call.name in PATH_CALLS:
        m = QUOTED_RE.search(call.args)
        if m:
            path = norm_path(m.group(1))
    if call.name in CLONE_CALLS and outcome == "ok" and ret is not None:
        m = re.match(r"\s*(\d+)", ret)
        if m and int(m.group(1)) > 0:
            t.children.append(int(m.group(1)))
    if call.name in ("execve", "execveat") and outcome == "ok" and t.exec_sig is None:
        m = QUOTED_RE.search(call.args)
        if m:
            rest = call.args[m.end():]
            at = rest.find("[")
            end = split_args_end(rest[at + 1:], 1) if at >= 0 else -1
            t.exec_sig = m.group(1) + " " + (rest[at:at + 2 + end] if end >= 0 else "")
    if call.name in ignore:
        return
    raw = " / ".join(call.lines)
    text = "%s(%s) = %s" % (call.name, call.args, DURATION_RE.sub("", (ret or "?").strip()))
    t.events.append(((call.name, outcome, path), raw, " ".join(text.split())))


def parse_log(path, ignore):
    log = Log(path)
    pending = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        sys.stderr.write("compare.py: cannot read %s: %s\n" % (path, e.strerror))
        sys.exit(2)
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        log.nlines += 1
        m = PREFIX_RE.match(line)
        pid = int(m.group(1) or m.group(2) or 0)
        rest = m.group(3)
        t = log.task(pid)
        if rest.startswith("--- ") or rest.startswith("+++ "):
            # A call still open when its task is signalled or ends never
            # returned: it goes before the signal or the end.
            old = pending.pop(pid, None)
            if old is not None:
                finish_call(log, old, ignore)
        if rest.startswith("--- "):
            sig = rest[4:].split(" ", 1)[0]
            t.events.append((("--- " + sig, "", None), line, rest))
            continue
        if rest.startswith("+++ "):
            what = rest[4:].rstrip("+ ").strip()
            what = re.sub(r"\s*\(core dumped\)", "", what)
            t.events.append((("+++", what, None), line, rest))
            continue
        if rest.startswith("<... ") and " resumed>" in rest:
            r = RESUMED_RE.match(rest)
            if not r:
                log.unparsed.append((lineno, line))
                continue
            call = pending.pop(pid, None)
            if call is None or call.name != r.group(1):
                if call is not None:
                    finish_call(log, call, ignore)
                call = Call(pid, r.group(1), "", lineno, line)
            else:
                call.lines.append(line)
            body = r.group(2)
            end = split_args_end(body, 1)
            if end < 0:
                log.unparsed.append((lineno, line))
                call.args += body
                finish_call(log, call, ignore)
                continue
            call.args += body[:end]
            tail = body[end + 1:]
            call.ret = tail.split("=", 1)[1] if "=" in tail else ""
            finish_call(log, call, ignore)
            continue
        c = CALL_RE.match(rest)
        if not c:
            if rest.startswith("<detached") or rest.startswith("strace: "):
                continue
            log.unparsed.append((lineno, line))
            continue
        old = pending.pop(pid, None)
        if old is not None:
            finish_call(log, old, ignore)
        call = Call(pid, c.group(1), "", lineno, line)
        body = c.group(2)
        if body.endswith(UNFINISHED):
            # strace ends the entry half with " <unfinished ...>": one
            # space of its own after the text so far ("3, " or "0x1").
            args = body[:-len(UNFINISHED)]
            call.args = args[:-1] if args.endswith(" ") else args
            pending[pid] = call
            continue
        end = split_args_end(body, 1)
        if end < 0:
            log.unparsed.append((lineno, line))
            call.args = body
            call.ret = ""
            finish_call(log, call, ignore)
            continue
        call.args = body[:end]
        tail = body[end + 1:]
        if "=" not in tail:
            log.unparsed.append((lineno, line))
            call.ret = ""
        else:
            call.ret = tail.split("=", 1)[1]
        finish_call(log, call, ignore)
    for call in pending.values():
        finish_call(log, call, ignore)
    assign_keys(log)
    return log


def assign_keys(log):
    """Each task's place in the tree: the Nth child a task made (counting
    its successful clone-family calls) is PARENT.N.  Tasks whose creating
    call is not in the log are roots "1", "2"... in creation order."""
    parent_of = {}
    for t in log.order:
        for i, c in enumerate(t.children):
            if c not in parent_of and c != t.pid:
                parent_of[c] = (t.pid, i + 1)
    roots = [0]

    def key_of(t, seen):
        if t.key is None:
            p = parent_of.get(t.pid)
            if p is not None and p[0] in log.tasks and p[0] not in seen:
                t.parent = log.tasks[p[0]]
                t.key = "%s.%d" % (key_of(t.parent, seen | {t.pid}), p[1])
            else:
                roots[0] += 1
                t.key = str(roots[0])
        return t.key

    for t in log.order:
        key_of(t, frozenset())


def match_tasks(a, b):
    """Pairs (task A, task B), then the unmatched of each side."""
    pairs = []
    free_a = list(a.order)
    free_b = list(b.order)

    def take(pred):
        for ta in list(free_a):
            for tb in free_b:
                if pred(ta, tb):
                    pairs.append((ta, tb))
                    free_a.remove(ta)
                    free_b.remove(tb)
                    break

    # Same place in the tree and the same program, then the same place,
    # then the same program in creation order.
    take(lambda x, y: x.key == y.key and x.exec_sig == y.exec_sig)
    take(lambda x, y: x.key == y.key)
    take(lambda x, y: x.exec_sig is not None and x.exec_sig == y.exec_sig)
    return pairs, free_a, free_b


# Beyond this many edits the exact alignment gets slow (it costs about
# (len A + len B) * edits steps); difflib's heuristic one is used instead.
MAX_EDITS = 6000


def myers_matches(a, b, max_d):
    """The index pairs (i, j) of a longest common subsequence of A and B
    (Myers' O((N+M)D) diff), or None when more than MAX_D edits apart."""
    n, m = len(a), len(b)
    off = max_d + 1
    v = [0] * (2 * off + 2)
    snaps = []
    for d in range(max_d + 1):
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[off + k - 1] < v[off + k + 1]):
                x = v[off + k + 1]
            else:
                x = v[off + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[off + k] = x
            if x >= n and y >= m:
                snaps.append(v[off - d:off + d + 1])
                return myers_backtrack(snaps, n, m)
        snaps.append(v[off - d:off + d + 1])
    return None


def myers_backtrack(snaps, n, m):
    matches = []
    x, y = n, m
    for d in range(len(snaps) - 1, 0, -1):
        prev = snaps[d - 1]	# prev[k + d - 1] is the furthest x on diagonal k
        k = x - y
        if k == -d or (k != d and prev[k - 1 + d - 1] < prev[k + 1 + d - 1]):
            pk = k + 1
        else:
            pk = k - 1
        px = prev[pk + d - 1]
        py = px - pk
        while x > px and y > py:
            x -= 1
            y -= 1
            matches.append((x, y))
        x, y = px, py
    while x > 0 and y > 0:
        x -= 1
        y -= 1
        matches.append((x, y))
    matches.reverse()
    return matches


def align(a, b):
    """Match count and difflib-style opcodes of the best alignment of A and B."""
    pre = 0
    while pre < len(a) and pre < len(b) and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < len(a) - pre and suf < len(b) - pre and a[-1 - suf] == b[-1 - suf]:
        suf += 1
    ma, mb = a[pre:len(a) - suf], b[pre:len(b) - suf]
    inner = myers_matches(ma, mb, MAX_EDITS) if ma and mb else []
    if inner is None:
        sm = difflib.SequenceMatcher(None, ma, mb, autojunk=False)
        inner = [(bl.a + k, bl.b + k) for bl in sm.get_matching_blocks() for k in range(bl.size)]
    pairs = [(i, i) for i in range(pre)]
    pairs += [(i + pre, j + pre) for i, j in inner]
    pairs += [(len(a) - suf + i, len(b) - suf + i) for i in range(suf)]
    ops = []
    i = j = 0
    for pi, pj in pairs + [(len(a), len(b))]:
        if pi > i and pj > j:
            ops.append(("replace", i, pi, j, pj))
        elif pi > i:
            ops.append(("delete", i, pi, j, j))
        elif pj > j:
            ops.append(("insert", i, i, j, pj))
        i, j = pi + 1, pj + 1
    return len(pairs), ops, pairs


def compare(a, b):
    pairs, only_a, only_b = match_tasks(a, b)
    rows = []
    for ta, tb in pairs:
        sa = [e[0] for e in ta.events]
        sb = [e[0] for e in tb.events]
        matched, ops, common = align(sa, sb)
        rows.append({"a": ta, "b": tb, "matched": matched,
                     "den": max(len(sa), len(sb)), "ops": ops, "common": common})
    matched = sum(r["matched"] for r in rows)
    den = sum(r["den"] for r in rows)
    den += sum(len(t.events) for t in only_a) + sum(len(t.events) for t in only_b)
    return rows, only_a, only_b, matched, den


HEX_RE = re.compile(r"\b0x[0-9a-f]{5,}\b")
NUM_RE = re.compile(r"\b\d{2,8}\b")
VARYING_RE = re.compile(r"\b(si_utime|si_stime|sin_port=htons|sin6_port=htons|tv_sec|tv_nsec)"
                        r"([=(])\d+")
COMMENT_RE = re.compile(r"\s*/\* (?:\d{4}-\d\d-\d\dT[^*]*|[\d.]+ s) \*/")
RANDOM_CALLS = frozenset(("getrandom",))
# Calls whose whole text changes from run to run (times, free memory,
# the tracer's own pid): only the name is kept.
VARYING_CALLS = frozenset(("sysinfo", "getppid", "times", "clock_gettime", "gettimeofday",
                           "time", "uname"))


def norm_text(text, name, pids):
    """A call's text without what differs from run to run anyway:
    addresses, pids, CPU times, ephemeral ports, random bytes."""
    if name in VARYING_CALLS:
        return name
    text = COMMENT_RE.sub("", text)
    text = HEX_RE.sub("0x_", text)
    text = NUM_RE.sub(lambda m: "PID" if int(m.group(0)) in pids else m.group(0), text)
    text = VARYING_RE.sub(lambda m: m.group(1) + m.group(2) + "_", text)
    if name in RANDOM_CALLS:
        text = QUOTED_RE.sub('"_"', text, count=1)
    return text


def text_compare(a, b, rows):
    """Of the calls both logs agree on, how many print the very same text
    once normalised; per call name, how many do not, with a first example."""
    same = total = 0
    diff = {}
    pa, pb = set(a.tasks), set(b.tasks)
    for r in rows:
        ea, eb = r["a"].events, r["b"].events
        for i, j in r["common"]:
            name = ea[i][0][0]
            ta = norm_text(ea[i][2], name, pa)
            tb = norm_text(eb[j][2], name, pb)
            total += 1
            if ta == tb:
                same += 1
                continue
            d = diff.setdefault(name, [0, ea[i][2], eb[j][2]])
            d[0] += 1
    return same, total, diff


def pct(m, d):
    return 100.0 if d == 0 else 100.0 * m / d


def short(s, width):
    s = s.replace("\t", " ")
    return s if len(s) <= width else s[:width - 3] + "..."


def task_label(t):
    if t.exec_sig:
        return short(t.exec_sig, 50)
    return "(no execve)"


def report(args, a, b, result, out):
    rows, only_a, only_b, matched, den = result
    la, lb = args.label_a, args.label_b
    total = pct(matched, den)
    w = out.write
    w("%s: %s (%d lines, %d tasks)\n" % (la, a.path, a.nlines, len(a.order)))
    w("%s: %s (%d lines, %d tasks)\n" % (lb, b.path, b.nlines, len(b.order)))
    for lg, label in ((a, la), (b, lb)):
        if lg.unparsed:
            w("%s: %d lines not in strace's format, first: line %d: %s\n" % (
                label, len(lg.unparsed), lg.unparsed[0][0], short(lg.unparsed[0][1], 100)))
    w("%-12s %7s %7s %6s %6s %7s %8s  %s\n" % (
        "task", "pid " + la[:2], "pid " + lb[:2], "len " + la[:1], "len " + lb[:1],
        "matched", "agree", "program"))
    for r in sorted(rows, key=lambda r: r["a"].order):
        w("%-12s %7d %7d %6d %6d %7d %7.2f%%  %s\n" % (
            short(r["a"].key, 12), r["a"].pid, r["b"].pid, len(r["a"].events),
            len(r["b"].events), r["matched"], pct(r["matched"], r["den"]),
            task_label(r["a"])))
    for t in only_a:
        w("%-12s %7d %7s %6d %6s %7s %8s  %s (only in %s)\n" % (
            t.key, t.pid, "-", len(t.events), "-", "-", "-", task_label(t), la))
    for t in only_b:
        w("%-12s %7s %7d %6s %6d %7s %8s  %s (only in %s)\n" % (
            t.key, "-", t.pid, "-", len(t.events), "-", "-", task_label(t), lb))
    if rows:
        worst = min(rows, key=lambda r: (pct(r["matched"], r["den"]), r["a"].order))
        w("worst task: %s (%s pid %d, %s pid %d) %.2f%%: %s\n" % (
            worst["a"].key, la, worst["a"].pid, lb, worst["b"].pid,
            pct(worst["matched"], worst["den"]), task_label(worst["a"])))
    if args.show > 0 and matched < den:
        by_call(args, rows, only_a, only_b, out)
        show_diffs(args, rows, out)
    same, ntext, diff = text_compare(a, b, rows)
    if args.show > 0 and diff:
        w("printed differently (calls that agree on name, outcome and path; first example):\n")
        top = sorted(diff.items(), key=lambda kv: (-kv[1][0], kv[0]))
        for name, d in top[:args.text_calls]:
            w("  %-16s %d\n    %s: %s\n    %s: %s\n" % (
                name, d[0], la, short(d[1], 2 * args.width), lb, short(d[2], 2 * args.width)))
        if len(top) > args.text_calls:
            w("  ... and %d more calls\n" % (len(top) - args.text_calls))
    w("text: %.2f%% (%d of the %d agreeing events print the same, addresses, pids and "
      "times aside; not scored)\n" % (pct(same, ntext), same, ntext))
    w("total: %.2f%% (%d of %d tokens agree)\n" % (total, matched, den))
    return total


def by_call(args, rows, only_a, only_b, out):
    """Which calls disagree and on what: a same-named call at the same
    place with another path or outcome, or a call only one side has."""
    counts = {}

    def bump(name, what):
        c = counts.setdefault(name, {"path": 0, "outcome": 0, "only A": 0, "only B": 0})
        c[what] += 1

    for r in rows:
        ea, eb = r["a"].events, r["b"].events
        for tag, i1, i2, j1, j2 in r["ops"]:
            n = max(i2 - i1, j2 - j1)
            for k in range(n):
                ta = ea[i1 + k][0] if i1 + k < i2 else None
                tb = eb[j1 + k][0] if j1 + k < j2 else None
                if ta and tb and ta[0] == tb[0]:
                    if ta[2] != tb[2]:
                        bump(ta[0], "path")
                    if ta[1] != tb[1]:
                        bump(ta[0], "outcome")
                    continue
                if ta:
                    bump(ta[0], "only A")
                if tb:
                    bump(tb[0], "only B")
    for t in only_a:
        for e in t.events:
            bump(e[0][0], "only A")
    for t in only_b:
        for e in t.events:
            bump(e[0][0], "only B")
    top = sorted(counts.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    out.write("disagreements by call (same call with another path or outcome; "
              "a call only %s (A) or only %s (B) has):\n" % (args.label_a, args.label_b))
    for name, c in top[:12]:
        out.write("  %-16s %s\n" % (name, ", ".join(
            "%s %d" % (k, v) for k, v in c.items() if v)))
    if len(top) > 12:
        out.write("  ... and %d more calls\n" % (len(top) - 12))


def show_diffs(args, rows, out):
    """The first differing lines, side by side, in task creation order."""
    width = args.width
    left = "%s (A)" % args.label_a
    right = "%s (B)" % args.label_b
    out.write("first differences (%-*s | %s):\n" % (width - 21, left, right))
    shown = 0
    for r in sorted(rows, key=lambda r: r["a"].order):
        ea, eb = r["a"].events, r["b"].events
        header = False
        for tag, i1, i2, j1, j2 in r["ops"]:
            if not header:
                out.write("  task %s (pids %d / %d):\n" % (r["a"].key, r["a"].pid, r["b"].pid))
                header = True
            n = max(i2 - i1, j2 - j1)
            for k in range(n):
                lhs = ea[i1 + k][1] if i1 + k < i2 else ""
                rhs = eb[j1 + k][1] if j1 + k < j2 else ""
                lhs = PREFIX_RE.match(lhs).group(3) if lhs else ""
                rhs = PREFIX_RE.match(rhs).group(3) if rhs else ""
                out.write("    %-*s | %s\n" % (width, short(lhs, width), short(rhs, width)))
                shown += 1
                if shown >= args.show:
                    return


def main():
    ap = argparse.ArgumentParser(
        description="Agreement of two strace-format logs, per task: syscall, outcome, path.")
    ap.add_argument("a", help="the reference log (A)")
    ap.add_argument("b", help="the log to check (B)")
    ap.add_argument("--label-a", default="A")
    ap.add_argument("--label-b", default="B")
    ap.add_argument("--min", type=float, default=None,
                    help="exit 1 when the total agreement is below this percentage")
    ap.add_argument("--show", type=int, default=20,
                    help="show the first N differing lines (0: none)")
    ap.add_argument("--width", type=int, default=64, help="column width of the diff")
    ap.add_argument("--text-calls", type=int, default=10,
                    help="how many calls printed differently to show (default %(default)s)")
    ap.add_argument("--ignore", default=DEFAULT_IGNORE,
                    help="comma-separated syscalls left out of both logs (default: %(default)s)")
    ap.add_argument("--score-only", action="store_true", help="print the total only")
    args = ap.parse_args()
    ignore = frozenset(x for x in args.ignore.split(",") if x)
    a = parse_log(args.a, ignore)
    b = parse_log(args.b, ignore)
    result = compare(a, b)
    if args.score_only:
        total = pct(result[3], result[4])
        print("%.2f" % total)
    else:
        total = report(args, a, b, result, sys.stdout)
    if args.min is not None and total < args.min:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
