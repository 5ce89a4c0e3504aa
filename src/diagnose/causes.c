/* Causes and consequences (DESIGN.md): every finding is a cause or the
 * consequence of one. One failure shows itself several times: the call
 * that failed, the program's words about it, the exit status that
 * followed, the signal a supervisor sent when its child died. This pass
 * links each consequence to its cause, so that the report names one cause
 * with what it led to and counts causes, not echoes.
 *
 * First a file missing from a cache and the failure to fetch it become
 * one finding (fold_fetches). The links, tried in this order (a finding
 * takes the first that fits, and the best-ranked cause that fits):
 *  1. a fatal signal (crashed) that another finding about the same
 *     process and signal explains: a crash rule, bad-file-mapping,
 *     out-of-memory's OOM kill;
 *  2. the program's words (error-message), by how surely they are about a
 *     cause: they quote a child's words whole (a runtime's front end
 *     passing on the runtime's message: the child's words are the cause
 *     here), their own line names its subject (its echo words), quotes the
 *     error of a call that failed in that process or below it ("No such
 *     file or directory", Python's "[Errno 2]"), or a line quoted with them
 *     names it; they name a program below that failed ("crun: ..."); an
 *     abort's own words ("Assertion ... failed", an uncaught exception) go
 *     under the crash rule that explains the abort; words of a process its
 *     parent ran while failing of another child, a status it then passed
 *     on (conmon's cleanup command after crun failed), go under that
 *     failure; else words a process gave after one of its own calls failed
 *     for good just before it failed (near_exit) and no child failed since,
 *     in terms of its own or cut by -s (a call of that program: not one of
 *     a program it ran before its execve);
 *  3. an abort (SIGABRT) no crash rule explains, after the process's own
 *     last words: they say why it aborted;
 *  4. a signal another traced process sent while its victim was stuck in a
 *     call (a lock wait its time-out cut short), or after a failure in
 *     the sender's own subtree: the supervisor stopping the rest after a
 *     child failed, whether the signal killed them (crashed) or their
 *     handler exited non-zero on it (nonzero-exit with the sender: a
 *     postmaster's SIGQUIT); a process's death by its own kill of its
 *     group, under the death of the victim it named first; and a child
 *     killed by a parent that then failed, under the parent's failure;
 *  5. a thread blocked waiting for a peer that a failed lookup or connect
 *     of its process names: why it waits;
 *  6. in the order the processes ended: the words of a process after one
 *     of its children failed are its report of that failure; the exit
 *     status of a process follows from the cause its last words were
 *     about, else the best cause in its subtree, else a child's failure it
 *     passed on.
 * A failure met by several processes (a loop running one command again,
 * a restarted worker: rc_finding's also) is each one's cause: the words
 * and exit of each may follow from it.
 * A consequence is linked to a cause, never to another consequence, so no
 * loop can form. Without a cause the program's last words stand as the
 * cause, and without those the exit status itself. Last, a process whose
 * last words report another's failure is settled: what it met itself and
 * named nowhere was not why it failed (settle_explained).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose/diagnose.h"
#include "rules/finding.h"
#include "rules/words.h"
#include "util/util.h"

struct links {
	struct rc_finding **v;		/* in rank order */
	size_t n;
	const struct rc_procs *m;
	struct rc_finding **ends;	/* nonzero-exit and crashed, by seq */
	size_t nends;
};

static struct rc_finding *root_of(struct rc_finding *f)
{
	while (f->cause)
		f = f->cause;
	return f;
}

/* Make X, a cause so far, a consequence of C's cause; false when X has a
 * cause already or that cause would be X itself. */
static bool link_to(struct rc_finding *x, struct rc_finding *c)
{
	if (x->cause)
		return false;
	c = root_of(c);
	if (c == x)
		return false;
	x->cause = c;
	return true;
}

static bool from_crash_rule(const struct rc_finding *f)
{
	const struct rc_rule *r = rule_find(f->rule);

	return r && r->source == RC_RULE_CRASH;
}

