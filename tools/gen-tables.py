#!/usr/bin/env python3
"""Generate rootcause's constant tables from the system headers.

Usage: gen-tables.py OUT.c OUT.h [XLAT.in...] -- CC [CC ARGS...]

Two kinds of table, both of the one type, struct rc_xlat (util/xlat.h):

- groups (GROUPS below): every name of a prefix the headers define, sorted
  by name, for the log parser (errnos, signals, open flags...). The
  compiler's preprocessor lists every macro the headers define (-dM), and
  we keep the names by prefix.
- src/xlat/NAME.in: one table a file, rc_xlat_NAME, in the order its names
  are printed, which is strace's (MAP_NORESERVE before MAP_GROWSDOWN), with
  the same rows sorted by name for look-ups. Its lines:

      # why the table is as it is        (a comment: "#" then a space)
      #include <sys/mman.h>              where the names come from
      #Prefix MAP_                       every name begins with it (checked)
      #Enum                              the names are enum constants, which
                                         the preprocessor cannot see: each is
                                         taken as it is
      #Unsigned                          the values are 32 bits: a constant
                                         that is a negative int (MS_NOUSER,
                                         1 << 31) is taken as unsigned
      MAP_SHARED                         a name the headers define; left out
                                         where they do not
      FUTEX_WAIT|FUTEX_CLOCK_REALTIME    names printed together, for the
                                         value they make
      SA_RESTORER 0x04000000             VALUE where the headers lack the
                                         name (the compiler checks it where
                                         they have it)

The values are not evaluated here: the emitted C uses the macros
themselves, so the compiler computes them for whatever architecture it
targets (some define __NR_x as an expression of a base).
"""
import os
import re
import subprocess
import sys

HEADERS = """
#define _GNU_SOURCE 1
#include <sys/syscall.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <poll.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/file.h>
"""

# The kernel's own header for the si_codes glibc leaves out (TRAP_PERF,
# SYS_SECCOMP): it clashes with glibc's <signal.h>, so it is read on its
# own, and only names glibc lacks are taken from it, by their literal value.
KERNEL_HEADERS = """
#include <asm-generic/siginfo.h>
"""
KERNEL_GROUPS = {"si_code"}

# group name, prefix, strip prefix in name?, filter regex on the full name
GROUPS = [
    ("syscall", "__NR_", True, None),
    ("errno", "E", False, r"^E[A-Z0-9]+$"),
    ("signal", "SIG", False, r"^SIG[A-Z0-9]+$"),
    ("open_flag", "O_", False, r"^O_[A-Z0-9_]+$"),
    ("mmap_flag", "MAP_", False, r"^MAP_[A-Z0-9_]+$"),
    ("prot_flag", "PROT_", False, r"^PROT_[A-Z0-9_]+$"),
    ("futex_op", "FUTEX_", False, r"^FUTEX_[A-Z0-9_]+$"),
    ("family", "AF_", False, r"^AF_[A-Z0-9_]+$"),
    ("sock_type", "SOCK_", False, r"^SOCK_[A-Z0-9_]+$"),
    ("si_code", "", False, r"^(SI|ILL|FPE|SEGV|BUS|TRAP|CLD|POLL|SYS)_[A-Z0-9_]+$"),
    ("clone_flag", "CLONE_", False, r"^CLONE_[A-Z0-9_]+$"),
    # flock's operation, and fcntl's record-lock commands and lock types
    ("flock_op", "LOCK_", False, r"^LOCK_(SH|EX|NB|UN)$"),
    ("lock_cmd", "F_", False, r"^F_(OFD_)?(GETLK|SETLK|SETLKW)$"),
    ("lock_type", "F_", False, r"^F_(RDLCK|WRLCK|UNLCK)$"),
]

# Second names of a value that the headers define through another
# prefix (AF_LOCAL = PF_LOCAL), so the generic alias test misses them;
# number -> name must give the name strace prints.
ALIASES = {"AF_LOCAL", "AF_FILE", "AF_ROUTE"}

# Names that are not constants of the group despite the prefix.
SKIP = {
    "SIGRTMIN", "SIGRTMAX", "SIG_DFL", "SIG_IGN", "SIG_ERR", "SIG_HOLD",
    "SIGSTKSZ", "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK", "SIGEV_NONE",
    "SIGEV_SIGNAL", "SIGEV_THREAD", "SIGEV_THREAD_ID", "SIGSTKFLT_",
    "O_ACCMODE", "MAP_TYPE", "MAP_HUGE_SHIFT", "MAP_HUGE_MASK",
    "FUTEX_OP_OPARG_SHIFT", "FUTEX_WAITERS", "FUTEX_OWNER_DIED",
    "FUTEX_TID_MASK", "FUTEX_BITSET_MATCH_ANY", "FUTEX_PRIVATE_FLAG",
    "FUTEX_CLOCK_REALTIME", "FUTEX_CMD_MASK",
    "EOF", "EXIT_SUCCESS", "EXIT_FAILURE",
    "SOCK_NONBLOCK_", "POLL_GENERIC",
    "SI_MAX_SIZE",
}


