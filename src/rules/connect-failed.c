/* connect-failed: a connection that was refused, reset or had no route.
 *
 * Three ways a failed connect shows in a trace:
 *  - a blocking connect() fails outright (ECONNREFUSED, ENETUNREACH...;
 *    ENOENT or ECONNREFUSED for a unix socket);
 *  - a non-blocking connect() returns EINPROGRESS and the outcome comes
 *    later through getsockopt(SOL_SOCKET, SO_ERROR) = [ECONNREFUSED];
 *  - or the first send/recv/read/write on the still-connecting socket
 *    fails with ECONNREFUSED, ECONNRESET, EPIPE or ENOTCONN.
 * Attempts are grouped by peer address; an attempt is recovered when a
 * later connect by the same process to that address (or to the same port
 * on another address, as clients do trying ::1 then 127.0.0.1) succeeded.
 *
 * A client given several addresses for one service (a name that resolves
 * to ::1 and 127.0.0.1, a list of sockets to try) tries them in turn: a
 * failed connect the same thread follows at once with a connect elsewhere
 * was one try of a list. Those that all failed are one failure, reported
 * once, at the first address, naming the others; when the next one
 * worked, the failure was a fallback (a note).
 * Port 53 belongs to dns-failure and timeouts to connect-timeout.
 */
#include <errno.h>
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
#include "rules/noise.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "connect-failed"
/* Distinct failing peers kept; later ones are counted, not kept. */
#define MAX_PEERS 1024
/* Non-blocking connects whose outcome was seen, by connect seq. */
#define MAX_RESOLVED 4096

struct peer {
	char *addr;		/* "127.0.0.1:8080", "[::1]:443", "/run/x.sock" */
	char *host;
	int family;
	int port;
	int pid;		/* the process (leader) of the last failure */
	int tid;
	int err;		/* errno of the last failure */
	char *syscall;		/* the call that reported it */
	uint64_t count;
	uint64_t first_seq, last_seq;
	double first_ts, last_ts;
	char *first_ev[2];	/* the first attempt: connect (+ getsockopt/io) */
	char *last_ev[2];	/* the last attempt, when there were more */
	bool udp;		/* a connected UDP socket told "port unreachable" */
	bool dgram;		/* a datagram socket's connect failed */
	bool searched;		/* a unix socket tried first, before its directory's other sources */
	bool recovered;
	char *recovered_by;	/* the address that worked, when another */
	struct peer *next_same_port;
	/* Addresses tried in turn: the first one's peer heads the list, the
	 * others follow it in the order tried. */
	struct peer *turn_head;
	struct peer *turn_next;
	int sock_type;		/* SOCK_STREAM, SOCK_DGRAM; 0 unknown */
};

/* A thread's last failed connect, to tell a list tried in turn. */
struct last_fail {
	struct peer *peer;
	uint64_t nsys;		/* the thread's calls before it */
};

/* A thread's last unix-socket connect that found no socket. */
struct unix_try {
	char *path;
	uint64_t nsys;		/* the thread's calls before it */
};

/* Calls between a failed connect and the look-up that goes on searching. */
#define SEARCH_GAP 4
/* Calls between a failed connect and the next connect of a list tried in
 * turn, all of them socket plumbing (turn_plumbing). */
#define TURN_GAP 8
/* Threads followed so; past it a thread's connects stand alone. */
#define TRIES_MAX 1024

struct state {
	struct hmap peers;	/* addr -> struct peer* */
	struct hmap by_port;	/* (leader pid, port) -> struct peer* chain */
	struct hmap resolved;	/* connect seq -> non-NULL */
	struct hmap tries;	/* tid -> struct unix_try */
	struct hmap last;	/* tid -> struct last_fail */
	uint64_t dropped;
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->peers);
	hmap_init(&s->by_port);
	hmap_init(&s->resolved);
	hmap_init(&s->tries);
	hmap_init(&s->last);
}

static void try_free(void *p)
{
	struct unix_try *t = p;

	if (t)
		free(t->path);
	free(t);
}