static int leader_of(const struct rc_procs *m, int pid)
{
	const struct rc_proc *l = procs_leader(m, pid);

	return l ? l->pid : pid;
}

/* One of the two processes is the other or below it. */
static bool related(const struct rc_procs *m, int a, int b)
{
	return procs_descends(m, a, b) || procs_descends(m, b, a);
}

/* C's failure was met no later than SEQ by PID's process or one below it
 * (BELOW false: or above it): by C's own, or by one of those that met it
 * too (rc_finding's also), which *WHO is set to. */
static bool met_by(const struct rc_procs *m, const struct rc_finding *c, int pid, uint64_t seq, bool below,
		   int *who)
{
	*who = c->pid;
	if (c->seq <= seq && (below ? procs_descends(m, c->pid, pid) : related(m, c->pid, pid)))
		return true;
	for (int i = 0; i < c->also.n; i++) {
		const struct rc_occurrence *o = &c->also.v[i];
		*who = o->pid;
		if (o->seq <= seq && (below ? procs_descends(m, o->pid, pid) : related(m, o->pid, pid)))
			return true;
	}
	return false;
}

/* The error text of C's failed call ("Permission denied"), or NULL. */
static const char *error_text(const struct rc_finding *c)
{
	if (c->err <= 0)
		return NULL;
	const char *s = strerror(c->err);
	return s && strncmp(s, "Unknown error", 13) != 0 ? s : NULL;
}

/* TEXT quotes C's error: its text ("Permission denied"), or the number as
 * Python's OSError prints it ("[Errno 13]"), which survives strace's -s
 * cutting the text off. */
static bool quotes_error(const char *text, const struct rc_finding *c, const char *err)
{
	char num[32];

	snprintf(num, sizeof(num), "[Errno %d]", c->err);
	return strcasestr(text, err) || strstr(text, num);
}

/* How E's words can be about C, strongest first: its own line names C's
 * subject (a file, a host), quotes C's error, or a line quoted with it
 * (the one before, a traceback's frame) names C's subject. */
enum about {
	ABOUT_NAMES,
	ABOUT_QUOTES,
	ABOUT_CONTEXT,
	ABOUT_COUNT,
};

static bool words_about(const struct rc_procs *m, const struct rc_finding *e, const struct rc_finding *c,
			int met, enum about how)
{
	const char *err = how == ABOUT_QUOTES ? error_text(c) : NULL;

	if (how == ABOUT_QUOTES && !err)
		return false;
	const char *texts[RC_EVIDENCE_MAX + 2];
	size_t n = 0;
	if (how == ABOUT_CONTEXT) {
		for (int i = 0; i < e->nevidence; i++)
			texts[n++] = e->evidence[i];
	} else {
		texts[n++] = e->message;
		texts[n++] = e->summary;
	}
	for (size_t i = 0; i < n; i++) {
		if (!texts[i])
			continue;
		if (how == ABOUT_QUOTES ? quotes_error(texts[i], c, err)
					: rule_text_echoes(c, texts[i], procs_below(m, e->pid, met)))
			return true;
	}
	return false;
}

/* 1. */
static void link_explained_signals(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *x = l->v[i];
		if (!x->outcome || !x->signo)
			continue;
		for (size_t k = 0; k < l->n; k++) {
			struct rc_finding *c = l->v[k];
			if (c == x || c->signo != x->signo || c->symptom || c->is_output || c->outcome ||
			    leader_of(l->m, c->pid) != leader_of(l->m, x->pid))
				continue;
			if (link_to(x, c))
				break;
		}
	}
}

/* The crash finding that explains PID's death by SIGABRT, if any. */
static struct rc_finding *abort_explained(const struct links *l, int pid)
{
	const struct rc_proc *p = procs_leader(l->m, pid);

