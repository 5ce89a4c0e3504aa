/* The process model: processes and threads, their parents, argv, cwd,
 * exit status, and an fd table (fd -> file path or socket peer), kept
 * current from the event stream.
 *
 * The engine shows rules the model as it was when the call was made and
 * applies the event afterwards, so a rule seeing close(3) can still ask
 * what 3 was.
 *
 * One writer, procs.c (procs_resolve, procs_apply), and a file per part
 * of the model: proctree.c (the processes and their ancestry), fdtable.c
 * (their fds), creds.c (what they run as), program-output.c (what they
 * wrote to stdout and stderr) and failures.c (which of them failed, and
 * who survived it).
 */
#ifndef RC_EVENT_PROCS_H
#define RC_EVENT_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "util/hmap.h"
#include "util/strbuf.h"

struct rc_fd {
	enum rc_fd_kind kind;
	char *path;		/* file path (absolute when known); NULL unknown */
	int stream;		/* 1, 2: (a copy of) the stdout or stderr the
				 * program started with, known from -y's
				 * decoration; 0: an fd of its own */
	int family;		/* sockets: AF_* */
	int sock_type;		/* sockets: SOCK_STREAM, SOCK_DGRAM (without flags) */
	bool nonblocking;
	bool cloexec;
	/* A file the program opened to write its contents (for writing,
	 * without O_APPEND, and not a log by its name): what goes into it is
	 * data, even through stdout ('cat > app.py'), not words to the user. */
	bool file_out;
	/* The peer a socket connected (or is connecting) to. */
	int peer_port;
	char *peer_host;
	bool abstract;
	/* A non-blocking connect that returned EINPROGRESS and whose outcome
	 * is not yet known. */
	bool connecting;
	double connect_ts;
	uint64_t connect_seq;
	/* The last connect call on it, whatever came of it (0: none seen):
	 * where in the code a socket's talk began (its stack). */
	uint64_t connected_seq;
	char *connect_line;	/* evidence: the connect call */
};

struct rc_fdtable {
	int refs;		/* shared by threads (CLONE_FILES) */
	struct hmap fds;	/* int fd -> struct rc_fd* */
	/* Bits for fds 0-63 with no entry in fds: copies of the stdout
	 * (std1) or stderr (std2) the program was started with, made by a
	 * dup of such a copy (an entry says the same in its stream) (a shell's "echo msg >&2" makes fd 1 a copy of
	 * fd 2 for the write), or fds that are not those streams any more
	 * (closed). An fd with no bit and no entry is what it was at the
	 * start: fds 1 and 2 the streams, others unknown. */
	uint64_t std1, std2, other;
};

/* Whose permissions a process's file access is checked against
 * (struct rc_creds, event.h): as the trace showed them (setuid and the
 * like, geteuid's answer, setgroups) or as a live capture read them when
 * a call failed (rc_event.live). */
#define RC_PROC_MAX_GROUPS RC_EVENT_MAX_IDS

struct rc_proc {
	int pid;		/* as the trace names it (a tid for threads) */
	int ppid;		/* valid when has_parent */
	/* The trace showed its parent: ppid is then valid, even when 0 (the
	 * unprefixed first process of a log of a terminal's strace -f). */
	bool has_parent;
	int leader;		/* thread-group leader (itself for a process) */
	bool is_thread;
	char **argv;		/* last execve's argv (NULL until one is seen) */
	int argc;
	char *exe;		/* last successful execve's path */
	/* The program image it runs: how many successful execves the trace
	 * showed it make (0: the program it ran when the trace first showed
	 * it). Kept on the leader. What a process wrote, and the children it
	 * started, before an execve belong to the program it was then. */
	unsigned image;
	unsigned parent_image;	/* the parent's image when it forked this one */
	uint64_t image_seq;	/* the execve that started the image it runs (0 none) */
	char *cwd;		/* NULL unknown */
	struct rc_fdtable *fdt;
	double first_ts, last_ts;
	uint64_t first_seq, last_seq;
	bool ended;
	bool exited;		/* ended by exit: exit_code valid */
	int exit_code;
	int signo;		/* ended by this signal */
	bool core_dumped;
	uint64_t end_seq;
	double end_ts;
	/* Its exit_group (any thread's): when it chose to end, which a
	 * capture may show well before the end itself (0: not seen). Kept
	 * on the leader. */
	uint64_t left_seq;
	double left_ts;
	uint64_t nsyscalls;
	/* The last signal a traced process sent it with a kill-family call
	 * (signalled_with 0: none), and that process's leader. */
	int signalled_with;
	int signalled_by;
	/* Taken as a child of its parent before the parent's fork returned
	 * (the event's forked_by), and not yet confirmed by that fork. */
	bool forked_early;
	/* That parent was sure (event.h, forked_sure), not the latest of
	 * several forks then waiting. */
	bool forked_sure;
	/* The leader's record holds the process's: glibc's setuid and friends
	 * change every thread. */
	struct rc_creds creds;
	/* Seccomp as /proc showed it live for this thread: the mode (0 none,
	 * 1 strict, 2 filter) and how many filters are in place that are not
	 * rootcause's own; -1 unknown (a log has no such facts). Children
	 * inherit them, as they inherit the filters. */
	int seccomp_mode;
	int seccomp_filters;
	/* The pid its parent's fork returned, when that is not PID: its pid
	 * in a pid namespace of its own (a container's); 0 otherwise. */
	int ns_pid;
};