static void peer_free(void *p)
{
	struct peer *pe = p;

	free(pe->addr);
	free(pe->host);
	free(pe->syscall);
	for (int i = 0; i < 2; i++) {
		free(pe->first_ev[i]);
		free(pe->last_ev[i]);
	}
	free(pe->recovered_by);
	free(pe);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->peers, peer_free);
	hmap_release(&s->by_port, NULL);
	hmap_release(&s->resolved, NULL);
	hmap_release(&s->tries, try_free);
	hmap_release(&s->last, free);
}

/* What a client does between one address of its list and the next:
 * close the socket, make another, set its options, say that the last one
 * failed (perror). Anything else is other work, and a later connect is not
 * the next of that list. */
static bool turn_plumbing(const struct rc_event *e)
{
	unsigned long long cl = syscall_classes(e->nr);

	/* perror, and the wait for a non-blocking connect (poll or select). */
	if (cl & CL_WRITE)
		return e->fd == 1 || e->fd == 2;
	if (cl & CL_POLL)
		return true;
	/* Making, setting up and closing the next socket. */
	switch (e->nr) {
	case SYS_close:
	case SYS_socket:
	case SYS_setsockopt:
	case SYS_getsockopt:
	case SYS_fcntl:
	case SYS_ioctl:
	case SYS_connect:
		return true;
	default:
		return false;
	}
}

/* E's thread's failed connect just before E, if any. */
static struct peer *tried_before(const struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	void **slot = hmap_get_int(&s->last, e->pid);
	const struct last_fail *l = slot ? *slot : NULL;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);

	if (!l || !l->peer || !p || p->nsyscalls - l->nsys > TURN_GAP)
		return NULL;
	return l->peer;
}

/* PE, which E's thread just failed to reach, is the next of a list when
 * the thread's connect before failed elsewhere. */
static void note_turn(struct state *s, struct peer *pe, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct peer *prev = tried_before(s, e, ctx);
	const struct rc_fd *fd = rule_socket_fd(ctx, e, e->fd);

	if (fd && !pe->sock_type)
		pe->sock_type = fd->sock_type;
	/* The same service at another address: the same kind of socket (IPv6
	 * and IPv4 alike), and for TCP and UDP the same port. */
	bool same_kind = prev && (prev->family == AF_UNIX) == (pe->family == AF_UNIX) &&
			 prev->sock_type == pe->sock_type && (pe->family == AF_UNIX || prev->port == pe->port);
	if (same_kind && prev != pe && !pe->turn_head && !pe->turn_next && prev->turn_head != pe) {
		struct peer *head = prev->turn_head ? prev->turn_head : prev;
		if (head != pe) {
			struct peer **tail = &head->turn_next;
			while (*tail)
				tail = &(*tail)->turn_next;
			*tail = pe;
			pe->turn_head = head;
		}
	}
	bool created;
	struct last_fail *l = rule_int_value(&s->last, e->pid, true, sizeof(*l), TRIES_MAX, &created);
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	if (l) {
		l->peer = pe;
		l->nsys = p ? p->nsyscalls : 0;
	}
}

struct port_key {
	int pid;
	int port;
};

/* Sockets nobody needs: glibc asks nscd on every name lookup. */
static bool noise_socket(const char *path)
{
	static const char *const nscd[] = { "/var/run/nscd/socket", "/run/nscd/socket" };

	for (size_t i = 0; i < ARRAY_SIZE(nscd); i++)
		if (strcmp(path, nscd[i]) == 0)
			return true;
	return noise_path(path);
}

static bool failure_errno(int family, int err)
{
	switch (err) {
	case ECONNREFUSED:
	case ENETUNREACH:
	case EHOSTUNREACH:
	case ECONNRESET:
	case EADDRNOTAVAIL:
	case ENETDOWN:
	case ECONNABORTED:
	case EPERM:
	case EACCES:
		return true;
	case ENOENT:
		return family == AF_UNIX;
	default:
		return false;
	}
}

/* An attempt's evidence: its connect line (EV_CONNECT for a non-blocking
 * one) and the line of E that reported the failure, when that is another. */
static void attempt_lines(char *ev[2], const struct rc_event *e, const char *ev_connect)
{
	ev[0] = ev_connect ? xstrdup(ev_connect) : rule_line(e);
	if (ev_connect)
		ev[1] = rule_line(e);
}

