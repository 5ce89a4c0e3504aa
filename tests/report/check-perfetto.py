#!/usr/bin/env python3
"""Check Chrome trace-event JSON as rootcause --format perfetto writes it,
against what ui.perfetto.dev and chrome://tracing need of it:

  - one object with a "traceEvents" array (the "JSON Object Format");
  - every event has a known phase, a non-empty name, integer pid and tid,
    and a numeric ts >= 0; X events a dur >= 0;
  - B and E events balance per thread, each E closing the last open B;
  - X events on one thread nest: each one that starts inside another ends
    inside it too (equal ends allowed);
  - every flow start (s) has one finish (f) with the same cat and id, and
    flows bind to a slice on their thread at their time;
  - M events name their process or thread (args.name), and the findings
    have their track ("rootcause findings");
  - a call strace split into "<unfinished ...>" and "<... resumed>" is one
    X event: no slice's line is half of one, but a call still blocked when
    the trace ended (args.blocked).

Usage: check-perfetto.py [--findings N] FILE...
  --findings N  the findings track must hold at least N slices
Prints one line per file; exits 1 when any file fails.
"""
import json
import sys
from collections import defaultdict

PHASES = set('XBEiIMCsftn')


def check(path, min_findings):
    errs = []
    try:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return [f'not JSON: {e}'], 0
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        return ['no "traceEvents" array'], 0
    evs = doc['traceEvents']
    slices = defaultdict(list)
    opened = defaultdict(list)
    flows = defaultdict(list)
    names = {}
    for n, e in enumerate(evs):
        where = f'event {n}'
        if not isinstance(e, dict):
            errs.append(f'{where}: not an object')
            continue
        ph = e.get('ph')
        if ph not in PHASES:
            errs.append(f'{where}: phase {ph!r}')
            continue
        if not isinstance(e.get('name'), str) or not e['name']:
            errs.append(f'{where}: no name')
        for k in ('pid', 'tid'):
            if not isinstance(e.get(k), int):
                errs.append(f'{where}: {k} is not an integer')
        ts = e.get('ts')
        if not isinstance(ts, (int, float)) or ts < 0:
            errs.append(f'{where}: ts {ts!r}')
            continue
        key = (e.get('pid'), e.get('tid'))
        if ph == 'X':
            dur = e.get('dur')
            if not isinstance(dur, (int, float)) or dur < 0:
                errs.append(f'{where}: dur {dur!r}')
                continue
            slices[key].append((ts, ts + dur, n, e['name']))
            args = e.get('args') or {}
            line = args.get('line', '')
            if not args.get('blocked') and ('<unfinished' in line or 'resumed>' in line):
                errs.append(f'{where}: half a call: {line[:80]!r}')
        elif ph == 'B':
            opened[key].append(e['name'])
        elif ph == 'E':
            if not opened[key]:
                errs.append(f'{where}: E with no B open on {key}')
            else:
                opened[key].pop()
        elif ph in 'sf':
            flows[(e.get('cat'), e.get('id'))].append((ph, key, ts))
        elif ph == 'M':
            args = e.get('args')
            if e['name'] in ('process_name', 'thread_name'):
                if not isinstance(args, dict) or not isinstance(args.get('name'), str):
                    errs.append(f'{where}: {e["name"]} without args.name')
                else:
                    names[(e['name'], key if e['name'] == 'thread_name' else key[0])] = args['name']
    for key, left in opened.items():
        if left:
            errs.append(f'{len(left)} B events never ended on {key}')
    # Nesting: in start order (the longer first at equal starts), each
    # slice must end by the end of every slice it starts inside.
    for key, v in slices.items():
        v.sort(key=lambda s: (s[0], -s[1], s[2]))
        stack = []
        for a, b, n, name in v:
            while stack and stack[-1][1] <= a:
                stack.pop()
            if stack and b > stack[-1][1]:
                errs.append(f'X event {n} ({name}) on {key} overlaps event {stack[-1][2]} '
                            f'({stack[-1][3]}) without nesting in it')
                break
            stack.append((a, b, n, name))
    for fid, v in flows.items():
        phs = sorted(p for p, _, _ in v)
        if phs != ['f', 's']:
            errs.append(f'flow {fid}: phases {phs}, not one s and one f')
            continue
        for ph, key, ts in v:
            if not any(a <= ts <= b for a, b, _, _ in slices.get(key, [])):
                errs.append(f'flow {fid}: its {ph} at {ts} is inside no slice of {key}')
    findings_pid = [k[1] for k, v in names.items() if k[0] == 'process_name' and v == 'rootcause findings']
    nfind = 0
    if not findings_pid:
        errs.append('no findings track (process_name "rootcause findings")')
    else:
        nfind = sum(len(v) for k, v in slices.items() if k[0] == findings_pid[0])
        if nfind < min_findings:
            errs.append(f'the findings track has {nfind} slices, fewer than {min_findings}')
    for key in slices:
        if key[0] not in [k[1] for k in names if k[0] == 'process_name']:
            errs.append(f'process {key[0]} has slices but no name')
            break
    return errs, len(evs)


def main():
    args = sys.argv[1:]
    min_findings = 0
    if len(args) >= 2 and args[0] == '--findings':
        min_findings = int(args[1])
        args = args[2:]
    if not args:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    bad = 0
    for path in args:
        errs, n = check(path, min_findings)
        if errs:
            bad += 1
            print(f'not ok: {path}: ' + '; '.join(errs[:5]) + (f' (and {len(errs) - 5} more)' if len(errs) > 5 else ''))
        else:
            print(f'ok: {path}: {n} events')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