/* A recent line the program wrote to stdout or stderr. */
struct rc_output {
	int pid;
	int fd;			/* 1 stdout, 2 stderr: the stream, whatever fd
				 * the write went through */
	uint64_t seq;
	char *text;		/* one line, without the newline; ends in "..."
				 * when strace cut the write short (-s), and
				 * lines broken where the middle of a long write
				 * was left out (event.h) end or begin with it */
	bool discarded;		/* written to /dev/null */
	unsigned image;		/* the writer's program image (rc_proc) then */
	char *exe;		/* and that image's path; NULL unknown */
	/* The source stopped showing the write this line ends (strace's -s
	 * cut the string): what the program wrote after it is unknown. */
	bool cut;
	size_t shown;		/* then: the bytes of that write it showed */
	size_t unshown;		/* and the bytes after them (0: unknown) */
};

#define RC_OUTPUT_KEEP 64

/* Ended processes kept for the report and for ancestry questions; older
 * ones are forgotten, so a log of a million short-lived processes (a
 * shell loop) does not grow the model without bound. */
#define RC_PROCS_ENDED_KEEP 4096

#define RC_PROCS_EARLY 8

struct rc_procs {
	struct hmap procs;	/* int pid -> struct rc_proc* */
	int root;		/* first process seen (valid when nprocs > 0; 0 is the
				 * pid of a log without pid prefixes) */
	size_t nprocs;		/* processes and threads ever seen */
	size_t nforgotten;	/* ended ones dropped past RC_PROCS_ENDED_KEEP */
	int ended[RC_PROCS_ENDED_KEEP];	/* pids in the order they ended */
	size_t ended_head, ended_count;
	/* The last RC_OUTPUT_KEEP lines written to fds 1 and 2, oldest first
	 * at out[(out_head) % KEEP]. */
	struct rc_output out[RC_OUTPUT_KEEP];
	size_t out_count;
	size_t out_head;
	struct strbuf partial[2];	/* an unterminated line per fd 1/2 */
	int partial_pid[2];
	uint64_t partial_seq[2];
	bool partial_discarded[2];
	struct strbuf scratch;	/* path resolution */
	/* The last process looked up: consecutive events mostly come from
	 * the same thread, and several lookups are made per event. */
	int cached_pid;
	struct rc_proc *cached;
	/* Children taken early (forked_early), latest last, at most
	 * RC_PROCS_EARLY: a fork that returns a pid the log has not shown,
	 * while one of its parent's is waiting, returned that child's pid in
	 * a pid namespace. */
	int early[RC_PROCS_EARLY];
	size_t nearly;
};

void procs_init(struct rc_procs *m);
void procs_release(struct rc_procs *m);

/* Before the rules: take what E says of the state its call was made in
 * (E->live: the thread's ids and seccomp filters, read live when the
 * call failed; a child's parent, E->forked_by), then resolve E's
 * relative path against its dirfd or cwd (E->path is replaced by a
 * string valid until the next call). */
void procs_resolve(struct rc_procs *m, struct rc_event *e);
/* After the rules: apply E to the model (an RC_EV_FOUND event, given to
 * no rule, only here). */
void procs_apply(struct rc_procs *m, const struct rc_event *e);

/* A process or thread that existed before tracing began (attach), as /proc
 * shows it: PID belongs to LEADER's thread group (itself for the leader);
 * ARGV (ARGC strings), EXE and CWD may be NULL. A live capture's
 * RC_EV_FOUND events come here through procs_apply. */
void procs_adopt(struct rc_procs *m, int pid, int leader, const char *const *argv, int argc,
		 const char *exe, const char *cwd);
/* What a live capture read of thread PID (the process's credentials go
 * to its leader), which the trace cannot show: procs_resolve takes an
 * event's (rc_event.live) through these. */
void procs_set_creds(struct rc_procs *m, int pid, const struct rc_creds *c);
void procs_set_seccomp(struct rc_procs *m, int pid, int mode, int filters);
/* The credentials of PID's process as far as known (never NULL for a
 * known PID; fields -1 unknown). */
const struct rc_creds *procs_creds(const struct rc_procs *m, int pid);