def macros(cc, headers=HEADERS):
    out = subprocess.run(cc + ["-E", "-dM", "-x", "c", "-"], input=headers,
                         capture_output=True, text=True, check=True).stdout
    defs = {}
    for line in out.splitlines():
        m = re.match(r"#define (\w+)(\(.*?\))? ?(.*)$", line)
        if m and not m.group(2):
            defs[m.group(1)] = m.group(3).strip()
    return defs


def is_constant(value, defs, depth=0):
    """True if the macro is an integer expression (not a function, cast or string)."""
    if depth > 8 or value == "":
        return False
    if '"' in value or "sizeof" in value or "(__" in value and "_NR" not in value:
        # allow "(__NR_SYSCALL_BASE + 1)" style; reject calls like (__libc_x())
        if "__NR_" not in value:
            return False
    for tok in re.findall(r"[A-Za-z_]\w*", value):
        if tok in ("U", "L", "UL"):
            continue
        if re.fullmatch(r"0x[0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*", tok):
            continue
        if tok not in defs or not is_constant(defs[tok], defs, depth + 1):
            if not re.fullmatch(r"[0-9a-fA-FxXuUlL]+", tok):
                return False
    return True


NAME_RE = re.compile(r"[A-Za-z_]\w*(\|[A-Za-z_]\w*)*")


class XlatError(Exception):
    pass


def read_xlat(path):
    """The table of PATH: its name, headers, flags and rows. A row is
    (name, value), value None when the headers give it."""
    table = {"path": path, "name": os.path.basename(path)[:-len(".in")],
             "includes": [], "prefix": None, "enum": False, "unsigned": False,
             "rows": []}
    if not re.fullmatch(r"[a-z][a-z0-9_]*", table["name"]):
        raise XlatError(f"{path}: the file's name is not a C name")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            where = f"{path}:{n}"
            line = line.rstrip("\n")
            if not line.strip() or line == "#" or line.startswith("# "):
                continue
            if line.startswith("#include"):
                m = re.fullmatch(r"#include\s+(<[\w./-]+>)", line)
                if not m:
                    raise XlatError(f"{where}: not an #include <header>")
                table["includes"].append(m.group(1))
                continue
            if line.startswith("#Prefix"):
                m = re.fullmatch(r"#Prefix\s+(\w+)", line)
                if not m:
                    raise XlatError(f"{where}: #Prefix takes one prefix")
                table["prefix"] = m.group(1)
                continue
            if line in ("#Enum", "#Unsigned"):
                table[line[1:].lower()] = True
                continue
            if line.startswith("#"):
                raise XlatError(f"{where}: unknown directive '{line}'")
            parts = line.split(None, 1)
            name, value = parts[0], (parts[1].strip() if len(parts) > 1 else None)
            if not NAME_RE.fullmatch(name) or len(name) > 255:
                raise XlatError(f"{where}: '{name}' is not a name (or longer than 255)")
            if value is not None and "|" in name:
                raise XlatError(f"{where}: names printed together take their value from the headers")
            if value is not None and table["enum"]:
                raise XlatError(f"{where}: an #Enum table takes its values from the headers")
            if table["prefix"] and not all(p.startswith(table["prefix"]) for p in name.split("|")):
                raise XlatError(f"{where}: '{name}' does not begin with {table['prefix']}")
            if any(r[0] == name for r in table["rows"]):
                raise XlatError(f"{where}: '{name}' is in the table twice")
            table["rows"].append((name, value))
    if not table["rows"]:
        raise XlatError(f"{path}: no names")
    return table


def read_xlats(paths):
    """The tables of PATHS, which must be every .in file of their
    directory: a file meson does not list would not rebuild the tables
    when it changes."""
    tables = [read_xlat(p) for p in paths]
    for d in sorted({os.path.dirname(p) for p in paths}):
        listed = {os.path.basename(p) for p in paths if os.path.dirname(p) == d}
        for f in sorted(os.listdir(d)):
            if f.endswith(".in") and f not in listed:
                raise XlatError(f"{os.path.join(d, f)} is not listed in its meson.build")
    return tables


def c_string(s):
    return '"' + s + '"'


def xlat_row(table, name, value):
    """The initializer of one row, and the condition it needs, if any."""
    expr = value if value is not None else name
    val = f"(unsigned)({expr})" if table["unsigned"] else f"({expr})"
    row = f"\t{{ {c_string(name)}, {len(name)}, (long long){val}, 0 }},\n"
    if table["enum"] or value is not None:
        return row, None
    return row, " && ".join(f"defined({p})" for p in name.split("|"))


def write_rows(c, table, array, rows):
    c.write(f"static const struct rc_xlat_entry {array}[] = {{\n")
    for name, value in rows:
        row, cond = xlat_row(table, name, value)
        if cond:
            c.write(f"#if {cond}\n{row}#endif\n")
        else:
            c.write(row)
    c.write("};\n")


