/* blocked-thread: threads still inside a system call when tracing stopped.
 *
 * A source marks such a call E->blocked: a log's unfinished call that was
 * never resumed, strace's "<detached ...>" line, or a thread the tracer
 * left inside a call. When a program hangs, these calls are the hang: the
 * rule names each thread's call, what it waits on (the fd's file, pipe or
 * socket peer, the futex, the child) and for how long.
 *
 * Not every blocked thread is stuck. A server parked in accept or
 * epoll_wait, a worker pool parked on one futex, a thread sleeping or
 * waiting for a signal or a child, a read on an eventfd or timerfd, and a
 * server waiting for its client's next request are idle by design: notes.
 * A read from a peer we connected to, a write nobody reads, a pipe, a
 * terminal, a file, a file lock, a futex (a lock or a condition) or a
 * device call that has not returned is a likelier stall: warnings, so that
 * they show even when nothing failed, ranked with the failures nothing
 * recovered from. When both ends of one connection are blocked reading,
 * that is a deadlock and both are warnings. So is a wait4 for a child that
 * exited and was never reaped: the kernel keeps such a child for the
 * wait, which should have returned it at once; its exit was lost. A futex
 * wait that the thread's stack shows inside pthread_cond_wait, in a thread
 * other than its process's first, is a worker waiting for work too (redis'
 * background threads, one condition variable each): a note; the first
 * thread waiting on a condition is likelier waiting for a result. A futex
 * wait on a mutex names the thread that holds it (the mutex's owner
 * field, which a live trace reads: rc_event.futex_owner), with that
 * thread's stack when it is blocked too; threads that each hold the
 * mutex the next waits for, round to the first, are a deadlock.
 *
 * How long: E->dur when the source knew it (the tracer); otherwise, from a
 * log, the time from the call's start to the last timestamp of the log, a
 * lower bound (strace prints nothing with a time at detach). A thread whose
 * blocked call is its only event was blocked all through the trace, however
 * short the log's clock says it was. A call that began under LONG_S before
 * the end in a thread that was busy otherwise is most likely work in
 * progress: a note.
 *
 * One finding per thread, the likely stalls first, then the longest; at
 * most SHOWN_MAX, the rest counted on the last one.
 */
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "event/stack.h"
#include "event/syscalls.h"
#include "lookup/lookup.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "blocked-thread"

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

/* A call blocked this long is a wait a user notices. */
#define LONG_S 1.0
/* A log this short may be a pasted excerpt (excerpt_ends_in). */
#define EXCERPT_EVENTS 400
/* Findings listed; the rest are counted. */
#define SHOWN_MAX 8
/* This many threads of one process parked on one futex are a pool's idle
 * workers (they wait on the queue's condition variable), not contention. */
#define POOL_MIN 3
/* Bounds on what is kept: blocked threads (one entry each), a server's
 * accepted sockets and listening ports. */
#define BLOCKED_MAX 4096
#define SERVER_FDS_MAX 4096
#define PORTS_MAX 1024
/* Threads named as blocked meanwhile next to a futex wait. */
#define MEANWHILE_MAX 3
/* Children reaped, remembered to tell a lost exit (lost_exit). */
#define REAPED_MAX 65536

enum kind {
	K_SOCK_READ,	/* read/recv on a socket */
	K_SOCK_WRITE,
	K_CONNECT,
	K_ACCEPT,
	K_PIPE_READ,
	K_PIPE_WRITE,
	K_INPUT,	/* a read on a terminal or an unknown stdin */
	K_FILE_IO,	/* read, write, fsync on a file */
	K_PATH,		/* open, stat... on a path */
	K_FILE_LOCK,	/* flock, fcntl(F_SETLKW) */
	K_DEVICE,	/* ioctl */
	K_DEVICE_READ,	/* a read of a device that is no terminal: a serial line, a sensor */
	K_ENTROPY,	/* getrandom before the kernel's random pool is ready */
	K_FUTEX,
	K_FUTEX_TIMED,
	K_POLL,		/* poll/select on fds */
	K_EPOLL,
	K_SLEEP,
	K_RESTART,	/* restart_syscall */
	K_SIGWAIT,
	K_CHILD,	/* wait4, waitid */
	K_EVENT,	/* read on an eventfd, timerfd, signalfd, inotify fd */
	K_VFORK,
	K_OTHER,
};

struct blocked {
	int tid;
	int pid;		/* the process, rule_leader() */
	int group;		/* rule_group(): sockets and futexes are shared there */
	uint64_t seq;
	double ts;
	double dur;		/* seconds inside; < 0 unknown */
	bool exact;		/* dur came from the source, not bounded from the log */
	bool whole;		/* the thread's only event: blocked all through the trace */
	bool detached;		/* strace detached inside it: the trace was stopped */
	enum kind kind;
	char *name;
	char *line;
	char *what;		/* what it waits on: "fd 3 (pipe:[12])", "futex 0x10" */
	char *fdline;		/* evidence: what the fd is */
	char *extra;		/* wait4: the children it waits for */
	char *path;		/* for the finding's path field */
	char *address;		/* the peer, for the finding's address field */
	char *local, *peer;	/* both ends of a TCP/UDP socket as -yy printed them */
	const struct rc_stack *stack;	/* where it waits */
	int owner;		/* a mutex's: the thread that holds it, 0 unknown */
	int lost_child;		/* wait4: a child that exited unreaped, whose exit the wait missed */
	bool mutex_cycle;	/* OWNER waits, through owners, for a mutex B holds */
	int local_port;
	bool server;		/* a server's socket: it accepted it */
	uint64_t futex;
	long long timeout_ms;
	/* Decided at finish. */
	bool pool;		/* parked with POOL_MIN or more threads on one futex */
	bool worker;		/* a thread, not the first, in pthread_cond_wait */
	int pool_size;
	int deadlock_tid;	/* the other end of the connection, blocked reading too */
	bool stall;
};

