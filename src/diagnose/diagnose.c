/* The diagnosis (see diagnose.h): the events to the engine, a crash to
 * the crash rules, and at the end one ranked, linked list of findings,
 * handed to the report in its own terms. */
#include "diagnose/diagnose.h"

#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "crash/export.h"
#include "crash/rules.h"
#include "event/stack.h"
#include "event/syscalls.h"
#include "util/util.h"

/* Threads whose last fault is kept; past it, a raise of it again is
 * judged as the signal it is (SI_TKILL, no address). */
#define MAX_FAULTS 4096

/* The calls with a path a log's vantage is judged by: a program's
 * libraries are opened as it starts, and a long log pays no more. */
#define VANTAGE_CALLS 65536

/* Stacks kept for the findings, at most (shared ones cost a pointer),
 * and the bytes of the distinct ones: a strace -k log gives every call
 * a stack of its own, most of them the same as another's. */
#define MAX_STACKS 262144
#define MAX_STACK_BYTES (128u << 20)
#define SHELF_MAX 65536

struct fault {
	int signo, si_code;
	uint64_t addr;
};

void diagnose_init(struct rc_diagnosis *d, const struct diagnose_opts *o)
{
	memset(d, 0, sizeof(*d));
	engine_init_rules(&d->eng, o->rules);
	d->eng.may_be_excerpt = o->input == DIAGNOSE_LOG;
	d->eng.lookup.where = o->input == DIAGNOSE_LIVE ? LOOKUP_LIVE : LOOKUP_HERE;
	d->rules = o->rules;
	d->input = o->input;
	if (o->input == DIAGNOSE_LOG)
		d->vantage_left = VANTAGE_CALLS;
	if (o->timeline) {
		timeline_init(&d->timeline);
		d->has_timeline = true;
		d->eng.timeline = &d->timeline;
	}
	hmap_init(&d->faults);
	hmap_init(&d->stacks);
	stack_shelf_init(&d->shelf, SHELF_MAX);
	findings_init(&d->crash_findings);
}

/* A fault delivered to the program's handler (a signal the kernel
 * raised: event_siginfo_facts gave it an address): if the handler raises
 * it again, that fatal signal is this fault. A breakpoint's SIGTRAP is a
 * debugger's, not a crash. */
static __attribute__((noinline)) void keep_fault(struct rc_diagnosis *d, const struct rc_event *e)
{
	if (!e->has_fault_addr || e->signo == SIGTRAP)
		return;
	void **slot = hmap_get_int(&d->faults, e->pid);
	if (!slot) {
		if (d->faults.count >= MAX_FAULTS)
			return;
		slot = hmap_put_int(&d->faults, e->pid, NULL);
		*slot = xcalloc(1, sizeof(struct fault));
	}
	struct fault *f = *slot;
	f->signo = e->signo;
	f->si_code = e->si_code;
	f->addr = e->fault_addr;
}

/* What a log shows of a distribution's programs and libraries
 * (lookup/lookup.h): a program run, a library opened, and its size as a
 * stat told it. Only a call with a path or a size tells any. */
static __attribute__((noinline)) void vantage_saw(struct rc_diagnosis *d, const struct rc_event *e)
{
	d->vantage_left--;
	if (e->kind != RC_EV_SYSCALL || e->err || !e->ret_known)
		return;
	unsigned long long cl = syscall_classes(e->nr);
	if (cl & CL_EXEC)
		lookup_vantage_ran(&d->vantage, e->path);
	else if (cl & CL_OPEN)
		lookup_vantage_opened(&d->vantage, e->pid, e->ret <= INT_MAX ? (int)e->ret : -1, e->path);
	else if (e->st_size >= 0)
		lookup_vantage_sized(&d->vantage, e->pid, e->fd,
				     e->path && e->path[0] == '/' ? e->path : NULL, e->st_size);
}

