#!/usr/bin/env python3
"""Generate rootcause's constant tables from the system headers.

Usage: gen-tables.py OUT.c OUT.h CC [CC ARGS...]

The compiler's preprocessor lists every macro the headers define (-dM), and
we keep the names by prefix. The values are not evaluated here: the emitted C
uses the macros themselves, so the compiler computes them for whatever
architecture it targets (some define __NR_x as an expression of a base).
"""
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
    # POLLIN, not the si_codes POLL_IN... (those are in si_code)
    ("poll_event", "POLL", False, r"^POLL[A-Z0-9]+$"),
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


def main():
    out_c, out_h, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
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

    with open(out_h, "w") as h:
        h.write("/* Generated by tools/gen-tables.py from the system headers. Do not edit. */\n")
        h.write("#ifndef RC_GEN_TABLES_H\n#define RC_GEN_TABLES_H\n")
        h.write("#include \"util/xlat.h\"\n")
        for group in tables:
            h.write(f"extern const struct rc_xlat rc_xlat_{group};\n")
        h.write("#endif\n")

    with open(out_c, "w") as c:
        c.write("/* Generated by tools/gen-tables.py from the system headers. Do not edit. */\n")
        c.write(HEADERS)
        c.write("#include \"gen/tables.h\"\n\n")
        for group, rows in tables.items():
            c.write(f"static const struct rc_xlat_entry {group}_rows[] = {{\n")
            for label, name, alias in rows:
                c.write(f"\t{{ \"{label}\", {len(label)}, (long long)({name}), {1 if alias else 0} }},\n")
            c.write("};\n")
            c.write(f"const struct rc_xlat rc_xlat_{group} = {{ \"{group}\", {group}_rows, "
                    f"sizeof({group}_rows) / sizeof({group}_rows[0]) }};\n\n")


if __name__ == "__main__":
    main()
