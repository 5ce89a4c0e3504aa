"""Repeat one real strace -f -tt[-T] log to a size, as one long run of the
same service: copy K has its timestamps shifted by K times the trace's span
(plus a gap) and its pids by K times their spread, so that no two copies
share a pid or a moment and the processes of one copy never meet those of
another. The pids are rewritten where strace prints them: the line prefix,
the return of the calls that give a pid or a tid (clone, fork, gettid ...)
and the pid arguments of kill, tgkill, tkill and wait4.

    repeat-log.py ONE.LOG OUT.LOG SIZE_MB
"""
import re
import sys

PREFIX = re.compile(r"(\d+) +(\d\d):(\d\d):(\d\d)\.(\d{6}) (.*)\Z", re.S)
RET_PID = re.compile(r"^((?:<\.\.\. )?(?:clone3?|v?fork|gettid|getpid|set_tid_address)\b.*\) += )(\d+)(.*)\Z", re.S)
TID_ARG = re.compile(r"(parent_tid=\[)(\d+)(\])")
ARG_PID = re.compile(r"^(kill|tkill|tgkill|wait4)\((-?\d+)(, (\d+))?(.*)\Z", re.S)


def main():
    src, out, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
    lines = []
    pids = set()
    t0 = t1 = None
    with open(src, "r", encoding="latin-1") as f:
        for raw in f:
            m = PREFIX.match(raw)
            if not m:
                # Not a -f -tt line (none expected): kept as it is.
                lines.append((None, 0, raw))
                continue
            pid = int(m.group(1))
            us = ((int(m.group(2)) * 60 + int(m.group(3))) * 60 + int(m.group(4))) * 1000000 + int(m.group(5))
            if t0 is None:
                t0 = us
            if us < t0 - 43200 * 1000000:
                us += 86400 * 1000000  # the trace crossed midnight
            t1 = max(t1 or us, us)
            pids.add(pid)
            lines.append((pid, us, m.group(6)))
    if not pids:
        sys.exit("repeat-log: no 'PID HH:MM:SS.uuuuuu' lines in '%s'" % src)
    span_us = (t1 - t0) + 10000
    step = max(pids) - min(pids) + 1
    step = (step + 999) // 1000 * 1000

    def repid(k, text):
        m = RET_PID.match(text)
        if m and int(m.group(2)) in pids:
            head = TID_ARG.sub(lambda t: "%s%d%s" % (t.group(1), int(t.group(2)) + k * step, t.group(3))
                               if int(t.group(2)) in pids else t.group(0), m.group(1))
            return "%s%d%s" % (head, int(m.group(2)) + k * step, m.group(3))
        m = ARG_PID.match(text)
        if m:
            a = int(m.group(2))
            a = a + k * step if abs(a) in pids and a > 0 else a
            b = m.group(3) or ""
            if m.group(4) and int(m.group(4)) in pids:
                b = ", %d" % (int(m.group(4)) + k * step)
            return "%s(%d%s%s" % (m.group(1), a, b, m.group(5))
        return text

    need = int(size_mb * 1000 * 1000)
    written = 0
    k = 0
    with open(out, "w", encoding="latin-1") as f:
        while written < need:
            chunk = []
            for pid, us, text in lines:
                if pid is None:
                    chunk.append(text)
                    continue
                t = (us + k * span_us) % (86400 * 1000000)
                s, u = divmod(t, 1000000)
                h, s = divmod(s, 3600)
                mi, s = divmod(s, 60)
                if k and text[0] in "cvfgsktw<":
                    text = repid(k, text)
                chunk.append("%d %02d:%02d:%02d.%06d %s" % (pid + k * step, h, mi, s, u, text))
            data = "".join(chunk)
            f.write(data)
            written += len(data)
            k += 1
    print("%d copies of %d lines, %d MB" % (k, len(lines), written // 1000000))


main()