/* E's stack, for a finding that quotes E to give at the end. */
static __attribute__((noinline)) void keep_stack(struct rc_diagnosis *d, const struct rc_event *e)
{
	d->any_stack = true;
	if (d->stacks.count >= MAX_STACKS || d->shelf.bytes >= MAX_STACK_BYTES) {
		d->stacks_dropped++;
		return;
	}
	bool created;
	void **slot = hmap_put_int(&d->stacks, (long long)e->seq, &created);
	if (!created)
		stack_unref(*slot);
	*slot = (void *)stack_shelf_put(&d->shelf, stack_ref(e->stack));
}

static void stack_free(void *p)
{
	stack_unref(p);
}

void diagnose_no_stacks(struct rc_diagnosis *d, const char *why)
{
	d->no_stacks = why;
}

static bool same_process(const struct rc_diagnosis *d, int a, int b)
{
	const struct rc_proc *pa = procs_leader(&d->eng.procs, a), *pb = procs_leader(&d->eng.procs, b);

	return a == b || (pa && pa == pb);
}

/* Each finding about a call gets the stack of the call it quotes (its
 * decisive event), or says why it has none. A sum's sites are its own. */
static void give_stacks(struct rc_diagnosis *d, struct rc_findings *list)
{
	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *f = list->v[i];
		if (f->stack || f->nsites || f->stack_missing)
			continue;
		uint64_t seq = f->stack_seq ? f->stack_seq : f->seq;
		void **slot = seq ? hmap_get_int(&d->stacks, (long long)seq) : NULL;
		const struct rc_stack *st = slot ? *slot : NULL;
		/* Only its own thread's (or, when it names no thread, its own
		 * process's): a rule may rank by a seq that is not its
		 * event's. */
		if (st && (f->tid ? st->tid == f->tid : !f->pid || same_process(d, st->tid, f->pid))) {
			f->stack = stack_ref(st);
			continue;
		}
		if (!f->syscall)
			continue;
		if (d->no_stacks)
			finding_set(&f->stack_missing, d->no_stacks);
		else if (d->input == DIAGNOSE_LOG)
			finding_set(&f->stack_missing, d->any_stack ? "the log has no stack for this call" :
				    "the log has no stacks (strace -k writes them)");
		else if (d->stacks_dropped)
			finding_set(&f->stack_missing, "more stacks than rootcause keeps: this one was dropped");
		else
			finding_set(&f->stack_missing, "not a call rootcause unwinds: it unwinds those a finding "
				    "may quote (failed calls, opens, execs, connects, locks, large mappings, "
				    "waits), and too many reads and writes would cost the program");
	}
}

/* Calls after which a process may see another root or other mounts. */
static bool changes_view(long nr)
{
	return nr == SYS_chroot || nr == SYS_pivot_root || nr == SYS_setns || nr == SYS_unshare;
}

/* A live trace's processes are looked at through their own view (a
 * chroot, a container's root), taken while they are there to show it:
 * a child as its parent's fork returns it (given the parent's view if it
 * is gone already; a thread, sharing its root, its parent's without a
 * look), a process the trace had not seen at its first call, and any
 * after a call that may have changed it. */
static void follow_view(struct rc_diagnosis *d, const struct rc_event *e)
{
	if (e->kind != RC_EV_SYSCALL || e->pid <= 0)
		return;
	if (e->err == 0 && e->ret_known && e->ret > 0 && syscall_is(e->nr, CL_FORK) && (e->flags & CLONE_FS))
		lookup_view_share(&d->eng.lookup, (int)e->ret, e->pid);
	else if (e->err == 0 && e->ret_known && e->ret > 0 && syscall_is(e->nr, CL_FORK))
		lookup_view_of(&d->eng.lookup, (int)e->ret, e->pid);
	else if ((e->err == 0 && e->ret_known && changes_view(e->nr)) || !procs_get(&d->eng.procs, e->pid))
		lookup_view_of(&d->eng.lookup, e->pid, 0);
}

void diagnose_event(struct rc_diagnosis *d, struct rc_event *e)
{
	if (d->input == DIAGNOSE_LIVE)
		follow_view(d, e);
	/* Kept out of line: most events are neither, and go straight on
	 * to the engine. */
	if (e->kind == RC_EV_SIGNAL)
		keep_fault(d, e);
	else if (d->vantage_left && (e->path || e->st_size >= 0))
		vantage_saw(d, e);
	engine_feed(&d->eng, e);
	if (e->stack)
		keep_stack(d, e);
}