struct state {
	struct hmap threads;	/* tid -> struct blocked */
	struct hmap server_fds;	/* group << 32 | fd -> (void *)1: sockets it accepted */
	struct hmap ports;	/* group << 32 | port -> (void *)1: ports it listens on */
	struct hmap reaped;	/* pid -> (void *)1: children a wait4 returned */
	struct hmap reap_unseen;	/* leader -> (void *)1: reaps children where wait4 does not
					 * show it (waitid, SIGCHLD ignored or SA_NOCLDWAIT) */
	bool reaped_full;	/* past REAPED_MAX: no exit is called lost */
	uint64_t dropped;	/* blocked threads past BLOCKED_MAX */
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->threads);
	hmap_init(&s->server_fds);
	hmap_init(&s->ports);
	hmap_init(&s->reaped);
	hmap_init(&s->reap_unseen);
}

static void blocked_free(void *v)
{
	struct blocked *b = v;

	if (!b)
		return;
	free(b->name);
	free(b->line);
	stack_unref(b->stack);
	free(b->what);
	free(b->fdline);
	free(b->extra);
	free(b->path);
	free(b->address);
	free(b->local);
	free(b->peer);
	free(b);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->threads, blocked_free);
	hmap_release(&s->server_fds, NULL);
	hmap_release(&s->ports, NULL);
	hmap_release(&s->reaped, NULL);
	hmap_release(&s->reap_unseen, NULL);
}

/* ---- what an fd is ---- */

/* The ends of an inet socket as its decoration showed them ("127.0.0.1:
 * 5000"), which tell the two ends of one connection (find_deadlocks) and a
 * listening port; nothing for a decoration that shows no address. */
static void shown_ends(const struct rc_fdfacts *h, char **local, int *local_port, char **peer)
{
	if (!h || h->kind != RC_FD_SOCKET || (h->family != AF_INET && h->family != AF_INET6) || !h->local.family)
		return;
	*local = rule_addr_format(h->local.family, h->local.host, h->local.port, false);
	*local_port = h->local.port;
	if (h->peer.family)
		*peer = rule_addr_format(h->peer.family, h->peer.host, h->peer.port, false);
}

/* Describe E's fd into B: the summary's words, the evidence line, the
 * path or peer; *FI is what the fd is, and false when that is unknown. */
static bool describe_fd(struct state *s, struct blocked *b, const struct rc_event *e, const struct rc_ctx *ctx,
			struct rc_fdinfo *fi)
{
	struct strbuf sb = STRBUF_INIT;

	if (!procs_fd_info(ctx->procs, e, e->fd, fi)) {
		strbuf_addf(&sb, "fd %d%s", e->fd, e->fd == 0 ? " (stdin)" : "");
		b->what = strbuf_detach(&sb);
		return false;
	}
	const struct rc_fdfacts *shown = procs_fd_shown(ctx->procs, e, e->fd);
	char *peer = fi->kind == RC_FD_SOCKET ? rule_socket_peer(e, e->fd, fi) : NULL;
	strbuf_addf(&sb, "fd %d (", e->fd);
	rule_fd_words(&sb, fi, shown, peer);
	strbuf_addc(&sb, ')');
	b->what = strbuf_detach(&sb);

	strbuf_addf(&sb, "fd %d is ", e->fd);
	rule_fd_words(&sb, fi, shown, peer);
	if (fi->f && fi->f->connect_line)
		strbuf_addf(&sb, ", connected by: %s", fi->f->connect_line);
	b->fdline = strbuf_detach(&sb);

	if (fi->kind == RC_FD_FILE && fi->path)
		b->path = xstrdup(fi->path);
	if (fi->kind == RC_FD_SOCKET) {
		b->address = peer;
		peer = NULL;
		shown_ends(shown, &b->local, &b->local_port, &b->peer);
		b->server = rule_set_has(&s->server_fds, rule_pair_key(b->group, e->fd));
	}
	free(peer);
	return true;
}

/* ---- which call ---- */

/* Calls a thread is never stuck in: it leaves (exit), becomes another
 * program (exec), returns from a handler, or makes a process and goes on
 * (vfork is apart: its caller waits for the child). */
static bool ignored(long nr)
{
	return syscall_is(nr, CL_EXIT | CL_EXEC | CL_SIGRETURN | CL_FORK) && !syscall_is(nr, CL_FORK_WAITS);
}


/* A device file, not a file on the tmpfs /dev holds (POSIX shared
 * memory, message queues): a read there waits for the device (a serial
 * line, a sensor, /dev/random short of entropy at boot). */
static bool device_path(const char *path)
{
	return path && strncmp(path, "/dev/", 5) == 0 && strncmp(path, "/dev/shm/", 9) != 0 &&
	       strncmp(path, "/dev/mqueue/", 12) != 0;
}

static enum kind classify_read(struct state *s, struct blocked *b, const struct rc_event *e,
			       const struct rc_ctx *ctx)
{
	struct rc_fdinfo fi;

	if (!describe_fd(s, b, e, ctx, &fi)) {
		/* recv* reads nothing but sockets, whatever made the fd
		 * before an excerpt began. */
		if (e->nr == SYS_recvfrom || e->nr == SYS_recvmsg || e->nr == SYS_recvmmsg)
			return K_SOCK_READ;
		return e->fd == 0 ? K_INPUT : K_OTHER;
	}
	switch (fi.kind) {
	case RC_FD_SOCKET:
		return K_SOCK_READ;
	case RC_FD_PIPE:
		return K_PIPE_READ;
	case RC_FD_FILE:
		if (rule_terminal_path(fi.path))
			return K_INPUT;
		if (device_path(fi.path))
			return K_DEVICE_READ;
		return K_FILE_IO;
	default:
		return K_EVENT;
	}
}

