"""Check one scenario run against its expect file (format: ../README.md).

    check.py --flags EXPECT              print the scenario's flag sets
    check.py --lint EXPECT --rules DEF   syntax-check an expect file
    check.py --expect EXPECT --rules DEF --flagset SET --vars FILE
             --status FILE --json FILE --json-exit N --text FILE
             --text-exit N --stderr FILE --logs LOG... [--logs-only]

Prints TAP diagnostics ("# ...") and exits 0 when every expectation holds,
1 when rootcause's report broke one, 3 when the scenario itself is broken
(its log lacks the failure it is about, or the program exited otherwise
than expected): then rootcause's answer says nothing.  Standard library
only: it runs with Debian's /usr/bin/python3.
"""
import argparse
import json
import re
import shlex
import sys

FLAGSETS = ["tt-T-y", "plain", "ff", "ttt-yy", "s4096", "r-T", "t-x", "filter", "tty",
            "rc-trace", "rc-run"]
GROUPS = {
    "all": FLAGSETS,
    # Sets whose lines carry a duration (-T): only these can show how
    # long a call blocked.
    "timed": ["tt-T-y", "ff", "ttt-yy", "s4096", "r-T", "filter", "tty", "rc-trace", "rc-run"],
    "untimed": ["plain", "t-x"],
}
# The same capture by another backend: expectations are the named set's.
# Never implied by "all"; asked for with `run -f`.
BACKEND_SETS = {"rc-run-ebpf": "rc-run", "rc-trace-ebpf": "rc-trace", "rc-diag-ebpf": "rc-run"}
# run without --trace-out (the eBPF capture's diagnosis mode, which sums
# calls in the kernel): no log and no text report, only run's JSON. Its
# exit is what analyze's would be (an error cause or none).
NO_LOG_SETS = {"rc-diag-ebpf"}
SEVERITIES = ("error", "warning", "info")
STATEMENTS = ("flags", "must", "mustnot", "first", "proc", "container", "exit", "status", "log", "text",
              "causes", "consequences", "consequence")
COUNT = re.compile(r"^(>=|<=|>|<)?(\d+)$")
MATCHER = re.compile(r"^([a-z_]+)(!=|>=|<=|=|~|>|<)(.*)$", re.S)
SHOWN = ("syscall", "errno", "path", "address", "host", "signal", "count",
         "duration_s", "bytes", "pid", "message")


class ExpectError(Exception):
    pass


def rule_ids(path):
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'RULE\(\s*\w+\s*,\s*"([a-z0-9-]+)"', f.read()))


def crash_rule_ids(path):
    """The crash rules (RC_RULE_CRASH): run reports them from the stacks it
    unwound before a crashing process died, which no trace log holds."""
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r'RULE\(\s*\w+\s*,\s*"([a-z0-9-]+)"\s*,\s*RC_RULE_CRASH', f.read()))


def expand_sets(spec):
    out = set()
    for name in spec.split(","):
        if name in GROUPS:
            out.update(GROUPS[name])
        elif name in FLAGSETS:
            out.add(name)
        else:
            raise ExpectError("unknown flag set '%s'" % name)
    return out


def parse(path, variables=None):
    """Yield (lineno, sets or None, statement, args) for each line."""
    variables = variables or {}
    stmts = []
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            line = re.sub(r"\$\{(\w+)\}",
                          lambda m: variables.get(m.group(1), m.group(0)), line)
            try:
                words = shlex.split(line)
            except ValueError as e:
                raise ExpectError("line %d: %s" % (no, e))
            sets = None
            if words[0].startswith("@"):
                spec = words.pop(0)[1:]
                neg = spec.startswith("!")
                chosen = expand_sets(spec.lstrip("!"))
                sets = set(FLAGSETS) - chosen if neg else chosen
            if not words or words[0] not in STATEMENTS:
                raise ExpectError("line %d: unknown statement in '%s'" % (no, line))
            stmts.append((no, sets, words[0], words[1:], line))
    return stmts


