/* What a system call means, from one table (event/syscalls.def): its
 * family, trace classes, the classes the rules ask about, how its return
 * value prints, and the role of each argument. Every source reads calls
 * through it, so a call means the same whichever source saw it.
 *
 * Numbers come from the system headers (gen/tables.h), by name: a call
 * this architecture lacks has nr -1, and nothing looked up by number
 * finds it. The table is built on first use (rootcause is
 * single-threaded) and lives until the process ends.
 */
#ifndef RC_EVENT_SYSCALLS_H
#define RC_EVENT_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>

/* Trace classes, as strace's -e trace=%file... */
enum {
	TC_FILE = 1 << 0,	/* takes a file name */
	TC_DESC = 1 << 1,	/* takes or returns an fd */
	TC_NETWORK = 1 << 2,
	TC_PROCESS = 1 << 3,	/* process lifecycle: fork, exec, exit, wait */
	TC_SIGNAL = 1 << 4,
	TC_IPC = 1 << 5,
	TC_MEMORY = 1 << 6,
	TC_CREDS = 1 << 7,
	TC_STAT = 1 << 8,	/* the stat family (%stat) */
	TC_CLOCK = 1 << 9,
};

/* What the rules and the process model ask of a call. */
enum {
	CL_READ = 1u << 0,	/* reads data from its fd: read, recvfrom... */
	CL_WRITE = 1u << 1,	/* writes data to its fd: write, sendto, sendfile... */
	CL_SYNC = 1u << 2,	/* may wait for storage on its fd: fsync, ftruncate,
				 * getdents64, fstat, close */
	CL_FLUSH = 1u << 3,	/* flushes a file system or a mapping: sync, syncfs, msync */
	CL_OPEN = 1u << 4,	/* opens a path into a new fd: open, openat, openat2, creat */
	CL_CREATES = 1u << 5,	/* always creates its file (creat) */
	CL_EXEC = 1u << 6,	/* execve, execveat */
	CL_FORK = 1u << 7,	/* makes a process or thread: clone, fork, vfork */
	CL_FORK_WAITS = 1u << 8,	/* ... and its caller waits until the child
					 * execs or exits (vfork) */
	CL_EXIT = 1u << 9,	/* exit, exit_group */
	CL_SIGRETURN = 1u << 10,	/* returns from a signal handler */
	CL_WAIT_CHILD = 1u << 11,	/* waits for a child: wait4, waitid */
	CL_SLEEP = 1u << 12,	/* nanosleep, clock_nanosleep */
	CL_SIGWAIT = 1u << 13,	/* waits for a signal: pause, rt_sigsuspend... */
	CL_FUTEX = 1u << 14,	/* a futex call: futex, futex_waitv */
	CL_FUTEX_WAITS = 1u << 15,	/* a futex call that always waits (futex_waitv);
					 * futex waits by its op (event_futex_waits) */
	CL_POLL = 1u << 16,	/* poll, select: E->fds lists the fds waited on */
	CL_EPOLL = 1u << 17,	/* epoll waits: E->fds lists the fds that turned ready */
	CL_SOCK_IO = 1u << 18,	/* moves data through a connected socket: the
				 * first one after a non-blocking connect tells
				 * how the connect ended */
	CL_LOOK = 1u << 19,	/* looks at a file without opening it: stat,
				 * access, readlink... */
	CL_PATH_EXISTS = 1u << 20,	/* a call that worked shows its path exists
					 * (the opens, stats and access calls that
					 * exec-failed takes as witnesses) */
	CL_ENTER = 1u << 21,	/* moves the process into a directory: chdir,
				 * fchdir, chroot, pivot_root */
	CL_ACCEPT = 1u << 22,	/* accept, accept4: the new fd is the return value */
	CL_IDS = 1u << 23,	/* sets or reads the process's user and group ids
				 * and groups (set*id, get*id, *groups) */
	CL_EMPTY_PATH_FD = 1u << 24,	/* an empty path with a dirfd means the
					 * dirfd's own file (AT_EMPTY_PATH):
					 * newfstatat, statx */
	CL_NEW_FD = 1u << 25,	/* returns a new fd that is what the call is about
				 * (open, socket): its -y decoration is fd_hint */
	CL_RET_ADDR = 1u << 26,	/* returns the address it mapped (mmap): addr */
};

