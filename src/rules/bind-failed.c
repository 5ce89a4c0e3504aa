/* bind-failed: a server could not take its address. bind() failed with
 *  - EADDRINUSE: another process listens there (or a unix socket's file
 *    is left from a previous run);
 *  - EACCES: a port below 1024 without CAP_NET_BIND_SERVICE, or a unix
 *    socket in a directory the program may not write;
 *  - EADDRNOTAVAIL: the address is not one of this host's;
 *  - ENOENT, ENOTDIR (unix sockets): the directory the socket file goes
 *    in does not exist. The program's own words rarely help there: redis
 *    says "Failed opening Unix socket: bind: No such file or directory",
 *    naming no path, so the path comes from the call.
 *
 * Story 1: a service that "won't start" because its port is taken says
 * "OSError: [Errno 98] Address already in use" and exits; this names the
 * address and how to find who holds it. One finding per address: a
 * program that retries is one finding with the count. A later bind of the
 * same address that succeeds (it waited until the old socket went) means
 * it recovered; a program that then bound another address instead (a
 * free-port search) only gets a note.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "bind-failed"
/* Addresses tracked; more failing addresses than this are counted. */
#define MAX_ADDRS 64

struct bind_rec {
	char *addr;		/* "127.0.0.1:8080", "[::1]:80", "/run/app.sock" */
	char *host;
	int family;
	int port;
	int err;
	bool udp;
	bool recovered;
	int pid, tid;
	unsigned long long count;
	char *line;		/* the first failing bind */
	uint64_t seq;
	double ts;
};

struct state {
	struct bind_rec recs[MAX_ADDRS];
	size_t n;
	unsigned long long dropped;
	/* A bind of some other address succeeded after a failure: the
	 * program chose another port. */
	bool bound_elsewhere;
};

static void release(void *p)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++) {
		free(s->recs[i].addr);
		free(s->recs[i].host);
		free(s->recs[i].line);
	}
}

static struct bind_rec *find(struct state *s, const char *addr)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->recs[i].addr, addr) == 0)
			return &s->recs[i];
	return NULL;
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL || e->nr != SYS_bind || !e->ret_known || e->interrupted)
		return;
	int fam = e->sa.family;
	if ((fam != AF_INET && fam != AF_INET6 && fam != AF_UNIX) || !e->sa.host)
		return;
	/* An abstract unix name or an unnamed one is nobody's file. */
	if (fam == AF_UNIX && !e->sa.host[0])
		return;
	char *addr = rule_addr_format(fam, e->sa.host, e->sa.port, e->sa.abstract);
	struct bind_rec *r = find(s, addr);

	if (!e->err) {
		if (r)
			r->recovered = true;
		else if (s->n)
			s->bound_elsewhere = true;
		free(addr);
		return;
	}
	bool no_dir = fam == AF_UNIX && (e->err == ENOENT || e->err == ENOTDIR);
	if (e->err != EADDRINUSE && e->err != EACCES && e->err != EADDRNOTAVAIL && !no_dir) {
		free(addr);
		return;
	}
	if (!r) {
		if (s->n == MAX_ADDRS) {
			s->dropped++;
			free(addr);
			return;
		}
		r = &s->recs[s->n++];
		memset(r, 0, sizeof(*r));
		r->addr = addr;
		addr = NULL;
		r->host = xstrdup(e->sa.host);
		r->family = fam;
		r->port = e->sa.port;
		r->pid = rule_leader(ctx, e->pid);
		r->tid = e->pid;
		r->line = rule_line_short(e);
		const struct rc_fd *f = procs_fd(ctx->procs, e->pid, e->fd);
		r->udp = f && f->kind == RC_FD_SOCKET && f->sock_type == SOCK_DGRAM;
	}
	free(addr);
	r->count++;
	r->err = e->err;
	r->recovered = false;
	r->seq = e->seq;
	r->ts = e->ts;
}

/* A unix socket whose directory is missing: bind creates the socket file,
 * never the directories above it. */
static void advise_no_dir(struct rc_finding *f, const struct rc_ctx *ctx, const struct bind_rec *r)
{
	struct strbuf dir = STRBUF_INIT, gone = STRBUF_INIT;

	fp_dir(&dir, r->host);
	finding_setf(&f->advice, "bind creates the socket file but not its directory: create '%s' before the "
		     "service starts (mkdir -p, owned by the user it runs as; RuntimeDirectory= makes one "
		     "under /run for a systemd unit), or point the service at a directory that exists",
		     dir.buf);
	if (rule_missing_dir(&gone, ctx, r->pid, r->host) && strcmp(gone.buf, dir.buf) != 0) {
		finding_setf(&f->advice, "%s; '%s' is the first directory missing on the way now", f->advice,
			     gone.buf);
		finding_now(f, gone.buf);
	}
	strbuf_release(&dir);
	strbuf_release(&gone);
}

