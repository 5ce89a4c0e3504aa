/* The event: one system call, signal or exit, as facts (and, from a live
 * capture, what /proc showed of a process found running).
 *
 * Every source fills the same struct: the strace log parser from text, the
 * ptrace tracer from registers and tracee memory. Rules read only these
 * fields and never learn which source fed them.
 *
 * Lifetime: an event and every pointer in it are valid only during the
 * dispatch of that event. A rule that keeps a string copies it.
 */
#ifndef RC_EVENT_EVENT_H
#define RC_EVENT_EVENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

enum rc_event_kind {
	RC_EV_SYSCALL,
	RC_EV_SIGNAL,		/* a signal delivered: --- SIGSEGV {...} --- */
	RC_EV_EXIT,		/* the process ended: +++ exited with N +++ / killed by */
	/* Like calls the capture summed instead of giving each (the eBPF
	 * capture's diagnosis mode): no log has it, and only the rules that
	 * ask for sums (RC_READS_SUMS) are given it. */
	RC_EV_SUM,
	/* A process or thread found running when a live capture began
	 * (attach), as /proc showed it then (struct rc_found): for the
	 * process model alone. No log has one, no rule is given one, and it
	 * is no event of the trace's: it is neither numbered (seq) nor
	 * counted, printed nor drawn. */
	RC_EV_FOUND,
};

/* What an fd is. */
enum rc_fd_kind {
	RC_FD_FILE,
	RC_FD_SOCKET,
	RC_FD_PIPE,
	RC_FD_OTHER,		/* eventfd, epoll, timerfd... */
};

/* A socket address, decoded. */
struct rc_sockaddr {
	int family;		/* AF_INET, AF_INET6, AF_UNIX; 0 when absent */
	int port;		/* host order; -1 when not applicable */
	const char *host;	/* numeric address ("127.0.0.1", "::1") or unix path */
	bool abstract;		/* AF_UNIX abstract name (printed with a leading @) */
};

/* What an fd is, as a -y/-yy decoration shows it: strace's, or the
 * tracer's, which prints the same forms. The source reads the text
 * (strace/decoration.h) and the event carries these facts, so that
 * nothing past the sources reads it:
 *   "/etc/x"                                a file; a path is taken whole,
 *                                           spaces, "->" and all
 *   "pipe:[123]"                            a pipe
 *   "socket:[99]"                           a socket (-y)
 *   "TCP:[127.0.0.1:5000->127.0.0.1:8080]"  -yy: the protocol as the kernel
 *   "TCP:[0.0.0.0:80]", "TCP:[19723]"       names it (capitals; "v6" for
 *   "TCPv6:[[::1]:41234->[::1]:443]"        IPv6), the local end, the peer;
 *                                           or only the inode
 *   "UNIX-STREAM:[12358->12359,"/x.sock"]"  the inode, the peer's, the name
 *   "NETLINK:[ROUTE:1234]"
 *   "anon_inode:[eventfd]", "pid:42" ...    other
 * Immutable once made. Every pointer points into TEXT, so that the facts
 * are one block of sizeof + SIZE bytes, copied as one (event/pump.h). */
struct rc_fdfacts {
	enum rc_fd_kind kind;
	const char *desc;	/* the decoration as printed, for rules to quote, never to read */
	const char *path;	/* RC_FD_FILE */
	/* RC_FD_SOCKET */
	const char *proto;	/* "TCP", "TCPv6", "UDP", "UNIX-STREAM", "NETLINK", "socket" */
	int family;		/* AF_INET, AF_INET6, AF_UNIX, AF_NETLINK; 0 unknown ("socket") */
	int sock_type;		/* SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET; 0 unknown */
	unsigned long long inode;	/* sockets and pipes; 0 not shown */
	unsigned long long peer_inode;	/* unix: the peer's; 0 not shown */
	/* The ends shown, family 0 when not: inet host and port; for unix,
	 * LOCAL is the name (a path, or an abstract name). */
	struct rc_sockaddr local, peer;
	size_t size;		/* bytes of TEXT */
	char text[];		/* what the pointers point into */
};