	for (size_t k = 0; k < l->n; k++) {
		struct rc_finding *c = l->v[k];
		if (from_crash_rule(c) && c->signo == SIGABRT && leader_of(l->m, c->pid) == leader_of(l->m, pid) &&
		    (!p || !p->ended || p->signo == SIGABRT))
			return c;
	}
	return NULL;
}

/* Words that quote a child's words whole: "Error: OCI runtime error:
 * crun: cgroups in hybrid mode not supported ..." is podman passing on
 * what crun said. Short lines are too common to tell. */
#define QUOTE_MIN 16

static struct rc_finding *quoted_words(const struct links *l, const struct rc_finding *e)
{
	for (size_t k = 0; k < l->n; k++) {
		struct rc_finding *c = l->v[k];
		if (c != e && c->is_output && c->seq <= e->seq && c->message && e->message &&
		    strlen(c->message) >= QUOTE_MIN && procs_below(l->m, c->pid, e->pid) &&
		    strstr(e->message, c->message))
			return c;
	}
	return NULL;
}

/* The last failure (exit or crash) strictly below process P before SEQ. */
static struct rc_finding *child_failure(const struct links *l, int p, uint64_t seq)
{
	for (size_t k = l->nends; k-- > 0;) {
		struct rc_finding *y = l->ends[k];
		if (y->seq < seq && procs_below(l->m, y->pid, p))
			return y;
	}
	return NULL;
}

/* A failure below process P, one that failed the run, after AFTER and
 * before BEFORE. */
static bool child_failed_between(const struct links *l, int p, uint64_t after, uint64_t before)
{
	for (size_t k = 0; k < l->nends; k++) {
		const struct rc_finding *y = l->ends[k];
		if (y->seq > after && y->seq < before && y->effective == RC_SEV_ERROR && procs_below(l->m, y->pid, p))
			return true;
	}
	return false;
}

/* P exited with the status C ended with (a shell's 128+N for a death by
 * signal N). */
static bool passes_status(const struct rc_proc *c, const struct rc_proc *p)
{
	return c->ended && (c->exited ? c->exit_code == p->exit_code : 128 + c->signo == p->exit_code);
}

/* The failure (an exit, a death) of a child of its parent that process
 * PID's parent passed on as its own, when that child had failed before
 * PID started: PID ran as its parent's handling of that failure (conmon
 * runs podman's `container cleanup`, its exit command, after crun
 * failed, and exits with crun's status), and what befell it there is
 * that failure's aftermath. A supervisor's next try is not: the
 * supervisor passes on the last try's status, the next try's own. */
static struct rc_finding *aftermath_of(const struct links *l, int pid)
{
	const struct rc_proc *q = procs_leader(l->m, pid);
	const struct rc_proc *p = q && q->has_parent ? procs_get(l->m, q->ppid) : NULL;

	if (!p || !p->ended || !p->exited || p->exit_code == 0 || passes_status(q, p))
		return NULL;
	for (size_t k = 0; k < l->nends; k++) {
		struct rc_finding *y = l->ends[k];
		const struct rc_proc *c = procs_leader(l->m, y->pid);
		if (!c || c == q || !c->has_parent || c->ppid != p->pid || !c->ended || c->end_seq >= q->first_seq ||
		    y->effective != RC_SEV_ERROR)
			continue;
		if (passes_status(c, p))
			return y;
	}
	return NULL;
}

/* The last failure below E's process, before E, of a program E's words
 * name followed by a colon, as programs name the one that failed them. */
static struct rc_finding *named_child_failure(const struct links *l, const struct rc_finding *e)
{
	const char *text = e->message ? e->message : e->summary;

	for (size_t k = l->nends; k-- > 0 && text;) {
		struct rc_finding *y = l->ends[k];
		if (y->seq > e->seq || y->effective != RC_SEV_ERROR || !procs_below(l->m, y->pid, e->pid))
			continue;
		const char *name = procs_program(l->m, y->pid);
		size_t n = name ? strlen(name) : 0;
		for (const char *at = n ? strstr(text, name) : NULL; at; at = strstr(at + 1, name))
			if ((at == text || at[-1] == ' ') && at[n] == ':')
				return y;
	}
	return NULL;
}

