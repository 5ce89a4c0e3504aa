/* connect-timeout: a connection attempt that never got an answer.
 *
 *  - a blocking connect() failing with ETIMEDOUT (the kernel gave up on
 *    its SYN retries, ~2 minutes by default, or SO_SNDTIMEO expired);
 *  - a non-blocking connect() (EINPROGRESS) followed by poll/ppoll/select/
 *    pselect6 on that fd expiring (= 0), the way Python's
 *    create_connection(timeout=), curl and most clients do it;
 *  - a non-blocking connect still pending when its fd was closed (or the
 *    trace ended) a long while later, as event loops (epoll) give up.
 * An attempt whose fd later reported success (SO_ERROR = 0, data moved)
 * is not a timeout, and refusals are connect-failed's. Attempts are grouped
 * by the program that made them and their peer address: a server that
 * connects to its own port (to fill its backlog, as a health probe) is
 * not the client's "attempt 2 of 4". A later successful connect by the
 * same program recovers them. A connection to a loopback port the same
 * process bound is one to itself, not a wait for anyone else: no finding.
 * Port 53 (DNS) is dns-failure's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "connect-timeout"
#define MAX_PEERS 1024
#define MAX_PENDING 4096
/* Ports bound, by process, kept: a server binds a few. */
#define MAX_OWN_PORTS 4096
/* A pending connect abandoned after this long without any poll expiring
 * on it (event loops waiting in epoll) still counts as timed out. */
#define ABANDON_SECONDS 1.0

/* What is known about one non-blocking connect, by its connect seq. */
struct attempt {
	bool resolved;		/* its outcome was seen (SO_ERROR, I/O, connect) */
	bool decided;		/* the fd turned ready: it did not hang */
	unsigned expiries;	/* poll/select timeouts seen on its fd */
	double expired_ts;	/* when the last one expired */
	char *poll_line;	/* evidence: the last expiry */
};

struct peer {
	char *addr;
	char *host;
	int family;
	int port;
	int pid, tid;
	uint64_t count;
	uint64_t first_seq, last_seq;
	uint64_t connect_seq;	/* the last attempt's connect, whose stack says where */
	double last_ts;
	double longest;		/* seconds; < 0 unknown */
	double total;
	char *ev[4];		/* first attempt's connect + expiry; last attempt's */
	bool recovered;
	bool at_end;		/* the last attempt was still pending at the end */
};

struct state {
	struct hmap attempts;	/* connect seq -> struct attempt* */
	struct hmap peers;	/* "leader addr" -> struct peer* */
	struct hmap own_ports;	/* own_port_key: the ports a process bound */
	uint64_t dropped;
	bool purged;		/* attempts were forgotten to stay bounded */
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->attempts);
	hmap_init(&s->own_ports);
	hmap_init(&s->peers);
}

static void attempt_free(void *p)
{
	struct attempt *a = p;

	if (a)
		free(a->poll_line);
	free(a);
}

static void peer_free(void *p)
{
	struct peer *pe = p;

	free(pe->addr);
	free(pe->host);
	for (size_t i = 0; i < ARRAY_SIZE(pe->ev); i++)
		free(pe->ev[i]);
	free(pe);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->attempts, attempt_free);
	hmap_release(&s->own_ports, NULL);
	hmap_release(&s->peers, peer_free);
}

static struct attempt *attempt_get(struct state *s, uint64_t seq, bool create)
{
	void **slot = hmap_get_int(&s->attempts, (long long)seq);

	if (slot || !create)
		return slot ? *slot : NULL;
	if (s->attempts.count >= MAX_PENDING) {
		/* Keep the attempts that saw a poll expire; the rest only
		 * remember a success, which a closed fd no longer needs. */
		struct hmap_iter it;
		struct hmap_node *n = hmap_first(&s->attempts, &it);
		while (n) {
			struct hmap_node *next = hmap_next(&s->attempts, &it);
			struct attempt *a = n->value;
			if (!a->expiries || a->resolved || a->decided)
				attempt_free(hmap_del_int(&s->attempts, hmap_node_int(n)));
			n = next;
		}
		s->purged = true;
		if (s->attempts.count >= MAX_PENDING)
			return NULL;
	}
	struct attempt *a = xcalloc(1, sizeof(*a));
	*hmap_put_int(&s->attempts, (long long)seq, NULL) = a;
	return a;
}

/* The key of process LEADER's attempts to ADDR. */
static char *peer_key(int leader, const char *addr)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%d %s", leader, addr);
	return strbuf_detach(&sb);
}

static long long own_port_key(int leader, int port)
{
	return ((long long)leader << 17) | (port & 0xffff);
}

