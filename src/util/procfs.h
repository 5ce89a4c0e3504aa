/* What /proc says of a live process, for what a trace or a stack cannot
 * show: its argv, exe, cwd, status and thread names, and the fds it opened
 * before we came, described as strace -yy describes them ("/path",
 * "pipe:[123]", "TCP:[127.0.0.1:5000->127.0.0.1:8080]",
 * "UNIX-STREAM:[123->124,\"/run/x\"]"). Shared ground below the tracer
 * (capture/) and the live unwinder (crash/), which must not include each
 * other: it knows neither. */
#ifndef RC_UTIL_PROCFS_H
#define RC_UTIL_PROCFS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

/* PID's command line, NUL-separated, into OUT; returns the count or -1. */
int procfs_cmdline(pid_t pid, struct strbuf *out);
/* The target of /proc/PID/LINK ("exe", "cwd", "fd/3") into OUT; false when
 * unreadable. */
bool procfs_link(pid_t pid, const char *link, struct strbuf *out);
/* PATH, as this machine names it, renamed as a process whose root is
 * ROOT (as this machine names that) names it: "/var/lib/x/rootfs/srv"
 * in root "/var/lib/x/rootfs" is "/srv". False, PATH unchanged, when
 * PATH is outside ROOT. */
bool procfs_name_inside(struct strbuf *path, const char *root);
/* The same, named as PID sees it: a process in a root of its own (a
 * chroot, a container) has its cwd and exe under that root, which /proc
 * names from this machine's ("/var/lib/x/rootfs/srv" is its "/srv"). */
bool procfs_link_inside(pid_t pid, const char *link, struct strbuf *out);

/* /proc/PID/status (about 1.5 KiB), at most SIZE - 1 bytes of it, into
 * BUF; false when unreadable. */
bool procfs_status(pid_t pid, char *buf, size_t size);
/* The decimal number after KEY ("\nTgid:") in STATUS, or -1. */
long procfs_status_long(const char *status, const char *key);
/* Up to MAX decimal numbers after KEY ("\nUid:", "\nGroups:") in STATUS,
 * into OUT; returns how many. */
int procfs_status_list(const char *status, const char *key, long long *out, int max);
/* The hexadecimal value after KEY ("\nCapEff:"); false when there is none. */
bool procfs_status_hex(const char *status, const char *key, uint64_t *out);
/* PID is gone, or ending (a zombie, or dead): ptrace refuses to attach
 * to an exiting process with EPERM, as if it were not allowed. */
bool procfs_gone(pid_t pid);
/* The file at PATH (a /proc file: read until its end, at most about MAX
 * bytes) into OUT; false when it cannot be opened. */
bool procfs_read(const char *path, struct strbuf *out, size_t max);
/* Whether PID is in this process's namespace of kind NS ("mnt",
 * "user"); true also when that cannot be told. */
bool procfs_same_ns(pid_t pid, const char *ns);
/* PID sees another root or mount namespace than this process (a chroot,
 * a container's): false when it does not, or it cannot be told. */
bool procfs_own_view(pid_t pid);
/* PID's pid in its own (innermost) pid namespace, a container's: NSpid's
 * last entry; 0 when it is PID itself, or unknown. With OTHER > 0, also
 * *SEEN_BY: PID's pid as process OTHER's pid namespace numbers it (what
 * the fork that made PID returned to its parent OTHER), the entry at
 * OTHER's depth; 0 when unknown (either gone). */
int procfs_ns_pid(pid_t pid, pid_t other, int *seen_by);
/* The hard limit of resource RES (RLIMIT_*) for thread TID, from
 * /proc/TID/limits: UINT64_MAX for "unlimited"; false when unknown. */
bool procfs_limit_hard(pid_t tid, int res, uint64_t *out);
/* SIG, delivered to TGID now, kills it: its default action dumps core
 * and the process neither catches nor ignores it (a handler that
 * re-raises, as Python's faulthandler does, is seen on the second
 * delivery). */
bool procfs_signal_is_fatal(pid_t tgid, int sig);
/* The kernel's name for thread TID of PID, or for PID itself when TID is
 * 0 (its comm, without the newline); NULL when unreadable. */
char *procfs_comm(pid_t pid, pid_t tid);

/* Socket inodes -> -yy descriptions, read from /proc/PID/net once. */
struct procfs_socks;
struct procfs_socks *procfs_socks_load(pid_t pid);
void procfs_socks_free(struct procfs_socks *s);

/* FD of PID as strace -yy would print it, into OUT (reset first); false
 * when the fd is not open. SOCKS may be NULL (sockets stay "socket:[N]").
 * An unlinked file is its path, without the kernel's " (deleted)". */
bool procfs_fd_desc(pid_t pid, int fd, const struct procfs_socks *socks, struct strbuf *out);

#endif