/* 2. */
static void link_echoes(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *e = l->v[i];
		if (!e->is_output)
			continue;
		struct rc_finding *q = quoted_words(l, e);
		if (q)
			link_to(e, q);
		for (enum about how = 0; how < ABOUT_COUNT && !e->cause; how++)
			for (size_t k = 0; k < l->n && !e->cause; k++) {
				struct rc_finding *c = l->v[k];
				if (c == e || c->is_output || c->symptom || c->effective < e->effective)
					continue;
				/* An error text says nothing of whose it is: only a
				 * call of that process, or below it. */
				int met;
				if (met_by(l->m, c, e->pid, e->seq, how == ABOUT_QUOTES, &met) &&
				    words_about(l->m, e, c, met, how))
					link_to(e, c);
			}
		/* Words that name a program below the process that failed
		 * ("Error: OCI runtime error: crun: ...", "xargs: grep: exited
		 * with status 255") are about that failure, even when -s cut
		 * off what the program said. */
		struct rc_finding *y = e->cause ? NULL : named_child_failure(l, e);
		if (y)
			link_to(e, y);
		/* An abort's words are the crash's own report. */
		struct rc_finding *a = e->cause ? NULL : abort_explained(l, e->pid);
		if (a)
			link_to(e, a);
		/* Words of a process its parent ran while failing. */
		y = e->cause ? NULL : aftermath_of(l, e->pid);
		if (y)
			link_to(e, y);
		/* Words that name nothing we can match (cut short by strace's
		 * -s, or in the program's own terms: "cannot allocate a 1 GiB
		 * buffer") after a call of the same program failed for good
		 * just before it gave up: its report of that failure. (A
		 * parent's words after a child failed: step 6.) Not a call of
		 * a program the process ran before it exec'd the one that
		 * spoke: that was another program. Nor when a child failed
		 * since: the words then report that later failure (step 6). */
		bool last_image = e->image == procs_image(l->m, e->pid);
		for (size_t k = 0; k < l->n && !e->cause; k++) {
			struct rc_finding *c = l->v[k];
			if (c != e && !c->is_output && !c->symptom && c->near_exit && c->effective == RC_SEV_ERROR &&
			    c->seq <= e->seq && leader_of(l->m, c->pid) == leader_of(l->m, e->pid) &&
			    !(last_image && procs_before_image(l->m, e->pid, c->seq)) &&
			    !child_failed_between(l, leader_of(l->m, e->pid), c->seq, e->seq))
				link_to(e, c);
		}
	}
}

/* 3. */
static void link_aborts(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *x = l->v[i];
		if (!x->outcome || x->signo != SIGABRT || x->cause)
			continue;
		for (size_t k = 0; k < l->n; k++) {
			struct rc_finding *e = l->v[k];
			if (e->is_output && e->seq <= x->seq && leader_of(l->m, e->pid) == leader_of(l->m, x->pid) &&
			    link_to(x, e))
				break;
		}
	}
}

static bool is_error(struct rc_finding *c)
{
	return c->effective == RC_SEV_ERROR || root_of(c)->effective == RC_SEV_ERROR;
}

