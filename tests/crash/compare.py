#!/usr/bin/python3
"""Check one crash core: gdb's view against the program's expect header,
then `rootcause core --format json` against gdb.

    compare.py --src PROG.c --gdb GDB.txt [--json RC.json | --rc-error WHY
               | --gdb-only] [--exe NAME] [-v]

GDB.txt is the output of the gdb command tests/crash/run gives (sections
opened by "@@name" lines).  Prints "# "-prefixed diagnostics (TAP comments)
and exits 0 when every check passed, 1 when one failed, 2 on bad usage.
Standard library only.
"""

import argparse
import json
import os
import re
import signal
import sys

# si_code names (<asm-generic/siginfo.h>); a test oracle, so kept small.
SI_GENERIC = {0: "SI_USER", 0x80: "SI_KERNEL", -1: "SI_QUEUE", -2: "SI_TIMER",
              -3: "SI_MESGQ", -4: "SI_ASYNCIO", -5: "SI_SIGIO", -6: "SI_TKILL"}
SI_BY_SIGNAL = {
    "SIGSEGV": {1: "SEGV_MAPERR", 2: "SEGV_ACCERR", 3: "SEGV_BNDERR", 4: "SEGV_PKUERR"},
    "SIGBUS": {1: "BUS_ADRALN", 2: "BUS_ADRERR", 3: "BUS_OBJERR", 4: "BUS_MCEERR_AR",
               5: "BUS_MCEERR_AO"},
    "SIGILL": {1: "ILL_ILLOPC", 2: "ILL_ILLOPN", 3: "ILL_ILLADR", 4: "ILL_ILLTRP",
               5: "ILL_PRVOPC", 6: "ILL_PRVREG", 7: "ILL_COPROC", 8: "ILL_BADSTK"},
    "SIGFPE": {1: "FPE_INTDIV", 2: "FPE_INTOVF", 3: "FPE_FLTDIV", 4: "FPE_FLTOVF",
               5: "FPE_FLTUND", 6: "FPE_FLTRES", 7: "FPE_FLTINV", 8: "FPE_FLTSUB"},
}
FAULT_SIGNALS = ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE")
# How many frames of each thread `thread apply all bt N` shows.
ALL_BT_DEPTH = 60
# rootcause's cap on frames per thread (RC_CRASH_MAX_FRAMES).
MAX_FRAMES = 200000

# "#1  0x000055d0 in load_model (path=...) at /x/crash-null.c:31", the
# address left out for inline frames and at the start of a line, "from LIB"
# instead of "at FILE:LINE" without debug info; the arguments may hold
# anything ("<error reading variable: ... at address 0x...>").
FRAME_RE = re.compile(
    r"^#(\d+)\s+(?:(0x[0-9a-f]+) in )?(\S+?) \(.*\)"
    r"(?: at (\S+):(\d+)| from (\S+))?\s*$")
THREAD_RE = re.compile(r"^(\*)?\s+(\d+)\s+(?:Thread 0x[0-9a-f]+ \(LWP (\d+)\)|LWP (\d+))")
THREAD_HDR_RE = re.compile(r"^Thread (\d+) \((?:Thread 0x[0-9a-f]+ \(LWP (\d+)\)|LWP (\d+))\)")
VALUE_RE = re.compile(r"^\$\d+ = (?:\([^)]*\) )?(-?(?:0x[0-9a-f]+|\d+))")


class Checks:
    """Collects failures and notes, printed as TAP comments."""

    def __init__(self, verbose):
        self.verbose = verbose
        self.failures = []

    def fail(self, what):
        self.failures.append(what)
        print("# FAIL " + what)

    def note(self, what):
        if self.verbose:
            print("# " + what)

    def check(self, ok, what):
        if not ok:
            self.fail(what)
        return ok