/* RC_EV_FOUND: the event's pid is the thread found, LEADER the leader of
 * its process (the pid itself for the leader). PROCESS: the first found
 * of its process, and what /proc knew of the process follows (the rest
 * of its threads come alone); the model takes it for a process the
 * trace has not shown yet. */
struct rc_found_fd {
	int fd;
	const struct rc_fdfacts *shown;	/* what it is, as its -yy decoration says */
};

struct rc_found {
	int leader;
	bool process;
	const char *const *argv;	/* ARGC strings; NULL: unknown */
	int argc;
	const char *exe, *cwd;	/* NULL: unknown */
	const struct rc_found_fd *fds;	/* the fds it had open */
	size_t nfds;
};

/* RC_EV_SUM: the reads (or writes) of one process on one fd that refers
 * to a regular file, each of which moved bytes, fast (the capture gives
 * each slow, failed or empty call whole, and the first few too). The
 * event's nr and name are the first call's, fd its fd, ts the last's
 * end, and dur the time inside them all. */
#define RC_SUM_SIZES 4
#define RC_SUM_BITS 65
struct rc_sum {
	uint64_t calls;
	long long bytes;
	double first_ts;	/* the first's start */
	int tid;		/* the thread of the first */
	bool threads;		/* more than one thread made them */
	/* The most frequent sizes asked for (Misra-Gries: the most frequent
	 * is among them), and the calls by the size's bit length. */
	uint64_t size[RC_SUM_SIZES], size_count[RC_SUM_SIZES];
	uint64_t hist[RC_SUM_BITS];
};

/* A file lock asked for (flock, fcntl's record locks). */
enum rc_lock {
	RC_LOCK_NONE,
	RC_LOCK_SHARED,		/* LOCK_SH, F_RDLCK */
	RC_LOCK_EXCL,		/* LOCK_EX, F_WRLCK */
	RC_LOCK_UNLOCK,		/* LOCK_UN, F_UNLCK */
};

/* dirfd value meaning "relative to the cwd" (AT_FDCWD). */
#define RC_AT_FDCWD (-100)

/* A single call of a second or more is a stall a user notices: the
 * slow-syscall rule's threshold, and the drawn reports' mark of a long
 * call. */
#define RC_EVENT_SLOW_S 1.0

/* How many fds of a poll/select set an event keeps. */
#define RC_EVENT_MAX_FDS 8

/* The argv of an execve, as far as it was shown. */
#define RC_EVENT_MAX_ARGV 16

/* The bytes of a write an event keeps, whichever source fed it: all of a
 * write up to RC_EVENT_DATA_MAX, and of a longer one its first
 * RC_EVENT_DATA_HEAD bytes and its last RC_EVENT_DATA_MAX - HEAD, because
 * what matters is often at its end (the last line of a Python traceback,
 * written in one write, says what went wrong). */
#define RC_EVENT_DATA_MAX 4096
#define RC_EVENT_DATA_HEAD (RC_EVENT_DATA_MAX / 2)
/* The ids of a credentials call kept in an event. */
#define RC_EVENT_MAX_IDS 32

/* Whose permissions a thread's file access is checked against: its
 * effective (fs) ids and supplementary groups. */
struct rc_creds {
	long long uid, gid;	/* -1 unknown */
	int ngroups;		/* -1 unknown */
	unsigned groups[RC_EVENT_MAX_IDS];
	bool live;		/* read from the live thread, not inferred from the trace */
};

/* A call that failed with EACCES, EPERM or ENOSYS, from a live capture:
 * what its thread was then, which no trace line shows, read from /proc
 * at the tracer's exit stop or by the kernel at the call's exit. The
 * process model takes it before the rules see the call (procs_resolve),
 * so that they judge the call by what it ran as. */
struct rc_live {
	struct rc_creds creds;	/* creds.uid < 0: not read */
	/* The effective capabilities (bit N: capability N); HAS_CAPS false:
	 * not read. */
	bool has_caps;
	uint64_t caps;
	/* A refused setrlimit or prlimit64: the hard limit of its resource
	 * then in force for the thread (UINT64_MAX: unlimited);
	 * HAS_RLIM_HARD false: not read. */
	bool has_rlim_hard;
	uint64_t rlim_hard;
	/* Seccomp: the mode (0 none, 1 strict, 2 filter; -1 not read) and
	 * how many filters are in place that are not rootcause's own (-1
	 * unknown). */
	int seccomp_mode;
	int seccomp_filters;
};