static enum kind classify_write(struct state *s, struct blocked *b, const struct rc_event *e,
				const struct rc_ctx *ctx)
{
	struct rc_fdinfo fi;

	if (!describe_fd(s, b, e, ctx, &fi))
		return K_OTHER;
	switch (fi.kind) {
	case RC_FD_SOCKET:
		return K_SOCK_WRITE;
	case RC_FD_PIPE:
		return K_PIPE_WRITE;
	case RC_FD_FILE:
		return rule_terminal_path(fi.path) ? K_OTHER : K_FILE_IO;
	default:
		return K_OTHER;
	}
}

/* poll/select: the fds waited on, and the first socket among them that
 * connected out to a peer (a client waiting for an answer). */
static enum kind classify_poll(struct state *s, struct blocked *b, const struct rc_event *e,
			       const struct rc_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;

	/* No fds: Python's time.sleep on older versions, usleep in old code. */
	if (e->nfds == 0)
		return K_SLEEP;
	strbuf_adds(&sb, e->nfds == 1 ? "fd " : "fds ");
	for (int i = 0; i < e->nfds && i < RC_EVENT_MAX_FDS; i++) {
		strbuf_addf(&sb, "%s%d", i ? ", " : "", e->fds[i]);
		struct rc_fdinfo fi;
		if (b->address || !procs_fd_info(ctx->procs, e, e->fds[i], &fi) || fi.kind != RC_FD_SOCKET ||
		    rule_set_has(&s->server_fds, rule_pair_key(b->group, e->fds[i])))
			continue;
		b->address = rule_socket_peer(e, e->fds[i], &fi);
		if (b->address) {
			struct strbuf l = STRBUF_INIT;
			strbuf_addf(&l, "fd %d is ", e->fds[i]);
			rule_fd_words(&l, &fi, procs_fd_shown(ctx->procs, e, e->fds[i]), b->address);
			b->fdline = strbuf_detach(&l);
		}
	}
	if (e->timeout_ms >= 0)
		strbuf_addf(&sb, " (timeout %lld ms)", e->timeout_ms);
	else
		strbuf_adds(&sb, " (no timeout)");
	b->what = strbuf_detach(&sb);
	return K_POLL;
}

/* The children of B's process still running, as wait4 waits for them. */
static void children_text(struct blocked *b, const struct rc_ctx *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	struct hmap_iter it;
	int n = 0;

	for (struct hmap_node *node = hmap_first(&ctx->procs->procs, &it); node;
	     node = hmap_next(&ctx->procs->procs, &it)) {
		const struct rc_proc *c = node->value;
		if (c->is_thread || c->ended || !c->has_parent || rule_leader(ctx, c->ppid) != b->pid)
			continue;
		if (n < 3) {
			strbuf_addf(&sb, "%spid %d", n ? ", " : "", c->pid);
			if (c->argc > 0 && c->argv[0])
				strbuf_addf(&sb, " '%s'", c->argv[0]);
		}
		n++;
	}
	if (n > 3)
		strbuf_addf(&sb, " and %d more", n - 3);
	if (n)
		b->extra = strbuf_detach(&sb);
	strbuf_release(&sb);
}

static enum kind classify(struct state *s, struct blocked *b, const struct rc_event *e,
			  const struct rc_ctx *ctx)
{
	long nr = e->nr;
	unsigned long long cl = syscall_classes(nr);
	struct rc_fdinfo fi;

	if ((cl & CL_READ) && e->fd >= 0)
		return classify_read(s, b, e, ctx);
	if ((cl & CL_WRITE) && e->fd >= 0)
		return classify_write(s, b, e, ctx);
	if (cl & CL_POLL)
		return classify_poll(s, b, e, ctx);
	if (cl & CL_EPOLL) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "epoll fd %d ", e->fd);
		if (e->timeout_ms >= 0)
			strbuf_addf(&sb, "(timeout %lld ms)", e->timeout_ms);
		else
			strbuf_adds(&sb, "(no timeout)");
		b->what = strbuf_detach(&sb);
		return K_EPOLL;
	}
	if (cl & CL_FUTEX) {
		if (!event_futex_waits(e))
			return K_OTHER;
		struct strbuf sb = STRBUF_INIT;
		b->futex = e->addr;
		strbuf_addf(&sb, "0x%llx", (unsigned long long)e->addr);
		if (e->timeout_ms >= 0)
			strbuf_addf(&sb, " (timeout %lld ms)", e->timeout_ms);
		b->what = strbuf_detach(&sb);
		return e->timeout_ms >= 0 ? K_FUTEX_TIMED : K_FUTEX;
	}
	if (cl & CL_ACCEPT) {
		describe_fd(s, b, e, ctx, &fi);
		return K_ACCEPT;
	}
	if (cl & CL_SLEEP)
		return K_SLEEP;
	if (cl & CL_SIGWAIT)
		return K_SIGWAIT;
	if (cl & CL_WAIT_CHILD) {
		children_text(b, ctx);
		return K_CHILD;
	}
	if (cl & CL_FORK_WAITS)
		return K_VFORK;
	/* sync and msync flush storage at large, syncfs its fd's file system. */
	if (cl & CL_FLUSH) {
		if (e->fd >= 0)
			describe_fd(s, b, e, ctx, &fi);
		return K_FILE_IO;
	}
	/* The calls left each wait for something of their own. */
	switch (nr) {
	case SYS_connect: {
		describe_fd(s, b, e, ctx, &fi);
		if (e->sa.host && (e->sa.family == AF_INET || e->sa.family == AF_INET6 ||
				   e->sa.family == AF_UNIX)) {
			free(b->address);
			b->address = rule_addr_format(e->sa.family, e->sa.host, e->sa.port, e->sa.abstract);
		}
		return K_CONNECT;
	}
	case SYS_ioctl:
		describe_fd(s, b, e, ctx, &fi);
		return K_DEVICE;
	case SYS_flock:
	case SYS_fcntl:
		describe_fd(s, b, e, ctx, &fi);
		return K_FILE_LOCK;
	case SYS_restart_syscall:
		return K_RESTART;
	case SYS_getrandom:
		/* It blocks only until the pool is ready, once a boot. */
		return K_ENTROPY;
	default:
		break;
	}
	if ((cl & CL_FD_STORAGE) && e->fd >= 0)
		return describe_fd(s, b, e, ctx, &fi) && fi.kind == RC_FD_FILE ? K_FILE_IO : K_OTHER;
	if (e->path && e->path[0]) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "'%s'", e->path);
		b->what = strbuf_detach(&sb);
		b->path = xstrdup(e->path);
		return K_PATH;
	}
	if (e->fd >= 0)
		describe_fd(s, b, e, ctx, &fi);
	return K_OTHER;
}