static void advise(struct rc_finding *f, const struct rc_ctx *ctx, const struct bind_rec *r)
{
	if (r->family == AF_UNIX) {
		if (r->err == EADDRINUSE)
			finding_setf(&f->advice, "a socket file is left at '%s' from an earlier run: remove it "
				     "before the service starts (or have the service unlink it first), after "
				     "checking that no running process still serves it", r->addr);
		else if (r->err == EACCES)
			finding_setf(&f->advice, "the user the program runs as may not create '%s': give it "
				     "write permission on the directory, or put the socket where it may write",
				     r->addr);
		else if (r->err == ENOENT)
			advise_no_dir(f, ctx, r);
		else if (r->err == ENOTDIR)
			finding_setf(&f->advice, "a file stands where a directory is expected on the way to "
				     "'%s': check the socket's path, or remove the file that is in the way", r->addr);
		else
			finding_setf(&f->advice, "check the socket's path '%s'", r->addr);
		return;
	}
	switch (r->err) {
	case EADDRINUSE:
		finding_setf(&f->advice, "another process already has port %d: `ss -%snp 'sport = :%d'` shows "
			     "which; stop it or give this service another port. If it is an earlier instance "
			     "of this service, wait for it to exit before starting the new one",
			     r->port, r->udp ? "lu" : "lt", r->port);
		break;
	case EACCES:
		if (r->port > 0 && r->port < 1024)
			finding_setf(&f->advice, "ports below 1024 need privilege: use a port of 1024 or "
				     "more, or give the program CAP_NET_BIND_SERVICE (setcap "
				     "'cap_net_bind_service=+ep' on its binary, or AmbientCapabilities= in its "
				     "systemd unit)");
		else
			finding_setf(&f->advice, "a security policy (SELinux, AppArmor, a seccomp or BPF "
				     "filter) refused the bind: check the audit log");
		break;
	default:
		finding_setf(&f->advice, "'%s' is not an address of this host: bind to one `ip -br addr` "
			     "lists, or to 0.0.0.0 or [::] for every interface", r->host);
		break;
	}
}

static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct state *s, const struct bind_rec *r)
{
	struct strbuf sb = STRBUF_INIT, dir = STRBUF_INIT, why_dir = STRBUF_INIT;
	const char *why;

	if (r->family == AF_UNIX && r->err == ENOENT) {
		strbuf_addf(&why_dir, "directory '%s' does not exist", fp_dir(&dir, r->host));
		why = why_dir.buf;
	} else if (r->family == AF_UNIX && r->err == ENOTDIR) {
		why = "a component of its path is not a directory";
	} else if (r->family == AF_UNIX) {
		why = r->err == EADDRINUSE ? "the file already exists" :
		      r->err == EACCES	   ? "permission denied" : "the address is not available";
	} else if (r->err == EADDRINUSE) {
		why = "the address is already in use";
	} else if (r->err == EACCES) {
		why = r->port > 0 && r->port < 1024 ? "a port below 1024 needs privilege" : "permission denied";
	} else {
		why = "the address is not on this host";
	}
	strbuf_addf(&sb, "cannot %s '%s': %s", r->udp || r->family == AF_UNIX ? "bind" : "listen on", r->addr,
		    why);
	strbuf_release(&dir);
	strbuf_release(&why_dir);
	if (r->count > 1)
		strbuf_addf(&sb, " (%llu attempts)", r->count);
	/* A search for a free port (bind, fail, try the next) recovered. */
	bool soft = r->recovered || s->bound_elsewhere;
	if (r->recovered)
		strbuf_adds(&sb, ", later bound");
	else if (s->bound_elsewhere)
		strbuf_adds(&sb, ", then another address was bound");
	struct rc_finding *f = rule_finding(out, RULE_ID, soft ? RC_SEV_INFO : RC_SEV_ERROR,
					    soft ? RC_SEV_INFO : RC_SEV_WARNING, &sb);
	rule_finding_pid(f, r->pid, r->tid);
	finding_set(&f->syscall, "bind");
	f->err = r->err;
	finding_set(&f->address, r->addr);
	if (r->family == AF_UNIX)
		finding_set(&f->path, r->addr);
	f->count = (long long)r->count;
	rule_evidence(f, r->line);
	advise(f, ctx, r);
	f->seq = r->seq;
	f->ts = r->ts;
	f->unrecovered = !r->recovered;
	finding_echo_word(f, r->err == EADDRINUSE ? "in use" : r->err == EACCES ? "permission denied" :
			     r->err == EADDRNOTAVAIL ? "assign requested address" :
			     r->err == ENOENT ? "no such file" : "not a directory");
	finding_echo_name(f, r->addr);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++)
		emit(out, ctx, s, &s->recs[i]);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more binds failed, on addresses not tracked",
			     "see the findings above: the same causes apply");
}

static const long reads_calls[] = { SYS_bind, -1 };

const struct rc_rule_ops rc_rule_bind_failed_ops = {
	.state_size = sizeof(struct state),
	.release = release,
	.on_event = on_event,
	.reads = { .calls = reads_calls },
	.finish = finish,
};