/* Record one failed attempt to the peer (FAMILY, HOST, PORT). EV_CONNECT
 * is the connect line of a non-blocking attempt (NULL for a blocking one),
 * E the event that reported the failure. */
static struct peer *record(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			   int family, const char *host, int port, bool abstract, int err,
			   const char *ev_connect)
{
	if (!rule_connect_peer(family, port))
		return NULL;
	if (family == AF_UNIX && !abstract && host && noise_socket(host))
		return NULL;

	char *addr = rule_addr_format(family, host, port, abstract);
	void **slot = hmap_get(&s->peers, addr, strlen(addr));
	struct peer *pe = slot ? *slot : NULL;

	if (!pe) {
		if (s->peers.count >= MAX_PEERS) {
			s->dropped++;
			free(addr);
			return NULL;
		}
		pe = xcalloc(1, sizeof(*pe));
		pe->addr = addr;
		pe->host = host ? xstrdup(host) : NULL;
		pe->family = family;
		pe->port = family == AF_UNIX ? -1 : port;
		pe->first_seq = e->seq;
		pe->first_ts = e->ts;
		*hmap_put(&s->peers, addr, strlen(addr), NULL) = pe;
		if (family != AF_UNIX) {
			struct port_key k = { rule_leader(ctx, e->pid), port };
			void **chain = hmap_put(&s->by_port, &k, sizeof(k), NULL);
			pe->next_same_port = *chain;
			*chain = pe;
		}
		attempt_lines(pe->first_ev, e, ev_connect);
	} else {
		free(addr);
		for (int i = 0; i < 2; i++) {
			free(pe->last_ev[i]);
			pe->last_ev[i] = NULL;
		}
		attempt_lines(pe->last_ev, e, ev_connect);
	}
	pe->count++;
	pe->err = err;
	pe->pid = rule_leader(ctx, e->pid);
	pe->tid = e->pid;
	pe->last_seq = e->seq;
	pe->last_ts = e->ts;
	pe->recovered = false;
	free(pe->recovered_by);
	pe->recovered_by = NULL;
	finding_set(&pe->syscall, e->name);
	note_turn(s, pe, e, ctx);
	return pe;
}

/* A connect by E's process to the peer succeeded: earlier failures to it,
 * or to the same port elsewhere, were recovered from. */
static void succeeded(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
		      int family, const char *host, int port, bool abstract)
{
	if (!s->peers.count)
		return;
	char *addr = rule_addr_format(family, host, port, abstract);
	void **slot = hmap_get(&s->peers, addr, strlen(addr));

	if (slot) {
		struct peer *pe = *slot;
		pe->recovered = true;
		free(pe->recovered_by);
		pe->recovered_by = NULL;
	}
	/* The next of a list tried in turn worked. */
	struct peer *prev = tried_before(s, e, ctx);
	if (prev && strcmp(prev->addr, addr) != 0) {
		struct peer *head = prev->turn_head ? prev->turn_head : prev;
		for (struct peer *pe = head; pe; pe = pe->turn_next)
			if (!pe->recovered) {
				pe->recovered = true;
				finding_set(&pe->recovered_by, addr);
			}
	}
	free(hmap_del_int(&s->last, e->pid));
	if (family == AF_INET || family == AF_INET6) {
		struct port_key k = { rule_leader(ctx, e->pid), port };
		void **chain = hmap_get(&s->by_port, &k, sizeof(k));
		for (struct peer *pe = chain ? *chain : NULL; pe; pe = pe->next_same_port) {
			if (pe->recovered || strcmp(pe->addr, addr) == 0)
				continue;
			pe->recovered = true;
			pe->recovered_by = xstrdup(addr);
		}
	}
	free(addr);
}

static bool is_resolved(const struct state *s, uint64_t connect_seq)
{
	return hmap_get_int(&s->resolved, (long long)connect_seq) != NULL;
}

static void mark_resolved(struct state *s, uint64_t connect_seq)
{
	/* Losing these only matters for the rare I/O error on a socket whose
	 * connect we saw succeed long ago; start over rather than grow. */
	if (s->resolved.count >= MAX_RESOLVED) {
		hmap_release(&s->resolved, NULL);
		hmap_init(&s->resolved);
	}
	*hmap_put_int(&s->resolved, (long long)connect_seq, NULL) = (void *)1;
}