struct rc_event {
	enum rc_event_kind kind;
	int pid;		/* the thread id strace prints; 0 when the log has none */
	uint64_t seq;		/* position in the merged stream, from 1 */
	double ts;		/* seconds (epoch for -ttt/-tt, else relative); < 0 unknown */
	double dur;		/* -T duration in seconds; < 0 unknown */

	/* RC_EV_SYSCALL */
	long nr;		/* syscall number (SYS_x) on this architecture; -1 unknown */
	const char *name;	/* syscall name as printed */
	bool ret_known;		/* false for "= ?" (the call never returned) */
	long long ret;		/* return value (-1 on error) */
	int err;		/* errno when the call failed, else 0 */
	bool interrupted;	/* ERESTART* (the call was interrupted, not failed) */
	bool blocked;		/* still inside the call when the trace ended (a log's
				 * last unfinished call, "<detached ...>", or a thread
				 * rootcause detached from); dur, when known, is how
				 * long it had been inside */
	bool detached;		/* blocked at strace's detach ("<detached ...>"): the
				 * trace was stopped, it did not end there */

	int fd;			/* first fd argument (read, write, connect, mmap...); -1 none */
	int fd2;		/* second fd (dup2 target, sendfile in_fd...); -1 none */
	const char *path;	/* path argument; the engine resolves it to absolute
				 * against dirfd/cwd before rules see it, when it can */
	int dirfd;		/* dirfd of *at calls; RC_AT_FDCWD for AT_FDCWD or none */
	/* What the -y/-yy decoration of dirfd (AT_FDCWD's: the cwd) and of
	 * fd said it is; NULL: the source showed none. */
	const struct rc_fdfacts *dir_shown;
	const struct rc_fdfacts *fd_shown;
	const char *path2;	/* second path (rename, link, symlink target) */
	long long flags;	/* open flags, mmap flags, clone flags, socket type */
	long long mode;		/* open mode, mmap prot, socket protocol... */
	uint64_t addr;		/* mmap/munmap/mremap/brk address, futex uaddr */
	uint64_t len;		/* byte count asked for: read/write count, mmap length */
	long long offset;	/* mmap/pread offset; -1 none */
	long long st_size;	/* fstat/stat/statx result's size; -1 none */
	int futex_op;		/* FUTEX_* op without the private/clock flags; -1 none */
	long long timeout_ms;	/* poll/select/epoll_wait/futex timeout; -1 infinite/none */
	struct rc_sockaddr sa;	/* connect/bind/sendto/accept address */
	int sockopt_level;	/* getsockopt/setsockopt */
	int sockopt_name;
	int sockopt_value;	/* SO_ERROR: the errno it returned */

	/* A preview of the bytes written or sent (stderr text, DNS queries),
	 * as far as the source showed them: all of them, or the head and the
	 * tail of a write longer than the cap, with DATA_OMITTED bytes between
	 * them left out at offset DATA_GAP of DATA. */
	const unsigned char *data;
	size_t data_len;
	size_t data_gap;
	uint64_t data_omitted;	/* 0: nothing left out in the middle */
	bool data_truncated;	/* the end is not there: the source stopped
				 * short (strace's -s cut the string) */

	/* flock, and fcntl's F_SETLK/F_SETLKW (and their OFD twins): the lock
	 * asked for, and whether the call waits until the lock is free
	 * (flock without LOCK_NB, F_SETLKW). */
	enum rc_lock lock;
	bool lock_waits;

	/* kill, tkill, tgkill: the pid (tid) signalled, as kill takes it (0:
	 * the caller's process group, -1: every process, -N: group N), and
	 * the signal in signo. */
	bool has_kill_target;
	int kill_target;