/* 4. */
static void link_sent_signals(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *x = l->v[i];
		if ((!x->outcome && !x->symptom) || x->cause || x->sender_pid <= 0)
			continue;
		int sender = leader_of(l->m, x->sender_pid);
		/* Stopped while stuck in a call (a lock wait a time-out cut
		 * short): the call it was stuck in is why it was stopped. */
		for (size_t k = 0; k < l->n && !x->cause && sender != leader_of(l->m, x->pid); k++) {
			struct rc_finding *c = l->v[k];
			if (c->stuck && c->seq <= x->seq && leader_of(l->m, c->pid) == leader_of(l->m, x->pid))
				link_to(x, c);
		}
		if (x->cause)
			continue;
		/* A process that killed its own group with the rest (timeout's
		 * kill(0, SIGKILL) after its child's): the victims it named
		 * first are the cause. */
		if (sender == leader_of(l->m, x->pid)) {
			for (size_t k = 0; k < l->n && !x->cause; k++) {
				struct rc_finding *y = l->v[k];
				if (y != x && y->outcome && y->sender_pid > 0 && y->seq <= x->seq &&
				    leader_of(l->m, y->sender_pid) == sender && leader_of(l->m, y->pid) != sender)
					link_to(x, y);
			}
			continue;
		}
		/* A cause first; the bare failure of another child else. */
		for (int pass = 0; pass < 2 && !x->cause; pass++)
			for (size_t k = 0; k < l->n && !x->cause; k++) {
				struct rc_finding *c = l->v[k];
				if (c == x || (c->symptom != (pass == 1)) || c->seq > x->seq || !is_error(c) ||
				    !procs_descends(l->m, c->pid, sender) || procs_descends(l->m, c->pid, x->pid))
					continue;
				link_to(x, c);
			}
		/* A parent that killed its child and then failed itself
		 * (crun's SIGKILL to the container's process it had begun,
		 * before it says why it gave up): the parent's failure, its
		 * words else its exit, is why the child died. Not a time-out
		 * (a kill after waiting for the child, or when a timer went
		 * off): the child's slowness is the failure then. */
		if (!x->cause && !x->timed_out && procs_below(l->m, x->pid, sender) &&
		    procs_failed(l->m, sender, NULL))
			for (int pass = 0; pass < 2 && !x->cause; pass++)
				for (size_t k = 0; k < l->n && !x->cause; k++) {
					struct rc_finding *c = l->v[k];
					if (c->seq >= x->seq && leader_of(l->m, c->pid) == sender &&
					    (pass == 0 ? c->is_output : c->symptom))
						link_to(x, c);
				}
	}
}

/* 5, the words: P's words after a child of it failed. */
static void link_reports(struct links *l, int p, uint64_t before)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *e = l->v[i];
		if (!e->is_output || e->cause || e->seq > before || leader_of(l->m, e->pid) != p)
			continue;
		struct rc_finding *y = child_failure(l, p, e->seq);
		if (y)
			link_to(e, y);
	}
}

/* 5, the exit status X. */
static void link_exit(struct links *l, struct rc_finding *x)
{
	/* The process said why it gave up: its last words, when they are
	 * about a cause, name the one the exit followed from. */
	struct rc_finding *last = NULL;
	for (size_t k = 0; k < l->n; k++) {
		struct rc_finding *e = l->v[k];
		if (e->is_output && e->cause && e->seq <= x->seq &&
		    leader_of(l->m, e->pid) == leader_of(l->m, x->pid) && (!last || e->seq > last->seq))
			last = e;
	}
	if (last && is_error(last->cause) && link_to(x, last->cause))
		return;
	for (size_t k = 0; k < l->n; k++) {
		struct rc_finding *c = l->v[k];
		int met;
		if (c == x || c->symptom || !is_error(c) || !met_by(l->m, c, x->pid, x->seq, true, &met))
			continue;
		if (link_to(x, c))
			return;
	}
	struct rc_finding *y = child_failure(l, leader_of(l->m, x->pid), x->seq);
	if (y)
		link_to(x, y);
}

static int cmp_seq(const void *a, const void *b)
{
	const struct rc_finding *x = *(struct rc_finding *const *)a, *y = *(struct rc_finding *const *)b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The exits and deaths, by seq, for the steps that look for a child's
 * failure. */
static void collect_ends(struct links *l)
{
	l->ends = xcalloc(l->n + 1, sizeof(*l->ends));
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i]->symptom || l->v[i]->outcome)
			l->ends[l->nends++] = l->v[i];
	qsort(l->ends, l->nends, sizeof(*l->ends), cmp_seq);
}