def read_expect(path):
    """The header comment's "key: value" lines; "expect:" holds k=v words."""
    exp = {}
    with open(path, encoding="utf-8") as f:
        head = f.read(4096).split("*/", 1)[0]
    for line in head.splitlines():
        m = re.match(r"^\s*(?:/\*|\*)?\s*(expect|frames|outer|message|exception|link):\s*(.*?)\s*$", line)
        if not m:
            continue
        key, val = m.group(1), m.group(2)
        if key == "expect":
            for word in val.split():
                k, _, v = word.partition("=")
                exp[k] = v
        elif key in ("frames", "outer"):
            exp[key] = val.split()
        else:
            exp[key] = val
    return exp


def parse_frames(lines):
    frames, more, stopped = [], False, None
    for line in lines:
        m = FRAME_RE.match(line)
        if m:
            frames.append({
                "num": int(m.group(1)),
                "pc": int(m.group(2), 16) if m.group(2) else None,
                "function": m.group(3),
                "file": m.group(4),
                "line": int(m.group(5)) if m.group(5) else 0,
                "lib": m.group(6),
            })
        elif line.startswith("(More stack frames follow"):
            more = True
        elif line.startswith("Backtrace stopped"):
            stopped = line.strip()
    return frames, more, stopped


def parse_gdb(text):
    sections, cur = {}, None
    for line in text.splitlines():
        if line.startswith("@@"):
            cur = line[2:].strip()
            sections[cur] = []
        elif cur is not None:
            sections[cur].append(line)
    g = {"threads": [], "current": None, "signo": None, "si_code": None, "addr": None,
         "bt": [], "bt_more": False, "bt_stopped": None, "outer": [], "all": {}}
    for line in sections.get("threads", []):
        m = THREAD_RE.match(line)
        if m:
            tid = int(m.group(3) or m.group(4))
            g["threads"].append(tid)
            if m.group(1):
                g["current"] = tid
    vals = []
    for line in sections.get("siginfo", []):
        m = VALUE_RE.match(line)
        vals.append(int(m.group(1), 0) if m else None)
    if len(vals) >= 3:
        g["signo"], g["si_code"], g["addr"] = vals[:3]
    g["bt"], g["bt_more"], g["bt_stopped"] = parse_frames(sections.get("bt", []))
    g["outer"], _, _ = parse_frames(sections.get("outer", []))
    g["abort_msg"] = "\n".join(sections.get("abort_msg", []))
    g["tailcalls"] = set()
    for line in sections.get("tailcalls", []):
        m = re.match(r"^(\d+) (\d+)$", line)
        if m:
            g["tailcalls"].add((int(m.group(1)), int(m.group(2))))
    tid, chunk = None, []
    for line in sections.get("all", []) + ["Thread 0 (LWP 0)"]:
        m = THREAD_HDR_RE.match(line)
        if m:
            if tid is not None:
                g["all"][tid] = parse_frames(chunk)[0]
            tid, chunk = int(m.group(2) or m.group(3)), []
        else:
            chunk.append(line)
    return g


def signame(n):
    try:
        return signal.Signals(n).name
    except (ValueError, TypeError):
        return str(n)


def codename(sig, code):
    if code is None:
        return None
    return SI_BY_SIGNAL.get(sig, {}).get(code) if code > 0 and code != 0x80 \
        else SI_GENERIC.get(code, str(code))


def norm(name):
    """A function name without version suffix, clone suffix, glibc's
    internal __GI_ alias prefix or leading underscores."""
    if not name or name == "??":
        return "??"
    name = name.split("@", 1)[0]
    name = re.sub(r"\.(?:constprop|isra|part|cold|lto_priv)(?:\.\d+)*", "", name)
    # C++: rootcause's names carry the parameters ("Header::check() const"),
    # gdb's frame lines put the arguments' values there instead.
    name = re.sub(r"\((?:[^()]|\([^()]*\))*\)(?: const)?$", "", name)
    if name.startswith("__GI_"):
        name = name[5:]
    return name.lstrip("_") or name


def ours(path, progs):
    return bool(path) and os.path.dirname(os.path.abspath(path)) == progs


def as_int(v):
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            return None
    return None


def chain_in(names, chain):
    """Is CHAIN a contiguous run of NAMES (normalized)?"""
    n, c = [norm(x) for x in names], [norm(x) for x in chain]
    return any(n[i:i + len(c)] == c for i in range(len(n) - len(c) + 1))


