/* dns-failure: a name lookup that failed, with the name, the server and
 * what came back.
 *
 * Resolvers (glibc, c-ares, Go) talk to port 53 over UDP or TCP; the
 * question's name is in every query and echoed in every answer:
 *   12-byte header (id, flags, qdcount, ancount, nscount, arcount),
 *   then the name as length-prefixed labels ("\7weights\6mirror\3com\0");
 *   the answer's rcode is the low 4 bits of byte 3 (3 NXDOMAIN, 2
 *   SERVFAIL, 5 REFUSED) and ancount 0 means no records. TCP messages
 *   have a 2-byte length first. strace shows only -s bytes (32 by default),
 *   so a name can be cut short: it is reported as far as it goes.
 * A query is whatever carries it: sendto, sendmmsg, or a write on a
 * socket connected to port 53 (Go's resolver), and an answer is read
 * the same ways.
 * Outcomes: an error rcode, an empty answer, a poll on the socket expiring
 * after the query (timeout), a socket closed with its query unanswered
 * (a resolver that waits elsewhere, in epoll, then gives up: "no such
 * host"), one still waiting when the trace ends (an excerpt that stops
 * at the wait, a run stopped during it), the server refusing (ICMP port unreachable:
 * ECONNREFUSED on send/recv, or, as glibc sees it, a poll saying "ready"
 * with nothing to read: "resolver not running") or being unreachable.
 * A name that resolved at all (glibc asks A and AAAA; one empty answer is
 * normal) is not a failure, and neither are search-domain attempts
 * ("x.corp.example" NXDOMAIN then "x" found).
 */
#include <ctype.h>
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

#define RULE_ID "dns-failure"
#define MAX_NAMES 1024
#define MAX_SOCKETS 256
#define DNS_HEADER 12
/* Longest name kept (RFC 1035: 255 bytes on the wire). */
#define NAME_MAX_LEN 255

enum outcome {
	OUT_NXDOMAIN,
	OUT_SERVFAIL,
	OUT_REFUSED,		/* rcode 5: the server refused to answer */
	OUT_CONNREFUSED,	/* nothing listening on the server's port 53 */
	OUT_SOCKERR,		/* the socket turned ready but no answer was read:
				 * an ICMP error (port unreachable) came back */
	OUT_UNREACHABLE,	/* no route, network down, blocked */
	OUT_TIMEOUT,
	OUT_NODATA,
	OUT_OTHER_RCODE,
	OUT_COUNT,
};

static const char *const outcome_text[OUT_COUNT] = {
	[OUT_NXDOMAIN] = "NXDOMAIN (no such name)",
	[OUT_SERVFAIL] = "SERVFAIL (the server failed)",
	[OUT_REFUSED] = "REFUSED (the server refused to answer)",
	[OUT_CONNREFUSED] = "connection refused (no DNS server listening)",
	[OUT_SOCKERR] = "an error instead of an answer (no DNS server listening?)",
	[OUT_UNREACHABLE] = "server unreachable",
	[OUT_TIMEOUT] = "no answer (timeout)",
	[OUT_NODATA] = "no address records",
	[OUT_OTHER_RCODE] = "an error answer",
};

/* Which outcome the summary names when several happened: an answer
 * beats the absence of one. */
static const enum outcome priority[OUT_COUNT] = {
	OUT_NXDOMAIN, OUT_SERVFAIL, OUT_REFUSED, OUT_OTHER_RCODE,
	OUT_CONNREFUSED, OUT_SOCKERR, OUT_UNREACHABLE, OUT_TIMEOUT, OUT_NODATA,
};

/* One name asked about. Key "" collects failures before any query
 * (connect to the server failing). */
struct name_rec {
	char *name;
	bool name_cut;		/* the preview ended inside the name */
	char *server;
	int pid, tid;
	uint64_t queries;
	uint64_t counts[OUT_COUNT];
	int rcode;		/* last error rcode, for OUT_OTHER_RCODE */
	int err;		/* last errno (connect/send/recv) */
	bool ok;		/* an answer with records came back */
	uint64_t first_seq, last_seq, ok_seq;
	/* Where in the code: the connect of the last failed query's socket
	 * to its server (the resolver's), else the failure itself. */
	uint64_t stack_seq;
	double last_ts;
	double waited;		/* seconds spent in expired polls */
	bool at_end;		/* still unanswered when the trace ended */
	char *query_line;
	char *fail_line;
	char *last_query_line;
	char *last_fail_line;
};