/* The decode/ file that prints a call. */
enum rc_sc_family {
	RC_FAM_NONE,		/* printed generically, or not a call of this architecture */
	RC_FAM_FILE,
	RC_FAM_FCNTL,
	RC_FAM_IOCTL,
	RC_FAM_MOUNT,
	RC_FAM_IO,
	RC_FAM_NET,
	RC_FAM_PROCESS,
	RC_FAM_MEMORY,
	RC_FAM_FUTEX,
	RC_FAM_SIGNAL,
	RC_FAM_MISC,
};

/* How a call's return value is printed. */
enum rc_sc_rv {
	RC_RV_DEC,		/* "= 5", "= -1 ENOENT (...)" */
	RC_RV_FD,		/* a new fd: "= 3</path>" with -y */
	RC_RV_HEX,		/* an address: "= 0x7f..." (mmap, brk) */
	RC_RV_OCT,		/* umask: "= 022" */
	RC_RV_NONE,		/* never returns on success: exit, exit_group: "= ?" */
};

/* The fact an argument gives. */
enum rc_sc_role {
	ROLE_NONE,
	ROLE_FD,		/* e->fd, and its -y decoration e->fd_hint */
	ROLE_FD2,		/* e->fd2: dup2's target, sendfile's in_fd */
	ROLE_DIRFD,		/* e->dirfd, e->dir_hint */
	ROLE_PATH,		/* e->path */
	ROLE_PATH2,		/* e->path2: rename's new name, symlink's target */
	ROLE_OPEN_FLAGS,	/* e->flags: O_* */
	ROLE_OPEN_HOW,		/* openat2's struct open_how: e->flags, e->mode */
	ROLE_PIPE_FLAGS,	/* pipe2's O_* flags: e->flags */
	ROLE_MODE,		/* e->mode: a file mode, access's mode */
	ROLE_LEN,		/* e->len: a byte count (signed: a negative one is none) */
	ROLE_MAP_LEN,		/* e->len: a mapping's length (unsigned) */
	ROLE_OFFSET,		/* e->offset */
	ROLE_ADDR,		/* e->addr: a mapping's, brk's or a futex word's address */
	ROLE_PROT,		/* e->mode: mmap's PROT_* */
	ROLE_MMAP_FLAGS,	/* e->flags: MAP_* */
	ROLE_MREMAP_FLAGS,	/* e->flags: MREMAP_* */
	ROLE_STAT_BUF,		/* struct stat: e->st_size, when the call worked */
	ROLE_STATX_BUF,		/* struct statx: e->st_size */
	ROLE_ARGV,		/* execve's argv: e->argv */
	ROLE_DATA_OUT,		/* bytes written: e->data */
	ROLE_DATA_IN,		/* bytes read: e->data, when the call worked */
	ROLE_IOV_OUT,		/* an iovec array written: e->data, e->len */
	ROLE_IOV_IN,		/* an iovec array read into: e->len */
	ROLE_MSGHDR_OUT,	/* struct msghdr sent: e->data, e->sa */
	ROLE_MSGHDR_IN,		/* struct msghdr received into */
	ROLE_MMSGHDR_OUT,	/* struct mmsghdr array sent */
	ROLE_MMSGHDR_IN,	/* struct mmsghdr array received into */
	ROLE_SOCKADDR,		/* e->sa: the address a call gives */
	ROLE_SOCKADDR_OUT,	/* e->sa: the address a call returns (accept, recvfrom) */
	ROLE_FAMILY,		/* e->sa.family: AF_* */
	ROLE_SOCK_TYPE,		/* e->flags: SOCK_* */
	ROLE_PROTOCOL,		/* e->mode: IPPROTO_* */
	ROLE_FD_PAIR,		/* e->fds: the two fds pipe and socketpair made */
	ROLE_SOCKOPT_LEVEL,	/* e->sockopt_level */
	ROLE_SOCKOPT_NAME,	/* e->sockopt_name */
	ROLE_SOCKOPT_VALUE,	/* e->sockopt_value */
	ROLE_POLL_FDS,		/* struct pollfd array: e->fds */
	ROLE_FD_SET,		/* a select fd_set: e->fds */
	ROLE_EPOLL_EVENTS,	/* the ready events: e->fds */
	ROLE_TIMEOUT_MS,	/* e->timeout_ms, in ms */
	ROLE_TIMEOUT_TS,	/* e->timeout_ms, from a struct timespec */
	ROLE_TIMEOUT_TV,	/* e->timeout_ms, from a struct timeval */
	ROLE_FUTEX_OP,		/* e->futex_op */
	ROLE_FUTEX_TIMEOUT,	/* e->timeout_ms, by the op: relative or a deadline */
	ROLE_FCNTL_CMD,		/* fcntl's command */
	ROLE_FCNTL_ARG,		/* fcntl's third argument: a lock for the lock commands */
	ROLE_FLOCK_OP,		/* e->lock, e->lock_waits */
	ROLE_CLONE_FLAGS,	/* e->flags: CLONE_* and the exit signal (strace
				 * names clone's arguments and prints them in an
				 * order of its own: a reader looks for it by name) */
	ROLE_CLONE_ARGS,	/* clone3's struct clone_args: e->flags */
	ROLE_WSTATUS,		/* wait4's status: e->exit_code or e->signo */
	ROLE_KILL_PID,		/* e->kill_target, when the signal follows it */
	ROLE_SIGNAL,		/* e->signo */
	ROLE_EXIT_CODE,		/* e->exit_code */
	ROLE_ID,		/* a uid or gid: e->ids */
	ROLE_GROUPS,		/* a group list given: e->ids */
	ROLE_GROUPS_IN,		/* a group list returned: e->ids, when the call worked */
	ROLE_COUNT,
};