def main():
    args = sys.argv[1:]
    if len(args) < 4 or "--" not in args or args.index("--") < 2:
        sys.exit("usage: gen-tables.py OUT.c OUT.h [XLAT.in...] -- CC [CC ARGS...]")
    sep = args.index("--")
    out_c, out_h, xlat_paths, cc = args[0], args[1], args[2:sep], args[sep + 1:]
    try:
        xlats = read_xlats(xlat_paths)
    except XlatError as e:
        sys.exit(f"gen-tables.py: {e}")
    defs = macros(cc)
    kdefs = macros(cc, KERNEL_HEADERS)
    # Enum constants that glibc also #defines as themselves (si codes) are
    # valid C but not integer text: accept them when the name maps to itself.
    tables = {}
    for group, prefix, strip, pattern in GROUPS:
        rows = []
        for name, value in defs.items():
            if not name.startswith(prefix) or name in SKIP:
                continue
            if pattern and not re.match(pattern, name):
                continue
            if group == "syscall" and not re.fullmatch(r"__NR_\w+", name):
                continue
            if value != name and not is_constant(value, defs):
                continue
            # An alias of another constant of the group (EWOULDBLOCK = EAGAIN)
            # is kept for name lookup but marked so number->name picks the
            # canonical name.
            alias = (value in defs and value != name and value.startswith(prefix)) or name in ALIASES
            label = name[len(prefix):] if strip else name
            rows.append((label, name, alias))
        if group in KERNEL_GROUPS:
            for name, value in kdefs.items():
                if name in defs or name in SKIP or not re.match(pattern, name):
                    continue
                if re.fullmatch(r"-?(0x[0-9a-fA-F]+|[0-9]+)", value):
                    rows.append((name, value, False))
        rows.sort()
        tables[group] = rows
    for t in xlats:
        if t["name"] in tables:
            sys.exit(f"gen-tables.py: {t['path']}: rc_xlat_{t['name']} is a group's name")

    # The values the files give for names some headers lack: each name
    # once, with one value, defined ahead of every table.
    fallbacks = {}
    for t in xlats:
        for name, value in t["rows"]:
            if value is None:
                continue
            if name in fallbacks and fallbacks[name][0] != value:
                sys.exit(f"gen-tables.py: {t['path']}: {name} is {value} here, "
                         f"{fallbacks[name][0]} in {fallbacks[name][1]}")
            fallbacks.setdefault(name, (value, t["path"]))

    with open(out_h, "w") as h:
        h.write("/* Generated by tools/gen-tables.py from the system headers and\n"
                " * src/xlat/. Do not edit. */\n")
        h.write("#ifndef RC_GEN_TABLES_H\n#define RC_GEN_TABLES_H\n")
        h.write("#include \"util/xlat.h\"\n")
        h.write("/* Every name of a prefix the headers define, sorted by name. */\n")
        for group in tables:
            h.write(f"extern const struct rc_xlat rc_xlat_{group};\n")
        h.write("/* src/xlat/NAME.in, in the order they print. */\n")
        for t in xlats:
            h.write(f"extern const struct rc_xlat rc_xlat_{t['name']};\n")
        h.write("#endif\n")

    includes = []
    for t in xlats:
        for inc in t["includes"]:
            if inc not in includes and f"#include {inc}\n" not in HEADERS:
                includes.append(inc)
    with open(out_c, "w") as c:
        c.write("/* Generated by tools/gen-tables.py from the system headers and\n"
                " * src/xlat/. Do not edit. */\n")
        c.write(HEADERS)
        for inc in includes:
            c.write(f"#include {inc}\n")
        c.write("\n#include \"gen/tables.h\"\n\n")
        for name, (value, path) in fallbacks.items():
            c.write(f"#ifdef {name}\n"
                    f"_Static_assert(({name}) == ({value}), "
                    f"\"{name} is not {value} ({os.path.basename(path)})\");\n"
                    f"#else\n#define {name} ({value})\n#endif\n")
        c.write("\n")
        for group, rows in tables.items():
            c.write(f"static const struct rc_xlat_entry {group}_rows[] = {{\n")
            for label, name, alias in rows:
                c.write(f"\t{{ \"{label}\", {len(label)}, (long long)({name}), {1 if alias else 0} }},\n")
            c.write("};\n")
            c.write(f"const struct rc_xlat rc_xlat_{group} = {{ \"{group}\", {group}_rows, {group}_rows, "
                    f"sizeof({group}_rows) / sizeof({group}_rows[0]) }};\n\n")
        for t in xlats:
            n = t["name"]
            c.write(f"/* {os.path.basename(t['path'])} */\n")
            write_rows(c, t, f"xlat_{n}_rows", t["rows"])
            write_rows(c, t, f"xlat_{n}_by_name", sorted(t["rows"]))
            c.write(f"const struct rc_xlat rc_xlat_{n} = {{ \"{n}\", xlat_{n}_rows, xlat_{n}_by_name, "
                    f"sizeof(xlat_{n}_rows) / sizeof(xlat_{n}_rows[0]) }};\n\n")


if __name__ == "__main__":
    main()