/* A socket that carried a query and may get its answer. */
struct dns_sock {
	char *name;		/* the last name asked on it; NULL none */
	bool name_cut;
	char *server;
	bool awaiting;
	bool ready_unread;	/* a poll said readable, no read followed */
	bool expired;		/* a poll on it expired since the query */
	bool tcp;
	/* The last query: when, by whom (its thread), and where. */
	double sent_ts;
	uint64_t sent_seq;
	int sent_tid;
};

/* A query this long unanswered at the end of a trace is a failure: the
 * end of a run or an attach cut none short that a resolver was about to
 * answer. */
#define AT_END_WAIT_S 1.0
/* A log this short is a pasted excerpt (with times or not): the wait it
 * ends in is what it was pasted for, however long it had been. */
#define EXCERPT_EVENTS 400

struct sock_key {
	int pid;		/* leader */
	int fd;
};

struct state {
	struct hmap names;	/* name -> struct name_rec* */
	struct hmap socks;	/* sock_key -> struct dns_sock* */
	uint64_t dropped;
	char *resolv_conf_line;	/* /etc/resolv.conf could not be opened */
	int resolv_conf_err;
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->names);
	hmap_init(&s->socks);
}

static void name_free(void *p)
{
	struct name_rec *n = p;

	free(n->name);
	free(n->server);
	free(n->query_line);
	free(n->fail_line);
	free(n->last_query_line);
	free(n->last_fail_line);
	free(n);
}

static void sock_free(void *p)
{
	struct dns_sock *d = p;

	if (!d)
		return;
	free(d->name);
	free(d->server);
	free(d);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->names, name_free);
	hmap_release(&s->socks, sock_free);
	free(s->resolv_conf_line);
}

struct dns_msg {
	unsigned id;
	bool response;
	bool tc;		/* truncated: the resolver asks again over TCP */
	int rcode;
	unsigned qdcount, ancount;
	char *name;		/* NULL when no label could be read */
	bool name_cut;
};