def cut_at_main(frames, key="function"):
    for i, f in enumerate(frames):
        if f.get(key) == "main":
            return frames[:i + 1]
    return frames


def fmt_gdb(f):
    where = f" {os.path.basename(f['file'])}:{f['line']}" if f["file"] else (
        f" from {os.path.basename(f['lib'])}" if f["lib"] else "")
    pc = f"0x{f['pc']:x}" if f["pc"] is not None else "(inline/at line start)"
    return f"#{f['num']:<3} {f['function']}  {pc}{where}"


def fmt_rc(f):
    if f is None:
        return "-"
    pc = as_int(f.get("pc"))
    where = f" {os.path.basename(f['file'])}:{f.get('line', 0)}" if f.get("file") else ""
    mod = os.path.basename(f["module"]) if f.get("module") else "?"
    inl = " [inline]" if f.get("inlined") else ""
    pcs = f"0x{pc:x}" if pc is not None else "?"
    return f"{f.get('function') or '??'}  {pcs} {mod}{where}{inl}"


def fold(names):
    """["f", "f", "f", "g"] -> ["f x3", "g"]."""
    out = []
    for n in names:
        if out and out[-1][0] == n:
            out[-1][1] += 1
        else:
            out.append([n, 1])
    return [n if k == 1 else f"{n} x{k}" for n, k in out]


def check_gdb(c, g, exp, src):
    """The harness's own checks: did the program crash the way its header
    says, and did gdb's output parse?"""
    name = os.path.basename(src)
    if not c.check(g["threads"] and g["bt"], f"gdb: no threads or no backtrace parsed for {name}"):
        return False
    c.check(g["current"] is not None, "gdb: no current (crashed) thread marked in 'info threads'")
    sig = signame(g["signo"])
    code = codename(sig, g["si_code"])
    if "signal" in exp:
        c.check(sig == exp["signal"], f"gdb: signal {sig}, the program should die of {exp['signal']}")
    if "si_code" in exp:
        c.check(code == exp["si_code"], f"gdb: si_code {code}, expected {exp['si_code']}")
    if "addr" in exp:
        c.check(g["addr"] == int(exp["addr"], 0),
                f"gdb: fault address {g['addr']!r}, expected {exp['addr']}")
    if "threads" in exp:
        c.check(len(g["threads"]) == int(exp["threads"]),
                f"gdb: {len(g['threads'])} threads, the program should have {exp['threads']}")
    if "message" in exp:
        c.check(exp["message"] in g["abort_msg"],
                f"gdb: glibc's __abort_msg lacks {exp['message']!r}: {g['abort_msg'].strip()!r}")
    names = [f["function"] for f in g["bt"]]
    if "frames" in exp:
        c.check(chain_in(names, exp["frames"]),
                f"gdb: backtrace {' > '.join(names)} lacks {' > '.join(exp['frames'])}")
    outer = [f["function"] for f in g["outer"]]
    last = (outer or names)[-1]
    if exp.get("crashed") == "main":
        c.check(last == "main", f"gdb: crashed thread ends in {last}, not main")
    elif exp.get("crashed") == "worker":
        c.check("main" not in names + outer, "gdb: crashed thread has main: not a worker")
    if "recursion" in exp:
        fn = exp["recursion"]
        c.check(len(names) == 50 and all(n == fn for n in names),
                f"gdb: the first 50 frames are not all {fn}")
        if "outer" in exp:
            c.check(chain_in(outer, exp["outer"]) and outer[-1:] == [exp["outer"][-1]],
                    f"gdb: outermost frames {' > '.join(outer)} do not end {' > '.join(exp['outer'])}")
        depth = g["outer"][-1]["num"] + 1 if g["outer"] else 0
        c.check(5000 <= depth <= 40000, f"gdb: recursion depth {depth}, expected 5,000-40,000")
    if c.verbose:
        c.note(f"gdb: {len(g['threads'])} threads {g['threads']}, crashed LWP {g['current']}, "
               f"{sig} {code} addr {g['addr'] if g['addr'] is None else hex(g['addr'])}")
        for tid in g["threads"]:
            fr = g["bt"] if tid == g["current"] else g["all"].get(tid, [])
            tag = "crashed" if tid == g["current"] else "thread"
            c.note(f"gdb {tag} {tid}: " + " > ".join(fold([f["function"] for f in fr]))
                   + (" > ..." if tid == g["current"] and "recursion" in exp else ""))
        if g["outer"]:
            c.note(f"gdb crashed {g['current']} outermost: " + " > ".join(
                f"#{f['num']} {f['function']}" for f in g["outer"]))
    return True