	/* getrlimit, setrlimit, prlimit64: the resource (RLIMIT_*; -1 none),
	 * whose limits (prlimit64's pid; 0, as for the others, the caller's
	 * own), the limits asked for (HAS_RLIM_NEW) and those the call said
	 * were in force (HAS_RLIM_OLD): [0] the soft limit, [1] the hard
	 * one, RLIM_INFINITY as UINT64_MAX. */
	int resource;
	int rlimit_pid;
	bool has_rlim_new, has_rlim_old;
	uint64_t rlim_new[2], rlim_old[2];

	/* RC_EV_SIGNAL; and the signal a kill-family call sends */
	int signo;
	int si_code;		/* raw si_code; 0 unknown */
	bool has_fault_addr;
	uint64_t fault_addr;	/* si_addr */
	int sender_pid;		/* si_pid: the sender, for kill-like codes */

	/* RC_EV_SUM */
	const struct rc_sum *sum;

	/* RC_EV_SYSCALL: what a live capture read of the thread when the
	 * call failed (see struct rc_live); NULL: nothing (a log). */
	const struct rc_live *live;

	/* RC_EV_FOUND */
	const struct rc_found *found;

	/* RC_EV_SYSCALL, a futex wait still going on as a live trace ends:
	 * the thread of the same process that holds the mutex whose word it
	 * waits on, as the mutex's owner field said then (glibc's
	 * pthread_mutex_t: __owner, two ints after the word); 0 unknown, or
	 * no mutex (a condition, a semaphore, Python's locks). */
	int futex_owner;

	/* RC_EV_SYSCALL: the thread's stack at the call (event/stack.h),
	 * or why none was taken; NULL: the source takes none for this call.
	 * The source's reference: a rule that keeps it takes its own. */
	const struct rc_stack *stack;

	/* RC_EV_EXIT */
	bool exited;		/* true: exit_code valid; false: killed by signo */
	int exit_code;
	bool core_dumped;

	/* The first event of a pid the source had not seen, while a
	 * fork-family call of this process had not yet returned: the child
	 * runs (and a log shows its calls) before its parent's clone() is
	 * seen to return it. The process model takes the child as that
	 * process's then, so its cwd and fds are known from its first call.
	 * 0: none. */
	int forked_by;
	/* FORKED_BY is sure: its fork was the only one not yet returned (a
	 * live capture knows the parent). With several pending, the latest
	 * is a guess, which a fork's return may correct. */
	bool forked_sure;
	/* With FORKED_BY: the fork made a thread of that process
	 * (CLONE_THREAD), which a process's exit (exit_group) may end before
	 * the fork is seen to return. */
	bool forked_thread;
	/* With FORKED_BY sure, when that process had not shown an event of
	 * its own yet (it forked this child before its first call ended):
	 * the process that forked it, so that the model knows it before
	 * its child. 0: none. */
	int parent_forked_by;
	/* With FORKED_BY, when the fork returned another pid than this one:
	 * the child's pid in its parent's pid namespace (a container's),
	 * which the fork returned; 0 otherwise. */
	int forked_as;
	/* A live capture, at a process's first event: its pid in its own
	 * pid namespace (/proc's NSpid), when not PID; 0 otherwise. */
	int ns_pid;

	/* Evidence only: the event as one strace-format line (a log's own line,
	 * unfinished and resumed halves joined). Rules quote it; they never
	 * parse it. */
	const char *line;
	size_t line_len;
	/* Set by the engine while a timeline is recorded (event/timeline.h):
	 * whoever copies LINE to quote it later says so through
	 * event_quoted(), and the timeline keeps the event. NULL otherwise. */
	bool *quoted;

	/* The arrays last: event_clear() clears what comes before them, and
	 * their counts say how much of each is set (nfds, argc, nids). */
	int fds[RC_EVENT_MAX_FDS];	/* poll/select/epoll fds (ready ones for epoll);
					 * the two fds pipe/pipe2/socketpair made */
	int nfds;

	const char *argv[RC_EVENT_MAX_ARGV];	/* execve */
	int argc;
	bool argv_truncated;

	/* setuid, setreuid, setresuid, setfsuid and their gid twins: the ids
	 * asked for, in argument order, -1 for "leave as it is"; setgroups,
	 * and a getgroups that worked: the group list. IDS_TRUNCATED: the
	 * list went on past what was shown. */
	long long ids[RC_EVENT_MAX_IDS];
	int nids;
	bool ids_truncated;
};

