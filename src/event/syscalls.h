/* What a system call means, from one table (event/syscalls.def): its
 * trace classes, the classes the rules ask about, how its return value
 * prints, and the role of each argument. Every source reads calls
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

/* What the rules and the process model ask of a call. Each class says
 * what a call does, as its man page has it, so that a reader can check a
 * row against it; where a class is named after its use, it says so. */
#define CL_READ (1ULL << 0)	/* reads data from its fd: read, recvfrom... */
#define CL_WRITE (1ULL << 1)	/* writes data to its fd: write, sendto, sendfile... */
#define CL_SYNC (1ULL << 2)	/* writes its fd's cached data to storage and
				 * waits for it: fsync, fdatasync,
				 * sync_file_range */
#define CL_FLUSH (1ULL << 3)	/* flushes a file system or a mapping: sync, syncfs, msync */
#define CL_OPEN (1ULL << 4)	/* opens a path into a new fd: open, openat, openat2, creat */
#define CL_CREATES (1ULL << 5)	/* always creates its file (creat) */
#define CL_EXEC (1ULL << 6)	/* execve, execveat */
#define CL_FORK (1ULL << 7)	/* makes a process or thread: clone, fork, vfork */
#define CL_FORK_WAITS (1ULL << 8)	/* ... and its caller waits until the child
					 * execs or exits (vfork) */
#define CL_EXIT (1ULL << 9)	/* exit, exit_group */
#define CL_SIGRETURN (1ULL << 10)	/* returns from a signal handler */
#define CL_WAIT_CHILD (1ULL << 11)	/* waits for a child: wait4, waitid */
#define CL_SLEEP (1ULL << 12)	/* nanosleep, clock_nanosleep */
#define CL_SIGWAIT (1ULL << 13)	/* waits for a signal: pause, rt_sigsuspend... */
#define CL_FUTEX (1ULL << 14)	/* a futex call: futex, futex_waitv */
#define CL_FUTEX_WAITS (1ULL << 15)	/* a futex call that always waits (futex_waitv);
					 * futex waits by its op (event_futex_waits) */
#define CL_POLL (1ULL << 16)	/* poll, select: E->fds lists the fds waited on */
#define CL_EPOLL (1ULL << 17)	/* epoll waits: E->fds lists the fds that turned ready */
#define CL_SOCK_IO (1ULL << 18)	/* moves data through a connected socket, in
				 * order, with no offset: read, write, the
				 * send and recv calls; the first one after a
				 * non-blocking connect tells how the connect
				 * ended */
#define CL_LOOK (1ULL << 19)	/* looks at a file without opening it: stat,
				 * access, readlink... */
#define CL_PATH_EXISTS (1ULL << 20)	/* looks its path up and fails with ENOENT
					 * when no such entry exists, so a call that
					 * worked shows the entry exists: the opens
					 * but creat (which makes it), and the
					 * CL_LOOK calls that take a path (stat,
					 * lstat, access, readlink...). An entry, not
					 * its target: lstat and readlink work on a
					 * dangling symlink */
#define CL_ENTER (1ULL << 21)	/* moves the process into a directory: chdir,
				 * fchdir, chroot, pivot_root */
#define CL_ACCEPT (1ULL << 22)	/* accept, accept4: the new fd is the return value */
#define CL_IDS (1ULL << 23)	/* sets or reads the process's user and group ids
				 * and groups (set*id, get*id, *groups) */
#define CL_EMPTY_PATH_FD (1ULL << 24)	/* an empty path with a dirfd means the
					 * dirfd's own file (AT_EMPTY_PATH):
					 * newfstatat, statx */
#define CL_NEW_FD (1ULL << 25)	/* returns a new fd that is what the call is about
				 * (open, socket): its -y decoration is fd_shown */
#define CL_RET_ADDR (1ULL << 26)	/* returns the address it mapped (mmap): addr */
#define CL_RESIZE (1ULL << 27)	/* sets a file's size or allocates its blocks:
				 * truncate, ftruncate, fallocate */
#define CL_FD_STORAGE (1ULL << 28)	/* named after its use: when its fd is a
					 * file, the call's time goes to that file's
					 * storage: the CL_SYNC calls, ftruncate and
					 * fallocate, reading the file's attributes
					 * (fstat) or entries (getdents), and close,
					 * which may write back (close(2), NFS) */
#define CL_STAT (1ULL << 29)	/* returns a file's attributes (a struct stat
				 * or statx): stat, lstat, fstat, newfstatat,
				 * statx */