def frame_match(gf, rf, progs):
    """'ok', 'alias' (same pc or line in a system library under another
    name) or a reason for a mismatch."""
    if rf is None:
        return "missing in rootcause"
    gn, rn = norm(gf["function"]), norm(rf.get("function"))
    pc = as_int(rf.get("pc"))
    same_pc = gf["pc"] is not None and pc in (gf["pc"], gf["pc"] - 1)
    same_line = bool(gf["file"]) and bool(rf.get("file")) and \
        os.path.basename(gf["file"]) == os.path.basename(rf["file"]) and \
        gf["line"] == rf.get("line")
    if gn != rn:
        if not ours(gf["file"], progs) and (same_pc or same_line):
            return "alias"
        return f"function {rf.get('function')!r}, gdb has {gf['function']!r}"
    if gf["pc"] is not None and not rf.get("inlined") and not same_pc:
        return f"pc {hex(pc) if pc is not None else None}, gdb has {hex(gf['pc'])}"
    if gf["file"]:
        if not rf.get("file"):
            if ours(gf["file"], progs):
                return f"no file:line, gdb has {os.path.basename(gf['file'])}:{gf['line']}"
        elif not same_line and os.path.basename(rf["file"]) == os.path.basename(gf["file"]):
            # (A different file is gdb's way with is_stmt-less line rows
            # of inlined code at a call: not counted.)
            return (f"{os.path.basename(rf['file'])}:{rf.get('line')}, gdb has "
                    f"{os.path.basename(gf['file'])}:{gf['line']}")
    return "ok"


def row_key(gf, rf):
    return (gf["function"], gf["pc"], rf.get("function"), as_int(rf.get("pc")))


def compare_frames(c, label, gframes, rframes, progs, tailcalls=(), start=0):
    """gdb's frames against rootcause's from index START, in order; a
    frame gdb made up from call-site info (level in TAILCALLS) may be
    missing.  Prints a side-by-side table on a mismatch (or always with
    -v).  Returns True when all matched."""
    bad, rows = [], []
    j = start
    for gf in gframes:
        rf = rframes[j] if j < len(rframes) else None
        r = frame_match(gf, rf, progs)
        if gf["num"] in tailcalls and r not in ("ok", "alias"):
            rows.append((gf, None, "tailcall"))
            continue
        rows.append((gf, rf, r))
        j += 1
        if r not in ("ok", "alias"):
            bad.append(f"#{gf['num']} {r}")
    if bad:
        c.fail(f"{label}: {len(bad)} frame(s) differ from gdb: " + "; ".join(bad[:4]))
    if bad or c.verbose:
        print(f"#   {label}: gdb | rootcause")
        marks = {"ok": "  ", "alias": "~ ", "tailcall": "t "}
        same = 0
        for k, (gf, rf, r) in enumerate(rows):
            # A recursion's identical rows are shown once, then counted.
            if k and r == "ok" and rows[k - 1][2] == "ok" and \
                    row_key(gf, rf) == row_key(*rows[k - 1][:2]):
                same += 1
                continue
            if same:
                print(f"#     ... {same} more like the row above")
                same = 0
            right = "(gdb's tail-call frame, from DWARF call sites)" if r == "tailcall" else fmt_rc(rf)
            print(f"#   {marks.get(r, '! ')}{fmt_gdb(gf):<60} | {right}")
        if same:
            print(f"#     ... {same} more like the row above")
    return not bad