/* The working directory relative paths of E (a call of P) resolved
 * against: P's, else the one E's -y decoration of AT_FDCWD showed; NULL
 * unless absolute. */
static inline const char *procs_cwd(const struct rc_proc *p, const struct rc_event *e)
{
	const char *cwd = p && p->cwd ? p->cwd : e->dir_shown ? e->dir_shown->path : NULL;

	return cwd && cwd[0] == '/' ? cwd : NULL;
}

/* An fd PID had before tracing began, as its -yy decoration describes it. */
void procs_learn_fd(struct rc_procs *m, int pid, int fd, const struct rc_fdfacts *shown);
struct rc_proc *procs_get(const struct rc_procs *m, int pid);
const struct rc_fd *procs_fd(const struct rc_procs *m, int pid, int fd);

/* What fd FD of E's process is, as a rule asks while E is dispatched. */
struct rc_fdinfo {
	enum rc_fd_kind kind;
	const char *path;	/* RC_FD_FILE: its path; NULL unknown */
	const struct rc_fd *f;	/* the model's entry; NULL none */
};
/* The model's entry for FD, else what E's own decoration of it says (an
 * fd the model has not seen opened: strace -p, attach). False: unknown. */
bool procs_fd_info(const struct rc_procs *m, const struct rc_event *e, int fd, struct rc_fdinfo *out);
/* What E's decoration of FD (what -y/-yy printed for it in E) says; NULL
 * when FD is not E's fd or E shows none. Valid while E is dispatched. */
static inline const struct rc_fdfacts *procs_fd_shown(const struct rc_procs *m, const struct rc_event *e, int fd)
{
	(void)m;
	return fd == e->fd ? e->fd_shown : NULL;
}
/* The process (not thread) that PID belongs to. */
struct rc_proc *procs_leader(const struct rc_procs *m, int pid);
/* True when PID or one of its ancestors ended with a non-zero status or
 * a fatal signal, and no ancestor of that one went on to exit 0; *culprit
 * (may be NULL) is set to the first such. A failure an ancestor survived
 * was handled: ldd trying each loader in a subshell, $(cmd) whose status
 * the script ignores, subprocess.run capturing a child's complaint. */
bool procs_failed(const struct rc_procs *m, int pid, const struct rc_proc **culprit);
/* PID's process exited with the status of the last child to end before
 * it, which had failed (128+N for a child killed by signal N), and SEQ
 * came before that child began: runuser, su, sudo, timeout or a shell
 * passing on the failure of the command it started. What such a process
 * did without on its way to starting that child did not make it fail: it
 * went on to start the child. (A failure after the child began may be the
 * process's own: a shell's `cd` after a failed command.) */
bool procs_passed_on(const struct rc_procs *m, int pid, uint64_t seq);
/* procs_failed for what program image IMAGE of PID's process did (its
 * words): false also when that image handed over to another program by a
 * successful execve, or when an ancestor's image that started it did, or
 * went on after it failed. A failure of a later image is that program's
 * own: pyenv's shim (bash) that warned and then exec'd the python that
 * failed did not fail, nor did the helpers it ran first. */
bool procs_image_failed(const struct rc_procs *m, int pid, unsigned image, const struct rc_proc **culprit);
/* The image PID's process runs now (0 for a pid the model does not know). */
unsigned procs_image(const struct rc_procs *m, int pid);
/* Event SEQ of PID's process came before the program it runs now started:
 * it was an earlier program's. */
bool procs_before_image(const struct rc_procs *m, int pid, uint64_t seq);
/* Some ancestor of P (above P's process) ended with status 0. */
bool procs_handled(const struct rc_procs *m, const struct rc_proc *p);
/* P ended with status 0. */
static inline bool procs_succeeded(const struct rc_proc *p)
{
	return p && p->ended && p->exited && p->exit_code == 0;
}
/* PID's process is ANCESTOR's process or a descendant of it, as far as
 * the trace showed parentage (a pid the model does not know descends
 * only from itself). */
bool procs_descends(const struct rc_procs *m, int pid, int ancestor);
/* The same, strictly below: PID's process is not ANCESTOR's own. */
bool procs_below(const struct rc_procs *m, int pid, int ancestor);
/* True when any process ended with a non-zero status or a signal. */
bool procs_any_failed(const struct rc_procs *m);
/* The name of the program PID's process runs ("crun"): its exec'd
 * path's last component (strace prints paths whole but cuts argv strings
 * at -s), else argv[0]'s; NULL when the trace shows neither. */
const char *procs_program(const struct rc_procs *m, int pid);

/* Flush an unterminated stdout/stderr line into the output ring. */
void procs_flush_output(struct rc_procs *m);

/* Processes in order of appearance (the caller frees the array, not the
 * entries). */
struct rc_proc **procs_sorted(const struct rc_procs *m, size_t *count);

#endif
