/* The text report: short, ranked, errors first, each finding tagged with
 * its rule id the way linters do, so users can look it up in
 * docs/rules.md. */
#include <stdio.h>
#include <string.h>

#include "gen/tables.h"
#include "report/report.h"
#include "util/util.h"

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_DIM "\033[2m"
#define C_RED "\033[1;31m"
#define C_YELLOW "\033[1;33m"
#define C_CYAN "\033[36m"

struct out {
	struct strbuf *sb;
	bool color;
};

static void paint(struct out *o, const char *code, const char *text)
{
	if (o->color)
		strbuf_addf(o->sb, "%s%s%s", code, text, C_RESET);
	else
		strbuf_adds(o->sb, text);
}

void report_add_argv(struct strbuf *sb, char *const *argv, int argc, size_t max)
{
	size_t start = sb->len;

	for (int i = 0; i < argc; i++) {
		if (i)
			strbuf_addc(sb, ' ');
		strbuf_adds(sb, argv[i]);
		if (sb->len - start > max) {
			sb->len = start + max;
			sb->buf[sb->len] = '\0';
			strbuf_adds(sb, "...");
			break;
		}
	}
}

static void add_argv(struct strbuf *sb, const struct rc_proc *p)
{
	report_add_argv(sb, p->argv, p->argc, 60);
}

static bool backend_is_ebpf(const struct rc_report *r)
{
	return r->backend && strcmp(r->backend, "ebpf") == 0;
}

/* "N events", and how they were captured. */
static void events_said(struct strbuf *sb, const struct rc_report *r)
{
	strbuf_add_count(sb, r->events);
	strbuf_adds(sb, " events");
	if (backend_is_ebpf(r))
		strbuf_adds(sb, ", in-kernel capture");
	if (r->summed) {
		strbuf_adds(sb, ", ");
		strbuf_add_count(sb, r->summed);
		strbuf_adds(sb, " of them summed");
	}
}

static void subject_line(struct out *o, const struct rc_report *r)
{
	struct strbuf *sb = o->sb;
	size_t nfiles = 0;

	for (const char *const *f = r->files; f && *f; f++)
		nfiles++;
	if (strcmp(r->kind, "core") == 0 && r->files) {
		strbuf_addf(sb, "core '%s'\n", r->files[0]);
		return;
	}
	if (r->trigger) {
		strbuf_addf(sb, "incident: %s; diagnosed from the last %.0f s", r->trigger, r->window);
		if (r->cgroup)
			strbuf_addf(sb, " of cgroup %s", r->cgroup);
		strbuf_adds(sb, " (");
		events_said(sb, r);
		strbuf_adds(sb, ")\n");
		return;
	}
	if (strcmp(r->kind, "stack") == 0) {
		strbuf_addf(sb, "stacks of pid %d (stopped for %.3f s, then detached)\n", r->pid, r->seconds);
		return;
	}
	if (r->files) {
		strbuf_addf(sb, "analyzed %zu log%s: ", nfiles, nfiles == 1 ? "" : "s");
		strbuf_add_count(sb, r->lines);
		strbuf_adds(sb, " lines, ");
		strbuf_add_count(sb, r->events);
		strbuf_adds(sb, " events");
		if (r->procs) {
			size_t nproc = 0;
			struct hmap_iter it;
			for (struct hmap_node *n = hmap_first(&r->procs->procs, &it); n;
			     n = hmap_next(&r->procs->procs, &it))
				nproc += !((struct rc_proc *)n->value)->is_thread;
			nproc += r->procs->nforgotten;
			strbuf_addf(sb, ", %zu process%s", nproc, nproc == 1 ? "" : "es");
		}
		strbuf_addc(sb, '\n');
		if (r->skipped_lines) {
			strbuf_add_count(sb, r->skipped_lines);
			strbuf_adds(sb, r->skipped_lines == 1 ?
				    " line that was not a trace line (program output, a strace message) was skipped\n" :
				    " lines that were not trace lines (program output, strace messages) were skipped\n");
		}
	} else if (r->command) {
		strbuf_adds(sb, "traced:");
		for (const char *const *a = r->command; *a; a++)
			strbuf_addf(sb, " %s", *a);
		strbuf_adds(sb, " (");
		events_said(sb, r);
		strbuf_adds(sb, ")\n");
	} else if (r->pid > 0) {
		strbuf_addf(sb, "attached to pid %d for %.1f s (", r->pid, r->seconds);
		events_said(sb, r);
		strbuf_adds(sb, "); detached, it runs on\n");
	} else if (r->cgroup) {
		strbuf_addf(sb, "attached to cgroup %s (%zu process%s) for %.1f s (", r->cgroup, r->cgroup_procs,
			    r->cgroup_procs == 1 ? "" : "es", r->seconds);
		events_said(sb, r);
		strbuf_adds(sb, "); detached, they run on\n");
	}
	if (r->backend_fallback)
		strbuf_addf(sb, "using ptrace, not eBPF: %s\n", r->backend_fallback);
	if (r->no_stacks)
		strbuf_addf(sb, "a crash would have had no stacks: %s\n", r->no_stacks);
	if (r->no_call_stacks)
		strbuf_addf(sb, "no call stacks: %s\n", r->no_call_stacks);
	if (r->stacks_skipped)
		strbuf_addf(sb, "call stacks: %llu not copied while a quarter of the ring buffer waited to be read "
			    "(no call was lost for them)\n", (unsigned long long)r->stacks_skipped);
}

