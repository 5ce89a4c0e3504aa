/* Ranking by causality (DESIGN.md, "Ranking"): a failure that plausibly
 * caused the program to fail comes first. The signals are
 *  - whether the process (or an ancestor) failed at all: otherwise a rule's
 *    error is only a warning or a note (severity_ok), since a healthy run
 *    that met an ENOENT recovered from it by definition;
 *  - whether the program's own output named the failure (echoed), which
 *    makes it an error as well unless the process, or a caller, went on to
 *    succeed;
 *  - whether it was among the last unrecovered failures before the failed
 *    exit (near_exit);
 *  - whether anything later recovered from it (unrecovered);
 *  - and, as a tie-break, lateness in the trace.
 * A trace with no outcome (an excerpt) judges its unrecovered failures as
 * a failed run's.
 */
#include <ctype.h>
#include <stdint.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "rules/finding.h"
#include "rules/words.h"
#include "util/util.h"

/* How many unrecovered failures before a failed exit count as "near":
 * story 1 has three (missing weights, CDN timeout, cache not writable). */
#define NEAR_EXIT_COUNT 5

/* Did the program's output name F's subject after F? With ALARMED, only
 * a line that reads as an error counts. A phrase ("no such file", "out of
 * memory") is generic: it is not about F in the words of a child of F's
 * process, which failed its own way (su's D-Bus socket is not what cat's
 * "No such file or directory" is about). */
static bool echoed(const struct rc_finding *f, const struct rc_procs *m, bool alarmed)
{
	if (f->is_output)
		return false;
	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		/* Only what the program said after the failure can be about
		 * it, and only what someone could read. */
		if (o->seq < f->seq || !rule_output_counts(m, o) || (alarmed && !rule_error_line(o)))
			continue;
		/* A child's generic phrase ("No such file or directory") is
		 * about its own failures, not its parent's: names only. */
		if (rule_text_echoes(f, o->text, f->pid && procs_below(m, o->pid, f->pid)))
			return true;
	}
	return false;
}

/* Whether F's echo makes it an error whatever the exit status. Not when
 * an ancestor of its process went on to succeed: the caller coped, and
 * `x=$(cat f 2>&1)` keeps cat's complaint to itself. Nor, when the
 * process itself exited 0, unless the line reads as an error: gpg's
 * "Home: /root/.gnupg" names a directory it looked for and did without,
 * "error: cannot read 'x'" is a complaint even from a process that went
 * on. */
static bool accused(const struct rc_finding *f, const struct rc_procs *m)
{
	if (!f->echoed)
		return false;
	const struct rc_proc *p = f->pid ? procs_leader(m, f->pid) : NULL;
	if (!p)
		return true;
	if (procs_handled(m, p))
		return false;
	if (procs_succeeded(p))
		return echoed(f, m, true);
	return true;
}

/* F's process ended in failure, and an ancestor went on to exit 0. */
static bool handled_failure(const struct rc_finding *f, const struct rc_procs *m)
{
	const struct rc_proc *p = f->pid ? procs_leader(m, f->pid) : NULL;

	return p && p->ended && !procs_succeeded(p) && procs_handled(m, p);
}

static int cmp_seq_desc(const void *a, const void *b)
{
	const struct rc_finding *x = *(struct rc_finding *const *)a, *y = *(struct rc_finding *const *)b;
	return (x->seq < y->seq) - (x->seq > y->seq);
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rc_finding *x = *(struct rc_finding *const *)a, *y = *(struct rc_finding *const *)b;

	if (x->effective != y->effective)
		return x->effective > y->effective ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return strcmp(x->rule, y->rule);
}

