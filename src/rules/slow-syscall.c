/* slow-syscall: system calls that took long, grouped by what they waited
 * for: the network (a peer this program connected to), the disk (regular
 * files and file-system calls), a file lock (flock, fcntl, semop), a
 * deliberate sleep (nanosleep, clock_nanosleep, poll/select without fds:
 * Python's time.sleep), or something else (an ioctl on a GPU device, a
 * write to a pipe).
 *
 * One finding per kind, when a call of that kind took SLOW_CALL_S or more,
 * or when one thread spent a large share of the traced time in calls of
 * that kind that are each quick but add up. The finding gives the count,
 * the total time, the longest call and the five longest lines.
 *
 * Durations come from strace -T (E->dur); without them the rule says
 * nothing rather than guess from gaps between timestamps, which also hold
 * the program's own computing.
 *
 * Deliberately left out:
 *  - futex: lock-wait analyses those waits (idle pools versus contention);
 *  - waits that are a program idling by design: wait4/waitid (a parent
 *    waiting for its child, whose own calls show the slowness), pause and
 *    signal waits, accept (a server waiting for clients), reads on a
 *    terminal or stdin, on a pipe (waiting for another process) or on an
 *    eventfd/timerfd, the open of a FIFO (its other end), a server
 *    reading from or polling the connections it accepted, and
 *    poll/select/epoll waits that ended by their own timeout
 *    (a timer the program chose; connect-timeout covers connections that
 *    time out);
 *  - calls that never returned (still blocked when tracing stopped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/sites.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* A single call of a second or more is a stall a user notices. */
#define SLOW_CALL_S RC_EVENT_SLOW_S
/* Quick calls that add up: a kind is also reported when one thread spent
 * this share of the traced wall time in it, and at least SHARE_MIN_S (a
 * short trace made of a few file reads is not slow). One thread, because
 * fifty workers each sleeping a little slow nothing down. A healthy
 * `import torch` spends about 13% of its time in file-system calls under
 * strace. */
#define SHARE_MIN 0.25
#define SHARE_MIN_S 1.0
/* Threads whose time is kept per kind. */
#define THREADS_MAX 4096
/* Evidence lines per finding. */
#define TOP_N 5
/* Sockets a server accepted or listens on, remembered to tell a server
 * idling on its clients from a client waiting on a remote peer. */
#define SERVER_FDS_MAX 4096

enum kind {
	K_NETWORK,
	K_DISK,
	K_LOCK,
	K_SLEEP,
	K_OTHER,
	K_COUNT,
	K_SKIP = -1,
};

struct top {
	double dur;
	double ts;
	uint64_t seq;
	int pid;
	char *name;
	char *line;
	char *path;		/* file or device the call was on */
	char *address;		/* peer of the socket it waited on */
	bool outgoing;		/* connect or send: "to" the address */
};

struct kind_stat {
	uint64_t count;		/* every call of this kind with a duration */
	double total;
	struct hmap per_thread;	/* tid -> struct rule_thread_time */
	uint64_t nslow;		/* calls of SLOW_CALL_S or more */
	double slow_total;
	struct top top[TOP_N];	/* longest first */
	int ntop;
	struct site_tally sites;	/* where the slow calls were made */
};

struct state {
	struct kind_stat k[K_COUNT];
	struct hmap server_fds;	/* struct fdkey -> (void *)1 */
	struct strbuf scratch;
};

struct fdkey {
	int pid;		/* rule_group(): threads share fds */
	int fd;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->server_fds);
	strbuf_init(&s->scratch);
	for (int k = 0; k < K_COUNT; k++)
		hmap_init(&s->k[k].per_thread);
}

static void top_free(void *entry)
{
	struct top *t = entry;

	free(t->name);
	free(t->line);
	free(t->path);
	free(t->address);
	memset(t, 0, sizeof(*t));
}

static void release(void *st)
{
	struct state *s = st;

	for (int k = 0; k < K_COUNT; k++) {
		for (int i = 0; i < s->k[k].ntop; i++)
			top_free(&s->k[k].top[i]);
		site_tally_release(&s->k[k].sites);
		hmap_release(&s->k[k].per_thread, free);
	}
	hmap_release(&s->server_fds, NULL);
	strbuf_release(&s->scratch);
}