/* ---- the trace ---- */

/* Remember the sockets a server accepted and the ports it listens on, so
 * that a server waiting for its clients is not taken for a stall. */
static void track_server(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	int group = rule_group(ctx, e->pid);

	bool accept = syscall_is(e->nr, CL_ACCEPT);

	if (e->nr == SYS_close) {
		if (s->server_fds.count && e->fd >= 0)
			hmap_del_int(&s->server_fds, rule_pair_key(group, e->fd));
		return;
	}
	if (accept || e->nr == SYS_listen) {
		if (accept && e->ret_known && !e->err && e->ret >= 0 && e->ret <= 0x7fffffff)
			rule_set_add(&s->server_fds, rule_pair_key(group, (int)e->ret), SERVER_FDS_MAX);
		/* The listening socket's -yy decoration has its port (and no
		 * peer), also for an accept the trace ended in. */
		char *local = NULL, *peer = NULL;
		int port = -1;
		shown_ends(procs_fd_shown(ctx->procs, e, e->fd), &local, &port, &peer);
		if (local && !peer && port > 0)
			rule_set_add(&s->ports, rule_pair_key(group, port), PORTS_MAX);
		free(local);
		free(peer);
		return;
	}
	if (e->nr == SYS_bind && e->ret_known && !e->err && e->sa.port > 0 &&
	    (e->sa.family == AF_INET || e->sa.family == AF_INET6))
		rule_set_add(&s->ports, rule_pair_key(group, e->sa.port), PORTS_MAX);
}

static void record(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
		   const struct rc_proc *p)
{
	void **slot = hmap_get_int(&s->threads, e->pid);

	if (!slot && s->threads.count >= BLOCKED_MAX) {
		s->dropped++;
		return;
	}
	/* One call per thread: a later one replaces it. */
	if (slot)
		blocked_free(*slot);
	else
		slot = hmap_put_int(&s->threads, e->pid, NULL);
	struct blocked *b = xcalloc(1, sizeof(*b));
	*slot = b;

	b->tid = e->pid;
	b->pid = rule_leader(ctx, e->pid);
	b->group = rule_group(ctx, e->pid);
	b->seq = e->seq;
	b->ts = e->ts;
	b->local_port = -1;
	b->timeout_ms = e->timeout_ms;
	b->name = xstrdup(e->name ? e->name : "?");
	b->line = rule_line_short(e);
	b->stack = stack_ref(e->stack);
	b->owner = e->futex_owner;
	b->detached = e->detached;
	if (e->dur >= 0) {
		b->dur = e->dur;
		b->exact = true;
	} else if (e->ts >= 0 && ctx->max_ts >= e->ts) {
		/* Not ctx->last_ts: the calls a log flushes at its end carry
		 * their start times, older than the last line. */
		b->dur = ctx->max_ts - e->ts;
	} else {
		b->dur = -1;
	}
	/* The model has not seen this event yet: no call before it means the
	 * thread was inside this one all along. */
	b->whole = !p || p->nsyscalls == 0;
	b->kind = classify(s, b, e, ctx);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind != RC_EV_SYSCALL)
		return;
	if (e->nr == SYS_close || e->nr == SYS_listen || e->nr == SYS_bind || syscall_is(e->nr, CL_ACCEPT))
		track_server(s, e, ctx);
	if (e->nr == SYS_wait4 && e->ret > 0 && !e->blocked) {
		if (s->reaped.count < REAPED_MAX)
			*hmap_put_int(&s->reaped, e->ret, NULL) = (void *)1;
		else
			s->reaped_full = true;
	}
	if ((e->nr == SYS_waitid && e->ret == 0) ||
	    (e->nr == SYS_rt_sigaction && e->line && strstr(e->line, "SIGCHLD") &&
	     (strstr(e->line, "SIG_IGN") || strstr(e->line, "SA_NOCLDWAIT"))))
		*hmap_put_int(&s->reap_unseen, rule_leader(ctx, e->pid), NULL) = (void *)1;
	if (!e->blocked || ignored(e->nr))
		return;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	/* A thread that exited was not blocked at the end. */
	if (p && p->ended)
		return;
	record(s, e, ctx, p);
}

/* ---- findings ---- */

/* A wait4 for any child (or for one) that has not returned although
 * such a child of its process exited in the trace and no wait4 reaped
 * it: the kernel keeps an exited child until it is reaped, so the wait
 * should have returned it at once. The child's pid, or 0. */
static int lost_exit(const struct state *s, const struct blocked *b, const struct rc_ctx *ctx)
{
	const char *open = b->line && b->kind == K_CHILD ? strstr(b->line, "wait4(") : NULL;
	char *end;

	if (!open || s->reaped_full)
		return 0;
	long want = strtol(open + 6, &end, 10);
	if (end == open + 6 || (want <= 0 && want != -1) || strstr(end, "WNOHANG") ||
	    hmap_get_int(&s->reap_unseen, b->pid))
		return 0;
	struct hmap_iter it;
	for (struct hmap_node *node = hmap_first(&ctx->procs->procs, &it); node;
	     node = hmap_next(&ctx->procs->procs, &it)) {
		const struct rc_proc *c = node->value;
		if (c->is_thread || !c->ended || !c->has_parent || rule_leader(ctx, c->ppid) != b->pid ||
		    (want > 0 && c->pid != want) || hmap_get_int(&s->reaped, c->pid))
			continue;
		return c->pid;
	}
	return 0;
}

