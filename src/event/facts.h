/* The facts of a call that follow from what the call means, not from one
 * argument's value: every source fills the arguments' facts through their
 * roles, then calls event_call_facts, so that the rules see the same
 * event whichever source saw the call.
 */
#ifndef RC_EVENT_FACTS_H
#define RC_EVENT_FACTS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "event/event.h"
#include "event/syscalls.h"

/* Completes E, a call of SC whose argument facts are set. RET_KNOWN, RET
 * and ERR are its outcome (a source may not have put them in E yet; a
 * call not yet returned has none). Safe to call again with the outcome
 * once it is known:
 * - an empty path with a dirfd (newfstatat(3, "", ..., AT_EMPTY_PATH),
 *   statx) is the dirfd's file: fd and fd_shown;
 * - mmap's result is the address it mapped: addr;
 * - creat always opens for writing, creating and truncating: flags;
 * - accept's new connection is fd2, -1 when it failed;
 * - an iovec call whose vectors were not shown moved what it returned: len.
 */
void event_call_facts(struct rc_event *e, const struct rc_syscall *sc, bool ret_known, long long ret, int err);

/* Whether the fact of SC's argument I is taken when the call returns: the
 * kernel writes that argument, or one before it. strace prints such
 * arguments only at exit, so a call still blocked (when a tracer
 * detaches, or a log ends) has only the facts of the ones before. */
static inline bool event_arg_at_exit(const struct rc_syscall *sc, unsigned i)
{
	return i >= sc->exit_from;
}

/* The facts a call's raw argument values ARGS (registers, a kernel
 * record) give by their roles, for a source that has them before it
 * prints or reads anything else: the scalar roles (fds, flags, modes,
 * lengths, offsets, addresses, signals, ids...) of the arguments taken
 * at entry (event_arg_at_exit). The roles held in the caller's memory
 * (paths, socket addresses, structs) are the source's to read. */
void event_raw_arg_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS]);
/* The same at exit, with the result (RET, or ERR when it failed): the
 * scalar facts of the arguments taken then, and fcntl's F_DUPFD copy. */
void event_raw_exit_facts(struct rc_event *e, const struct rc_syscall *sc, const uint64_t args[RC_SC_MAX_ARGS],
			  long long ret, int err);

/* A signal delivered, from its siginfo's numbers, the same for every
 * source that has them (the tracer's siginfo, a kernel record): SIGNO
 * and CODE; a fault's address ADDR, which the fault signals carry when
 * the kernel raised them (CODE > 0); the sender PID, which the others
 * carry when a process sent them (CODE <= 0), and SIGCHLD always. */
void event_siginfo_facts(struct rc_event *e, int signo, int code, uint64_t addr, int pid);

/* The facts of the struct arguments, from the values a source decoded
 * (read from the caller's memory, or parsed from strace's text): what
 * each member means, the same for every source. */

/* clone3's struct clone_args: the flags word as clone's raw argument
 * holds it, the flag bits with EXIT_SIGNAL in the low byte. */
void event_clone_args_facts(struct rc_event *e, unsigned long long flags, unsigned long long exit_signal);

/* wait4's (waitpid's) STATUS as the kernel wrote it: the child's exit
 * code, or the signal that killed it and whether it dumped core. A
 * stopped or continued child has none of these. */
void event_wait_status_facts(struct rc_event *e, int status);

/* Appends ID (a group of setgroups' or getgroups' list, or an id asked
 * for) to E's ids; one past the cap marks the list truncated. */
void event_add_id(struct rc_event *e, long long id);

/* What a data preview with room for MAX bytes keeps of a write of TOTAL:
 * all of it (*HEAD = TOTAL, *TAIL = 0), or its first MAX / 2 bytes and
 * its last MAX - MAX / 2, which say most of a long write (a traceback's
 * last line is in its tail). */
void event_data_ends(uint64_t total, size_t max, size_t *head, size_t *tail);
/* E's data preview: BYTES holds the first HEAD bytes of a write of TOTAL,
 * then its last TAIL (0: none, and the write is cut when HEAD < TOTAL).
 * BYTES NULL: the source could not keep them. */