/* Read the question name at OFF; stops at the data's end (cut). */
static char *read_name(const unsigned char *d, size_t n, size_t off, bool truncated, bool *cut)
{
	struct strbuf sb = STRBUF_INIT;

	*cut = false;
	while (off < n) {
		unsigned len = d[off++];
		if (len == 0)
			return strbuf_detach(&sb);
		if (len >= 64)
			break;	/* compression pointer: not in a question */
		if (sb.len)
			strbuf_addc(&sb, '.');
		for (unsigned i = 0; i < len; i++) {
			if (off >= n || sb.len >= NAME_MAX_LEN) {
				*cut = true;
				return strbuf_detach(&sb);
			}
			unsigned char c = d[off++];
			strbuf_addc(&sb, isprint(c) && c != ' ' ? (char)tolower(c) : '?');
		}
	}
	if (off >= n && (truncated || sb.len)) {
		*cut = true;
		if (sb.len)
			return strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	return NULL;
}

static bool parse_at(const unsigned char *d, size_t n, size_t off, bool truncated, struct dns_msg *m)
{
	if (n < off + DNS_HEADER)
		return false;
	const unsigned char *h = d + off;
	memset(m, 0, sizeof(*m));
	m->id = (unsigned)h[0] << 8 | h[1];
	m->response = (h[2] & 0x80) != 0;
	m->tc = (h[2] & 0x02) != 0;
	m->rcode = h[3] & 0x0f;
	m->qdcount = (unsigned)h[4] << 8 | h[5];
	m->ancount = (unsigned)h[6] << 8 | h[7];
	/* Every resolver asks one question per message. */
	if (m->qdcount != 1)
		return false;
	m->name = read_name(d, n, off + DNS_HEADER, truncated, &m->name_cut);
	return true;
}

/* The bytes of E's data that follow each other from the start: a packet
 * longer than the preview keeps its head and its tail, and only the head
 * parses. */
static size_t dns_bytes(const struct rc_event *e)
{
	return e->data_omitted ? e->data_gap : e->data_len;
}

/* Parse a DNS message as sent or received; TCP ones start with a length. */
static bool dns_parse(const unsigned char *d, size_t n, bool truncated, bool tcp, struct dns_msg *m)
{
	if (!d || !n)
		return false;
	if (tcp)
		return parse_at(d, n, 2, truncated, m) || parse_at(d, n, 0, truncated, m);
	return parse_at(d, n, 0, truncated, m) || parse_at(d, n, 2, truncated, m);
}

static struct dns_sock *sock_get(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx,
				 int fd, bool create)
{
	struct sock_key k = { rule_leader(ctx, e->pid), fd };
	void **slot = hmap_get(&s->socks, &k, sizeof(k));

	if (slot || !create)
		return slot ? *slot : NULL;
	if (s->socks.count >= MAX_SOCKETS) {
		/* Sockets whose close we missed (a process gone): forget them. */
		hmap_release(&s->socks, sock_free);
		hmap_init(&s->socks);
	}
	struct dns_sock *d = xcalloc(1, sizeof(*d));
	*hmap_put(&s->socks, &k, sizeof(k), NULL) = d;
	return d;
}

/* Whether F is a socket connected to a DNS server (port 53). */
static bool dns_peer(const struct rc_fd *f)
{
	return f && f->kind == RC_FD_SOCKET && f->peer_port == RULE_DNS_PORT &&
	       (f->family == AF_INET || f->family == AF_INET6);
}

/* The server E's fd talks to when it is a DNS socket, else NULL. */
static char *dns_server(const struct rc_event *e, const struct rc_ctx *ctx, bool *tcp)
{
	const struct rc_fd *f = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;

	*tcp = f && f->kind == RC_FD_SOCKET && f->sock_type == SOCK_STREAM;
	if ((e->sa.family == AF_INET || e->sa.family == AF_INET6) && e->sa.port == RULE_DNS_PORT)
		return rule_addr_format(e->sa.family, e->sa.host, e->sa.port, false);
	if (dns_peer(f))
		return rule_addr_format(f->family, f->peer_host, f->peer_port, false);
	return NULL;
}

static struct name_rec *name_get(struct state *s, const char *name, bool cut, const struct rc_event *e)
{
	void **slot = hmap_get(&s->names, name, strlen(name));

	if (slot)
		return *slot;
	if (s->names.count >= MAX_NAMES) {
		s->dropped++;
		return NULL;
	}
	struct name_rec *n = xcalloc(1, sizeof(*n));
	n->name = xstrdup(name);
	n->name_cut = cut;
	n->first_seq = e->seq;
	n->rcode = -1;
	*hmap_put(&s->names, name, strlen(name), NULL) = n;
	return n;
}

static void set_line(char **slot, const struct rc_event *e)
{
	free(*slot);
	*slot = rule_line(e);
}

static void failed(struct name_rec *n, const struct rc_event *e, const struct rc_ctx *ctx,
		   enum outcome o, const char *server)
{
	n->counts[o]++;
	n->pid = rule_leader(ctx, e->pid);
	n->tid = e->pid;
	n->last_seq = e->seq;
	const struct rc_fd *fd = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;
	n->stack_seq = fd && fd->connected_seq ? fd->connected_seq : e->seq;
	n->last_ts = e->ts;
	if (server)
		finding_set(&n->server, server);
	set_line(n->fail_line ? &n->last_fail_line : &n->fail_line, e);
}

static enum outcome errno_outcome(int err)
{
	return err == ECONNREFUSED ? OUT_CONNREFUSED : OUT_UNREACHABLE;
}

static bool net_errno(int err)
{
	switch (err) {
	case ECONNREFUSED:
	case ENETUNREACH:
	case EHOSTUNREACH:
	case ENETDOWN:
	case EPERM:
	case EACCES:
		return true;
	default:
		return false;
	}
}

/* The socket said it was ready after the query, and the resolver sent
 * again or gave up instead of reading: what was there was an error (glibc
 * sees POLLERR after an ICMP port unreachable and never calls recv). */
static void unanswered(struct state *s, struct dns_sock *d, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!d->awaiting || !d->ready_unread)
		return;
	d->ready_unread = false;
	struct name_rec *n = name_get(s, d->name ? d->name : "", d->name_cut, e);
	if (n)
		failed(n, e, ctx, OUT_SOCKERR, d->server);
}