#define CL_MAPS (1ULL << 30)	/* maps, unmaps, resizes or protects a range of
				 * the address space, or moves the heap's end:
				 * mmap, munmap, mremap, mprotect,
				 * pkey_mprotect, brk */
#define CL_MAP_GROWS (1ULL << 31)	/* ... and may give the process more memory,
					 * of a size it names: mmap, mremap, brk */
#define CL_NEW_NAME (1ULL << 32)	/* makes a new entry in a directory, at a
					 * path it takes: creat, mkdir, mknod, link,
					 * symlink, rename's new name */
#define CL_DROP_NAME (1ULL << 33)	/* removes an entry from a directory, at a
					 * path it takes: unlink, rmdir, rename's
					 * old name */
#define CL_MEM_IO (1ULL << 34)	/* moves data between its fd and the caller's
				 * memory and returns how many bytes: read,
				 * write, their p- and v- forms, send, recv,
				 * sendto, recvfrom, sendmsg, recvmsg (not the
				 * mmsg calls, which return a message count,
				 * nor sendfile, splice, copy_file_range, which
				 * copy inside the kernel) */
#define CL_DUP (1ULL << 35)	/* copies its fd to the fd it returns: dup,
				 * dup2, dup3 (fcntl does for F_DUPFD and
				 * F_DUPFD_CLOEXEC, by its command) */
#define CL_SET_PERM (1ULL << 36)	/* changes a file's mode or owner (chmod(2),
					 * chown(2)): chmod, fchmod, fchmodat,
					 * chown, fchown, lchown, fchownat */

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
	ROLE_FD,		/* e->fd, and what its -y decoration says, e->fd_shown */
	ROLE_FD2,		/* e->fd2: dup2's target, sendfile's in_fd */
	ROLE_DIRFD,		/* e->dirfd, e->dir_shown */
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
	ROLE_RLIMIT_PID,	/* prlimit64's process: e->rlimit_pid */
	ROLE_RESOURCE,		/* RLIMIT_*: e->resource */
	ROLE_RLIMIT_NEW,	/* the limits asked for: e->rlim_new */
	ROLE_RLIMIT_OLD,	/* the limits in force returned: e->rlim_old, when the call worked */
	/* A buffer the kernel fills, as many bytes as the call returns,
	 * which strace prints and no rule reads (what a read brought in, a
	 * link's target, getcwd's path, getrandom's bytes): no fact; the
	 * eBPF capture copies it only for printing (trace). */
	ROLE_READ_BUF,
	ROLE_COUNT,
};

#define RC_SC_MAX_ARGS 6

struct rc_syscall {
	const char *name;
	size_t len;
	/* -1: this architecture has no such call, nor one that means the
	 * same (AS) */
	long nr;
	/* A call of another architecture (stat64, mmap2, futex_time64 on
	 * armv7 and i386, getuid32...) that means the same as this
	 * architecture's call AS, with the same arguments: numbered as AS,
	 * so that every rule reads it as AS. NULL for this architecture's. */
	const char *as;
	unsigned char nargs;
	unsigned char rv;	/* enum rc_sc_rv */
	unsigned char nroles;	/* leading arguments that hold a role */
	/* The first argument the kernel writes (RC_SC_MAX_ARGS: none): its
	 * fact and those of the arguments after it are taken at exit. */
	unsigned char exit_from;
	unsigned long long roleset;	/* bit R set: some argument has role R */
	unsigned tclasses;	/* TC_* */
	unsigned long long classes;	/* CL_* */
	unsigned char roles[RC_SC_MAX_ARGS];	/* enum rc_sc_role */
};

/* The call numbered NR on this architecture, or NULL when the table does
 * not list it (then nothing is known of it but its name). */
const struct rc_syscall *syscall_by_nr(long nr);
/* The call named NAME (LEN bytes): listed in the table, or only numbered
 * by the headers (then with no classes or roles). NULL when
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
	const unsigned long long *classes;
};
extern struct rc_syscall_index rc_syscall_index;
void syscall_table_init(void);

/* The CL_* classes of NR (0 when unknown). */
static inline unsigned long long syscall_classes(long nr)
{
	if (!rc_syscall_index.built)
		syscall_table_init();
	return nr >= 0 && nr < rc_syscall_index.max ? rc_syscall_index.classes[nr] : 0;
}
/* NR has one of the classes in CLASSES. */
static inline bool syscall_is(long nr, unsigned long long classes)
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