void event_data_facts(struct rc_event *e, const unsigned char *bytes, size_t head, size_t tail, uint64_t total);
/* Keeps the N bytes at SRC (all there is of a write) as E's data in DST,
 * which has room for MAX, by event_data_ends. */
void event_keep_ends(struct rc_event *e, unsigned char *dst, size_t max, const unsigned char *src, size_t n);

/* A timeout of SEC seconds (a poll, select or ppoll's, a timespec's or a
 * timeval's worth): E's timeout_ms; a negative one is none. */
void event_timeout_facts(struct rc_event *e, double sec);

/* futex's timeout of SEC seconds for the command CMD (op & FUTEX_CMD_MASK),
 * REALTIME when the op has FUTEX_CLOCK_REALTIME: FUTEX_WAIT's is
 * relative; the others' is a deadline, kept only when it is on the
 * realtime clock (FUTEX_LOCK_PI's always is), since a monotonic one
 * cannot be related to the event's timestamp. True when it was a
 * deadline: a source that stamps the event later calls this again then. */
bool event_futex_timeout_facts(struct rc_event *e, int cmd, double sec, bool realtime);

/* openat2's struct open_how: FLAGS, its O_* flags as the event keeps
 * them (event_open_flags), and MODE, which the kernel reads only when
 * the open may create the file (and refuses, nonzero, otherwise). */
void event_open_how_facts(struct rc_event *e, unsigned long long flags, unsigned long long mode);

/* A struct rlimit's soft and hard limits LIM (RLIM_INFINITY as
 * UINT64_MAX): those asked for, or IN_FORCE those a call returned. */
void event_rlimit_facts(struct rc_event *e, bool in_force, const uint64_t lim[2]);

/* The file size a stat-family call wrote (st_size, stx_size); OK: the
 * call worked, else the buffer holds nothing of the file's. */
void event_stat_size_facts(struct rc_event *e, bool ok, long long size);

/* Room for the host of a socket address (event_sockaddr_facts): an
 * AF_UNIX path or abstract name, as long as the address, and a NUL. */
#define RC_SOCKADDR_HOST_MAX sizeof(struct sockaddr_storage)
/* The facts of a socket address as the kernel holds it (a struct
 * sockaddr_*), LEN bytes at BUF with zeroes past them, LEN at most
 * sizeof(struct sockaddr_storage), into SA: its family; an AF_INET or
 * AF_INET6 address long enough to hold one gives its port, in host
 * order, and its numeric host; an AF_UNIX one no port, and its path or
 * its abstract name (ABSTRACT, without the leading NUL). The host's
 * bytes go to HOST, NUL-terminated, for the caller to keep as SA->host:
 * returns how many, -1 for none (nothing at all when LEN is shorter
 * than a family). */
ssize_t event_sockaddr_facts(struct rc_sockaddr *sa, const unsigned char *buf, size_t len,
			     char host[RC_SOCKADDR_HOST_MAX]);

/* O_* flags V as the event keeps them: what a reader of strace's text
 * gets from the names, by the headers' values. glibc defines O_LARGEFILE
 * as 0 on 64-bit targets, but the kernel has its own bit for it
 * (RC_KERNEL_O_LARGEFILE, which F_GETFL shows and strace names), which
 * then counts for nothing. */
unsigned long long event_open_flags(unsigned long long v);

#if O_LARGEFILE == 0 && (defined(__x86_64__) || defined(__aarch64__) || defined(__riscv))
#define RC_KERNEL_O_LARGEFILE 0100000	/* asm-generic/fcntl.h, which x86_64 and arm64 use */
#else
#define RC_KERNEL_O_LARGEFILE O_LARGEFILE
#endif
/* O_TMPFILE without the O_DIRECTORY it includes. */
#define RC_O_TMPFILE_BIT (O_TMPFILE & ~O_DIRECTORY)

/* Whether an open with the O_* FLAGS reads its mode: only one that may
 * create the file does (O_CREAT, O_TMPFILE; strace prints it only then). */
static inline bool event_open_reads_mode(unsigned long long flags)
{
	return (flags & (O_CREAT | RC_O_TMPFILE_BIT)) != 0;
}

#endif
