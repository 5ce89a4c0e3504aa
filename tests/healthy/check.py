"""Check one healthy command's report: no error finding, and warnings only
those the sweep's table allows for that command.

    check.py --report JSON --status N --rc N --mode MODE [--allow SPEC]...

SPEC is RULE or RULE~TEXT: a warning of RULE (whose summary contains TEXT,
case-insensitively) is allowed.  --status is the command's own exit status,
--rc rootcause's (analyze's; for run, the same as --status).  Prints TAP
diagnostics ("# ...") and exits 0 when the report is clean, 1 when it is
not.  Standard library only: it runs with Debian's /usr/bin/python3.
"""
import argparse
import json
import sys


# Warnings about time, which a busy machine gives any command (an fsync
# that took a second while the other core compiled): allowed on every row,
# as a person reading them would take them, and never an error.
TIMING = ("slow-syscall",)


def allowed(finding, specs):
    if finding.get("rule") in TIMING:
        return True
    for spec in specs:
        rule, _, text = spec.partition("~")
        if finding.get("rule") != rule:
            continue
        if not text or text.lower() in finding.get("summary", "").lower():
            return True
    return False


def show(f):
    keys = ("pid", "syscall", "errno", "path", "address")
    extra = ", ".join("%s=%s" % (k, f[k]) for k in keys if k in f)
    return "%s/%s: %s%s" % (f.get("rule"), f.get("severity"), f.get("summary", ""),
                            " (%s)" % extra if extra else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", required=True)
    ap.add_argument("--status", type=int, required=True)
    ap.add_argument("--rc", type=int, required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--allow", action="append", default=[])
    a = ap.parse_args()

    problems = []
    if a.status != 0:
        problems.append("the command exited %d, not 0: the sweep's set-up is wrong" % a.status)
    try:
        with open(a.report, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        for p in problems:
            print("# " + p)
        print("# no report: %s" % e)
        return 1
    findings = report.get("findings", [])
    errors = [f for f in findings if f.get("severity") == "error"]
    warnings = [f for f in findings if f.get("severity") == "warning"]
    for f in errors:
        problems.append("error finding: " + show(f))
    for f in warnings:
        if not allowed(f, a.allow):
            problems.append("warning not in the table: " + show(f))
    # analyze's exit status says whether there was an error finding.
    if a.mode != "run" and a.rc != (1 if errors else 0):
        problems.append("rootcause analyze exited %d with %d error findings" % (a.rc, len(errors)))
    for p in problems:
        print("# " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