static void on_send(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	bool tcp;
	char *server = dns_server(e, ctx, &tcp);

	if (!server)
		return;
	struct dns_msg m;
	bool parsed = dns_parse(e->data, dns_bytes(e), e->data_truncated || e->data_omitted, tcp, &m);
	if (parsed && m.response) {
		free(m.name);
		free(server);
		return;
	}
	struct dns_sock *d = sock_get(s, e, ctx, e->fd, true);
	unanswered(s, d, e, ctx);
	if (parsed && m.name) {
		free(d->name);
		d->name = m.name;
		d->name_cut = m.name_cut;
	} else if (parsed) {
		free(m.name);
	}
	finding_set(&d->server, server);
	d->tcp = tcp;
	struct name_rec *n = name_get(s, d->name ? d->name : "", d->name_cut, e);
	if (n) {
		finding_set(&n->server, server);
		if (!event_failed(e)) {
			n->queries++;
			set_line(n->query_line ? &n->last_query_line : &n->query_line, e);
		} else if (net_errno(e->err)) {
			n->err = e->err;
			failed(n, e, ctx, errno_outcome(e->err), server);
		}
	}
	d->awaiting = !event_failed(e);
	d->expired = false;
	d->sent_ts = e->ts;
	d->sent_seq = e->seq;
	d->sent_tid = e->pid;
	free(server);
}

static void on_recv(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	bool tcp;
	char *server = dns_server(e, ctx, &tcp);
	struct dns_sock *d = sock_get(s, e, ctx, e->fd, false);

	if (!server && !d)
		return;
	if (!server && d && d->server)
		server = xstrdup(d->server);
	if (d) {
		tcp = tcp || d->tcp;
		d->ready_unread = false;
	}

	if (event_failed(e)) {
		if (net_errno(e->err) && d && d->awaiting) {
			struct name_rec *n = name_get(s, d->name ? d->name : "", d->name_cut, e);
			if (n) {
				n->err = e->err;
				failed(n, e, ctx, errno_outcome(e->err), server);
			}
			d->awaiting = false;
		}
		free(server);
		return;
	}
	struct dns_msg m;
	bool parsed = e->ret_known && e->ret > 0 &&
		      dns_parse(e->data, dns_bytes(e), e->data_truncated || e->data_omitted, tcp, &m);
	if (!parsed || !m.response || m.tc) {
		if (e->ret_known && e->ret > 0 && d)
			d->awaiting = false;	/* an answer, unseen or cut */
		if (parsed)
			free(m.name);
		free(server);
		return;
	}
	const char *name = m.name ? m.name : d && d->name ? d->name : "";
	bool cut = m.name ? m.name_cut : d && d->name_cut;
	struct name_rec *n = name_get(s, name, cut, e);
	if (n) {
		if (m.rcode == 0 && m.ancount > 0) {
			n->ok = true;
			n->ok_seq = e->seq;
		} else if (m.rcode == 0) {
			failed(n, e, ctx, OUT_NODATA, server);
		} else {
			enum outcome o = m.rcode == 3 ? OUT_NXDOMAIN : m.rcode == 2 ? OUT_SERVFAIL :
					 m.rcode == 5 ? OUT_REFUSED : OUT_OTHER_RCODE;
			n->rcode = m.rcode;
			failed(n, e, ctx, o, server);
		}
	}
	if (d)
		d->awaiting = false;
	free(m.name);
	free(server);
}

static void on_connect(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!event_failed(e) || !net_errno(e->err) || e->sa.port != RULE_DNS_PORT ||
	    (e->sa.family != AF_INET && e->sa.family != AF_INET6))
		return;
	char *server = rule_addr_format(e->sa.family, e->sa.host, e->sa.port, false);
	struct name_rec *n = name_get(s, "", false, e);
	if (n) {
		n->err = e->err;
		failed(n, e, ctx, errno_outcome(e->err), server);
	}
	free(server);
}

static void on_poll_expired(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	double waited = e->dur >= 0 ? e->dur : e->timeout_ms > 0 ? (double)e->timeout_ms / 1000.0 : 0;

	for (int i = 0; i < e->nfds && i < RC_EVENT_MAX_FDS; i++) {
		struct dns_sock *d = sock_get(s, e, ctx, e->fds[i], false);
		if (!d || !d->awaiting)
			continue;
		struct name_rec *n = name_get(s, d->name ? d->name : "", d->name_cut, e);
		if (!n)
			continue;
		d->expired = true;
		n->waited += waited;
		failed(n, e, ctx, OUT_TIMEOUT, d->server);
	}
}