/* The socket FD of E's process while its non-blocking connect is pending. */
static const struct rc_fd *pending_connect(const struct state *s, const struct rc_event *e,
					   const struct rc_ctx *ctx)
{
	const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);

	if (!f || !f->connecting || is_resolved(s, f->connect_seq))
		return NULL;
	return f;
}

static void on_connect(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_sockaddr *sa = &e->sa;

	if (!sa->family)
		return;
	if (e->ret_known && e->ret == 0 && !e->err) {
		succeeded(s, e, ctx, sa->family, sa->host, sa->port, sa->abstract);
		return;
	}
	if (e->err == EISCONN) {
		/* A second connect on a non-blocking socket: it got through. */
		const struct rc_fd *f = pending_connect(s, e, ctx);
		if (f) {
			mark_resolved(s, f->connect_seq);
			succeeded(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract);
		}
		return;
	}
	if (event_failed(e) && failure_errno(sa->family, e->err)) {
		struct peer *pe = record(s, e, ctx, sa->family, sa->host, sa->port, sa->abstract, e->err, NULL);
		const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);
		if (pe && f && f->sock_type == SOCK_DGRAM)
			pe->dgram = true;
		if (pe && sa->family == AF_UNIX && !sa->abstract && sa->host && e->err == ENOENT) {
			bool created;
			struct unix_try *t = rule_int_value(&s->tries, e->pid, true, sizeof(*t), TRIES_MAX, &created);
			const struct rc_proc *p = procs_get(ctx->procs, e->pid);
			if (t) {
				free(t->path);
				t->path = xstrdup(sa->host);
				t->nsys = p ? p->nsyscalls : 0;
			}
		}
	}
}

/* The socket's directory, or another name in it, looked up right after
 * its connect found no socket: the program going on through its sources
 * (libnss_systemd tries the userdb multiplexer's socket, then the
 * directory of userdb records it is in). */
static void on_path(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	void **slot = hmap_get_int(&s->tries, e->pid);
	struct unix_try *t = slot ? *slot : NULL;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);

	if (!t || !t->path || !p || p->nsyscalls - t->nsys > SEARCH_GAP)
		return;
	const char *base = strrchr(t->path, '/');
	size_t dn = base ? (size_t)(base - t->path) : 0;
	size_t n = strlen(e->path);
	while (n > 1 && e->path[n - 1] == '/')
		n--;
	bool in_dir = dn && n >= dn && memcmp(e->path, t->path, dn) == 0 && (n == dn || e->path[dn] == '/');
	if (in_dir && strcmp(e->path, t->path) != 0) {
		char *addr = rule_addr_format(AF_UNIX, t->path, -1, false);
		void **ps = hmap_get(&s->peers, addr, strlen(addr));
		if (ps)
			((struct peer *)*ps)->searched = true;
		free(addr);
	}
	free(t->path);
	t->path = NULL;
}

static void on_sockopt(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (e->sockopt_level != SOL_SOCKET || e->sockopt_name != SO_ERROR || e->err)
		return;
	const struct rc_fd *f = pending_connect(s, e, ctx);
	if (!f)
		return;
	/* SO_ERROR = 0 right after EINPROGRESS can also mean "not done yet"
	 * when asked before the socket was writable; clients ask after
	 * poll() said POLLOUT, so take it as success. */
	mark_resolved(s, f->connect_seq);
	if (e->sockopt_value == 0)
		succeeded(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract);
	else if (failure_errno(f->family, e->sockopt_value))
		record(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract,
		       e->sockopt_value, f->connect_line);
}

/* Send or receive on a socket: the outcome of a pending connect, or a
 * connected UDP socket told "port unreachable". */
static void on_io(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (e->fd < 0)
		return;
	const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);
	if (!f)
		return;
	if (f->connecting && !is_resolved(s, f->connect_seq)) {
		if (!e->err && e->ret_known && e->ret > 0) {
			mark_resolved(s, f->connect_seq);
			succeeded(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract);
		} else if (event_failed(e) && (e->err == ECONNREFUSED || e->err == ECONNRESET ||
					       e->err == EPIPE || e->err == ENOTCONN)) {
			mark_resolved(s, f->connect_seq);
			record(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract,
			       e->err == ENOTCONN || e->err == EPIPE ? ECONNREFUSED : e->err,
			       f->connect_line);
		}
		return;
	}
	if (event_failed(e) && e->err == ECONNREFUSED && f->sock_type == SOCK_DGRAM && f->peer_host) {
		struct peer *pe = record(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract,
					 e->err, NULL);
		if (pe)
			pe->udp = true;
	}
}