void diagnose_feed(void *d, struct rc_event *e)
{
	diagnose_event(d, e);
}

/* Where the rules' look-ups answer from: a log judged by what it shows
 * of this machine's files, a live trace's processes still running
 * through their own roots. */
static void choose_view(struct rc_diagnosis *d)
{
	struct hmap_iter it;

	if (d->input == DIAGNOSE_LOG)
		lookup_vantage_judge(&d->eng.lookup, &d->vantage);
	if (d->input != DIAGNOSE_LIVE)
		return;
	for (struct hmap_node *n = hmap_first(&d->eng.procs.procs, &it); n; n = hmap_next(&d->eng.procs.procs, &it)) {
		const struct rc_proc *p = n->value;
		if (!p->ended)
			lookup_view_of(&d->eng.lookup, p->pid, 0);
	}
}

/* C's fatal signal is the thread's own raise of the signal of a fault it
 * took before (SI_TKILL, SI_USER from its own process): say the fault,
 * and that it was raised again. */
static void reraised_fault(struct rc_diagnosis *d, struct rc_crash *c)
{
	void **slot = hmap_get_int(&d->faults, c->crashed_tid);
	const struct fault *f = slot ? *slot : NULL;

	if (!f || c->si_code > 0 || c->signo != f->signo || c->sender_pid != c->pid)
		return;
	c->si_code = f->si_code;
	c->fault_addr = f->addr;
	c->reraised = true;
}

void diagnose_crash(struct rc_diagnosis *d, struct rc_crash *c)
{
	if (d->crash)
		return;
	d->crash = c;
	reraised_fault(d, c);
	crash_rules_run(c, d->rules, &d->crash_findings);
}

void diagnose_losses(struct rc_diagnosis *d, const struct capture_counts *n)
{
	d->losses = *n;
}

void diagnose_summary(struct rc_diagnosis *d, const struct rc_call_summary *s)
{
	d->summary = s;
}

/* The crash rules' findings rank first, before the trace rules' ranked
 * ones: they name the cause of the fatal signal that `crashed` reports,
 * which becomes their consequence. Moves them from CRASH into LIST. */
static void crash_first(struct rc_findings *list, struct rc_findings *crash)
{
	if (!crash->count)
		return;
	/* crashed's advice (get a core, run gdb) is done: the stacks are
	 * in this report. */
	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *f = list->v[i];
		if (strcmp(f->rule, "crashed") == 0 && f->pid == crash->v[0]->pid)
			finding_set(&f->advice, "every thread's stack, unwound before the process died, is "
				    "below; the finding above names the cause.");
	}
	/* A rule with both halves (bad-file-mapping) that the trace already
	 * found for this process says it once: the trace's finding, which
	 * quotes the calls, in the crash's words, which name the frame that
	 * made the access; its frames fill the evidence left. */
	size_t kept = 0;
	for (size_t i = 0; i < crash->count; i++) {
		struct rc_finding *f = crash->v[i], *dup = NULL;
		for (size_t k = 0; k < list->count && !dup; k++)
			if (strcmp(list->v[k]->rule, f->rule) == 0 && list->v[k]->pid == f->pid)
				dup = list->v[k];
		if (!dup) {
			crash->v[kept++] = f;
			continue;
		}
		char *swap = dup->summary;
		dup->summary = f->summary;
		f->summary = swap;
		if (f->advice) {
			swap = dup->advice;
			dup->advice = f->advice;
			f->advice = swap;
		}
		for (int e = 0; e < f->nevidence && dup->nevidence < RC_EVIDENCE_MAX; e++)
			finding_evidence(dup, f->evidence[e], strlen(f->evidence[e]));
		finding_free(f);
	}
	crash->count = kept;
	/* They rank first; then the trace's findings, as ranked. */
	for (size_t i = 0; i < list->count; i++)
		list->v[i]->rank += kept;
	size_t n = kept + list->count;
	struct rc_finding **v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < kept; i++) {
		v[i] = crash->v[i];
		v[i]->rank = i;
	}
	if (list->count)
		memcpy(v + kept, list->v, list->count * sizeof(*v));
	free(list->v);
	list->v = v;
	list->count = list->alloc = n;
	free(crash->v);
	findings_init(crash);
}