def finding_texts(f):
    out = []
    for k in ("summary", "message", "advice"):
        if isinstance(f.get(k), str):
            out.append(f[k])
    if isinstance(f.get("evidence"), list):
        out.extend(e for e in f["evidence"] if isinstance(e, str))
    return out


def check_rc(c, g, rc, exp, exe, progs):
    if not isinstance(rc, dict):
        c.fail("rootcause: the report is not a JSON object")
        return
    crash = rc.get("crash")
    threads = rc.get("threads")
    findings = rc.get("findings")
    if not c.check(isinstance(crash, dict), "rootcause: no \"crash\" object"):
        crash = {}
    if not c.check(isinstance(threads, list), "rootcause: no \"threads\" list"):
        threads = []
    if not c.check(isinstance(findings, list), "rootcause: no \"findings\" list"):
        findings = []
    threads = [t for t in threads if isinstance(t, dict)]

    sig = signame(g["signo"])
    code = codename(sig, g["si_code"])
    c.check(crash.get("signal") == sig, f"signal: rootcause {crash.get('signal')!r}, gdb {sig}")
    rcode = crash.get("si_code")
    if isinstance(rcode, int) and not isinstance(rcode, bool):
        rcode = codename(sig, rcode)
    c.check(rcode == code, f"si_code: rootcause {crash.get('si_code')!r}, gdb {code}")
    if sig in FAULT_SIGNALS:
        fa = as_int(crash.get("fault_address"))
        c.check(fa == g["addr"], f"fault_address: rootcause {crash.get('fault_address')!r}, "
                f"gdb {hex(g['addr']) if g['addr'] is not None else None}")
    c.check(as_int(crash.get("tid")) == g["current"],
            f"crash.tid: rootcause {crash.get('tid')!r}, gdb's crashed thread is LWP {g['current']}")
    if exe:
        c.check(os.path.basename(str(crash.get("exe", ""))) == exe,
                f"crash.exe: rootcause {crash.get('exe')!r}, expected .../{exe}")

    rtids = [as_int(t.get("tid")) for t in threads]
    c.check(len(threads) == len(g["threads"]),
            f"thread count: rootcause {len(threads)}, gdb {len(g['threads'])}")
    c.check(sorted(t for t in rtids if t is not None) == sorted(g["threads"]),
            f"thread ids: rootcause {sorted(t for t in rtids if t is not None)}, gdb {sorted(g['threads'])}")
    crashed = [t for t in threads if t.get("crashed") is True]
    c.check(len(crashed) == 1 and as_int(crashed[0].get("tid")) == g["current"],
            f"crashed thread: rootcause marks {[t.get('tid') for t in crashed]}, gdb LWP {g['current']}")
    by_tid = {as_int(t.get("tid")): t for t in threads}

    def frames_of(t):
        """A thread's frames, a folded run ("repeat": N) unfolded."""
        fr = t.get("frames") if t else None
        out = []
        for f in fr if isinstance(fr, list) else []:
            if isinstance(f, dict):
                n = as_int(f.get("repeat")) or 1
                out.extend([f] * max(1, min(n, MAX_FRAMES - len(out))))
            if len(out) >= MAX_FRAMES:
                break
        return out

    def tails(tid):
        return {lvl for t, lvl in g["tailcalls"] if t == tid}

    # The crashed thread: gdb's bt, frame by frame, up to main.
    ct = by_tid.get(g["current"])
    rframes = frames_of(ct)
    label = f"crashed thread {g['current']}"
    ctails = tails(g["current"])
    if "recursion" in exp:
        compare_frames(c, label + " (first 50)", g["bt"][:50], rframes, progs, ctails)
        fn = exp["recursion"]
        upto = cut_at_main(rframes)
        depth = g["outer"][-1]["num"] + 1 - len(ctails) if g["outer"] else None
        c.check(depth is not None and len(upto) == depth,
                f"{label}: rootcause has {len(upto)} frames up to main, gdb {depth}")
        nrec = sum(1 for f in upto if norm(f.get("function")) == fn)
        c.check(nrec >= 1000, f"{label}: only {nrec} {fn} frames in rootcause's stack")
        c.note(f"rootcause {label}: {len(rframes)} frames, {nrec} of them {fn}")
        if g["outer"] and depth is not None and len(upto) == depth:
            compare_frames(c, label + " (outermost)", g["outer"], rframes, progs,
                           start=g["outer"][0]["num"] - len(ctails))
    else:
        compare_frames(c, label, g["bt"], rframes, progs, ctails)

    # The other threads, as far as `thread apply all bt 60` shows them.
    for tid, gframes in sorted(g["all"].items()):
        if tid == g["current"] or tid not in by_tid:
            continue
        compare_frames(c, f"thread {tid}", gframes[:ALL_BT_DEPTH], frames_of(by_tid[tid]), progs,
                       tails(tid))

    # The diagnosis: the first finding's rule, culprit module, message.
    first = findings[0] if findings and isinstance(findings[0], dict) else {}
    if "rule" in exp:
        c.check(first.get("rule") == exp["rule"],
                f"first finding: rule {first.get('rule')!r}, expected {exp['rule']!r}"
                + (f" (all: {[f.get('rule') for f in findings if isinstance(f, dict)]})"
                   if findings else " (no findings)"))
    texts = finding_texts(first)
    if "module" in exp:
        mod = None
        for k in ("module", "culprit_module", "culprit"):
            v = first.get(k)
            if isinstance(v, dict):
                v = v.get("module") or v.get("name")
            if isinstance(v, str):
                mod = v
                break
        if mod is not None:
            c.check(os.path.basename(mod) == exp["module"],
                    f"first finding: culprit module {mod!r}, expected {exp['module']!r}")
        else:
            said = [first[k] for k in ("summary", "message") if isinstance(first.get(k), str)]
            c.check(any(re.search(r"(?<![\w.-])" + re.escape(exp["module"]) + r"(?![\w.-])", t)
                        for t in said),
                    f"first finding: names no culprit module {exp['module']!r}")
    if "message" in exp:
        c.check(any(exp["message"] in t for t in texts),
                f"first finding: no message with {exp['message']!r} (message {first.get('message')!r})")
    # An uncaught C++ exception: libstdc++ told only stderr, gdb's view has
    # no trace of it, and rootcause reads it from the exception object.
    if "exception" in exp:
        c.check(any(exp["exception"] in t for t in texts),
                f"first finding: no exception {exp['exception']!r} (message {first.get('message')!r})")
    if "recursion" in exp:
        c.check(any(exp["recursion"] in t for t in texts),
                f"first finding: does not name the recursing function {exp['recursion']!r}")
    if c.verbose and first:
        c.note(f"rootcause first finding: {first.get('rule')}: {first.get('summary')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", required=True, help="the program's source (expect header)")
    ap.add_argument("--gdb", required=True, help="gdb's output")
    ap.add_argument("--json", help="rootcause core --format json output")
    ap.add_argument("--rc-error", help="why there is no rootcause report to compare")
    ap.add_argument("--gdb-only", action="store_true", help="check the core and gdb only")
    ap.add_argument("--exe", help="the executable's file name")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()

    progs = os.path.dirname(os.path.abspath(a.src))
    c = Checks(a.verbose)
    exp = read_expect(a.src)
    if not exp.get("rule"):
        print(f"# {a.src}: no 'expect: rule=...' line in its header")
        return 2
    with open(a.gdb, encoding="utf-8", errors="replace") as f:
        g = parse_gdb(f.read())
    if not check_gdb(c, g, exp, a.src):
        return 1
    if a.gdb_only:
        pass
    elif a.rc_error is not None:
        if not c.failures:
            print("# core and gdb's view as the program's header expects; not compared:")
        c.fail(f"rootcause: {a.rc_error}")
    elif a.json:
        try:
            with open(a.json, encoding="utf-8") as f:
                rc = json.load(f)
        except (OSError, ValueError) as e:
            c.fail(f"rootcause: report is not JSON: {e}")
        else:
            check_rc(c, g, rc, exp, a.exe, progs)
    else:
        print("# one of --json, --rc-error, --gdb-only is needed")
        return 2
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