static void on_close(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_fd *f = procs_fd(ctx->procs, e->pid, e->fd);

	if (f && f->connecting)
		hmap_del_int(&s->resolved, (long long)f->connect_seq);
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind == RC_EV_EXIT) {
		try_free(hmap_del_int(&s->tries, e->pid));
		free(hmap_del_int(&s->last, e->pid));
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	if (e->path && e->path[0] && s->tries.count)
		on_path(s, e, ctx);
	/* Other work ends the list: the thread's entry goes, so that once
	 * no list is open no event pays for a look-up. */
	if (s->last.count && !turn_plumbing(e))
		free(hmap_del_int(&s->last, e->pid));
	switch (e->nr) {
	case SYS_connect:
		on_connect(s, e, ctx);
		break;
	case SYS_getsockopt:
		on_sockopt(s, e, ctx);
		break;
	case SYS_close:
		on_close(s, e, ctx);
		break;
	default:
		if (rule_is_sock_io(e->nr))
			on_io(s, e, ctx);
		break;
	}
}

static const char *errno_words(int err)
{
	switch (err) {
	case ECONNREFUSED: return "refused";
	case ENETUNREACH:
	case EHOSTUNREACH: return "unreachable";
	case ECONNRESET: return "reset";
	case EADDRNOTAVAIL: return "assign requested address";
	case ENETDOWN: return "network is down";
	case ECONNABORTED: return "aborted";
	case ENOENT: return "no such file";
	default: return "permission denied";
	}
}

static const char *what_happened(const struct peer *pe)
{
	switch (pe->err) {
	case ECONNREFUSED: return "was refused";
	case ENETUNREACH: return "failed: network unreachable";
	case EHOSTUNREACH: return "failed: no route to host";
	case ECONNRESET: return "was reset by the peer";
	case EADDRNOTAVAIL: return "failed: no local address to connect from";
	case ENETDOWN: return "failed: network is down";
	case ECONNABORTED: return "was aborted";
	case ENOENT: return "failed: the socket does not exist";
	default: return "was not permitted";
	}
}

/* What stands at a unix socket's PATH now, as process PID sees it, when
 * it is not a socket: "a regular file", "a directory"; NULL for a socket
 * or nothing. */
static const char *not_a_socket(const struct rc_ctx *ctx, int pid, const char *path)
{
	struct stat st;

	if (lookup_stat(ctx->lookup, pid, path, &st) != 1 || S_ISSOCK(st.st_mode))
		return NULL;
	return S_ISDIR(st.st_mode) ? "a directory" : S_ISREG(st.st_mode) ? "a regular file" : "not a socket";
}

static void advise_unix_missing(struct rc_finding *f, const struct rc_ctx *ctx, const struct peer *pe)
{
	struct strbuf gone = STRBUF_INIT;

	if (pe->host && rule_missing_dir(&gone, ctx, pe->pid, pe->host)) {
		finding_setf(&f->advice, "no socket '%s' exists, nor the directory '%s' on the way to it: the "
			     "service that should create it has not started here (it makes the socket when it "
			     "starts: systemctl status, its logs), or the program is configured with another "
			     "path", pe->addr, gone.buf);
		finding_now(f, gone.buf);
	} else
		finding_setf(&f->advice, "no socket '%s' exists: the service that should create it is "
			     "not running (start it: systemctl status, its logs) or the program is "
			     "configured with another path", pe->addr);
	strbuf_release(&gone);
}