static bool long_enough(const struct blocked *b)
{
	return b->whole || b->dur < 0 || b->dur >= LONG_S;
}

/* The verdict, with everything the trace showed. */
static bool is_stall(const struct state *s, const struct blocked *b)
{
	switch (b->kind) {
	case K_SOCK_READ:
		if (b->deadlock_tid)
			return true;
		return !b->server && !(b->local_port > 0 && rule_set_has(&s->ports, rule_pair_key(b->group, b->local_port)));
	case K_SOCK_WRITE:
	case K_CONNECT:
	case K_PIPE_READ:
	case K_PIPE_WRITE:
	case K_INPUT:
	case K_FILE_IO:
	case K_PATH:
	case K_FILE_LOCK:
	case K_DEVICE:
	case K_DEVICE_READ:
	case K_ENTROPY:
	case K_OTHER:
		return true;
	case K_FUTEX:
		return !b->pool && !b->worker;
	case K_POLL:
		return b->address != NULL;
	default:
		return false;
	}
}

struct futex_key {
	int group;
	int pad;
	uint64_t addr;
};

static struct futex_key futex_key_of(const struct blocked *b)
{
	struct futex_key k;

	memset(&k, 0, sizeof(k));
	k.group = b->group;
	k.addr = b->futex;
	return k;
}

/* How deep into a stack a condition's wait is looked for: libc's own
 * frames come first (the futex call, then pthread_cond_wait's). */
#define COND_FRAMES 6

/* Whether stack S waits inside a condition variable's wait (glibc's
 * pthread_cond_wait, timedwait or clockwait, and C11's cnd_wait, which
 * calls it). */
static bool in_condition_wait(const struct rc_stack *s)
{
	for (size_t i = 0; s && i < s->nnative && i < COND_FRAMES; i++) {
		const char *fn = s->native[i].function;
		if (fn && (strncmp(fn, "pthread_cond_", 13) == 0 || strncmp(fn, "__pthread_cond_", 15) == 0 ||
			   strncmp(fn, "cnd_", 4) == 0))
			return true;
	}
	return false;
}

/* Mark the futex waits that a pool of threads shares, and those of a
 * worker on a condition variable of its own. V holds N struct blocked. */
static void find_pools(void **v, size_t n)
{
	struct hmap count = HMAP_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct blocked *b = v[i];
		if (b->kind != K_FUTEX && b->kind != K_FUTEX_TIMED)
			continue;
		struct futex_key k = futex_key_of(b);
		void **slot = hmap_put(&count, &k, sizeof(k), NULL);
		*slot = (void *)((uintptr_t)*slot + 1);
	}
	for (size_t i = 0; i < n && count.count; i++) {
		struct blocked *b = v[i];
		if (b->kind != K_FUTEX && b->kind != K_FUTEX_TIMED)
			continue;
		struct futex_key k = futex_key_of(b);
		uintptr_t c = (uintptr_t)*hmap_get(&count, &k, sizeof(k));
		b->pool_size = (int)c;
		b->pool = c >= POOL_MIN;
		b->worker = b->kind == K_FUTEX && b->tid != b->pid && in_condition_wait(b->stack);
	}
	hmap_release(&count, NULL);
}

/* Both ends of one connection blocked reading: each waits for the other.
 * The ends are known from -yy's decorations. */
static void find_deadlocks(void **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct blocked *a = v[i];
		if (a->kind != K_SOCK_READ || !a->local || !a->peer)
			continue;
		for (size_t j = i + 1; j < n; j++) {
			struct blocked *b = v[j];
			if (b->kind == K_SOCK_READ && b->local && b->peer && strcmp(a->local, b->peer) == 0 &&
			    strcmp(a->peer, b->local) == 0) {
				a->deadlock_tid = b->tid;
				b->deadlock_tid = a->tid;
			}
		}
	}
}

/* Threads waiting for mutexes, each held by the next, round to the first:
 * a deadlock no thread of them can end. Followed at most MUTEX_CHAIN
 * owners. */
#define MUTEX_CHAIN 16

static const struct blocked *waiting_thread(void **v, size_t n, int group, int tid)
{
	for (size_t i = 0; i < n; i++) {
		const struct blocked *o = v[i];
		if (o->tid == tid && o->group == group)
			return o;
	}
	return NULL;
}

static void find_mutex_cycles(void **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct blocked *a = v[i];
		const struct blocked *o = a;
		for (int k = 0; k < MUTEX_CHAIN && o && o->kind == K_FUTEX && o->owner; k++) {
			o = waiting_thread(v, n, a->group, o->owner);
			if (o == a) {
				a->mutex_cycle = true;
				break;
			}
		}
	}
}

/* How long B was blocked, for ordering: without any time, a thread that
 * was blocked all through the trace before one caught later. */
static double sort_dur(const struct blocked *b)
{
	if (b->dur >= 0)
		return b->dur;
	return b->whole ? 1e12 : -1;
}