static void on_poll_ready(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct dns_sock *d = sock_get(s, e, ctx, e->fds[0], false);

	if (d && d->awaiting)
		d->ready_unread = true;
}

/* A poll or select with a timeout: on the resolver's sockets, it expired
 * or said one was ready. */
static void on_poll(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!s->socks.count || !e->ret_known || e->err || e->timeout_ms == 0)
		return;
	if (e->ret == 0)
		on_poll_expired(s, e, ctx);
	else if (e->nfds == 1)
		on_poll_ready(s, e, ctx);
}

static void on_close(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct sock_key k = { rule_leader(ctx, e->pid), e->fd };
	struct dns_sock *d = hmap_del(&s->socks, &k, sizeof(k));

	if (d)
		unanswered(s, d, e, ctx);
	/* Closed with its query unanswered, no poll on it expiring: the
	 * resolver waited elsewhere (epoll, a read that said EAGAIN) and
	 * gave up. */
	if (d && d->awaiting && !d->expired && d->name) {
		struct name_rec *n = name_get(s, d->name, d->name_cut, e);
		if (n) {
			if (e->ts >= 0 && d->sent_ts >= 0 && e->ts > d->sent_ts)
				n->waited += e->ts - d->sent_ts;
			failed(n, e, ctx, OUT_TIMEOUT, d->server);
		}
	}
	sock_free(d);
}

/* Queries still unanswered when the trace ended, in processes that had
 * not: long enough, or at the end of an excerpt. */
static void pending_at_end(struct state *s, const struct rc_ctx *ctx)
{
	struct hmap_iter it;

	for (struct hmap_node *h = hmap_first(&s->socks, &it); h; h = hmap_next(&s->socks, &it)) {
		struct dns_sock *d = h->value;
		struct sock_key key;
		memcpy(&key, h->key, sizeof(key));
		const struct sock_key *k = &key;
		const struct rc_proc *p = procs_get(ctx->procs, k->pid);
		if (!d->awaiting || d->expired || !d->name || (p && p->ended))
			continue;
		bool timed = ctx->max_ts >= 0 && d->sent_ts >= 0;
		if (!(timed && ctx->max_ts - d->sent_ts >= AT_END_WAIT_S) && ctx->nevents > EXCERPT_EVENTS)
			continue;
		struct rc_event at_end;
		event_clear(&at_end);
		at_end.kind = RC_EV_SYSCALL;
		at_end.pid = d->sent_tid;
		at_end.seq = d->sent_seq;
		at_end.ts = d->sent_ts;
		at_end.fd = k->fd;
		struct name_rec *n = name_get(s, d->name, d->name_cut, &at_end);
		if (!n)
			continue;
		if (timed && ctx->max_ts - d->sent_ts >= AT_END_WAIT_S)
			n->waited += ctx->max_ts - d->sent_ts;
		n->at_end = true;
		failed(n, &at_end, ctx, OUT_TIMEOUT, d->server);
	}
}

static void on_open(struct state *s, const struct rc_event *e)
{
	if (!event_failed(e) || !e->path || strcmp(e->path, "/etc/resolv.conf") != 0)
		return;
	set_line(&s->resolv_conf_line, e);
	s->resolv_conf_err = e->err;
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL)
		return;
	/* A query or an answer: the calls that move data through a socket
	 * (the table's CL_SOCK_IO), and a read or write on a socket
	 * connected to a DNS server. */
	unsigned long long cl = syscall_classes(e->nr);
	if ((cl & CL_SOCK_IO) || ((cl & (CL_READ | CL_WRITE)) && e->fd > 2 && dns_peer(procs_fd(ctx->procs, e->pid, e->fd)))) {
		if ((cl & CL_WRITE) && e->fd >= 0 && e->fd != 1 && e->fd != 2)
			on_send(s, e, ctx);
		else if ((cl & CL_READ) && e->fd >= 0 && (s->socks.count || e->sa.port == RULE_DNS_PORT))
			on_recv(s, e, ctx);
		return;
	}
	switch (e->nr) {
	case SYS_connect:
		on_connect(s, e, ctx);
		break;
	case SYS_close:
		if (s->socks.count)
			on_close(s, e, ctx);
		break;
	default:
		if (rule_is_open(e->nr))
			on_open(s, e);
		else if (rule_is_poll(e->nr))
			on_poll(s, e, ctx);
		break;
	}
}