def lint(stmts, rules):
    for no, _sets, stmt, args, line in stmts:
        if stmt in ("must", "mustnot", "first"):
            if not args:
                raise ExpectError("line %d: '%s' needs a rule, a severity or *" % (no, stmt))
            sel = args[0]
            if sel != "*" and sel not in SEVERITIES and sel not in rules:
                raise ExpectError("line %d: '%s' is no rule id in rules.def" % (no, sel))
            matchers = args[1:]
        elif stmt in ("proc", "container"):
            matchers = args
        elif stmt == "consequence":
            if "of" not in args:
                raise ExpectError("line %d: 'consequence SEL [MATCH...] of SEL [MATCH...]'" % no)
            k = args.index("of")
            matchers = []
            for part in (args[:k], args[k + 1:]):
                if not part:
                    raise ExpectError("line %d: 'consequence' needs a rule, a severity or * on both sides" % no)
                if part[0] != "*" and part[0] not in SEVERITIES and part[0] not in rules:
                    raise ExpectError("line %d: '%s' is no rule id in rules.def" % (no, part[0]))
                matchers += part[1:]
        elif stmt in ("causes", "consequences"):
            if len(args) != 1 or not COUNT.match(args[0]):
                raise ExpectError("line %d: '%s' takes a count: N, >=N, <=N, >N or <N" % (no, stmt))
            matchers = []
        elif stmt in ("exit", "status"):
            if len(args) != 1 or not re.fullmatch(r"!?\d+", args[0]):
                raise ExpectError("line %d: '%s' takes one number (or !N)" % (no, stmt))
            matchers = []
        elif stmt == "flags":
            for a in args:
                expand_sets(a)
            matchers = []
        else:
            if len(args) != 1:
                raise ExpectError("line %d: '%s' takes one (quoted) argument" % (no, stmt))
            if stmt == "log":
                try:
                    re.compile(args[0])
                except re.error as e:
                    raise ExpectError("line %d: bad regex: %s" % (no, e))
            matchers = []
        for m in matchers:
            if not MATCHER.match(m):
                raise ExpectError("line %d: bad matcher '%s' (want FIELD OP VALUE)" % (no, m))


def field_values(obj, field):
    if field == "any":
        vals = []
        for k in ("summary", "message", "advice", "path", "host", "address", "evidence"):
            v = obj.get(k)
            if isinstance(v, list):
                vals.extend(str(x) for x in v)
            elif v is not None:
                vals.append(str(v))
        return vals
    v = obj.get(field)
    if v is None:
        return []
    if isinstance(v, list):
        return v
    return [v]


def as_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v))
    except ValueError:
        return None


def match_one(value, op, want):
    s = str(value)
    if op == "=":
        a, b = as_number(value), as_number(want)
        if a is not None and b is not None:
            return a == b
        return s == want
    if op == "~":
        if len(want) >= 2 and want.startswith("/") and want.endswith("/"):
            return re.search(want[1:-1], s, re.I) is not None
        return want.lower() in s.lower()
    a, b = as_number(value), as_number(want)
    if a is None or b is None:
        return False
    return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[op]


def matches(obj, matchers):
    for m in matchers:
        field, op, want = MATCHER.match(m).groups()
        vals = field_values(obj, field)
        if op == "!=":
            if any(match_one(v, "=", want) for v in vals):
                return False
        elif not any(match_one(v, op, want) for v in vals):
            return False
    return True


def selects(finding, sel):
    if sel == "*":
        return True
    if sel in SEVERITIES:
        return finding.get("severity") == sel
    return finding.get("rule") == sel


def show_finding(i, f):
    parts = ["%s/%s" % (f.get("rule"), f.get("severity"))]
    if "caused_by" in f:
        parts.append("<-%s" % f["caused_by"])
    for k in SHOWN:
        if k in f:
            v = f[k]
            if isinstance(v, str) and len(v) > 70:
                v = v[:67] + "..."
            parts.append("%s=%s" % (k, json.dumps(v) if isinstance(v, str) and " " in v else v))
    out = ["#   [%d] %s" % (i, " ".join(parts))]
    if f.get("summary"):
        out.append("#       summary: %s" % f["summary"][:160])
    return out


