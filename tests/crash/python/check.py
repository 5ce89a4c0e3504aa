#!/usr/bin/python3
"""Check one report of crash_target.py's crash (tests/crash/python-cores).

    check.py --script crash_target.py --tids TIDS --version X.Y --label TEXT
             (--json REPORT.json | --rc-error WHY) [--gdb GDB.txt]

TIDS holds the "ROLE TID NAME" lines the crashed process wrote (NAME:
the thread's threading name, which the report's "name" must be); REPORT.json is
`rootcause core --format json` of its core, or `rootcause run`'s report of
the crash; GDB.txt, when given, is `gdb -batch -ex 'info threads'` on the
same core.  The expected Python stacks come from the script's
"@stack ROLE DEPTH" markers, never from numbers written here.

Prints one line, the TAP description ("LABEL: 4 threads, stacks match the
script"), then "# " comments saying what differed, expected against got.
Exits 0 when every check passed, 1 when one failed, 2 on bad usage.
Standard library only.
"""

import argparse
import ast
import json
import os
import re
import sys

# The first CPython whose frames rootcause reads (issue 5's scope).
FIRST_SUPPORTED = (3, 8)
# Code objects carry co_qualname from 3.11 on; before, only co_name.
FIRST_QUALNAME = (3, 11)
MARKER_RE = re.compile(r"#\s*@stack\s+(\w+)\s+(\d+)\s*$")
GDB_THREAD_RE = re.compile(r"^\*?\s+\d+\s+.*?\bLWP (\d+)\b")