/* The rules --rules kept from running: a finding they would have made is
 * not missing by chance. */
static void rules_line(struct strbuf *sb, const struct rc_report *r)
{
	if (!r->rules_off)
		return;
	size_t n = 0;
	strbuf_adds(sb, r->rules_only ? "only these rules ran (--rules):" : "not run (--rules):");
	for (const char *const *id = r->rules_only ? r->rules_only : r->rules_off; *id; id++)
		strbuf_addf(sb, "%s %s", n++ ? "," : "", *id);
	strbuf_addc(sb, '\n');
}

/* How the first process ended: the outcome the findings explain. */
static void outcome_line(struct out *o, const struct rc_report *r)
{
	if (!r->procs || !r->procs->nprocs)
		return;
	const struct rc_proc *p = procs_get(r->procs, r->procs->root);
	if (!p || !p->ended)
		return;
	struct strbuf *sb = o->sb;
	if (p->argv) {
		strbuf_adds(sb, "'");
		add_argv(sb, p);
		strbuf_adds(sb, "' ");
	}
	if (p->pid > 0)
		strbuf_addf(sb, "(pid %d) ", p->pid);
	if (p->exited)
		strbuf_addf(sb, "exited with status %d", p->exit_code);
	else
		strbuf_addf(sb, "was killed by %s%s", xlat_name(&rc_xlat_signal, p->signo) ?: "a signal",
			    p->core_dumped ? " (core dumped)" : "");
	if (p->first_ts >= 0 && p->end_ts >= p->first_ts)
		strbuf_addf(sb, " after %.1f s", p->end_ts - p->first_ts);
	strbuf_addc(sb, '\n');
}

/* Where in the code: the quoted call's stack, or the sites of a sum;
 * with VERBOSE, every frame. */
static void code_lines(struct out *o, const struct rc_report_finding *f, bool verbose)
{
	struct strbuf *sb = o->sb;

	if (f->stack && !f->stack->missing && (f->stack->npy || f->stack->nnative)) {
		strbuf_adds(sb, "  at ");
		report_stack_line(f->stack, sb);
		strbuf_addc(sb, '\n');
		if (verbose) {
			strbuf_addf(sb, "  stack of thread %d at the call:\n", f->stack->tid);
			report_stack_lines(f->stack, "    ", sb);
		}
	} else if (f->stack && verbose) {
		strbuf_addf(sb, "  no stack: %s\n", f->stack->missing);
	} else if (f->stack_missing && verbose) {
		strbuf_addf(sb, "  no stack: %s\n", f->stack_missing);
	}
	if (f->holder_tid > 0 || f->holder_pid > 0) {
		if (f->holder_tid > 0)
			strbuf_addf(sb, "  held by thread %d", f->holder_tid);
		else
			strbuf_addf(sb, "  held by process %d (/proc/locks, read now)", f->holder_pid);
		if (f->holder_stack && !f->holder_stack->missing) {
			strbuf_adds(sb, ", at ");
			report_stack_line(f->holder_stack, sb);
		}
		strbuf_addc(sb, '\n');
		if (verbose && f->holder_stack && !f->holder_stack->missing) {
			strbuf_addf(sb, "  stack of %s %d, the holder:\n", f->holder_tid > 0 ? "thread" : "process",
				    f->holder_tid > 0 ? f->holder_tid : f->holder_pid);
			report_stack_lines(f->holder_stack, "    ", sb);
		}
	}
	for (int i = 0; i < f->nsites; i++) {
		const struct rc_site *st = &f->sites[i];
		strbuf_addf(sb, "  %s ", i ? "    " : "from");
		report_stack_line(st->stack, sb);
		strbuf_addf(sb, ": %s%llu call%s\n", f->sites_sampled ? "about " : "", (unsigned long long)st->count,
			    st->count == 1 ? "" : "s");
		if (verbose)
			report_stack_lines(st->stack, "      ", sb);
	}
	if (f->nsites && f->sites_other)
		strbuf_addf(sb, "       and %s%llu call%s from other sites\n", f->sites_sampled ? "about " : "",
			    (unsigned long long)f->sites_other,
			    f->sites_other == 1 ? "" : "s");
}