static struct peer *peer_get(struct state *s, int family, const char *host, int port, bool abstract,
			     const struct rc_event *e, int leader)
{
	char *addr = rule_addr_format(family, host, port, abstract);
	char *key = peer_key(leader, addr);
	void **slot = hmap_get(&s->peers, key, strlen(key));

	if (slot) {
		free(addr);
		free(key);
		return *slot;
	}
	if (s->peers.count >= MAX_PEERS) {
		s->dropped++;
		free(addr);
		free(key);
		return NULL;
	}
	struct peer *pe = xcalloc(1, sizeof(*pe));
	pe->addr = addr;
	pe->host = host ? xstrdup(host) : NULL;
	pe->family = family;
	pe->port = port;
	pe->first_seq = e->seq;
	pe->longest = -1;
	*hmap_put(&s->peers, key, strlen(key), NULL) = pe;
	free(key);
	return pe;
}

static void set_ev(char **slot, const char *line, size_t len)
{
	free(*slot);
	*slot = line ? xstrndup(line, len) : NULL;
}

/* One timed-out attempt to the peer, decided by event E (the connect, the
 * close, or NULL for the end of the trace). */
static struct peer *timed_out(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			      int family, const char *host, int port, bool abstract,
			      double seconds, uint64_t connect_seq, const char *connect_line,
			      const char *expiry_line)
{
	if (!rule_connect_peer(family, port))
		return NULL;
	int leader = rule_leader(ctx, e->pid);
	if ((family == AF_INET || family == AF_INET6) && host && rule_loopback(host) &&
	    hmap_get_int(&s->own_ports, own_port_key(leader, port)))
		return NULL;
	struct peer *pe = peer_get(s, family, host, port, abstract, e, leader);
	if (!pe)
		return NULL;
	int base = pe->count == 0 ? 0 : 2;
	set_ev(&pe->ev[base], connect_line, connect_line ? strlen(connect_line) : 0);
	set_ev(&pe->ev[base + 1], expiry_line, expiry_line ? strlen(expiry_line) : 0);
	pe->count++;
	pe->pid = leader;
	pe->tid = e->pid;
	pe->last_seq = e->seq;
	pe->connect_seq = connect_seq;
	pe->last_ts = e->ts;
	pe->recovered = false;
	if (seconds >= 0) {
		pe->total += seconds;
		pe->longest = MAX(pe->longest, seconds);
	}
	pe->at_end = false;
	return pe;
}

/* Process E->pid's connect to the address got through. */
static void succeeded(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, int family,
		      const char *host, int port, bool abstract)
{
	if (!s->peers.count)
		return;
	char *addr = rule_addr_format(family, host, port, abstract);
	char *key = peer_key(rule_leader(ctx, e->pid), addr);
	void **slot = hmap_get(&s->peers, key, strlen(key));

	if (slot)
		((struct peer *)*slot)->recovered = true;
	free(addr);
	free(key);
}

/* E, a bind or a getsockname that worked, named a port of its process's
 * own: connects from it to that port on loopback reach itself. */
static void own_port(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!e->ret_known || e->err || e->ret != 0 || e->sa.port <= 0 ||
	    (e->sa.family != AF_INET && e->sa.family != AF_INET6) || s->own_ports.count >= MAX_OWN_PORTS)
		return;
	hmap_put_int(&s->own_ports, own_port_key(rule_leader(ctx, e->pid), e->sa.port), NULL);
}

/* The pending connect on F was given up at time END (the close, or the
 * end of the trace when E is NULL): a timeout when a poll expired on it or
 * it waited long. */
static void abandoned(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
		      const struct rc_fd *f, int pid, double end)
{
	struct attempt *a = attempt_get(s, f->connect_seq, false);
	bool expired = a && a->expiries;

	if (a && (a->resolved || a->decided))
		return;
	/* After a purge a missing record may have been a success. */
	if (!expired && s->purged)
		return;
	double waited = -1;
	if (expired && a->expired_ts >= 0 && f->connect_ts >= 0)
		waited = a->expired_ts - f->connect_ts;
	else if (end >= 0 && f->connect_ts >= 0)
		waited = end - f->connect_ts;
	if (!expired && !(waited >= ABANDON_SECONDS))
		return;
	const char *last = expired && a->poll_line ? a->poll_line : NULL;
	struct strbuf close_line = STRBUF_INIT;
	if (!last && e && e->line) {
		event_quoted(e);
		strbuf_add(&close_line, e->line, e->line_len);
		last = strbuf_str(&close_line);
	}
	struct rc_event at_end;
	if (!e) {
		event_clear(&at_end);
		at_end.kind = RC_EV_SYSCALL;
		at_end.pid = pid;
		at_end.seq = f->connect_seq;
		at_end.ts = end;
		e = &at_end;
	}
	struct peer *pe = timed_out(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract,
				    waited, f->connect_seq, f->connect_line, last);
	if (pe)
		pe->at_end = e == &at_end;
	strbuf_release(&close_line);
}