static void link_ends(struct links *l)
{
	for (size_t i = 0; i < l->nends; i++) {
		struct rc_finding *x = l->ends[i];
		link_reports(l, leader_of(l->m, x->pid), x->seq);
		if (x->symptom)
			link_exit(l, x);
	}
	/* Processes that had not ended when the trace did. */
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i]->is_output && !l->v[i]->cause)
			link_reports(l, leader_of(l->m, l->v[i]->pid), UINT64_MAX);
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rc_finding *x = *(struct rc_finding *const *)a, *y = *(struct rc_finding *const *)b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Causes by severity, then rank; each cause's consequences after it, in
 * the order they happened. */
static int cmp_report(const void *a, const void *b)
{
	const struct rc_finding *x = *(struct rc_finding *const *)a, *y = *(struct rc_finding *const *)b;
	const struct rc_finding *cx = x->cause ? x->cause : x, *cy = y->cause ? y->cause : y;

	if (cx != cy) {
		if (cx->effective != cy->effective)
			return cx->effective > cy->effective ? -1 : 1;
		return (cx->rank > cy->rank) - (cx->rank < cy->rank);
	}
	if (!x->cause || !y->cause)
		return x->cause ? 1 : -1;
	return cmp_seq(a, b);
}

/* Whether PATH is in a cache: a directory whose name says it is one
 * (~/.cache, /var/cache, a program's own "cache_hub" or "model_cache",
 * huggingface's "hub"), where programs keep what they fetch. */
static bool cached_path(const char *path)
{
	const char *base = strrchr(path, '/');

	for (const char *c = path; base && c < base;) {
		const char *end = memchr(c, '/', (size_t)(base - c) + 1);
		size_t n = (size_t)(end - c);
		for (size_t i = 0; i + 5 <= n; i++)
			if (strncasecmp(c + i, "cache", 5) == 0)
				return true;
		if (n == 3 && strncmp(c, "hub", 3) == 0)
			return true;
		c = end + 1;
	}
	return false;
}

/* The network failures a fetch ends in. */
static bool fetch_failed(const struct rc_finding *f)
{
	return strcmp(f->rule, "connect-timeout") == 0 || strcmp(f->rule, "connect-failed") == 0 ||
	       strcmp(f->rule, "dns-failure") == 0;
}

/* A file a program did not find in its cache, and then failed to fetch:
 * one failure, the miss and the fetch in one story ("'narrator-v2.pth'
 * is not cached, and fetching it failed: connection to ... timed out
 * after 2.5 s"), not a network cause with a missing file ranked apart.
 * The program went on after the miss, to the network: the miss was one
 * it expected, the fetch's failure is what failed it. Folded: a missing
 * file in a cache, and the first network failure of the same process
 * after it; the missing-file finding goes, its call joins the other's
 * evidence. */