/* Reset E to "nothing known" (all optional fields at their none values). */
void event_clear(struct rc_event *e);

/* E kept past its dispatch (event/copy.c): one block holding the event
 * and all it points to (its stack referenced, its QUOTED hook dropped),
 * *BYTES long when BYTES is not NULL; event_copy_free frees it. */
struct rc_event *event_copy(const struct rc_event *e, size_t *bytes);
void event_copy_free(struct rc_event *c);

/* The lock facts of flock(fd, OP) and of fcntl(fd, CMD, {l_type=TYPE}),
 * from their numbers, the same for every source. */
void event_flock_facts(struct rc_event *e, long long op);
void event_fcntl_lock_facts(struct rc_event *e, long long cmd, long long type);
/* fcntl(fd, F_DUPFD or F_DUPFD_CLOEXEC, ...) makes a copy, as dup does:
 * the new fd is fd2, as for accept (bash saves stderr this way before a
 * redirection), -1 when the call failed (OK false); F_DUPFD_CLOEXEC's
 * copy is close-on-exec. Nothing for other commands. */
void event_fcntl_dup_facts(struct rc_event *e, long long cmd, bool ok, long long ret);

/* Appends FD to E's fds, as long as there is room and it is an fd. */
static inline void event_add_fd(struct rc_event *e, long long fd)
{
	if (e->nfds < RC_EVENT_MAX_FDS && fd >= 0 && fd <= 0x7fffffff)
		e->fds[e->nfds++] = (int)fd;
}

/* E's line is being copied, to quote as evidence (see QUOTED). */
static inline void event_quoted(const struct rc_event *e)
{
	if (e->quoted)
		*e->quoted = true;
}

/* Helpers for rules. */

/* An mmap that only reserves address space (PROT_NONE: glibc's arena
 * heaps, V8's cages, rustc's 300 MiB at start-up). Nothing is faulted in
 * or zero-filled. A parsed mmap always has flags, which tells PROT_NONE
 * from prot lost with the arguments (mode 0 either way). */
static inline bool event_mmap_reserves(const struct rc_event *e)
{
	return e->flags && e->mode == PROT_NONE;
}

/* SIGNO's default action ends the process: what a sender uses to tell a
 * process to stop (SIGTERM, SIGQUIT, SIGINT...), and the faults. */
static inline bool event_signal_ends(int signo)
{
	switch (signo) {
	case SIGCHLD:
	case SIGCONT:
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
	case SIGURG:
	case SIGWINCH:
		return false;
	default:
		return signo > 0;
	}
}

/* E is a futex call that waits: futex_waitv, or a futex whose op waits
 * (FUTEX_WAIT, FUTEX_WAIT_BITSET, FUTEX_LOCK_PI, FUTEX_LOCK_PI2,
 * FUTEX_WAIT_REQUEUE_PI). */
bool event_futex_waits(const struct rc_event *e);
/* E is a futex call that wakes its word (or releases a PI lock) and
 * worked; event_futex_woke: and woke a waiter, whose wait it may have
 * ended (a lock's holder letting it go). */
bool event_futex_wakes(const struct rc_event *e);
bool event_futex_woke(const struct rc_event *e);

static inline bool event_failed(const struct rc_event *e)
{
	return e->kind == RC_EV_SYSCALL && e->err != 0 && !e->interrupted;
}

/* Seconds to milliseconds, clamped to what a long long holds (a log or a
 * tracee may give garbage); negative and NaN give 0. */
long long event_secs_to_ms(double sec);
/* The timeout in ms of a wait until the absolute DEADLINE (FUTEX_WAIT_BITSET
 * and the like), against E's timestamp: epoch seconds, or a time of day
 * (-t/-tt, local time) whose date is unknown, where timeouts under 15
 * minutes survive modulo 900 s because time zones differ from UTC by whole
 * quarter hours. -1 when E has no timestamp. */
long long event_deadline_ms(const struct rc_event *e, double deadline);

/* "127.0.0.1:443", "[::1]:443", "/run/x.sock", "@abstract" into BUF. */
const char *sockaddr_format(const struct rc_sockaddr *sa, char *buf, size_t size);

#endif