static bool any_failure(const struct name_rec *n)
{
	for (int o = 0; o < OUT_COUNT; o++)
		if (n->counts[o])
			return true;
	return false;
}

/* True when FAILED is a search-list variant of a name that resolved:
 * "x.corp.example" for "x", or "x" for "x.corp.example". */
static bool search_variant(const struct state *s, const struct name_rec *failed_rec)
{
	const char *a = failed_rec->name;
	size_t an = strlen(a);
	struct hmap_iter it;

	if (!an)
		return false;
	for (struct hmap_node *node = hmap_first(&s->names, &it); node; node = hmap_next(&s->names, &it)) {
		const struct name_rec *o = node->value;
		if (!o->ok || o == failed_rec)
			continue;
		size_t bn = strlen(o->name);
		if (!bn)
			continue;
		if ((an > bn && strncmp(a, o->name, bn) == 0 && a[bn] == '.') ||
		    (bn > an && strncmp(o->name, a, an) == 0 && o->name[an] == '.'))
			return true;
	}
	return false;
}

static void outcome_list(struct strbuf *sb, const struct name_rec *n)
{
	bool first = true;

	for (size_t i = 0; i < OUT_COUNT; i++) {
		enum outcome o = priority[i];
		if (!n->counts[o])
			continue;
		if (!first)
			strbuf_adds(sb, ", ");
		first = false;
		if (o == OUT_OTHER_RCODE && n->rcode >= 0)
			strbuf_addf(sb, "rcode %d", n->rcode);
		else
			strbuf_adds(sb, outcome_text[o]);
		if (n->counts[o] > 1)
			strbuf_addf(sb, " x%llu", (unsigned long long)n->counts[o]);
	}
}

static void advise(struct rc_finding *f, const struct name_rec *n, enum outcome o, const struct state *s)
{
	const char *srv = n->server ? n->server : "the DNS server";
	struct strbuf sb = STRBUF_INIT;

	switch (o) {
	case OUT_NXDOMAIN:
		strbuf_addf(&sb, "the name does not exist in DNS: check its spelling in the program's "
			    "configuration (a URL, a mirror or endpoint setting) and try `getent hosts %s`",
			    n->name[0] && !n->name_cut ? n->name : "NAME");
		break;
	case OUT_SERVFAIL:
	case OUT_REFUSED:
	case OUT_OTHER_RCODE:
		strbuf_addf(&sb, "%s could not answer: its upstream is unreachable or it does not serve this "
			    "client; check `resolvectl status` or the nameserver lines of /etc/resolv.conf", srv);
		break;
	case OUT_CONNREFUSED:
	case OUT_SOCKERR:
		strbuf_addf(&sb, "no DNS server listens on %s: the local resolver (systemd-resolved, dnsmasq) "
			    "is not running, or /etc/resolv.conf names the wrong nameserver", srv);
		break;
	case OUT_UNREACHABLE:
		strbuf_addf(&sb, "%s cannot be reached: no network route to it or a firewall blocks "
			    "port 53; check `ip route` and the nameserver in /etc/resolv.conf", srv);
		break;
	case OUT_TIMEOUT:
		strbuf_addf(&sb, "%s did not answer: the network to it is blocked or the server is down; "
			    "check the nameserver in /etc/resolv.conf (inside containers too) and try "
			    "`dig @SERVER NAME`", srv);
		break;
	default:
		strbuf_adds(&sb, "the name has no address records (A/AAAA): check the name, or the DNS "
			    "zone that should publish it");
		break;
	}
	if (s->resolv_conf_line)
		strbuf_adds(&sb, "; /etc/resolv.conf could not be opened, so the resolver fell back to "
			    "127.0.0.1: create it");
	f->advice = strbuf_detach(&sb);
}