static struct fdkey fdkey_make(const struct rc_ctx *ctx, int pid, int fd)
{
	struct fdkey k;

	memset(&k, 0, sizeof(k));
	k.pid = rule_group(ctx, pid);
	k.fd = fd;
	return k;
}

static bool is_server_fd(const struct state *s, const struct rc_ctx *ctx, int pid, int fd)
{
	struct fdkey k = fdkey_make(ctx, pid, fd);
	return s->server_fds.count && hmap_get(&s->server_fds, &k, sizeof(k));
}

/* Pseudo and device files are not storage. */
static bool storage_path(const char *path)
{
	return path && path[0] == '/' && !fp_pseudo(path) && strcmp(path, "/proc") != 0 &&
	       strcmp(path, "/sys") != 0 && strcmp(path, "/dev") != 0;
}

/* A socket whose far end we connected to (a remote peer we wait on), as
 * opposed to one a server accepted or listens on. */
static bool client_socket(const struct state *s, const struct rc_ctx *ctx, const struct rc_event *e,
			  const struct rc_fdinfo *fi, int fd)
{
	if (fi->kind != RC_FD_SOCKET || is_server_fd(s, ctx, e->pid, fd))
		return false;
	return fi->f && (fi->f->peer_host || fi->f->connecting);
}

static void set_address(const struct rc_fdinfo *fi, const char **address, struct strbuf *sb)
{
	char buf[128];
	struct rc_sockaddr sa;

	if (!fi->f || !fi->f->peer_host)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.family = fi->f->family;
	sa.port = fi->f->peer_port;
	sa.host = fi->f->peer_host;
	sa.abstract = fi->f->abstract;
	strbuf_reset(sb);
	strbuf_adds(sb, sockaddr_format(&sa, buf, sizeof(buf)));
	*address = strbuf_str(sb);
}

/* Reads, writes and syncs on an fd: storage, network, or other. */
static enum kind classify_fd_io(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
				bool reading, const char **path, const char **address)
{
	struct rc_fdinfo fi;

	if (!procs_fd_info(ctx->procs, e, e->fd, &fi))
		return e->fd == 0 && reading ? K_SKIP : K_OTHER;
	switch (fi.kind) {
	case RC_FD_FILE:
		*path = fi.path;
		if (storage_path(fi.path))
			return K_DISK;
		/* A terminal or stdin waits for a person. */
		if (reading && (rule_terminal_path(fi.path) || e->fd == 0))
			return K_SKIP;
		return K_OTHER;
	case RC_FD_SOCKET:
		if (client_socket(s, ctx, e, &fi, e->fd)) {
			set_address(&fi, address, &s->scratch);
			return K_NETWORK;
		}
		/* A server reading a request waits for its client: idle. A
		 * write that blocks is a slow reader on the other end. */
		if (reading)
			return K_SKIP;
		set_address(&fi, address, &s->scratch);
		return K_NETWORK;
	case RC_FD_PIPE:
		/* Reading a pipe waits for the process at the other end,
		 * like wait4; that process's own calls show its slowness. */
		return reading ? K_SKIP : K_OTHER;
	default:
		/* Reading an eventfd, timerfd or signalfd waits for an event
		 * or a timer the program set up: idle by design. */
		return reading ? K_SKIP : K_OTHER;
	}
}

/* poll/select/epoll: a wait on the network when a socket we connected out
 * is among the fds; a sleep when there are no fds at all. */
