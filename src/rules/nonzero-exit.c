/* nonzero-exit: a process that exited with a non-zero status.
 *
 * An outcome, not a cause (symptom): the causes other rules find rank
 * above it. One finding per failing process that matters:
 *  - a child whose parent (or a later ancestor: a subshell passes the
 *    status on) went on to exit 0 was handled (`grep` finding nothing in
 *    a pipeline, `which` probing, ldd trying loaders) and is not reported,
 *    except for 126/127 (a command that could not be run), as a note;
 *  - a parent that merely passes on the status of a child that just
 *    failed with the same status says so and is only a note, so the child
 *    that really failed comes first.
 * A process that another traced process told to end with a signal (a
 * postmaster's SIGQUIT to its other children after one failed, a
 * supervisor's SIGTERM) and that exited soon after, from its handler,
 * ended because it was told to: the finding names the sender
 * (sender_pid), and causes.c puts it under what made the sender act.
 * Evidence: the process's execve and its exit.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "gen/tables.h"
#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "nonzero-exit"
#define MAX_EXECS 4096
#define MAX_EXITS 256
/* Findings written; the rest are counted in one more. */
#define MAX_REPORTED 32
/* Live processes whose last stop request is remembered; past it the
 * request is not seen (counted in signals_dropped). */
#define MAX_SIGNALLED 4096
/* Calls after the request within which an exit is its answer: a handler
 * cleans up and exits; a process that went on for longer kept running. */
#define ANSWER_WINDOW 500

struct exit_rec {
	int pid;
	int code;
	char *exec_line;
	char *exit_line;
	uint64_t seq;
	double ts;
	int sender;		/* the leader that told it to end, 0 none */
	int signo;
};

/* The last signal asking a process to end that another traced process
 * sent it. */
struct request {
	int sender;		/* the sender's leader */
	int signo;
	uint64_t nsys;		/* the receiver's calls before it */
};

struct state {
	struct hmap execs;	/* pid -> execve line */
	struct hmap requests;	/* leader -> struct request */
	struct exit_rec exits[MAX_EXITS];
	size_t nexits;
	uint64_t dropped;
	uint64_t signals_dropped;
};

static void init(void *p)
{
	struct state *s = p;

	hmap_init(&s->execs);
	hmap_init(&s->requests);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->execs, free);
	hmap_release(&s->requests, free);
	for (size_t i = 0; i < s->nexits; i++) {
		free(s->exits[i].exec_line);
		free(s->exits[i].exit_line);
	}
}

/* A signal another process sent (si_code SI_USER, SI_QUEUE, SI_TKILL: a
 * kill-like call, whose si_pid is the sender). */
static void on_signal(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (e->sender_pid <= 0 || e->si_code > 0 || !event_signal_ends(e->signo))
		return;
	int leader = rule_leader(ctx, e->pid), sender = rule_leader(ctx, e->sender_pid);
	if (sender == leader)
		return;
	bool created;
	struct request *r = rule_int_value(&s->requests, leader, true, sizeof(*r), MAX_SIGNALLED, &created);
	if (!r) {
		s->signals_dropped++;
		return;
	}
	const struct rc_proc *l = procs_get(ctx->procs, leader);
	r->sender = sender;
	r->signo = e->signo;
	r->nsys = l ? l->nsyscalls : 0;
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind == RC_EV_SIGNAL) {
		on_signal(s, e, ctx);
		return;
	}
	if (e->kind == RC_EV_SYSCALL) {
		if (!syscall_is(e->nr, CL_EXEC) || e->err || !e->ret_known)
			return;
		bool created;
		if (s->execs.count >= MAX_EXECS && !hmap_get_int(&s->execs, e->pid))
			return;
		void **slot = hmap_put_int(&s->execs, e->pid, &created);
		free(*slot);
		*slot = rule_line_short(e);
		return;
	}
	if (e->kind != RC_EV_EXIT)
		return;
	char *exec_line = hmap_del_int(&s->execs, e->pid);
	const struct rc_proc *l = procs_leader(ctx->procs, e->pid);
	/* Every thread of an exiting process shows the status: one is enough. */
	if (l && l->pid != e->pid) {
		free(exec_line);
		return;
	}
	struct request *req = hmap_del_int(&s->requests, e->pid);
	if (!e->exited || e->exit_code == 0) {
		free(req);
		free(exec_line);
		return;
	}
	if (s->nexits >= MAX_EXITS) {
		s->dropped++;
		free(req);
		free(exec_line);
		return;
	}
	struct exit_rec *r = &s->exits[s->nexits++];
	r->pid = e->pid;
	r->code = e->exit_code;
	r->sender = 0;
	r->signo = 0;
	if (req && (!l || l->nsyscalls - req->nsys <= ANSWER_WINDOW)) {
		r->sender = req->sender;
		r->signo = req->signo;
	}
	free(req);
	r->exec_line = exec_line;
	r->exit_line = rule_line_short(e);
	r->seq = e->seq;
	r->ts = e->ts;
}