static void finding_block(struct out *o, const struct rc_report *r, const struct rc_report_finding *f,
			  bool verbose)
{
	struct strbuf *sb = o->sb;

	strbuf_addc(sb, '\n');
	switch (f->severity) {
	case RC_SEV_ERROR: paint(o, C_RED, "error"); break;
	case RC_SEV_WARNING: paint(o, C_YELLOW, "warning"); break;
	default: paint(o, C_CYAN, "note"); break;
	}
	strbuf_adds(sb, ": ");
	if (o->color)
		strbuf_adds(sb, C_BOLD);
	strbuf_adds(sb, f->summary);
	if (o->color)
		strbuf_adds(sb, C_RESET);
	strbuf_addf(sb, " %s[%s]%s\n", o->color ? C_DIM : "", f->rule, o->color ? C_RESET : "");

	/* Where: the process and the call. */
	if (f->pid > 0) {
		strbuf_adds(sb, "  ");
		report_finding_where(r, f, sb);
		strbuf_addc(sb, '\n');
	}
	if (f->host_path)
		strbuf_addf(sb, "  '%s' is '%s' on this machine: the process saw it in a root of its own\n", f->path,
			    f->host_path);
	if (f->message && strcmp(f->message, f->summary) != 0)
		strbuf_addf(sb, "  message: %s\n", f->message);
	for (int i = 0; i < f->nevidence; i++) {
		strbuf_adds(sb, "  ");
		paint(o, C_DIM, "| ");
		strbuf_adds(sb, f->evidence[i]);
		strbuf_addc(sb, '\n');
	}
	code_lines(o, f, verbose);
	if (f->advice)
		strbuf_addf(sb, "  advice: %s\n", f->advice);
	if (f->nnow) {
		strbuf_adds(sb, "  ");
		report_finding_now(f, sb);
		strbuf_addc(sb, '\n');
	}
}

void report_finding_now(const struct rc_report_finding *f, struct strbuf *sb)
{
	strbuf_adds(sb, "read from this machine now, not from the trace:");
	for (int i = 0; i < f->nnow; i++)
		strbuf_addf(sb, "%s '%s'", i ? "," : "", f->now[i]);
}

void report_finding_where(const struct rc_report *r, const struct rc_report_finding *f, struct strbuf *sb)
{
	strbuf_addf(sb, "in pid %d", f->pid);
	const struct rc_proc *p = r->procs ? procs_leader(r->procs, f->pid) : NULL;
	if (p && p->argv) {
		strbuf_adds(sb, " '");
		add_argv(sb, p);
		strbuf_adds(sb, "'");
	}
	/* Which container, and its number there. */
	const struct rc_report_container *c = report_container_of(r->containers, r->ncontainers, p ? p->pid : f->pid);
	if (p && p->ns_pid > 0)
		strbuf_addf(sb, " (pid %d in %s)", p->ns_pid, c ? c->name : "its pid namespace");
	else if (c)
		strbuf_addf(sb, " (in %s)", c->name);
	if (f->nalso)
		strbuf_addf(sb, " and %d other process%s", f->nalso, f->nalso == 1 ? "" : "es");
	if (f->syscall) {
		strbuf_addf(sb, ": %s", f->syscall);
		if (f->err)
			strbuf_addf(sb, " -> %s", xlat_errno_name(f->err) ?: "error");
	}
	if (f->count > 1)
		strbuf_addf(sb, ", %lld times", f->count);
	if (f->reported)
		strbuf_adds(sb, " (the program reported it)");
}

/* What cause F led to: its consequences, which follow it in the list
 * from index I on, a line each (with -v, their evidence too). */
static void consequence_lines(struct out *o, const struct rc_report_findings *list, size_t i, bool verbose)
{
	const struct rc_report_finding *cause = list->v[i - 1];

	strbuf_adds(o->sb, "  led to:\n");
	for (; i < list->count && list->v[i]->cause == cause; i++) {
		const struct rc_report_finding *f = list->v[i];
		strbuf_addf(o->sb, "    %s %s[%s]%s\n", f->summary, o->color ? C_DIM : "", f->rule,
			    o->color ? C_RESET : "");
		for (int e = 0; verbose && e < f->nevidence; e++) {
			strbuf_adds(o->sb, "      ");
			paint(o, C_DIM, "| ");
			strbuf_adds(o->sb, f->evidence[e]);
			strbuf_addc(o->sb, '\n');
		}
	}
}