static int cmp_blocked(const void *x, const void *y)
{
	const struct blocked *a = *(void *const *)x, *b = *(void *const *)y;
	bool la = a->stall && long_enough(a), lb = b->stall && long_enough(b);

	if (la != lb)
		return la ? -1 : 1;
	/* A lock wait is most often the consequence of what the holder
	 * waits for: the other stalls first. */
	bool fa = a->kind == K_FUTEX, fb = b->kind == K_FUTEX;
	if (la && fa != fb)
		return fa ? 1 : -1;
	double da = sort_dur(a), db = sort_dur(b);
	if (da != db)
		return da > db ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static const char *verb(const struct blocked *b)
{
	if (b->stall)
		return "blocked";
	switch (b->kind) {
	case K_SLEEP:
	case K_RESTART:
		return "sleeping";
	case K_CHILD:
	case K_SIGWAIT:
	case K_VFORK:
	case K_FUTEX_TIMED:
		return "waiting";
	default:
		return "idle";
	}
}

/* What the call waits for, after the colon. */
static void add_gist(struct strbuf *sb, const struct blocked *b)
{
	switch (b->kind) {
	case K_SOCK_READ:
		if (b->deadlock_tid)
			strbuf_addf(sb, "waiting for data from %s, whose thread %d is itself blocked reading from "
				    "this one", b->address ? b->address : "the peer", b->deadlock_tid);
		else if (!b->stall)
			strbuf_addf(sb, "a server waiting for its client%s%s to send", b->address ? " " : "",
				    b->address ? b->address : "");
		else
			strbuf_addf(sb, "waiting for data from %s", b->address ? b->address : "the peer");
		break;
	case K_SOCK_WRITE:
		strbuf_addf(sb, "%s is not reading what is sent", b->address ? b->address : "the peer");
		break;
	case K_CONNECT:
		strbuf_addf(sb, "connecting to %s", b->address ? b->address : "the peer");
		break;
	case K_ACCEPT:
		strbuf_adds(sb, "a server waiting for clients");
		break;
	case K_PIPE_READ:
		strbuf_adds(sb, "nothing is written to the pipe");
		break;
	case K_PIPE_WRITE:
		strbuf_adds(sb, "the pipe is full and its reader is not reading");
		break;
	case K_INPUT:
		strbuf_adds(sb, "waiting for input");
		break;
	case K_FILE_IO:
		strbuf_adds(sb, "the I/O has not completed");
		break;
	case K_PATH:
		strbuf_adds(sb, "the file system has not answered");
		break;
	case K_FILE_LOCK:
		strbuf_adds(sb, "waiting for a file lock");
		break;
	case K_DEVICE:
		strbuf_adds(sb, "waiting for the device");
		break;
	case K_DEVICE_READ:
		strbuf_adds(sb, "the device has had nothing to give");
		break;
	case K_ENTROPY:
		strbuf_adds(sb, "the kernel's random pool is not ready yet (early in boot)");
		break;
	case K_FUTEX:
		if (b->pool)
			strbuf_addf(sb, "one of %d threads parked on this futex, a pool's idle workers",
				    b->pool_size);
		else if (b->worker)
			strbuf_adds(sb, "a worker thread parked on a condition variable (pthread_cond_wait), "
				    "waiting for work");
		else if (b->mutex_cycle)
			strbuf_addf(sb, "waiting for a mutex thread %d holds, which waits in turn, through the "
				    "mutexes held, for one this thread holds: a deadlock", b->owner);
		else if (b->owner)
			strbuf_addf(sb, "waiting for a mutex thread %d holds", b->owner);
		else
			strbuf_adds(sb, "waiting for a lock or a condition");
		break;
	case K_FUTEX_TIMED:
		strbuf_adds(sb, "a timed wait");
		break;
	case K_POLL:
		if (b->address)
			strbuf_addf(sb, "waiting for %s", b->address);
		else
			strbuf_adds(sb, "waiting for events");
		break;
	case K_EPOLL:
		strbuf_adds(sb, "an event loop waiting for events");
		break;
	case K_SLEEP:
		strbuf_adds(sb, "a deliberate sleep");
		break;
	case K_RESTART:
		strbuf_adds(sb, "a sleep or timed wait that was in progress when tracing began, restarted");
		break;
	case K_SIGWAIT:
		strbuf_adds(sb, "no signal has come");
		break;
	case K_CHILD:
		if (b->lost_child)
			strbuf_addf(sb, "its child pid %d exited and was never reaped, yet the wait has not returned it",
				    b->lost_child);
		else if (b->extra)
			strbuf_addf(sb, "its child has not exited (running: %s)", b->extra);
		else
			strbuf_adds(sb, "no child has exited");
		break;
	case K_EVENT:
		strbuf_adds(sb, "waiting for an event or a timer");
		break;
	case K_VFORK:
		strbuf_adds(sb, "its vfork child has not run a program or exited yet");
		break;
	case K_OTHER:
		break;
	}
}

static void add_advice(struct rc_finding *f, const struct blocked *b)
{
	const char *peer = b->address ? b->address : "the peer";

	switch (b->kind) {
	case K_SOCK_READ:
		if (b->deadlock_tid)
			finding_setf(&f->advice, "both ends of the connection wait for the other to send "
				     "first: a protocol mismatch (a request not sent whole or not flushed, a "
				     "missing newline or length)");
		else if (b->stall)
			finding_setf(&f->advice, "%s has sent nothing: check that it is up and answering "
				     "(its own logs, `ss -tnp`), and give the read a timeout", peer);
		else
			finding_set(&f->advice, "a server waiting for a client's next request is idle, not "
				    "stuck");
		break;
	case K_SOCK_WRITE:
		finding_setf(&f->advice, "%s does not read what this thread sends, so its buffers are full: "
			     "check that it is alive and consuming, and give the write a timeout", peer);
		break;
	case K_CONNECT:
		finding_setf(&f->advice, "%s does not answer the connection attempt (a host down, a "
			     "firewall dropping packets): check that it is reachable and use a connect "
			     "timeout", peer);
		break;
	case K_PIPE_READ:
		finding_set(&f->advice, "the process at the other end of the pipe neither writes nor closes "
			    "it: check that process (a child that is stuck), and that no process, this one "
			    "included, keeps a write end open it does not use, which keeps end-of-file from "
			    "arriving");
		break;
	case K_PIPE_WRITE:
		finding_set(&f->advice, "the process reading the pipe has stopped reading: check that "
			    "process");
		break;
	case K_INPUT:
		finding_set(&f->advice, "the program waits for someone to type (a prompt, a password, a "
			    "confirmation): answer it, or run it with its input given (< /dev/null, a "
			    "--yes or non-interactive option)");
		break;
	case K_FILE_IO:
	case K_PATH:
		finding_set(&f->advice, "the file system does not answer: a network mount (NFS, SMB, "
			    "FUSE) that hangs or a failing disk (check `dmesg` and `mount`), or a FIFO "
			    "with nobody at the other end");
		break;
	case K_FILE_LOCK:
		finding_set(&f->advice, "another process holds the lock: find it in /proc/locks or with "
			    "`lsof` on the file");
		break;
	case K_DEVICE:
		finding_set(&f->advice, "the driver has not finished the request (a GPU busy or hung): check "
			    "the device (nvidia-smi, dmesg)");
		break;
	case K_DEVICE_READ:
		finding_setf(&f->advice, "nothing came from %s: check that the device is connected and powered "
			     "and that what is on the other end answers (a serial line: its speed and settings, "
			     "stty -F %s; the device's messages in dmesg), and give the read a timeout (poll, "
			     "or VMIN/VTIME on a serial line)", b->path ? b->path : "the device",
			     b->path ? b->path : "DEVICE");
		break;
	case K_ENTROPY:
		finding_set(&f->advice, "getrandom waits until the kernel has gathered enough entropy, once a "
			    "boot: early in a boot without a hardware random source (a VM, an embedded board) "
			    "that can take minutes; give the VM a virtio-rng device or run rngd or haveged, or "
			    "boot with random.trust_cpu=on; code that may use weaker randomness at start asks "
			    "with GRND_NONBLOCK");
		break;
	case K_FUTEX:
		if (b->pool)
			finding_set(&f->advice, "threads parked together on one futex are usually a pool "
				    "waiting for work: not a problem by itself");
		else if (b->worker)
			finding_set(&f->advice, "a thread parked on a condition variable waits to be signalled, "
				    "as a worker waits for its next job: not a problem by itself, unless work "
				    "was queued for it and it was not woken");
		else if (b->mutex_cycle)
			finding_set(&f->advice, "the threads take the same mutexes in different orders: take "
				    "them in one order everywhere (or together, std::scoped_lock), or hold one "
				    "at a time; the stacks above say where each waits");
		else if (b->owner)
			finding_setf(&f->advice, "thread %d holds the mutex and has not let it go: what it "
				     "does meanwhile (its stack, above when it is blocked too) is the cause",
				     b->owner);
		else if (b->stack && !b->stack->missing)
			finding_set(&f->advice, "another thread holds the lock or has not signalled the "
				    "condition: the line above is where this one waits; when the holder is one "
				    "of the threads blocked meanwhile, its wait (and where it is, in its own "
				    "finding) is the cause");
		else
			finding_setf(&f->advice, "another thread holds the lock or has not signalled the "
				     "condition: find which one (`rootcause stack %d` shows every thread's "
				     "stack, Python's too); when it is one of the threads blocked meanwhile, "
				     "that thread's wait is the cause", b->pid);
		break;
	case K_POLL:
		if (b->address)
			finding_setf(&f->advice, "%s has not answered: check that it is up and answering, "
				     "and give the wait a timeout", peer);
		else
			finding_set(&f->advice, "waiting for events on its fds: idle, unless one of them "
				    "should have had data by now");
		break;
	case K_CHILD:
		if (b->lost_child)
			finding_setf(&f->advice, "an exited child stays until it is reaped, so this wait should have "
				     "returned pid %d at once: its exit was lost, by a handler or thread that reaped "
				     "it unseen, or by the kernel or an emulation of it (WSL 1, gVisor, a sandbox)",
				     b->lost_child);
		else
			finding_set(&f->advice, "the parent waits for its child: the child's own calls show why it "
				    "has not exited");
		break;
	case K_OTHER:
		finding_setf(&f->advice, "see what the call waits for: /proc/%d/task/%d/wchan names the "
			     "kernel function it sleeps in", b->pid, b->tid);
		break;
	case K_ACCEPT:
		finding_set(&f->advice, "a server waiting for clients is idle, not stuck");
		break;
	case K_EPOLL:
		finding_set(&f->advice, "an event loop waiting for events is idle; it is stuck only when "
			    "an answer it waits for should have come by now");
		break;
	case K_SLEEP:
	case K_RESTART:
		finding_set(&f->advice, "a sleep ends by itself; a long one on the path of a request is a "
			    "delay of the program's own making");
		break;
	default:
		finding_set(&f->advice, "idle by design (a timer, a signal, a pool waiting for work): not "
			    "a stall by itself");
		break;
	}
}

/* Other threads of B's process blocked in a likely stall, one of which may
 * hold the lock B waits for. */
static void add_meanwhile(struct rc_finding *f, const struct blocked *b, void **v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	int k = 0;

	for (size_t i = 0; i < n && k < MEANWHILE_MAX; i++) {
		const struct blocked *o = v[i];
		if (o == b || o->group != b->group || !o->stall || (o->kind == K_FUTEX && o->futex == b->futex))
			continue;
		strbuf_addf(&sb, "%sthread %d in %s", k ? ", " : "", o->tid, o->name);
		if (o->what)
			strbuf_addf(&sb, " on %s", o->what);
		k++;
	}
	if (k)
		finding_setf(&f->message, "other threads blocked meanwhile: %s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* B waits for a mutex that thread B->owner holds: name it, with its own
 * stack when it is blocked too (in what, its own finding says). */
static void hold_by(struct rc_finding *f, const struct blocked *b, void **v, size_t n)
{
	const struct blocked *o = waiting_thread(v, n, b->group, b->owner);

	f->holder_tid = b->owner;
	if (o)
		f->holder_stack = stack_ref(o->stack);
}

/* A short log that ends in B's call, which never returned, and whose
 * process did not end: lines pasted around a hang end in the call that
 * hangs, and that is why they were pasted. A detach (strace stopped by
 * hand in the middle of a busy program) is no such end. */
static bool excerpt_ends_in(const struct blocked *b, const struct rc_ctx *ctx)
{
	const struct rc_proc *p = procs_leader(ctx->procs, b->tid);

	return !b->exact && !b->detached && b->dur == 0 && ctx->nevents <= EXCERPT_EVENTS && !(p && p->ended);
}

static void report(const struct blocked *b, void **v, size_t n, uint64_t seq, const struct rc_ctx *ctx,
		   struct rc_findings *out)
{
	bool stall = b->stall && (long_enough(b) || excerpt_ends_in(b, ctx));
	struct strbuf sb = STRBUF_INIT, gist = STRBUF_INIT;

	/* A log without pids names no thread. */
	if (b->tid)
		strbuf_addf(&sb, "thread %d %s", b->tid, verb(b));
	else
		strbuf_addf(&sb, "the traced process %s", verb(b));
	if (b->exact && b->dur >= 0) {
		strbuf_adds(&sb, " for ");
		strbuf_add_seconds(&sb, b->dur);
	} else if (b->whole) {
		/* The log's clock gives a lower bound; the thread did nothing
		 * else, so it was inside the call from the start. */
		if (b->dur >= 0.1) {
			strbuf_adds(&sb, " for at least ");
			strbuf_add_seconds(&sb, b->dur);
			strbuf_addc(&sb, ',');
		}
		strbuf_adds(&sb, " all through the trace");
	} else if (b->dur >= 0.1) {
		strbuf_adds(&sb, " for at least ");
		strbuf_add_seconds(&sb, b->dur);
	}
	strbuf_addf(&sb, " in %s", b->name);
	if (b->what)
		strbuf_addf(&sb, " on %s", b->what);
	add_gist(&gist, b);
	if (gist.len)
		strbuf_addf(&sb, ": %s", strbuf_str(&gist));
	strbuf_release(&gist);
	/* A busy thread caught in the middle of a call. */
	if (b->stall && !stall)
		strbuf_adds(&sb, b->exact ? " (inside it only briefly: likely still working)" :
			    " (the log ends soon after it began: it may still have been working)");

	enum rc_severity sev = stall ? RC_SEV_WARNING : RC_SEV_INFO;
	struct rc_finding *f = rule_finding(out, RULE_ID, sev, sev, &sb);
	rule_finding_pid(f, b->pid, b->tid);
	finding_set(&f->syscall, b->name);
	finding_set(&f->path, b->path);
	finding_set(&f->address, b->address);
	/* What the summary states: a log's bound of a few milliseconds says
	 * nothing of how long the thread stayed. */
	if (b->dur >= 0 && (b->exact || b->dur >= 0.1))
		f->duration_s = b->dur;
	/* SEQ is its place in the ranking, not its event's: the stack is
	 * the rule's to give. */
	f->seq = seq;
	f->ts = b->ts;
	f->stack = stack_ref(b->stack);
	if (b->kind == K_FUTEX && b->owner)
		hold_by(f, b, v, n);
	/* Nothing ended the wait: a stall ranks with the failures nothing
	 * recovered from. */
	f->unrecovered = stall;
	rule_evidence(f, b->line);
	rule_evidence(f, b->fdline);
	add_advice(f, b);
	/* A file lock's holder, which the trace may not follow: /proc/locks. */
	if (b->kind == K_FILE_LOCK && b->path) {
		struct strbuf cmd = STRBUF_INIT;
		int h = lookup_lock_holder(ctx->lookup, b->pid, b->path, &cmd);
		if (h > 0) {
			f->holder_pid = h;
			finding_setf(&f->advice, "process %d%s%.60s%s holds the lock on '%s' (where it is, above): "
				     "a lock dies with its holder, so wait for it, or stop it if it is a stale or "
				     "second instance of the program", h, cmd.len ? " '" : "", cmd.buf ? cmd.buf : "",
				     cmd.len ? "'" : "", b->path);
		}
		strbuf_release(&cmd);
	}
	if (b->kind == K_FUTEX && stall)
		add_meanwhile(f, b, v, n);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	size_t n;
	void **v = rule_values(&s->threads, NULL, NULL, &n);

	find_pools(v, n);
	find_deadlocks(v, n);
	find_mutex_cycles(v, n);
	for (size_t i = 0; i < n; i++) {
		struct blocked *b = v[i];
		b->lost_child = lost_exit(s, b, ctx);
		b->stall = is_stall(s, b) || b->lost_child;
	}
	qsort(v, n, sizeof(*v), cmp_blocked);
	size_t shown = MIN(n, (size_t)SHOWN_MAX);
	/* The ranking breaks ties by lateness, and a log flushes its blocked
	 * calls oldest first, the longest blocked earliest: each finding takes
	 * the place of the latest of them, less its rank here, so that they
	 * keep this order. */
	uint64_t last = 0;
	for (size_t i = 0; i < shown; i++) {
		const struct blocked *b = v[i];
		last = MAX(last, b->seq);
	}
	for (size_t i = 0; i < shown; i++)
		report(v[i], v, n, last > i ? last - i : 1, ctx, out);
	long long rest = (long long)(n - shown + s->dropped);
	if (shown && rest > 0) {
		struct rc_finding *f = out->v[out->count - 1];
		if (f->message)
			finding_setf(&f->message, "%s; %lld more blocked threads not listed", f->message, rest);
		else
			finding_setf(&f->message, "%lld more blocked threads not listed", rest);
	}
	free(v);
}

/* The calls track_server() reads, the reaps and SIGCHLD's disposition
 * that lost_exit() reads; and every blocked call. */
static const long reads_calls[] = { SYS_close, SYS_accept, SYS_accept4, SYS_listen, SYS_bind,
				    SYS_wait4, SYS_waitid, SYS_rt_sigaction, -1 };

const struct rc_rule_ops rc_rule_blocked_thread_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_BLOCKED, .classes = CL_ACCEPT, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