def function_names(tree):
    """{line: (co_name, co_qualname)} for every line inside a def, as the
    compiler names the code object that holds the line (a line of a nested
    def belongs to the innermost one)."""
    names = {}

    def visit(node, qual_prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = qual_prefix + child.name
                last = max(getattr(n, "lineno", child.lineno) for n in ast.walk(child))
                for line in range(child.lineno, last + 1):
                    names[line] = (child.name, qual)
                visit(child, qual + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, qual_prefix + child.name + ".")
            else:
                visit(child, qual_prefix)

    visit(tree, "")
    return names


def expected_stacks(script, version):
    """{role: [(function, line), ...]} innermost first, from the markers."""
    with open(script, encoding="utf-8") as f:
        text = f.read()
    names = function_names(ast.parse(text, script))
    qualname = version >= FIRST_QUALNAME
    marks = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        m = MARKER_RE.search(line)
        if not m:
            continue
        co_name, co_qualname = names.get(lineno, ("<module>", "<module>"))
        marks.setdefault(m.group(1), []).append(
            (int(m.group(2)), co_qualname if qualname else co_name, lineno))
    stacks = {}
    for role, lst in marks.items():
        lst.sort()
        if [d for d, _, _ in lst] != list(range(len(lst))):
            raise SystemExit("check.py: %s: the @stack %s markers' depths are not 0..%d"
                             % (script, role, len(lst) - 1))
        stacks[role] = [(fn, line) for _, fn, line in lst]
    return stacks


def fmt_stack(stack):
    return " < ".join("%s:%s" % fl for fl in stack) or "(none)"


def read_tids(path):
    """({tid: role}, {tid: threading name})."""
    roles, names = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3 and parts[1].isdigit():
                roles[int(parts[1])] = parts[0]
                names[int(parts[1])] = parts[2]
    return roles, names


def gdb_tids(path):
    tids = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = GDB_THREAD_RE.match(line)
            if m:
                tids.append(int(m.group(1)))
    return tids


def basename(path):
    return os.path.basename(path or "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--tids", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--json")
    ap.add_argument("--rc-error")
    ap.add_argument("--gdb")
    args = ap.parse_args()
    if not (args.json or args.rc_error):
        ap.error("--json or --rc-error is needed")
    # X.Y, or X.Yt for a free-threaded build.
    version = tuple(int(x.rstrip("t")) for x in args.version.split(".")[:2])
    supported = version >= FIRST_SUPPORTED
    script = os.path.realpath(args.script)
    expected = expected_stacks(script, version)

    fails = []

    def check(ok, what):
        if not ok:
            fails.append(what)
        return ok

    def done(good):
        if fails:
            print("%s: %d check%s failed" % (args.label, len(fails), "" if len(fails) == 1 else "s"))
            for f in fails:
                print("# " + f)
            sys.exit(1)
        print("%s: %s" % (args.label, good))
        sys.exit(0)

    roles, py_names = {}, {}
    try:
        roles, py_names = read_tids(args.tids)
    except OSError as e:
        check(False, "no thread ids from the script: %s" % e)
    check(sorted(roles.values()) == sorted(expected),
          "the script announced threads %s, its markers name %s"
          % (sorted(roles.values()), sorted(expected)))
    if args.rc_error:
        check(False, args.rc_error)
        done("")
    try:
        with open(args.json, encoding="utf-8") as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        check(False, "no JSON report: %s" % e)
        done("")

    threads = rep.get("threads") or []
    by_tid = dict((t.get("tid"), t) for t in threads)
    name = dict((tid, "%s (%d)" % (role, tid)) for tid, role in roles.items())
    tid_of = dict((role, tid) for tid, role in roles.items())

    # Threads: the script's, and gdb's view of the same core.
    check(sorted(by_tid) == sorted(roles),
          "threads: expected %s, got %s" % (sorted(roles), sorted(by_tid)))
    if args.gdb:
        g = gdb_tids(args.gdb)
        check(len(g) == len(threads) and sorted(g) == sorted(by_tid),
              "gdb sees %d threads %s, the report %d %s"
              % (len(g), sorted(g), len(threads), sorted(by_tid)))

    # The crashed thread is the crasher.
    crasher = tid_of.get("crasher")
    crash = rep.get("crash") or {}
    check(crash.get("tid") == crasher,
          "crash.tid: expected the crasher %s, got %s" % (crasher, crash.get("tid")))
    crashed = [t.get("tid") for t in threads if t.get("crashed")]
    check(crashed == [crasher],
          "crashed threads: expected [%s], got %s" % (crasher, crashed))

    # Its native frames: libc's memmove (memcpy is the same code at the
    # same address in glibc: either name is right) and _ctypes.
    frames = (by_tid.get(crasher) or {}).get("frames") or []
    libc_move = [f for f in frames
                 if basename(f.get("module")).startswith("libc.so")
                 and re.search(r"mem(move|cpy)", f.get("function") or "")]
    ctypes_mod = [f for f in frames if basename(f.get("module")).startswith("_ctypes")]
    native = ", ".join("%s@%s" % (f.get("function") or "??", basename(f.get("module")))
                       for f in frames[:8])
    check(libc_move, "the crasher's frames have no libc memmove: %s" % native)
    check(ctypes_mod, "the crasher's frames have no _ctypes frame: %s" % native)

    findings = rep.get("findings") or []
    first = findings[0] if findings else {}
    check(first.get("rule") == "null-deref",
          "first finding: expected rule null-deref, got %s" % first.get("rule"))

    gil = [t.get("tid") for t in threads if t.get("gil") is True]
    check(len(gil) <= 1, "%d threads hold the GIL: %s" % (len(gil), gil))

    said = [p for p in rep.get("problems") or [] if isinstance(p, str)]
    said += [f.get(k) for f in findings for k in ("summary", "message") if f.get(k)]
    ver = re.escape(args.version)
    # "Python 3.7 frames are not read yet": the version, and a negation.
    not_read = [s for s in said
                if re.search(r"\bPython\b", s)
                and re.search(r"(?<![\d.])%s(?![\d])" % ver, s)
                and re.search(r"\bnot\b|\bno\b|unsupported|cannot", s, re.I)]

    # Thread names: threading's, as each thread said it, are read from
    # memory for a supported version, and not claimed otherwise.  The
    # script's names are distinct and none is the kernel's name.
    check(len(set(py_names.values())) == len(py_names) and all(py_names.values()),
          "the script's thread names are not distinct: %s" % sorted(py_names.values()))
    got_names = dict((tid, (by_tid.get(tid) or {}).get("name")) for tid in roles)
    if supported:
        for tid in sorted(roles):
            check(got_names[tid] == py_names.get(tid),
                  "%s: name: expected %r, got %r" % (name.get(tid), py_names.get(tid), got_names[tid]))
    else:
        claimed = ["%s: %r" % (name.get(tid), got_names[tid]) for tid in sorted(roles)
                   if got_names[tid] == py_names.get(tid)]
        check(not claimed, "Python %s is not read, yet threads have its names: %s"
              % (args.version, ", ".join(claimed)))

    if not supported:
        with_py = ["%s: %s" % (name.get(t.get("tid"), t.get("tid")), fmt_stack(
            [(p.get("function"), p.get("line")) for p in t["python"]]))
            for t in threads if t.get("python")]
        check(not with_py, "Python %s is not read, yet threads have Python frames: %s"
              % (args.version, "; ".join(with_py)))
        check(not_read, "no message that Python %s frames are not read (problems: %s)"
              % (args.version, rep.get("problems")))
        done("%d threads, native frames (memmove, _ctypes), no Python frames: '%s'"
             % (len(threads), not_read[0] if not_read else ""))

    check(not not_read, "a message about Python %s for a supported version: %s"
          % (args.version, not_read))
    for role in sorted(expected):
        tid = tid_of.get(role)
        t = by_tid.get(tid) or {}
        got = [(p.get("function"), p.get("line")) for p in t.get("python") or []
               if p.get("file") and os.path.realpath(p["file"]) == script]
        check(got == expected[role], "%s: expected %s, got %s" % (
            name.get(tid, role), fmt_stack(expected[role]), fmt_stack(got)))

    # The crash finding names the Python line that called into C, what it
    # called as the line spells it, and how that faulted (memmove's load).
    fn, line = expected["crasher"][0]
    want = "%s (%s:%d) called ctypes.memmove, which faulted reading 0x10" % (
        fn, os.path.basename(script), line)
    check(want in (first.get("summary") or ""),
          "first finding's summary lacks '%s': %s" % (want, first.get("summary")))
    done("%d threads, stacks and names match the script" % len(threads))


if __name__ == "__main__":
    main()
