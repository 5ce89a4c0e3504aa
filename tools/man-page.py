#!/usr/bin/env python3
"""Make an installed man page from its source in docs/man/.

Usage: man-page.py IN OUT VERSION DOCDIR

A line `.\\" include FILE` is replaced by FILE (beside IN): the options
that several commands share (the report's, the backend's) are written once
and appear whole in each command's page. @VERSION@ and @DOCDIR@ become the
build's. The sources stay troff, so `man -l docs/man/rootcause-run.1`
shows a page, only without the shared parts.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\.\\" include (\S+)$')


def expand(path, seen=()):
    if path in seen:
        sys.exit(f'man-page: {path} includes itself')
    out = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line.rstrip('\n'))
            if not m:
                out.append(line)
                continue
            part = os.path.join(os.path.dirname(path), m.group(1))
            if not os.path.isfile(part):
                sys.exit(f'man-page: {path}:{n}: no such part \'{m.group(1)}\'')
            # A part's own first line says what it is; the page need not.
            body = expand(part, seen + (path,))
            out.extend(l for l in body if not l.startswith('.\\"'))
    return out


def main():
    src, dst, version, docdir = sys.argv[1:5]
    text = ''.join(expand(src)).replace('@VERSION@', version).replace('@DOCDIR@', docdir)
    left = re.search(r'@[A-Z]+@', text)
    if left:
        sys.exit(f'man-page: {src}: nothing replaces {left.group(0)}')
    with open(dst, 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main()