static enum kind classify_wait(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			       bool epoll, const char **address)
{
	if (e->ret_known && e->ret == 0 && !e->err) {
		/* Ended by its own timeout: a timer the program chose, or
		 * a select(0, NULL, NULL, NULL, &tv) sleep. */
		return !epoll && e->nfds == 0 && e->fd < 0 ? K_SLEEP : K_SKIP;
	}
	if (!epoll && e->nfds == 0 && e->fd < 0)
		return K_SLEEP;
	for (int i = 0; i < e->nfds && i < RC_EVENT_MAX_FDS; i++) {
		struct rc_fdinfo fi;
		if (procs_fd_info(ctx->procs, e, e->fds[i], &fi) && client_socket(s, ctx, e, &fi, e->fds[i])) {
			set_address(&fi, address, &s->scratch);
			return K_NETWORK;
		}
	}
	/* An event loop woken by its own clients, a wake-up pipe or a
	 * timerfd was idle until then. */
	return K_SKIP;
}

/* An open this slow may have waited for the other end of a FIFO. */
#define FIFO_LOOK_S 0.1

/* E's path is a FIFO, as the machine has it now: its open waits for a
 * process to open the other end, which a strace log does not show (-y
 * names it by its path alone). Like a read of a pipe, that process's own
 * calls show its slowness. */
static bool fifo_now(const struct rc_ctx *ctx, const struct rc_event *e)
{
	struct stat st;

	return lookup_stat(ctx->lookup, e->pid, e->path, &st) == 1 && S_ISFIFO(st.st_mode);
}

static enum kind classify(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			  const char **path, const char **address)
{
	if (rule_is_poll(e->nr) || rule_is_epoll(e->nr))
		return classify_wait(s, e, ctx, rule_is_epoll(e->nr), address);
	unsigned long long cl = syscall_classes(e->nr);
	/* Waits for another party: a lock holder, a child, a signal, a
	 * client; and the calls that do not return. */
	if (cl & (CL_FUTEX | CL_WAIT_CHILD | CL_SIGWAIT | CL_ACCEPT | CL_EXIT))
		return K_SKIP;
	if (cl & CL_SLEEP)
		return K_SLEEP;
	if (cl & CL_READ)
		return classify_fd_io(s, e, ctx, true, path, address);
	/* splice is left out: one of its ends is a pipe. syncfs flushes its
	 * fd's file system, sync and msync storage at large. */
	if ((cl & (CL_WRITE | CL_FD_STORAGE)) && e->nr != SYS_splice)
		return classify_fd_io(s, e, ctx, false, path, address);
	if (cl & CL_FLUSH) {
		const struct rc_syscall *sc = syscall_by_nr(e->nr);
		return syscall_has_role(sc, ROLE_FD) ? classify_fd_io(s, e, ctx, false, path, address) : K_DISK;
	}
	/* The path calls: each looks its path up, and reads or changes a
	 * directory, so its time goes to the path's file system. */
	if (cl & (CL_OPEN | CL_LOOK | CL_NEW_NAME | CL_DROP_NAME | CL_RESIZE)) {
		if (e->path && e->path[0]) {
			*path = e->path;
			if (!storage_path(e->path))
				return K_OTHER;
			return (cl & CL_OPEN) && e->dur >= FIFO_LOOK_S && fifo_now(ctx, e) ? K_SKIP : K_DISK;
		}
		if (e->fd >= 0)
			return classify_fd_io(s, e, ctx, false, path, address);
		return K_DISK;
	}
	/* The calls left each wait for something of their own. */
	switch (e->nr) {
	case SYS_connect:
		if (e->sa.family == AF_UNIX || e->sa.family == AF_INET || e->sa.family == AF_INET6) {
			strbuf_reset(&s->scratch);
			char buf[128];
			strbuf_adds(&s->scratch, sockaddr_format(&e->sa, buf, sizeof(buf)));
			*address = strbuf_str(&s->scratch);
		}
		return K_NETWORK;

	case SYS_flock:
	case SYS_fcntl:
		/* A file lock is file-lock's, which names the file and holder. */
		if (e->lock != RC_LOCK_NONE)
			return K_SKIP;
		return K_LOCK;
	case SYS_semop:
	case SYS_semtimedop:
		return K_LOCK;

	default:
		if (e->fd >= 0) {
			struct rc_fdinfo fi;
			if (procs_fd_info(ctx->procs, e, e->fd, &fi) && fi.kind == RC_FD_FILE)
				*path = fi.path;
		}
		return K_OTHER;
	}
}