static void advise(struct rc_finding *f, const struct rc_ctx *ctx, const struct peer *pe)
{
	const char *a = pe->addr;

	if (pe->family == AF_UNIX) {
		const char *what = pe->addr[0] == '@' ? NULL : not_a_socket(ctx, pe->pid, pe->host);
		switch (pe->err) {
		case ENOENT:
			advise_unix_missing(f, ctx, pe);
			return;
		case ECONNREFUSED:
			if (what) {
				finding_setf(&f->advice, "'%s' is %s, not a socket: the program is configured "
					     "with the wrong path, or something replaced the socket", a, what);
				finding_now(f, pe->host);
			} else
				finding_setf(&f->advice, "'%s' exists but nothing accepts on it: the service "
					     "died or is restarting and left a stale socket; restart the service "
					     "(`ss -xlp | grep %s` shows who listens, if anyone)", a, fp_name(a));
			return;
		case EACCES:
		case EPERM:
			finding_setf(&f->advice, "no permission to connect to '%s': run as a user in the socket's "
				     "group (ls -l %s) or fix its mode", a, a);
			return;
		default:
			break;
		}
	}
	switch (pe->err) {
	case ECONNREFUSED:
		finding_setf(&f->advice, "nothing is listening on %s: start the service or fix the host and "
			     "port the program is configured with (`ss -ltnp` lists listening ports); a "
			     "server still starting up needs a retry with a delay", a);
		break;
	case ENETUNREACH:
		finding_setf(&f->advice, "there is no route to the network of %s: check `ip route` and the "
			     "interface or VPN (IPv6 without an IPv6 route is common); use an address the "
			     "machine can reach", a);
		break;
	case EHOSTUNREACH:
		finding_setf(&f->advice, "%s cannot be reached: the host is down or a firewall rejects the "
			     "traffic; check `ip route get %s` and the firewall rules", a, pe->host ? pe->host : a);
		break;
	case ECONNRESET:
		finding_setf(&f->advice, "%s reset the connection: the server crashed or refused the client, "
			     "or a proxy or firewall cut it; check the server's logs", a);
		break;
	case EADDRNOTAVAIL:
		finding_setf(&f->advice, "no local address could be used to reach %s: the ephemeral ports are "
			     "used up (many connections in TIME_WAIT: `ss -s`) or the source address is not "
			     "configured", a);
		break;
	case ENETDOWN:
		finding_setf(&f->advice, "the network interface is down: check `ip link` and `ip addr`");
		break;
	default:
		finding_setf(&f->advice, "a local firewall (iptables/nftables) or security policy blocked the "
			     "connection to %s", a);
		break;
	}
}

