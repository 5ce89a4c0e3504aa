/* A finding's evidence found on the timeline: the writers that draw the
 * trace link each evidence line to the event it quotes, by the line's
 * key (event/timeline.h), so that a click on one shows the other. */
#include <string.h>

#include "report/report.h"

_Static_assert(RC_TL_KEY_MAX == RC_EVIDENCE_LINE_MAX,
	       "the timeline's line key must cover what evidence keeps of a line");

size_t report_evidence_events(const struct rc_report *r, const struct rc_finding *f,
			      const struct rc_tl_event **out)
{
	const struct rc_tl_event *found[RC_EVIDENCE_MAX];
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
		const struct rc_tl_event *ev =
			timeline_find(r->timeline, timeline_line_key(line, len), f->seq, found, n);
		if (ev)
			out[i] = found[n++] = ev;
	}
	return n;
}