def load_vars(path):
    out = {}
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if "=" in line:
                        k, v = line.rstrip("\n").split("=", 1)
                        out[k] = v
        except FileNotFoundError:
            pass
    return out


def read(path, limit=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read() if limit is None else f.read(limit)
    except FileNotFoundError:
        return ""


UNFINISHED = " <unfinished ...>"
RESUMED = re.compile(r"^(\[pid +)?(\d+)\]? *(.*?)<\.\.\. [a-z0-9_]+ resumed>(.*)$")
PID = re.compile(r"^(?:\[pid +)?(\d+)\]? ")


def joined_halves(text):
    """TEXT with every unfinished call joined to its resumed half, each on
    the line of its start; other lines as they are."""
    out, pending = [], {}
    for line in text.split("\n"):
        m = PID.match(line)
        pid = m.group(1) if m else ""
        if line.endswith(UNFINISHED):
            pending[pid] = len(out)
            out.append(line[:-len(UNFINISHED)])
            continue
        r = RESUMED.match(line)
        if r and pid in pending:
            out[pending.pop(pid)] += r.group(4)
            continue
        out.append(line)
    return "\n".join(out)


def check(a):
    rules = rule_ids(a.rules)
    variables = load_vars(a.vars)
    stmts = parse(a.expect, variables)
    lint(stmts, rules)
    flagset = BACKEND_SETS.get(a.flagset, a.flagset)
    stmts = [s for s in stmts if s[1] is None or flagset in s[1]]
    no_log = a.flagset in NO_LOG_SETS
    if no_log:
        stmts = [s for s in stmts if s[2] not in ("log", "text")]

    scenario_bad = []
    problems = []

    # The scenario itself: did the program fail the way it is meant to,
    # and does the log really show it?  Checked first, from the raw log.
    logtext = "".join(read(p) for p in a.logs)
    # A call other threads' lines split into "<unfinished ...>" and
    # "<... resumed>" halves shows whole in the joined text: a log line
    # must not fail by how the threads happened to interleave.
    logtext += "\n" + joined_halves(logtext)
    status = read(a.status).strip() if a.status else ""
    for no, _s, stmt, args, line in stmts:
        if stmt == "log" and re.search(args[0], logtext, re.M) is None:
            scenario_bad.append("line %d: the strace log has no match for %s" % (no, args[0]))
        elif stmt == "status":
            want = args[0]
            ok = (status != want[1:]) if want.startswith("!") else (status == want)
            if not ok:
                scenario_bad.append("line %d: the program exited %s, expected %s" % (no, status or "?", want))
    if scenario_bad:
        for p in scenario_bad:
            print("# scenario broken: " + p)
        return 3
    if a.logs_only:
        return 0

    # The report contract, whatever the scenario.
    stderr = read(a.stderr, 4000).strip() if a.stderr else ""
    report = None
    if a.json_exit not in (0, 1):
        problems.append("rootcause analyze --format json exited %d (want 0 or 1)" % a.json_exit)
    try:
        report = json.loads(read(a.json))
    except ValueError as e:
        problems.append("report is not JSON: %s" % e)
    if report is not None:
        if not isinstance(report, dict) or report.get("rootcause") != 1:
            problems.append('report lacks "rootcause": 1')
            report = None
        elif not isinstance(report.get("findings"), list):
            problems.append('report lacks a "findings" list')
            report = None
    findings = report["findings"] if report else []
    processes = report.get("processes", []) if report else []
    containers = report.get("containers", []) if report else []
    if report:
        for i, f in enumerate(findings):
            if f.get("rule") not in rules:
                problems.append("finding %d has unknown rule %r" % (i, f.get("rule")))
            if f.get("severity") not in SEVERITIES:
                problems.append("finding %d has severity %r" % (i, f.get("severity")))
            empty = [k for k, v in f.items() if v is None or v == "" or v == []]
            # No traced process has pid 0: it stands for "unknown".
            empty += [k for k in ("pid", "tid") if f.get(k) == 0]
            if "(pid 0)" in str(f.get("summary", "")):
                empty.append("summary '(pid 0)'")
            if empty:
                problems.append("finding %d fills %s with placeholders (should omit)" % (i, ", ".join(empty)))
        # Causes and consequences: ids "f1", "f2"... in order; a
        # consequence names a cause listed before it, which is no
        # consequence itself and is at least as severe.
        rank = {s: i for i, s in enumerate(reversed(SEVERITIES))}
        by_id = {}
        for i, f in enumerate(findings):
            if f.get("id") != "f%d" % (i + 1):
                problems.append("finding %d has id %r (want 'f%d')" % (i, f.get("id"), i + 1))
            cause = by_id.get(f.get("caused_by")) if "caused_by" in f else None
            if "caused_by" in f:
                if cause is None:
                    problems.append("finding %d is caused_by %r, which is no earlier finding" % (i, f["caused_by"]))
                elif "caused_by" in cause:
                    problems.append("finding %d is caused_by %r, itself a consequence" % (i, f["caused_by"]))
                elif rank.get(cause.get("severity"), 0) < rank.get(f.get("severity"), 0):
                    problems.append("finding %d (%s) outranks its cause %r (%s)"
                                    % (i, f.get("severity"), f["caused_by"], cause.get("severity")))
            by_id[f.get("id")] = f
        has_error = any(f.get("severity") == "error" and "caused_by" not in f for f in findings)
        if no_log:
            a.json_exit = a.text_exit = 1 if has_error else 0
        if a.json_exit in (0, 1) and a.json_exit != (1 if has_error else 0):
            problems.append("exit %d but %s error cause" % (a.json_exit, "an" if has_error else "no"))
    if a.text_exit != a.json_exit:
        problems.append("--format text exited %d, --format json %d" % (a.text_exit, a.json_exit))
    text = read(a.text) if a.text else ""

    for no, _s, stmt, args, line in stmts:
        if stmt in ("must", "mustnot", "first"):
            sel, ms = args[0], args[1:]
            hits = [f for f in findings if selects(f, sel) and matches(f, ms)]
            if stmt == "must" and not hits:
                problems.append("line %d: no finding for: %s" % (no, line))
            elif stmt == "mustnot" and hits:
                problems.append("line %d: unwanted finding [%d] for: %s" % (no, findings.index(hits[0]), line))
            elif stmt == "first":
                if not findings or not (selects(findings[0], sel) and matches(findings[0], ms)):
                    problems.append("line %d: first finding is not: %s" % (no, line))
        elif stmt == "consequence":
            k = args.index("of")
            (csel, cms), (xsel, xms) = (args[0], args[1:k]), (args[k + 1], args[k + 2:])
            ids = {f.get("id"): f for f in findings}
            if not any(selects(f, csel) and matches(f, cms) and f.get("caused_by") in ids
                       and selects(ids[f["caused_by"]], xsel) and matches(ids[f["caused_by"]], xms)
                       for f in findings):
                problems.append("line %d: no such consequence: %s" % (no, line))
        elif stmt in ("causes", "consequences"):
            op, n = COUNT.match(args[0]).groups()
            if stmt == "causes":
                got = sum(1 for f in findings if "caused_by" not in f and f.get("severity") == "error")
            else:
                got = sum(1 for f in findings if "caused_by" in f)
            ok = {None: got == int(n), ">=": got >= int(n), "<=": got <= int(n),
                  ">": got > int(n), "<": got < int(n)}[op]
            if not ok:
                problems.append("line %d: %d %s, expected %s"
                                % (no, got, "error causes" if stmt == "causes" else "consequences", args[0]))
        elif stmt == "proc":
            if not any(matches(p, args) for p in processes):
                problems.append("line %d: no process for: %s" % (no, line))
        elif stmt == "container":
            if not any(matches(c, args) for c in containers):
                problems.append("line %d: no container for: %s" % (no, line))
        elif stmt == "exit":
            want = args[0]
            ok = (a.json_exit != int(want[1:])) if want.startswith("!") else (a.json_exit == int(want))
            if not ok:
                problems.append("line %d: rootcause exited %d, expected %s" % (no, a.json_exit, want))
        elif stmt == "text":
            if args[0] not in text:
                problems.append("line %d: --format text output lacks %r" % (no, args[0]))

    # rc-run: the --trace-out log, read back by analyze, must give what run
    # said. Summaries carry durations, measured live or from the log's
    # rounded -T, so compare what each finding is about.
    if a.same_findings and report:
        try:
            back = json.loads(read(a.same_findings)).get("findings", [])
        except ValueError as e:
            back = None
            problems.append("read-back report is not JSON: %s" % e)
        if back is not None:
            fields = ("rule", "severity", "syscall", "errno", "path", "address", "signal")
            unwound = crash_rule_ids(a.rules)

            def base(f):
                return tuple(str(f.get(k, "")) for k in fields)

            def cause_of(f, report):
                return next((x for x in report if x.get("id") == f.get("caused_by")), None)
            # What each is about, and what it is a consequence of; not for
            # the consequences of a crash rule's finding, which no log holds.
            free = {base(f) for f in findings
                    if (cause_of(f, findings) or {}).get("rule") in unwound}

            def key(f, report):
                cause = cause_of(f, report)
                by = "" if cause is None or base(f) in free else \
                    "<- " + " ".join(str(cause.get(k, "")) for k in fields[:1] + fields[2:])
                return base(f) + (by,)
            live = sorted(key(f, findings) for f in findings if f.get("rule") not in unwound)
            logged = sorted(key(f, back) for f in back)
            if live != logged:
                problems.append("run's findings differ from analyze of its --trace-out log")
                for k in sorted(set(live) - set(logged)):
                    problems.append("  only in run:     %s" % " ".join(x for x in k if x))
                for k in sorted(set(logged) - set(live)):
                    problems.append("  only in analyze: %s" % " ".join(x for x in k if x))

    if not problems:
        return 0
    for p in problems:
        print("# " + p)
    if stderr:
        for l in stderr.splitlines()[:6]:
            print("#   stderr: " + l)
    print("# rootcause found (exit %d):" % a.json_exit)
    if not findings:
        print("#   (nothing)")
    for i, f in enumerate(findings[:12]):
        for l in show_finding(i, f):
            print(l)
    if len(findings) > 12:
        print("#   ... %d more" % (len(findings) - 12))
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flags")
    ap.add_argument("--lint")
    ap.add_argument("--expect")
    ap.add_argument("--rules")
    ap.add_argument("--flagset")
    ap.add_argument("--vars")
    ap.add_argument("--status")
    ap.add_argument("--json")
    ap.add_argument("--json-exit", type=int, default=-1)
    ap.add_argument("--text")
    ap.add_argument("--text-exit", type=int, default=-1)
    ap.add_argument("--stderr")
    ap.add_argument("--logs", nargs="*", default=[])
    ap.add_argument("--logs-only", action="store_true")
    ap.add_argument("--same-findings")
    a = ap.parse_args()
    try:
        if a.flags:
            sets = []
            for _no, _s, stmt, args, _l in parse(a.flags):
                if stmt == "flags":
                    for x in args:
                        sets.extend(s for s in FLAGSETS if s in expand_sets(x) and s not in sets)
            print(" ".join(sets))
            return 0
        if a.lint:
            lint(parse(a.lint), rule_ids(a.rules))
            return 0
        return check(a)
    except ExpectError as e:
        print("# expect file %s: %s" % (a.flags or a.lint or a.expect, e))
        return 2


if __name__ == "__main__":
    sys.exit(main())