#define RC_SC_MAX_ARGS 6

struct rc_syscall {
	const char *name;
	size_t len;
	long nr;		/* -1: this architecture has no such call */
	unsigned char family;	/* enum rc_sc_family */
	unsigned char nargs;
	unsigned char rv;	/* enum rc_sc_rv */
	unsigned char nroles;	/* leading arguments that hold a role */
	unsigned long long roleset;	/* bit R set: some argument has role R */
	unsigned tclasses;	/* TC_* */
	unsigned classes;	/* CL_* */
	unsigned char roles[RC_SC_MAX_ARGS];	/* enum rc_sc_role */
};

/* The call numbered NR on this architecture, or NULL when the table does
 * not list it (then nothing is known of it but its name). */
const struct rc_syscall *syscall_by_nr(long nr);
/* The call named NAME (LEN bytes): listed in the table, or only numbered
 * by the headers (then with no family, classes or roles). NULL when
 * neither knows the name. */
const struct rc_syscall *syscall_by_name(const char *name, size_t len);
/* NR's name: one that is not an alias, else any; NULL when the headers
 * do not name NR. */
const char *syscall_name(long nr);
/* Highest number the headers or the table know, + 1. */
long syscall_nr_max(void);

/* The classes by number, built with the table: the rules ask them of
 * every event, so the look-up is inline. */
struct rc_syscall_index {
	bool built;
	long max;
	const unsigned *classes;
};
extern struct rc_syscall_index rc_syscall_index;
void syscall_table_init(void);

/* The CL_* classes of NR (0 when unknown). */
static inline unsigned syscall_classes(long nr)
{
	if (!rc_syscall_index.built)
		syscall_table_init();
	return nr >= 0 && nr < rc_syscall_index.max ? rc_syscall_index.classes[nr] : 0;
}
/* NR has one of the classes in CLASSES. */
static inline bool syscall_is(long nr, unsigned classes)
{
	return (syscall_classes(nr) & classes) != 0;
}

/* The index of SC's first argument with ROLE, or -1. */
int syscall_arg(const struct rc_syscall *sc, enum rc_sc_role role);
/* Some argument of SC has ROLE. */
static inline bool syscall_has_role(const struct rc_syscall *sc, enum rc_sc_role role)
{
	return (sc->roleset >> role) & 1;
}
/* How many leading arguments hold a role: what a parser must read. */
static inline unsigned syscall_role_args(const struct rc_syscall *sc)
{
	return sc->nroles;
}

/* The table's rows, in its order (for tests and listings). */
size_t syscall_count(void);
const struct rc_syscall *syscall_at(size_t i);

#endif
