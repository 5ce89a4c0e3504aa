/* The process model's judgements of failure (procs.h): whether a process
 * or one of its ancestors failed, whether an ancestor survived it, and
 * whether a process only passed on its child's failure. */
#include "event/procs-internal.h"

static bool proc_failed(const struct rc_proc *p)
{
	return p->ended && ((p->exited && p->exit_code != 0) || (!p->exited && p->signo));
}

/* Process A chose to end no earlier than process P did: by the time of
 * each one's exit_group when both are known and differ, else by the
 * order of the trace. A capture may show an exit well after the call
 * that made it: conmon's first half called exit_group before crun
 * failed, and its end came after crun's. */
static bool left_after(const struct rc_proc *a, const struct rc_proc *p)
{
	double at = a->left_ts > 0 ? a->left_ts : a->end_ts;
	double pt = p->left_ts > 0 ? p->left_ts : p->end_ts;

	if (at > 0 && pt > 0 && at != pt)
		return at > pt;
	return (a->left_seq ? a->left_seq : a->end_seq) >= (p->left_seq ? p->left_seq : p->end_seq);
}

/* P's failure was survived by an ancestor: one that exited 0 after P
 * ended, and after its own child on the line to P ended, or, when
 * BY_IMAGE, whose program image that started P's line went on to exec
 * another program. One that exited 0 before P ended, or while its child
 * on that line still ran, had left it, not dealt with it: the first half
 * of a daemon's double fork (conmon, which then runs the container's
 * runtime; under load its fork returned only after crun had failed), a
 * shell that put it in the background. */
static bool handled_above(const struct rc_procs *m, const struct rc_proc *p, bool by_image)
{
	const struct rc_proc *l = p ? procs_leader(m, p->pid) : NULL;
	const struct rc_proc *failed = l && l->ended ? l : NULL;

	for (int depth = 0; l && l->has_parent && l->ppid != l->pid && depth < MAX_DEPTH; depth++) {
		unsigned img = l->parent_image;
		const struct rc_proc *below = l;
		l = procs_leader(m, l->ppid);
		if (!l)
			break;
		bool waited = !failed || (left_after(l, failed) && below->ended && left_after(l, below));
		if ((procs_succeeded(l) && waited) || (by_image && img < l->image))
			return true;
	}
	return false;
}

bool procs_handled(const struct rc_procs *m, const struct rc_proc *p)
{
	return handled_above(m, p, false);
}

/* PID or one of its ancestors failed, and no ancestor above that one
 * survived it. BY_IMAGE: only while the program image IMAGE of PID (and
 * then each ancestor's image that started the line below it) had not
 * handed over to another by exec. */
static bool failed_from(const struct rc_procs *m, int pid, bool by_image, unsigned image,
			const struct rc_proc **culprit)
{
	const struct rc_proc *p = procs_get(m, pid);
	unsigned img = image;

	for (int depth = 0; p && depth < MAX_DEPTH; depth++) {
		const struct rc_proc *l = procs_leader(m, p->pid);
		/* That program handed over: what failed later is another's. */
		if (by_image && l && img < l->image)
			return false;
		if (proc_failed(p) || (l && proc_failed(l))) {
			const struct rc_proc *f = proc_failed(p) ? p : l;
			/* An ancestor that went on to succeed dealt with it. */
			if (handled_above(m, f, by_image))
				return false;
			if (culprit)
				*culprit = f;
			return true;
		}
		if (!l || !l->has_parent || l->ppid == l->pid)
			break;
		img = l->parent_image;
		p = procs_get(m, l->ppid);
	}
	return false;
}

bool procs_failed(const struct rc_procs *m, int pid, const struct rc_proc **culprit)
{
	return failed_from(m, pid, false, 0, culprit);
}

bool procs_image_failed(const struct rc_procs *m, int pid, unsigned image, const struct rc_proc **culprit)
{
	return failed_from(m, pid, true, image, culprit);
}

bool procs_passed_on(const struct rc_procs *m, int pid, uint64_t seq)
{
	const struct rc_proc *p = procs_leader(m, pid);
	const struct rc_proc *last = NULL;
	struct hmap_iter it;

	if (!p || !p->ended || !p->exited || p->exit_code == 0)
		return false;
	for (struct hmap_node *n = hmap_first(&m->procs, &it); n; n = hmap_next(&m->procs, &it)) {
		const struct rc_proc *c = n->value;
		if (c->has_parent && c->ppid == p->pid && !c->is_thread && c->pid != p->pid && c->ended &&
		    c->end_seq <= p->end_seq && (!last || c->end_seq > last->end_seq))
			last = c;
	}
	if (!last || !proc_failed(last) || seq >= last->first_seq)
		return false;
	/* A shell reports a child killed by signal N as 128+N. */
	return last->exited ? last->exit_code == p->exit_code : 128 + last->signo == p->exit_code;
}

bool procs_any_failed(const struct rc_procs *m)
{
	struct hmap_iter it;

	for (struct hmap_node *n = hmap_first(&m->procs, &it); n; n = hmap_next(&m->procs, &it))
		if (proc_failed(n->value))
			return true;
	return false;
}