/* Remember the sockets a server listens on and accepts, so that its idle
 * waits on them are not taken for network slowness. */
static void track_server_fds(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct fdkey k;

	if (e->nr == SYS_close && s->server_fds.count) {
		k = fdkey_make(ctx, e->pid, e->fd);
		hmap_del(&s->server_fds, &k, sizeof(k));
		return;
	}
	if (!e->ret_known || e->err)
		return;
	if (e->nr == SYS_listen && e->fd >= 0)
		k = fdkey_make(ctx, e->pid, e->fd);
	else if (syscall_is(e->nr, CL_ACCEPT) && e->ret >= 0)
		k = fdkey_make(ctx, e->pid, (int)e->ret);
	else
		return;
	if (s->server_fds.count < SERVER_FDS_MAX)
		*hmap_put(&s->server_fds, &k, sizeof(k), NULL) = (void *)1;
}

/* A call that sends: a connect, or data written to a socket in order. */
static bool outgoing(long nr)
{
	return nr == SYS_connect || (syscall_classes(nr) & (CL_SOCK_IO | CL_WRITE)) == (CL_SOCK_IO | CL_WRITE);
}

static void top_insert(struct kind_stat *ks, const struct rc_event *e, const char *path, const char *address)
{
	struct top *t = rule_top_slot(ks->top, &ks->ntop, TOP_N, sizeof(ks->top[0]),
				      offsetof(struct top, dur), e->dur, top_free);

	if (!t)
		return;
	t->dur = e->dur;
	t->ts = e->ts;
	t->seq = e->seq;
	t->pid = e->pid;
	t->name = xstrdup(e->name ? e->name : "?");
	t->line = rule_line(e);
	t->path = path ? xstrdup(path) : NULL;
	t->address = address ? xstrdup(address) : NULL;
	t->outgoing = outgoing(e->nr);
}

/* Fast calls the capture summed: their time counts to their kind's
 * share, for the thread that began them (one slow call is never in a
 * sum). */
static void on_sum(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const char *path = NULL, *address = NULL;

	if (e->dur < 0)
		return;
	enum kind k = classify(s, e, ctx, &path, &address);
	if (k == K_SKIP)
		return;
	struct kind_stat *ks = &s->k[k];
	ks->count += e->sum->calls;
	ks->total += e->dur;
	rule_thread_time_add(&ks->per_thread, e->sum->tid, e->dur, THREADS_MAX);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind == RC_EV_SUM) {
		on_sum(s, e, ctx);
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	if (e->nr == SYS_listen || e->nr == SYS_close || syscall_is(e->nr, CL_ACCEPT))
		track_server_fds(s, e, ctx);
	/* No duration, no verdict; a call that never returned is
	 * blocked-thread's, not a slow call. */
	if (e->dur < 0 || !e->ret_known)
		return;

	const char *path = NULL, *address = NULL;
	enum kind k = classify(s, e, ctx, &path, &address);
	if (k == K_SKIP)
		return;
	struct kind_stat *ks = &s->k[k];
	ks->count++;
	ks->total += e->dur;
	rule_thread_time_add(&ks->per_thread, e->pid, e->dur, THREADS_MAX);
	if (e->dur >= SLOW_CALL_S) {
		ks->nslow++;
		ks->slow_total += e->dur;
		site_tally_add(&ks->sites, e->stack);
	}
	if (ks->ntop < TOP_N || e->dur > ks->top[TOP_N - 1].dur)
		top_insert(ks, e, path, address);
}

/* The thread that spent the most time in calls of this kind. */
static const struct rule_thread_time *busiest(const struct kind_stat *ks)
{
	const struct rule_thread_time *best = NULL;
	struct hmap_iter it;

	for (struct hmap_node *n = hmap_first(&ks->per_thread, &it); n; n = hmap_next(&ks->per_thread, &it)) {
		const struct rule_thread_time *tt = n->value;
		if (!best || tt->total > best->total || (tt->total == best->total && tt->tid < best->tid))
			best = tt;
	}
	return best;
}