/* The pending connect on F reported ETIMEDOUT through E (SO_ERROR, a
 * second connect, or the first send or receive): the kernel gave up. */
static void reported_timeout(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
			     const struct rc_fd *f)
{
	double waited = -1;

	if (e->ts >= 0 && f->connect_ts >= 0)
		waited = e->ts + (e->dur > 0 ? e->dur : 0) - f->connect_ts;
	char *line = rule_line(e);
	timed_out(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract, waited,
		  f->connect_seq, f->connect_line, line);
	free(line);
}

static void on_connect(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);

	if (e->ret_known && e->ret == 0 && !e->err) {
		if (e->sa.family)
			succeeded(s, e, ctx, e->sa.family, e->sa.host, e->sa.port, e->sa.abstract);
		return;
	}
	if (f && f->connecting) {
		/* Asked again: EALREADY means still pending; EISCONN means it
		 * got through; anything else is the attempt's failure. */
		if (e->err == EALREADY)
			return;
		struct attempt *a = attempt_get(s, f->connect_seq, true);
		if (a && a->resolved)
			return;
		if (a)
			a->resolved = true;
		if (e->err == EISCONN)
			succeeded(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract);
		else if (e->err == ETIMEDOUT)
			reported_timeout(s, e, ctx, f);
		return;
	}
	if (e->err == ETIMEDOUT && e->sa.family) {
		const char *line = e->line ? e->line : "";
		event_quoted(e);
		char *copy = xstrndup(line, e->line_len);
		timed_out(s, e, ctx, e->sa.family, e->sa.host, e->sa.port, e->sa.abstract,
			  e->dur, e->seq, copy, NULL);
		free(copy);
	}
}

/* E told the outcome of the pending connect on its fd: ERR 0 success. */
static void resolve_fd(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, int err)
{
	const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);

	if (!f || !f->connecting)
		return;
	struct attempt *a = attempt_get(s, f->connect_seq, true);
	if (!a || a->resolved)
		return;
	a->resolved = true;
	if (!err)
		succeeded(s, e, ctx, f->family, f->peer_host, f->peer_port, f->abstract);
	else if (err == ETIMEDOUT)
		reported_timeout(s, e, ctx, f);
}

/* FD became ready: its pending connect is decided (a success or a
 * refusal, either way not a timeout). */
static void ready(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, int fd)
{
	const struct rc_fd *f = rule_socket_fd(ctx, e, fd);

	if (!f || !f->connecting)
		return;
	struct attempt *a = attempt_get(s, f->connect_seq, true);
	if (a)
		a->decided = true;
}

/* A poll/select that returned 0: every pending connect among its fds
 * waited in vain this time. */
static void on_poll_expired(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	double end = -1;

	if (e->ts >= 0)
		end = e->ts + (e->dur >= 0 ? e->dur : e->timeout_ms > 0 ? (double)e->timeout_ms / 1000.0 : 0);
	for (int i = 0; i < e->nfds && i < RC_EVENT_MAX_FDS; i++) {
		const struct rc_fd *f = rule_socket_fd(ctx, e, e->fds[i]);
		if (!f || !f->connecting)
			continue;
		struct attempt *a = attempt_get(s, f->connect_seq, true);
		if (!a || a->resolved)
			continue;
		a->expiries++;
		a->expired_ts = end;
		event_quoted(e);
		set_ev(&a->poll_line, e->line, e->line_len);
	}
}

static void on_close(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_fd *f = rule_socket_fd(ctx, e, e->fd);

	if (!f || !f->connecting)
		return;
	abandoned(s, e, ctx, f, e->pid, e->ts);
	attempt_free(hmap_del_int(&s->attempts, (long long)f->connect_seq));
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL)
		return;
	switch (e->nr) {
	case SYS_connect:
		on_connect(s, e, ctx);
		return;
	case SYS_getsockopt:
		if (e->sockopt_level == SOL_SOCKET && e->sockopt_name == SO_ERROR && !e->err)
			resolve_fd(s, e, ctx, e->sockopt_value);
		return;
	case SYS_close:
		on_close(s, e, ctx);
		return;
	case SYS_bind:
	case SYS_getsockname:
		own_port(s, e, ctx);
		return;
	default:
		break;
	}
	if (rule_is_poll(e->nr)) {
		if (e->ret_known && e->ret == 0 && !e->err && e->timeout_ms != 0)
			on_poll_expired(s, e, ctx);
		else if (e->ret_known && e->ret > 0 && e->nfds == 1)
			ready(s, e, ctx, e->fds[0]);
		return;
	}
	if (rule_is_epoll(e->nr)) {
		/* epoll lists the ready fds: each one's connect is decided. */
		for (int i = 0; e->ret_known && e->ret > 0 && i < e->nfds && i < RC_EVENT_MAX_FDS; i++)
			ready(s, e, ctx, e->fds[i]);
		return;
	}
	if (rule_is_sock_io(e->nr) && e->fd >= 0) {
		if (e->ret_known && e->ret > 0 && !e->err)
			resolve_fd(s, e, ctx, 0);
		else if (event_failed(e) && e->err != EAGAIN)
			resolve_fd(s, e, ctx, e->err);
	}
}