/* A failed child of PID with the same status that ended before it. */
static const struct exit_rec *passed_on(const struct state *s, const struct exit_rec *r,
					const struct rc_ctx *ctx)
{
	const struct exit_rec *best = NULL;

	for (size_t i = 0; i < s->nexits; i++) {
		const struct exit_rec *c = &s->exits[i];
		const struct rc_proc *cp = procs_get(ctx->procs, c->pid);
		if (c == r || c->code != r->code || c->seq > r->seq || !cp || !cp->has_parent || cp->ppid != r->pid)
			continue;
		if (!best || c->seq > best->seq)
			best = c;
	}
	return best;
}

static void advise(struct rc_finding *f, int code)
{
	if (code == 127) {
		finding_set(&f->advice, "a command could not be found: check its name and PATH, or a "
			    "shared library it needs (exec-failed and missing-library findings name it)");
	} else if (code == 126) {
		finding_set(&f->advice, "a command was found but could not be run: no exec bit (`chmod +x`), "
			    "a directory, or a bad #! line");
	} else if (code > 128 && code <= 128 + 64) {
		const char *sig = xlat_name(&rc_xlat_signal, code - 128);
		finding_setf(&f->advice, "status %d is 128+%d: a shell passing on a child killed by %s; the "
			     "crashed finding names it", code, code - 128, sig ? sig : "a signal");
	} else {
		finding_set(&f->advice, "the program reported a failure: the findings ranked above and its "
			    "last words on stderr say why");
	}
}

static void emit(const struct state *s, const struct exit_rec *r, const struct rc_ctx *ctx,
		 struct rc_findings *out)
{
	const struct rc_proc *p = procs_get(ctx->procs, r->pid);
	const struct rc_proc *parent = rule_parent(ctx, p);
	bool handled = rule_handled(ctx, p);
	bool could_not_run = r->code == 126 || r->code == 127;
	enum rc_severity sev = RC_SEV_ERROR, sev_ok = RC_SEV_WARNING;

	if (handled && !could_not_run)
		return;
	if (handled) {
		sev = RC_SEV_INFO;
		sev_ok = RC_SEV_INFO;
	} else if (parent && !parent->ended) {
		/* The parent lives on (a server's worker, or the trace ended
		 * first): it may well cope. */
		sev = RC_SEV_WARNING;
		sev_ok = RC_SEV_INFO;
	}
	const struct exit_rec *child = passed_on(s, r, ctx);
	if (child) {
		sev = RC_SEV_INFO;
		sev_ok = RC_SEV_INFO;
	}

	struct strbuf sb = STRBUF_INIT;
	proc_name(&sb, p, r->pid);
	strbuf_addf(&sb, " exited with status %d", r->code);
	double dur = -1;
	if (ctx->has_time && p && p->first_ts >= 0 && p->end_ts >= p->first_ts)
		dur = p->end_ts - p->first_ts;
	if (dur >= 0.1)
		strbuf_addf(&sb, " after %.1f s", dur);
	if (child) {
		const struct rc_proc *cp = procs_get(ctx->procs, child->pid);
		strbuf_adds(&sb, ", passing on the status of ");
		proc_name(&sb, cp, child->pid);
	}
	if (r->sender) {
		const char *sig = xlat_name(&rc_xlat_signal, r->signo);
		strbuf_addf(&sb, ", told to stop by %s from ", sig ? sig : "a signal");
		proc_name(&sb, procs_get(ctx->procs, r->sender), r->sender);
	}
	if (r->code == 127)
		strbuf_adds(&sb, ": command not found");
	else if (r->code == 126)
		strbuf_adds(&sb, ": command not executable");

	struct rc_finding *f = rule_finding(out, RULE_ID, sev, sev_ok, &sb);
	f->pid = r->pid;
	finding_setf(&f->message, "exit status %d", r->code);
	if (dur >= 0)
		f->duration_s = dur;
	rule_evidence(f, r->exec_line);
	rule_evidence(f, r->exit_line);
	advise(f, r->code);
	f->seq = r->seq;
	f->ts = r->ts;
	f->unrecovered = true;
	f->symptom = true;
	f->sender_pid = r->sender;
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;
	size_t before = out->count;
	uint64_t more = s->dropped;

	for (size_t i = 0; i < s->nexits; i++) {
		if (out->count - before >= MAX_REPORTED) {
			more += s->nexits - i;
			break;
		}
		emit(s, &s->exits[i], ctx, out);
	}
	if (more) {
		struct rc_finding *f = rule_dropped(out, RULE_ID, RC_SEV_WARNING, RC_SEV_INFO, more,
						    "%llu more processes exited with a non-zero status",
						    "the processes above show the pattern");
		f->symptom = true;
	}
	if (s->signals_dropped) {
		struct rc_finding *f = rule_dropped(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, s->signals_dropped,
						    "%llu signals to running processes not followed for lack of "
						    "room", "an exit after one of them is not tied to its sender");
		f->symptom = true;
	}
}

const struct rc_rule_ops rc_rule_nonzero_exit_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_SIGNALS | RC_READS_EXITS, .classes = CL_EXEC },
	.finish = finish,
	.release = release,
};