static void fold_fetches(struct rc_findings *list, const struct rc_procs *m)
{
	for (size_t i = 0; i < list->count; i++) {
		struct rc_finding *n = list->v[i], *miss = NULL;
		size_t at = 0;
		if (!fetch_failed(n))
			continue;
		for (size_t k = 0; k < list->count; k++) {
			struct rc_finding *f = list->v[k];
			if (strcmp(f->rule, "missing-file") == 0 && f->path && f->seq < n->seq &&
			    cached_path(f->path) && leader_of(m, f->pid) == leader_of(m, n->pid) &&
			    (!miss || f->seq > miss->seq)) {
				miss = f;
				at = k;
			}
		}
		if (!miss)
			continue;
		/* No other network failure of the process between them: the
		 * first fetch after the miss is its fetch. */
		bool first = true;
		for (size_t k = 0; k < list->count && first; k++)
			first = !(fetch_failed(list->v[k]) && list->v[k] != n && list->v[k]->seq > miss->seq &&
				  list->v[k]->seq < n->seq && leader_of(m, list->v[k]->pid) == leader_of(m, n->pid));
		if (!first)
			continue;
		const char *slash = strrchr(miss->path, '/');
		char *sum = n->summary;
		n->summary = NULL;
		finding_setf(&n->summary, "'%s' is not cached, and fetching it failed: %s", slash ? slash + 1 : miss->path,
			     sum);
		free(sum);
		if (!n->path)
			finding_set(&n->path, miss->path);
		if (n->advice) {
			char *adv = n->advice;
			n->advice = NULL;
			finding_setf(&n->advice, "%s; or put the file where the program looks for it first ('%s'), "
				     "and it need not fetch it", adv, miss->path);
			free(adv);
		}
		finding_echo_name(n, slash ? slash + 1 : miss->path);
		/* The miss's call first: the story in order. */
		if (miss->nevidence && n->nevidence < RC_EVIDENCE_MAX) {
			memmove(n->evidence + 1, n->evidence, (size_t)n->nevidence * sizeof(*n->evidence));
			n->evidence[0] = miss->evidence[0];
			miss->evidence[0] = NULL;
			n->nevidence++;
		}
		if (miss->effective > n->effective)
			n->effective = miss->effective;
		finding_free(miss);
		memmove(list->v + at, list->v + at + 1, (list->count - at - 1) * sizeof(*list->v));
		list->count--;
		if (at < i)
			i--;
	}
}

/* A thread blocked waiting for a peer (blocked-thread names the peer of
 * the socket it waits on) that a network failure of its process names
 * too: the lookup or connect that got no answer is why it waits. */
static void link_waits(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *w = l->v[i];
		if (w->cause || !w->address || strcmp(w->rule, "blocked-thread") != 0)
			continue;
		for (size_t k = 0; k < l->n; k++) {
			struct rc_finding *c = l->v[k];
			if (c != w && fetch_failed(c) && c->address && strcmp(c->address, w->address) == 0 &&
			    leader_of(l->m, c->pid) == leader_of(l->m, w->pid) && link_to(w, c))
				break;
		}
	}
}

/* A loop that failed a call again and again (retry-loop) on what a
 * cause of its process names (the missing file, the refused device): the
 * cause is what it failed on, and the loop is what it led to. */
static void link_loops(struct links *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *w = l->v[i];
		if (w->cause || strcmp(w->rule, "retry-loop") != 0)
			continue;
		for (size_t k = 0; k < l->n; k++) {
			struct rc_finding *c = l->v[k];
			if (c != w && c->severity == RC_SEV_ERROR && leader_of(l->m, c->pid) == leader_of(l->m, w->pid) &&
			    c->err == w->err && ((c->path && w->path && strcmp(c->path, w->path) == 0) ||
						 (c->syscall && w->syscall && strcmp(c->syscall, w->syscall) == 0)) &&
			    link_to(w, c))
				break;
		}
	}
}

/* A process whose failure its last words explain (settle_explained). */
struct explained {
	int leader;
	uint64_t seq;		/* of its last words */
};

/* Did process PID meet F at SEQ before words that explain its failure? */
static bool explained_at(const struct links *l, const struct explained *x, size_t nx, int pid, uint64_t seq)
{
	int p = leader_of(l->m, pid);

	for (size_t i = 0; i < nx; i++)
		if (x[i].leader == p && seq <= x[i].seq)
			return true;
	return false;
}

/* Process PID met F at SEQ: is that no failure, or an explained one
 * (*ANY then)? A process under one whose failure is explained fails by
 * that one (procs_failed's culprit): podman's cleanup, still running
 * when the trace ended, under the podman that failed of crun's words. */
static bool failure_settled(const struct links *l, const struct rc_finding *f, const struct explained *x, size_t nx,
			    int pid, uint64_t seq, bool *any)
{
	const struct rc_proc *who = NULL;

	if (explained_at(l, x, nx, pid, seq)) {
		*any = true;
		return true;
	}
	if (!finding_failed_in(f, l->m, pid, seq, &who))
		return true;
	if (who && who->pid != leader_of(l->m, pid) && explained_at(l, x, nx, who->pid, 0)) {
		*any = true;
		return true;
	}
	return false;
}