static void emit(const void *value, const void *state, struct rc_findings *out)
{
	const struct state *s = state;
	const struct name_rec *n = value;
	enum outcome top = OUT_COUNT;
	for (size_t i = 0; i < OUT_COUNT && top == OUT_COUNT; i++)
		if (n->counts[priority[i]])
			top = priority[i];
	if (top == OUT_COUNT)
		return;

	struct strbuf name = STRBUF_INIT;
	if (n->name[0])
		strbuf_addf(&name, "'%s%s'", n->name, n->name_cut ? "..." : "");
	struct strbuf msg = STRBUF_INIT;
	outcome_list(&msg, n);

	struct strbuf sb = STRBUF_INIT;
	if (n->ok) {
		strbuf_addf(&sb, "DNS lookup of %s was slow: %s before it resolved", strbuf_str(&name),
			    strbuf_str(&msg));
	} else if (!n->name[0]) {
		strbuf_addf(&sb, "DNS server '%s' could not be used: %s", n->server ? n->server : "?",
			    outcome_text[top]);
	} else {
		strbuf_addf(&sb, "DNS lookup of %s failed: %s", strbuf_str(&name), outcome_text[top]);
		if (n->server)
			strbuf_addf(&sb, " from '%s'", n->server);
	}
	if (top == OUT_TIMEOUT && n->waited > 0)
		strbuf_addf(&sb, " after %.1f s", n->waited);
	if (top == OUT_TIMEOUT && n->at_end)
		strbuf_adds(&sb, ", still waiting when the trace ended");

	struct rc_finding *f = rule_finding(out, RULE_ID, n->ok ? RC_SEV_WARNING : RC_SEV_ERROR,
					    n->ok ? RC_SEV_INFO : RC_SEV_WARNING, &sb);
	rule_finding_pid(f, n->pid, n->tid);
	if (n->name[0])
		finding_setf(&f->host, "%s%s", n->name, n->name_cut ? "..." : "");
	finding_set(&f->address, n->server);
	if (n->err)
		f->err = n->err;
	f->message = strbuf_detach(&msg);
	f->count = (long long)(n->queries ? n->queries : 1);
	if (n->waited > 0)
		f->duration_s = n->waited;
	const char *ev[] = { n->query_line, n->fail_line, n->last_query_line, n->last_fail_line };
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
		rule_evidence(f, ev[i]);
	rule_evidence(f, s->resolv_conf_line);
	advise(f, n, top, s);
	f->seq = n->last_seq;
	f->stack_seq = n->stack_seq;
	f->ts = n->last_ts;
	f->unrecovered = !n->ok;

	/* What clients print: curl and requests name the host; glibc's
	 * gai_strerror says "Name or service not known", "Temporary failure
	 * in name resolution" or "No address associated with hostname". */
	if (n->name[0])
		finding_echo_name(f, n->name);
	finding_echo_word(f, "resol");
	if (top == OUT_NXDOMAIN)
		finding_echo_word(f, "name or service");
	else if (top == OUT_NODATA)
		finding_echo_word(f, "no address");
	else
		finding_echo_word(f, "temporary failure");
	strbuf_release(&name);
}

/* The names to report on: those that failed and never resolved, unless
 * a search-list variant did, and those that resolved after a wait. */
static bool reported(const void *value, const void *state)
{
	const struct name_rec *r = value;

	if (!any_failure(r))
		return false;
	/* Resolved: only a wait worth telling. */
	if (r->ok)
		return r->counts[OUT_TIMEOUT] != 0;
	return !search_variant(state, r);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	pending_at_end(s, ctx);
	rule_report_in_order(&s->names, reported, offsetof(struct name_rec, first_seq), emit, s, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, s->dropped,
			     "DNS lookups of %llu more names were not followed",
			     "the program looked up very many names; the ones above show the pattern");
}

/* What on_event reads: its own switch's calls, and poll. */
static const long reads_calls[] = {
#ifdef SYS_send
	SYS_send,
#endif
#ifdef SYS_recv
	SYS_recv,
#endif
#ifdef SYS_open
	SYS_open,
#endif
	SYS_sendto, SYS_sendmsg, SYS_sendmmsg, SYS_write, SYS_writev, SYS_recvfrom, SYS_recvmsg,
	SYS_recvmmsg, SYS_read, SYS_readv, SYS_connect, SYS_close, SYS_openat, -1,
};

const struct rc_rule_ops rc_rule_dns_failure_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .classes = CL_POLL | CL_SOCK_IO | CL_READ | CL_WRITE | CL_OPEN, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