static void emit(const void *value, const void *arg, struct rc_findings *out)
{
	const struct peer *pe = value;
	const struct rc_ctx *ctx = arg;
	bool retried = pe->count > 1;
	struct strbuf sb = STRBUF_INIT;

	if (pe->udp)
		strbuf_addf(&sb, "datagrams to '%s' were refused (port unreachable)", pe->addr);
	else
		strbuf_addf(&sb, "connection to '%s' %s", pe->addr, what_happened(pe));
	if (retried) {
		strbuf_addf(&sb, " (%llu attempts", (unsigned long long)pe->count);
		if (ctx->has_time && pe->first_ts >= 0 && pe->last_ts > pe->first_ts)
			strbuf_addf(&sb, " over %.1f s", pe->last_ts - pe->first_ts);
		strbuf_adds(&sb, ")");
	}
	/* The others of a list tried in turn. */
	for (const struct peer *o = pe->turn_next; o; o = o->turn_next) {
		if (o->err == pe->err && o->udp == pe->udp)
			strbuf_addf(&sb, "; so was '%s', tried next", o->addr);
		else
			strbuf_addf(&sb, "; then '%s' %s", o->addr, what_happened(o));
	}
	if (pe->recovered && pe->recovered_by)
		strbuf_addf(&sb, ", then '%s' worked", pe->recovered_by);
	else if (pe->recovered)
		strbuf_adds(&sb, ", later connected");
	else if (pe->dgram && !pe->udp)
		strbuf_adds(&sb, ": a datagram socket, so what the program sent there was dropped");

	/* Datagrams to a closed port or a missing socket are mostly
	 * fire-and-forget (metrics, syslog on /dev/log with no syslog daemon
	 * running): worth a warning, rarely the cause. */
	bool soft = pe->recovered || pe->udp || pe->dgram;
	/* A socket tried as the first of several sources (see on_path). */
	if (pe->searched && !pe->recovered)
		strbuf_adds(&sb, "; the program went on to look in its directory");
	struct rc_finding *f = pe->searched ? rule_finding(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, &sb)
					    : rule_finding(out, RULE_ID, soft ? RC_SEV_WARNING : RC_SEV_ERROR,
							   soft ? RC_SEV_INFO : RC_SEV_WARNING, &sb);
	rule_finding_pid(f, pe->pid, pe->tid);
	/* A local service whose socket is absent or unattended (no one runs
	 * it there), looked for by a process that then exited 0: it did
	 * without, as netavark does when it asks the system bus whether
	 * firewalld runs. A service still running when the trace ended may
	 * yet need it: that stays a warning. */
	if (pe->family == AF_UNIX && (pe->err == ENOENT || pe->err == ECONNREFUSED) && !pe->turn_next &&
	    procs_succeeded(procs_leader(ctx->procs, pe->pid)))
		f->severity_ok = RC_SEV_INFO;
	finding_set(&f->syscall, pe->syscall);
	f->err = pe->err;
	finding_set(&f->address, pe->addr);
	if (pe->family == AF_UNIX)
		finding_set(&f->path, pe->host);
	f->count = (long long)pe->count;
	for (int i = 0; i < 2; i++)
		rule_evidence(f, pe->first_ev[i]);
	for (const struct peer *o = pe->turn_next; o; o = o->turn_next)
		rule_evidence(f, o->first_ev[0]);
	for (int i = 0; i < 2; i++)
		rule_evidence(f, pe->last_ev[i]);
	advise(f, ctx, pe);
	/* Each other address of the list, in its own terms. */
	for (const struct peer *o = pe->turn_next; o; o = o->turn_next) {
		struct rc_finding tmp = { 0 };
		advise(&tmp, ctx, o);
		if (tmp.advice && (!f->advice || !strstr(f->advice, tmp.advice))) {
			finding_setf(&f->advice, "%s; for '%s': %s", f->advice ? f->advice : "", o->addr, tmp.advice);
			for (int i = 0; i < tmp.nnow; i++)
				finding_now(f, tmp.now[i]);
		}
		for (int i = 0; i < tmp.nnow; i++)
			free(tmp.now[i]);
		free(tmp.advice);
	}
	if (retried && !pe->recovered)
		finding_setf(&f->message, "%llu attempts, none succeeded", (unsigned long long)pe->count);
	f->seq = pe->last_seq;
	f->ts = pe->last_ts;
	for (const struct peer *o = pe->turn_next; o; o = o->turn_next)
		if (o->last_seq > f->seq) {
			f->seq = o->last_seq;
			f->ts = o->last_ts;
		}
	f->unrecovered = !pe->recovered;

	finding_echo_name(f, pe->addr);
	if (pe->family == AF_UNIX)
		finding_echo_name(f, fp_name(pe->addr));
	else if (pe->host && !rule_loopback(pe->host))
		finding_echo_name(f, pe->host);
	finding_echo_word(f, errno_words(pe->err));
	for (const struct peer *o = pe->turn_next; o; o = o->turn_next)
		finding_echo_name(f, o->family == AF_UNIX ? fp_name(o->addr) : o->addr);
}

/* The peers a finding starts from: not the later ones of a list. */
static bool first_tried(const void *value, const void *arg)
{
	(void)arg;
	return !((const struct peer *)value)->turn_head;
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	rule_report_in_order(&s->peers, first_tried, offsetof(struct peer, first_seq), emit, ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, s->dropped,
			     "connections to %llu more addresses failed",
			     "the program tried many addresses; the ones above show the pattern");
}

/* Its own calls; and every call while a unix-socket try waits for a path
 * (on_path) or a thread's list is being tried (turn_plumbing ends it). */
static const long reads_calls[] = { SYS_connect, SYS_getsockopt, SYS_close, -1 };
static const size_t reads_while[] = { offsetof(struct state, tries.count), offsetof(struct state, last.count), SIZE_MAX };

const struct rc_rule_ops rc_rule_connect_failed_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = {
		.events = RC_READS_EXITS,
		.classes = CL_SOCK_IO,
		.calls = reads_calls,
		.calls_while = reads_while,
	},
	.finish = finish,
	.release = release,
};
