/* fd-exhausted: a process ran out of file descriptors. Any call that
 * makes an fd (open, socket, accept, pipe, dup, epoll_create...) failed
 * with EMFILE (the process's RLIMIT_NOFILE) or ENFILE (the system's
 * fs.file-max).
 *
 * A service that leaks sockets or files works for hours, then every new
 * connection or file fails with "Too many open files". One finding per
 * process and errno: the call that failed first, how often it happened,
 * and how many fds the process model knew open at that moment (a lower
 * bound: fds inherited or opened before an attach are not all known).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "fd-exhausted"
/* Processes tracked; more are counted. */
#define MAX_RECS 64

struct fd_rec {
	int pid, tid;
	int err;
	unsigned long long count;
	size_t open_fds;	/* fds known open at the first failure */
	char *syscall;
	char *first_line, *last_line;
	uint64_t seq;
	double ts;
};

struct state {
	struct fd_rec recs[MAX_RECS];
	size_t n;
	unsigned long long dropped;
};

static void release(void *p)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++) {
		free(s->recs[i].syscall);
		free(s->recs[i].first_line);
		free(s->recs[i].last_line);
	}
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL || (e->err != EMFILE && e->err != ENFILE) || e->interrupted)
		return;
	int pid = rule_leader(ctx, e->pid);
	struct fd_rec *r = NULL;
	for (size_t i = 0; i < s->n && !r; i++)
		if (s->recs[i].pid == pid && s->recs[i].err == e->err)
			r = &s->recs[i];
	if (!r) {
		if (s->n == MAX_RECS) {
			s->dropped++;
			return;
		}
		r = &s->recs[s->n++];
		memset(r, 0, sizeof(*r));
		r->pid = pid;
		r->tid = e->pid;
		r->err = e->err;
		r->syscall = xstrdup(e->name ? e->name : "?");
		r->first_line = rule_line_short(e);
		const struct rc_proc *pr = procs_get(ctx->procs, e->pid);
		r->open_fds = pr && pr->fdt ? pr->fdt->fds.count : 0;
	} else {
		free(r->last_line);
		r->last_line = rule_line_short(e);
	}
	r->count++;
	r->seq = e->seq;
	r->ts = e->ts;
}

static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct fd_rec *r)
{
	struct strbuf sb = STRBUF_INIT, who = STRBUF_INIT;
	const struct rc_proc *pr = procs_get(ctx->procs, r->pid);

	proc_name(&who, pr, r->pid);
	if (r->err == EMFILE)
		strbuf_addf(&sb, "%s ran out of file descriptors: %s failed with EMFILE", who.buf, r->syscall);
	else
		strbuf_addf(&sb, "the system ran out of file descriptors: %s of %s failed with ENFILE", r->syscall,
			    who.buf);
	if (r->count > 1)
		strbuf_addf(&sb, " (%llu times)", r->count);
	if (r->open_fds > 3)
		strbuf_addf(&sb, ", with at least %zu fds open", r->open_fds);
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, &sb);
	rule_finding_pid(f, r->pid, r->tid);
	finding_set(&f->syscall, r->syscall);
	f->err = r->err;
	f->count = (long long)r->count;
	rule_evidence(f, r->first_line);
	rule_evidence(f, r->last_line);
	if (r->err == EMFILE)
		finding_setf(&f->advice, "the process reached its open-file limit (RLIMIT_NOFILE): if it needs "
			     "that many, raise it (`ulimit -n`, LimitNOFILE= in a systemd unit, --ulimit nofile= "
			     "for docker); if not, it leaks them: `ls -l /proc/%d/fd` shows what is open", r->pid);
	else
		finding_setf(&f->advice, "the whole system reached fs.file-max: see /proc/sys/fs/file-nr and "
			     "which processes hold the most fds, or raise fs.file-max");
	f->seq = r->seq;
	f->ts = r->ts;
	f->unrecovered = true;
	finding_echo_word(f, "too many open files");
	strbuf_release(&who);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;

	for (size_t i = 0; i < s->n; i++)
		emit(out, ctx, &s->recs[i]);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more calls failed with EMFILE or ENFILE, in processes not tracked",
			     "see the findings above: the same causes apply");
}

const struct rc_rule_ops rc_rule_fd_exhausted_ops = {
	.state_size = sizeof(struct state),
	.release = release,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED },
	.finish = finish,
};