static const char *const kind_what[K_COUNT] = {
	[K_NETWORK] = "network waits",
	[K_DISK] = "disk I/O",
	[K_LOCK] = "file-lock waits",
	[K_SLEEP] = "sleeps",
	[K_OTHER] = "slow system calls",
};

static const char *const kind_advice[K_COUNT] = {
	[K_NETWORK] =
		"the program waited on a remote peer: check that peer's latency and the network "
		"path, use short timeouts, and fetch in parallel or cache the answers",
	[K_DISK] =
		"storage is slow or used too much: check the device (iostat -x 1), avoid an fsync "
		"per write, and read large files once and keep them in memory",
	[K_LOCK] =
		"a file lock (flock/fcntl) was held by someone else: find the holder with "
		"/proc/locks or lsof and shorten its critical section",
	[K_SLEEP] =
		"the program slept on purpose (time.sleep, usleep, a retry back-off): if the sleep is "
		"on the request path, remove or shorten it, or wait on an event instead of polling; a "
		"background thread sleeping between checks is harmless",
	[K_OTHER] =
		"see which call it is: an ioctl on a GPU device waits for GPU work, a write to a "
		"pipe waits for the reader; `rootcause stack PID` shows where the program is",
};

static void report_kind(const struct kind_stat *ks, enum kind k, const struct rc_ctx *ctx,
			struct rc_findings *out)
{
	if (!ks->ntop)
		return;
	double span = rule_span(ctx);
	const struct rule_thread_time *tt = NULL;
	bool by_share = false;

	if (!ks->nslow) {
		/* The catch-all kind sums unrelated calls: only single slow
		 * calls say something there. */
		if (k == K_OTHER || span <= 0)
			return;
		tt = busiest(ks);
		if (!tt || tt->total < SHARE_MIN_S || tt->total < SHARE_MIN * span)
			return;
		by_share = true;
	}

	const struct top *t = &ks->top[0];
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s took ", kind_what[k]);
	if (by_share) {
		strbuf_add_seconds(&sb, ks->total);
		strbuf_addf(&sb, " in %llu calls (tid %d: %.0f%% of the traced time)",
			    (unsigned long long)ks->count, tt->tid, MIN(100.0, 100.0 * tt->total / span));
	} else {
		strbuf_add_seconds(&sb, ks->slow_total);
		strbuf_addf(&sb, " in %llu call%s of %.0f s or more", (unsigned long long)ks->nslow,
			    ks->nslow == 1 ? "" : "s", SLOW_CALL_S);
	}
	strbuf_adds(&sb, "; longest ");
	strbuf_add_seconds(&sb, t->dur);
	strbuf_addf(&sb, " in %s", t->name);
	if (t->address)
		strbuf_addf(&sb, " %s %s", t->outgoing ? "to" : "from", t->address);
	else if (t->path)
		strbuf_addf(&sb, " on '%s'", t->path);

	struct rc_finding *f = rule_finding(out, "slow-syscall", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	f->pid = t->pid;
	finding_set(&f->syscall, t->name);
	finding_set(&f->path, t->path);
	finding_set(&f->address, t->address);
	f->count = (long long)(by_share ? ks->count : ks->nslow);
	f->duration_s = by_share ? ks->total : ks->slow_total;
	f->seq = t->seq;
	f->ts = t->ts;
	for (int i = 0; i < ks->ntop; i++)
		if (ks->top[i].line && (by_share || ks->top[i].dur >= SLOW_CALL_S))
			finding_evidence(f, ks->top[i].line, strlen(ks->top[i].line));
	if (!by_share)
		site_tally_put(&ks->sites, f);
	finding_set(&f->advice, kind_advice[k]);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	for (int k = 0; k < K_COUNT; k++)
		report_kind(&s->k[k], (enum kind)k, ctx, out);
}

const struct rc_rule_ops rc_rule_slow_syscall_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = {
		/* Any call may be slow (classify's K_OTHER); the summed ones
		 * add to the shares. */
		.events = RC_READS_CALLS | RC_READS_SUMS,
	},
	.finish = finish,
	.release = release,
};