/* F failed only in processes whose failure is explained: a failure met
 * in several (podman's optional podman-machine, looked for again by its
 * cleanup) is settled when each one that failed is, and stands while one
 * failed of it unexplained (a loop's cat). */
static bool settled(const struct links *l, const struct rc_finding *f, const struct explained *x, size_t nx)
{
	bool any = false;

	if (!failure_settled(l, f, x, nx, f->pid, f->seq, &any))
		return false;
	for (int k = 0; k < f->also.n; k++)
		if (!failure_settled(l, f, x, nx, f->also.v[k].pid, f->also.v[k].seq, &any))
			return false;
	return any;
}

/* A process whose last words report another process's failure (a
 * runtime's, a child's) failed of that failure: a wrapper, a manager, a
 * runtime's front end. What it met on its own way and named nowhere, it
 * did without, and is judged as a run that went on judges it: podman
 * says crun's raise of a limit was refused; the optional files it looked
 * for first (hooks.d, podman-machine) were not why it failed. A process
 * whose words are about a failure of its own settles nothing: its other
 * failures may be causes as well (a model missing, then its download
 * timing out). */
static void settle_explained(struct links *l)
{
	struct explained *x = xcalloc(l->n, sizeof(*x));
	size_t nx = 0;

	for (size_t i = 0; i < l->n; i++) {
		struct rc_finding *e = l->v[i];
		if (!e->is_output || !e->cause)
			continue;
		int p = leader_of(l->m, e->pid);
		bool last = true;
		for (size_t k = 0; k < l->n && last; k++)
			last = !(l->v[k]->is_output && l->v[k]->seq > e->seq && leader_of(l->m, l->v[k]->pid) == p);
		if (!last || leader_of(l->m, e->cause->pid) == p || !procs_failed(l->m, e->pid, NULL))
			continue;
		x[nx++] = (struct explained){ p, e->seq };
	}
	for (size_t k = 0; k < l->n && nx; k++) {
		struct rc_finding *f = l->v[k];
		/* A cause has its consequences, the explained words among them. */
		if (f->cause || f->nconsequences || f->is_output || f->symptom || f->outcome || f->echoed ||
		    f->effective != RC_SEV_ERROR || f->severity_ok >= RC_SEV_ERROR || !settled(l, f, x, nx))
			continue;
		f->effective = f->severity_ok;
		f->failed = false;
	}
	free(x);
}

void findings_link(struct rc_findings *list, const struct rc_procs *m)
{
	fold_fetches(list, m);
	struct links l = { list->v, list->count, m, NULL, 0 };

	if (!l.n)
		return;
	qsort(l.v, l.n, sizeof(*l.v), cmp_rank);
	for (size_t i = 0; i < l.n; i++) {
		l.v[i]->cause = NULL;
		l.v[i]->nconsequences = 0;
	}
	collect_ends(&l);
	link_explained_signals(&l);
	link_echoes(&l);
	link_aborts(&l);
	link_sent_signals(&l);
	link_waits(&l);
	link_loops(&l);
	link_ends(&l);

	struct rc_finding **roots = xcalloc(l.n, sizeof(*roots));
	for (size_t i = 0; i < l.n; i++)
		roots[i] = l.v[i]->cause ? root_of(l.v[i]) : NULL;
	for (size_t i = 0; i < l.n; i++) {
		struct rc_finding *f = l.v[i], *c = roots[i];
		f->cause = c;
		if (!c)
			continue;
		c->nconsequences++;
		/* What it led to was a failure: so was it. */
		if (f->effective > c->effective)
			c->effective = f->effective;
	}
	free(roots);
	settle_explained(&l);
	free(l.ends);
	qsort(l.v, l.n, sizeof(*l.v), cmp_report);
}