/* Mark the last few unrecovered causes in each failed process group. */
static void mark_near_exit(struct rc_findings *list, const struct rc_procs *m)
{
	struct rc_finding **v = xcalloc(list->count + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < list->count; i++)
		if (list->v[i]->failed && list->v[i]->unrecovered && !list->v[i]->symptom &&
		    !list->v[i]->is_output)
			v[n++] = list->v[i];
	qsort(v, n, sizeof(*v), cmp_seq_desc);
	struct hmap seen = HMAP_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct rc_proc *culprit = NULL;
		procs_failed(m, v[i]->pid, &culprit);
		long long key = culprit ? culprit->pid : 0;
		bool created;
		void **slot = hmap_put_int(&seen, key, &created);
		uintptr_t count = (uintptr_t)*slot;
		if (count < NEAR_EXIT_COUNT)
			v[i]->near_exit = true;
		*slot = (void *)(count + 1);
	}
	hmap_release(&seen, NULL);
	free(v);
}

bool finding_failed_in(const struct rc_finding *f, const struct rc_procs *m, int pid, uint64_t seq,
		       const struct rc_proc **culprit)
{
	/* Words are the program's that wrote them: a shim's warning
	 * before it exec'd the program that failed is not a failure. */
	bool failed = f->is_output ? procs_image_failed(m, pid, f->image, culprit) : procs_failed(m, pid, culprit);
	/* A process that went on to exit 0 coped with what it met,
	 * whatever its parent did later: gettext's look for an optional
	 * charset.alias in 'conmon --version', before podman failed of
	 * something else. */
	if (!f->is_output && !f->symptom && procs_succeeded(procs_leader(m, pid)))
		failed = false;
	/* A wrapper that passed its child's failure on (runuser exiting
	 * with its command's status) did not fail by what it met on its
	 * way to starting the child: its user look-ups, its optional
	 * files. */
	return failed && !procs_passed_on(m, pid, seq);
}

void rank_findings(struct rc_findings *list, const struct rc_procs *m, bool no_outcome)
{
	bool any_failed = procs_any_failed(m);

	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *f = list->v[i];
		/* Met in several processes (a loop running the command again),
		 * it failed the run when any of them failed of it: the last
		 * one may not have ended when the trace did. */
		f->failed = f->pid ? finding_failed_in(f, m, f->pid, f->seq, NULL) : any_failed;
		for (int k = 0; k < f->also.n && !f->failed; k++)
			f->failed = finding_failed_in(f, m, f->also.v[k].pid, f->also.v[k].seq, NULL);
		/* An excerpt that ends before anything did: what nothing in it
		 * recovered from is judged as if the program failed of it, since
		 * the user pasted it because it did. */
		if (no_outcome && f->unrecovered && !f->symptom && !f->is_output)
			f->failed = true;
		f->echoed = echoed(f, m, false);
	}
	mark_near_exit(list, m);

	uint64_t last = 1;
	for (size_t i = 0; i < list->count; i++)
		last = MAX(last, list->v[i]->seq);
	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *f = list->v[i];
		f->effective = f->failed || accused(f, m) ? f->severity : f->severity_ok;
		/* The words of a process that failed and whose caller went on
		 * to succeed are its report of a failure that was dealt with,
		 * as its exit is: `iptables -C` saying "Bad rule" when the
		 * rule it checked for is not there yet, and netavark adds it. */
		if (f->is_output && !f->failed && handled_failure(f, m))
			f->effective = RC_SEV_INFO;
		double score = 0;
		if (f->is_output) {
			if (f->failed)
				score += RC_W_OUTPUT;
		} else {
			if (f->echoed)
				score += RC_W_ECHOED;
			if (f->near_exit)
				score += RC_W_NEAR_EXIT;
			if (f->unrecovered)
				score += RC_W_UNRECOVERED;
		}
		if (f->outcome)
			score += RC_W_OUTCOME;
		if (f->symptom)
			score += RC_W_SYMPTOM;
		/* Among the programs' own words the first to speak leads: a
		 * child reports its failure before the parent that wraps it
		 * ("model load failed" before "service failed to start"). */
		if (f->is_output)
			score -= RC_W_LATENESS * (double)f->seq / (double)last;
		else
			score += RC_W_LATENESS * (double)f->seq / (double)last;
		f->score = score;
	}
	if (list->count)
		qsort(list->v, list->count, sizeof(*list->v), cmp_rank);
	for (size_t i = 0; i < list->count; i++)
		list->v[i]->rank = i;
}
