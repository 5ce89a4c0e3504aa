/* A finding's evidence found on the timeline: the writers that draw the
 * trace link each evidence line to the event it quotes, by the line's
 * key (event/timeline.h), so that a click on one shows the other.
 *
 * A line may stand for several events: a capture's lines carry no time,
 * and a rule quotes the first and the last open of a file, both
 * "openat(... "/m" ...) = 3". Evidence runs in the order of the trace, so
 * a line the finding quotes again further on is the first such event
 * after the one before it, and a line's last quote the one closest to the
 * finding's decisive event. */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/util.h"

_Static_assert(RC_TL_KEY_MAX == RC_EVIDENCE_LINE_MAX,
	       "the timeline's line key must cover what evidence keeps of a line");

size_t report_evidence_events(const struct rc_report *r, const struct rc_report_finding *f,
			      const struct rc_tl_event **out)
{
	const struct rc_tl_event *found[RC_EVIDENCE_MAX];
	uint64_t keys[RC_EVIDENCE_MAX];
	size_t n = 0;

	for (int i = 0; i < RC_EVIDENCE_MAX; i++)
		out[i] = NULL;
	if (!r->timeline)
		return 0;
	for (int i = 0; i < f->nevidence; i++) {
		const char *line = f->evidence[i];
		size_t len = strlen(line);
		/* finding_evidence marks a line it cut with " ...". */
		if (len == RC_EVIDENCE_LINE_MAX + 4 && strcmp(line + RC_EVIDENCE_LINE_MAX, " ...") == 0)
			len = RC_EVIDENCE_LINE_MAX;
		keys[i] = timeline_line_key(line, len);
	}
	for (int i = 0; i < f->nevidence; i++) {
		bool again = false;
		for (int k = i + 1; k < f->nevidence && !again; k++)
			again = keys[k] == keys[i];
		const struct rc_tl_event *ev = NULL;
		if (again)
			ev = timeline_find(r->timeline, keys[i], RC_TL_FIRST_AFTER, n ? found[n - 1]->seq : 0,
					   found, n);
		if (!ev)
			ev = timeline_find(r->timeline, keys[i], RC_TL_NEAREST, f->seq, found, n);
		if (ev)
			out[i] = found[n++] = ev;
	}
	return n;
}

void report_links_make(const struct rc_report *r, struct report_links *l)
{
	size_t n = r->findings ? r->findings->count : 0;

	l->ev = xcalloc(n ? n : 1, sizeof(*l->ev));
	hmap_init(&l->set);
	for (size_t i = 0; i < n; i++) {
		report_evidence_events(r, r->findings->v[i], l->ev[i]);
		for (size_t k = 0; k < RC_EVIDENCE_MAX; k++)
			if (l->ev[i][k])
				*hmap_put_int(&l->set, (long long)l->ev[i][k]->seq, NULL) = (void *)l->ev[i][k];
	}
}

void report_links_release(struct report_links *l)
{
	free(l->ev);
	hmap_release(&l->set, NULL);
}

const struct rc_tl_event **report_drawn_events(const struct rc_tl_thread *t, const struct report_links *l,
					       size_t *n)
{
	size_t nm = timeline_list_len(&t->marked), nq = timeline_list_len(&t->quoted), a = 0, b = 0;
	const struct rc_tl_event **v = xcalloc(nm + nq + 1, sizeof(*v));

	*n = 0;
	while (a < nm || b < nq) {
		const struct rc_tl_event *x = a < nm ? timeline_list_at(&t->marked, a) : NULL;
		const struct rc_tl_event *y = b < nq ? timeline_list_at(&t->quoted, b) : NULL;
		if (x && (!y || x->seq < y->seq)) {
			v[(*n)++] = x;
			a++;
		} else {
			if (hmap_get_int(&l->set, (long long)y->seq))
				v[(*n)++] = y;
			b++;
		}
	}
	return v;
}

const char *report_process_name(const struct rc_report *r, int pid)
{
	const struct rc_proc *p = r->procs ? procs_get(r->procs, pid) : NULL;

	if (p && p->argv && p->argc)
		return path_base(p->argv[0]);
	return p && p->exe ? path_base(p->exe) : NULL;
}