/* "1 cause (exec-failed), 2 consequences, 1 warning, 3 notes (...)". */
static void footer(struct out *o, const struct rc_report_findings *list, bool verbose)
{
	struct strbuf *sb = o->sb, ids = STRBUF_INIT;
	size_t counts[3] = { 0, 0, 0 }, consequences = 0;

	for (size_t i = 0; list && i < list->count; i++) {
		const struct rc_report_finding *f = list->v[i];
		if (f->cause) {
			consequences += f->cause->severity != RC_SEV_INFO || verbose;
			continue;
		}
		counts[f->severity]++;
		if (f->severity != RC_SEV_ERROR)
			continue;
		/* Each rule once, in the order the causes rank. */
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !list->v[k]->cause && list->v[k]->severity == RC_SEV_ERROR &&
			       strcmp(list->v[k]->rule, f->rule) == 0;
		if (!seen)
			strbuf_addf(&ids, "%s%s", ids.len ? ", " : "", f->rule);
	}
	size_t before = sb->len;
	if (counts[RC_SEV_ERROR])
		strbuf_addf(sb, "%zu cause%s (%s)", counts[RC_SEV_ERROR], counts[RC_SEV_ERROR] == 1 ? "" : "s",
			    ids.buf);
	if (consequences)
		strbuf_addf(sb, "%s%zu consequence%s", sb->len > before ? ", " : "", consequences,
			    consequences == 1 ? "" : "s");
	if (counts[RC_SEV_WARNING])
		strbuf_addf(sb, "%s%zu warning%s", sb->len > before ? ", " : "", counts[RC_SEV_WARNING],
			    counts[RC_SEV_WARNING] == 1 ? "" : "s");
	if (sb->len == before)
		strbuf_adds(sb, "no problems found");
	if (counts[RC_SEV_INFO])
		strbuf_addf(sb, ", %zu note%s%s", counts[RC_SEV_INFO], counts[RC_SEV_INFO] == 1 ? "" : "s",
			    verbose ? "" : " (shown with --verbose)");
	strbuf_addc(sb, '\n');
	strbuf_release(&ids);
}

/* The pids a container's line lists; the rest are counted. */
#define CONTAINER_PIDS_SHOWN 8

void report_text_head(const struct rc_report *r, struct strbuf *out)
{
	struct out o = { out, false };

	subject_line(&o, r);
	rules_line(out, r);
	outcome_line(&o, r);
	if (r->no_outcome)
		strbuf_adds(out, "the outcome is not in the trace (no exit, no fatal signal): an excerpt; what "
			    "nothing in it recovered from is reported as an error\n");
	if (r->elsewhere)
		strbuf_addf(out, "recorded elsewhere: %s; no path in it was looked up on this machine\n",
			    r->elsewhere);
	for (size_t i = 0; i < r->ncontainers; i++) {
		const struct rc_report_container *c = &r->containers[i];
		strbuf_addf(out, "in %s", c->name);
		if (c->engine || c->pod || c->unit)
			strbuf_addf(out, " (cgroup %s)", c->cgroup);
		strbuf_adds(out, ": pid");
		for (size_t k = 0; k < c->npids && k < CONTAINER_PIDS_SHOWN; k++) {
			const struct rc_proc *p = r->procs ? procs_get(r->procs, c->pids[k]) : NULL;
			strbuf_addf(out, "%s %d", k ? "," : "", c->pids[k]);
			if (p && p->ns_pid > 0)
				strbuf_addf(out, " (%d there)", p->ns_pid);
		}
		if (c->npids > CONTAINER_PIDS_SHOWN)
			strbuf_addf(out, " and %zu more", c->npids - CONTAINER_PIDS_SHOWN);
		strbuf_addc(out, '\n');
	}
	if (r->crash)
		report_crash_header(r->crash, out);
}

void report_text_tally(const struct rc_report_findings *list, struct strbuf *out, bool verbose)
{
	struct out o = { out, false };

	footer(&o, list, verbose);
}

void report_text(const struct rc_report *r, struct strbuf *out, bool color, bool verbose)
{
	struct out o = { out, color };
	const struct rc_report_findings *list = r->findings;

	report_text_head(r, out);
	for (size_t i = 0; list && i < list->count; i++) {
		const struct rc_report_finding *f = list->v[i];
		if (f->cause)
			continue;
		if (f->severity == RC_SEV_INFO && !verbose)
			continue;
		finding_block(&o, r, f, verbose);
		if (f->nconsequences)
			consequence_lines(&o, list, i + 1, verbose);
	}
	if (r->crash)
		report_crash_text(r->crash, out, verbose);
	strbuf_addc(out, '\n');
	footer(&o, list, verbose);
}