static void format_seconds(struct strbuf *sb, double sec)
{
	if (sec >= 100)
		strbuf_addf(sb, "%.0f s", sec);
	else
		strbuf_addf(sb, "%.1f s", sec);
}

static void emit(const void *value, const void *arg, struct rc_findings *out)
{
	const struct peer *pe = value;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "connection to '%s' timed out", pe->addr);
	if (pe->longest >= 0) {
		strbuf_adds(&sb, " after ");
		format_seconds(&sb, pe->longest);
	}
	if (pe->count > 1)
		strbuf_addf(&sb, " (%llu attempts)", (unsigned long long)pe->count);
	if (pe->at_end)
		strbuf_adds(&sb, ", never completed");
	else if (pe->recovered)
		strbuf_adds(&sb, ", later connected");

	struct rc_finding *f = rule_finding(out, RULE_ID, pe->recovered ? RC_SEV_WARNING : RC_SEV_ERROR,
					    pe->recovered ? RC_SEV_INFO : RC_SEV_WARNING, &sb);
	rule_finding_pid(f, pe->pid, pe->tid);
	finding_set(&f->syscall, "connect");
	f->err = ETIMEDOUT;
	finding_set(&f->address, pe->addr);
	if (pe->family == AF_UNIX)
		finding_set(&f->path, pe->host);
	f->count = (long long)pe->count;
	if (pe->longest >= 0)
		f->duration_s = pe->count > 1 ? pe->total : pe->longest;
	for (size_t i = 0; i < ARRAY_SIZE(pe->ev); i++)
		rule_evidence(f, pe->ev[i]);
	if (pe->count > 1 && pe->total > 0) {
		struct strbuf m = STRBUF_INIT;
		strbuf_addf(&m, "%llu attempts waited ", (unsigned long long)pe->count);
		format_seconds(&m, pe->total);
		strbuf_adds(&m, " in all");
		f->message = strbuf_detach(&m);
	}
	if (pe->family == AF_UNIX)
		finding_setf(&f->advice, "the service behind '%s' accepts no connections (overloaded or hung, "
			     "its backlog full): check that it is alive and responsive", pe->addr);
	else
		finding_setf(&f->advice, "nothing answered from %s: the network is blocked (firewall, a proxy "
			     "the program is not told about: HTTPS_PROXY), the host is down, or DNS points to an "
			     "unreachable address; check with `curl -v --connect-timeout 5`, and have the program "
			     "probe the network with a short timeout before a long start-up", pe->addr);
	f->seq = pe->last_seq;
	f->stack_seq = pe->connect_seq;
	f->ts = pe->last_ts;
	f->unrecovered = !pe->recovered;
	finding_echo_name(f, pe->addr);
	if (pe->host && !rule_loopback(pe->host))
		finding_echo_name(f, pe->host);
	finding_echo_word(f, "timed out");
}

/* Connects still pending when the trace ended: their fds are still in
 * the process model, never closed. */
static void pending_at_end(struct state *s, const struct rc_ctx *ctx)
{
	size_t nproc;
	struct rc_proc **procs = procs_sorted(ctx->procs, &nproc);

	for (size_t i = 0; i < nproc; i++) {
		const struct rc_proc *p = procs[i];
		if (p->is_thread || !p->fdt)
			continue;
		struct hmap_iter it;
		for (struct hmap_node *n = hmap_first(&p->fdt->fds, &it); n; n = hmap_next(&p->fdt->fds, &it)) {
			const struct rc_fd *f = n->value;
			if (f->kind == RC_FD_SOCKET && f->connecting)
				abandoned(s, NULL, ctx, f, p->pid, p->ended ? p->end_ts : ctx->last_ts);
		}
	}
	free(procs);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	pending_at_end(s, ctx);
	rule_report_in_order(&s->peers, NULL, offsetof(struct peer, first_seq), emit, NULL, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, s->dropped,
			     "connections to %llu more addresses timed out",
			     "the program tried many addresses; the ones above show the pattern");
}

static const long reads_calls[] = { SYS_connect, SYS_getsockopt, SYS_close, SYS_bind, SYS_getsockname, -1 };

const struct rc_rule_ops rc_rule_connect_timeout_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .classes = CL_POLL | CL_EPOLL | CL_SOCK_IO, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