static int cmp_occurrence(const void *a, const void *b)
{
	const struct rc_occurrence *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* F as the report shows it; F's strings move to it. */
static struct rc_report_finding *shown(struct rc_finding *f)
{
	struct rc_report_finding *r = xcalloc(1, sizeof(*r));

	r->rule = f->rule;
	r->severity = f->effective;
	r->summary = f->summary;
	r->pid = f->pid;
	struct rc_occurrences also = f->also;
	qsort(also.v, (size_t)also.n, sizeof(also.v[0]), cmp_occurrence);
	for (int i = 0; i < also.n; i++)
		r->also_pids[i] = also.v[i].pid;
	r->nalso = also.n;
	r->tid = f->tid;
	r->syscall = f->syscall;
	r->err = f->err;
	r->path = f->path;
	r->host_path = f->host_path;
	f->host_path = NULL;
	r->address = f->address;
	r->host = f->host;
	r->signo = f->signo;
	r->message = f->message;
	r->count = f->count;
	r->duration_s = f->duration_s;
	r->bytes = f->bytes;
	for (int i = 0; i < f->nevidence; i++)
		r->evidence[i] = f->evidence[i];
	r->nevidence = f->nevidence;
	r->advice = f->advice;
	for (int i = 0; i < f->nnow; i++)
		r->now[i] = f->now[i];
	r->nnow = f->nnow;
	f->nnow = 0;
	r->stack = f->stack;
	r->stack_missing = f->stack_missing;
	for (int i = 0; i < f->nsites; i++)
		r->sites[i] = f->sites[i];
	r->nsites = f->nsites;
	r->sites_other = f->sites_other;
	r->sites_sampled = f->sites_sampled;
	r->holder_tid = f->holder_tid;
	r->holder_stack = f->holder_stack;
	r->holder_pid = f->holder_pid;
	f->stack = NULL;
	f->stack_missing = NULL;
	f->nsites = 0;
	f->holder_stack = NULL;
	r->reported = f->echoed;
	r->seq = f->seq;
	r->ts = f->ts;
	r->nconsequences = f->nconsequences;
	f->summary = f->syscall = f->path = f->address = f->host = f->message = f->advice = NULL;
	f->nevidence = 0;
	return r;
}

void findings_for_report(struct rc_findings *list, struct rc_report_findings *out)
{
	out->count = list->count;
	out->v = xcalloc(list->count ? list->count : 1, sizeof(*out->v));
	for (size_t i = 0; i < list->count; i++)
		out->v[i] = shown(list->v[i]);
	/* A cause comes before its consequences. */
	for (size_t i = 0; i < list->count; i++)
		for (size_t k = 0; k < i && list->v[i]->cause; k++)
			if (list->v[k] == list->v[i]->cause)
				out->v[i]->cause = out->v[k];
	findings_release(list);
}

/* Where each path a finding names is on this machine, for a process
 * that saw it in a root of its own: the report gives both. */
static void place_paths(struct rc_diagnosis *d, struct rc_findings *list)
{
	struct strbuf host = STRBUF_INIT;

	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *f = list->v[i];
		int who = lookup_in_own_root(&d->eng.lookup, f->tid) ? f->tid : f->pid;
		if (!f->path || f->host_path || !lookup_in_own_root(&d->eng.lookup, who))
			continue;
		strbuf_reset(&host);
		if (lookup_host_path(&d->eng.lookup, who, f->path, &host) && strcmp(host.buf, f->path) != 0)
			f->host_path = xstrdup(host.buf);
	}
	strbuf_release(&host);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* By their first process. */
static int cmp_container(const void *a, const void *b)
{
	const struct rc_report_container *x = a, *y = b;

	return cmp_int(x->pids, y->pids);
}

static char *dup_or_null(const char *s)
{
	return s && s[0] ? xstrdup(s) : NULL;
}

void diagnose_container(const struct container *c, struct rc_report_container *out)
{
	struct strbuf sb = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	container_describe(c, &sb);
	out->name = strbuf_detach(&sb);
	out->engine = c->kind != CONTAINER_NONE ? container_kind_name(c->kind) : NULL;
	out->id = dup_or_null(c->id);
	out->pod = dup_or_null(c->pod);
	out->unit = dup_or_null(c->unit);
	out->cgroup = xstrdup(c->cgroup);
}

void diagnose_container_release(struct rc_report_container *c)
{
	free(c->name);
	free(c->id);
	free(c->pod);
	free(c->unit);
	free(c->cgroup);
	free(c->pids);
	memset(c, 0, sizeof(*c));
}

/* The containers the trace's processes ran in, for the report: each
 * cgroup other than rootcause's, with its processes. */
static void name_containers(struct rc_diagnosis *d)
{
	struct hmap_iter it;

	for (struct hmap_node *n = hmap_first(&d->eng.procs.procs, &it); n; n = hmap_next(&d->eng.procs.procs, &it)) {
		const struct rc_proc *p = n->value;
		const struct container *c = p->is_thread ? NULL : lookup_container(&d->eng.lookup, p->pid);
		if (!c)
			continue;
		size_t i = 0;
		while (i < d->ncontainers && strcmp(d->containers[i].cgroup, c->cgroup) != 0)
			i++;
		if (i == d->ncontainers) {
			d->containers = xrealloc(d->containers, (i + 1) * sizeof(*d->containers));
			diagnose_container(c, &d->containers[d->ncontainers++]);
		}
		struct rc_report_container *rc = &d->containers[i];
		rc->pids = xrealloc(rc->pids, (rc->npids + 1) * sizeof(*rc->pids));
		rc->pids[rc->npids++] = p->pid;
	}
	for (size_t i = 0; i < d->ncontainers; i++)
		qsort(d->containers[i].pids, d->containers[i].npids, sizeof(int), cmp_int);
	qsort(d->containers, d->ncontainers, sizeof(*d->containers), cmp_container);
}

void diagnose_finish(struct rc_diagnosis *d, struct rc_report *rep)
{
	struct rc_findings list;

	findings_init(&list);
	choose_view(d);
	engine_finish(&d->eng, &list);
	give_stacks(d, &list);
	rank_findings(&list, &d->eng.procs, d->eng.no_outcome);
	crash_first(&list, &d->crash_findings);
	findings_link(&list, &d->eng.procs);
	place_paths(d, &list);
	if (rule_picked(d->rules, rule_find("capture-incomplete")))
		capture_incomplete_finding(&list, &d->losses);
	if (d->summary && rule_picked(d->rules, rule_find("call-summary")))
		call_summary_finding(&list, d->summary);
	findings_for_report(&list, &d->findings);

	rep->findings = &d->findings;
	/* A core is no trace: it has no processes to show. */
	rep->procs = d->eng.seq || d->eng.procs.nprocs ? &d->eng.procs : NULL;
	rep->no_outcome = d->eng.no_outcome;
	if (d->eng.lookup.where == LOOKUP_ELSEWHERE)
		rep->elsewhere = d->eng.lookup.why;
	rep->timeline = d->has_timeline ? &d->timeline : NULL;
	if (d->input == DIAGNOSE_LIVE) {
		name_containers(d);
		rep->containers = d->containers;
		rep->ncontainers = d->ncontainers;
	}
	if (d->crash) {
		crash_report_fill(d->crash, &d->crash_part);
		rep->crash = &d->crash_part;
	}
}

void diagnose_release(struct rc_diagnosis *d)
{
	engine_release(&d->eng);
	if (d->has_timeline)
		timeline_release(&d->timeline);
	hmap_release(&d->faults, free);
	hmap_release(&d->stacks, stack_free);
	stack_shelf_release(&d->shelf);
	lookup_vantage_release(&d->vantage);
	findings_release(&d->crash_findings);
	report_findings_release(&d->findings);
	for (size_t i = 0; i < d->ncontainers; i++)
		diagnose_container_release(&d->containers[i]);
	free(d->containers);
	if (d->crash)
		crash_report_release(&d->crash_part);
	memset(d, 0, sizeof(*d));
}
