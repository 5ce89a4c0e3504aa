/* capture-incomplete: the eBPF capture could not keep everything.
 *
 * The in-kernel capture holds a thread for room only where the watch
 * traces it (capture.bpf.c's hold_for_room), so where it cannot, and
 * the reader falls behind, the ring buffer fills and the kernel half
 * drops records;
 * a call whose entry could not be kept, or a child that could not be
 * followed, leaves a hole too. The capture counts each (capture/bpf/
 * bpf.h), and a trace with holes may lack the call a cause rests on: the
 * report must say so, as a finding, not only on stderr. So must a watch
 * window that lost events to the recorder's memory, or whose calls were
 * not recorded for a time (above watch's --max-call-rate). No event
 * reaches this rule: the diagnosis hands it the counts the capture ended
 * with. */
#include <stdio.h>

#include "event/loss.h"

#include "rules/rule.h"
#include "util/strbuf.h"

/* Nothing per event: the finding is made from the capture's counts. */
const struct rc_rule_ops rc_rule_capture_incomplete_ops = { 0 };

void capture_incomplete_finding(struct rc_findings *out, const struct capture_counts *n)
{
	unsigned long long lost = n->records + n->entries + n->follows + n->bad;

	if (!lost && !n->window && !(n->unrecorded > 0))
		return;
	/* Each kind of hole, said together. */
	struct strbuf what = STRBUF_INIT;
	strbuf_adds(&what, lost ? "the trace has holes: " : "the window has holes: ");
	if (lost)
		strbuf_addf(&what, "the eBPF capture lost %llu record%s", lost, lost == 1 ? "" : "s");
	if (n->window)
		strbuf_addf(&what, "%swatch's recorder dropped %llu event%s of it to stay within its memory",
			    lost ? ", and " : "", (unsigned long long)n->window, n->window == 1 ? "" : "s");
	if (n->unrecorded >= 1)
		strbuf_addf(&what, "%swatch did not record calls for %.0f s of it", lost || n->window ? ", and " : "",
			    n->unrecorded);
	else if (n->unrecorded > 0)
		strbuf_addf(&what, "%swatch did not record calls for less than a second of it",
			    lost || n->window ? ", and " : "");
	struct rc_finding *f = finding_add(out, "capture-incomplete", RC_SEV_WARNING, RC_SEV_WARNING,
					   "%s, so a finding may be missing or rest on part of what happened", what.buf);
	strbuf_release(&what);
	f->count = lost + n->window ? (long long)(lost + n->window) : 1;
	char line[256];
	int len = snprintf(line, sizeof(line),
			   "%llu records the full ring buffer refused, %llu calls whose entry could not be kept, "
			   "%llu children not followed, %llu records not well formed",
			   (unsigned long long)n->records, (unsigned long long)n->entries,
			   (unsigned long long)n->follows, (unsigned long long)n->bad);
	if (lost)
		finding_evidence(f, line, (size_t)len);
	if (n->window) {
		len = snprintf(line, sizeof(line), "%llu events of the window dropped before their time (watch's "
			       "--window-size)", (unsigned long long)n->window);
		finding_evidence(f, line, (size_t)len);
	}
	if (n->unrecorded > 0) {
		len = snprintf(line, sizeof(line), "calls not recorded for %.1f s of the window: the watched processes "
			       "made more than %.0f calls a second (watch's --max-call-rate); their starts, exits, "
			       "signals and stalls were", n->unrecorded, n->max_call_rate);
		finding_evidence(f, line, (size_t)len);
	}
	if (n->nwho) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_adds(&sb, "lost, by thread and call: ");
		loss_describe(&sb, n->who, n->nwho);
		finding_evidence(f, sb.buf, sb.len);
		strbuf_release(&sb);
	}
	finding_set(&f->advice, lost ? "trace again with a larger ring buffer (--ring-size 64M), or with --backend "
				       "ptrace, which loses nothing but stops the program at each call" :
			  n->window ? "give watch more memory for its window (--window-size), or a shorter --window" :
				      "to record every call, watch with a higher --max-call-rate, or 0 (always); each "
				      "call of the machine then costs more (README, 'Always on: watch')");
	/* After every finding of the trace: it is about the trace itself,
	 * ranked already (rank_findings sets what it would). */
	f->rank = out->count - 1;
	f->effective = RC_SEV_WARNING;
	/* A finding about a thread whose records are missing may lack the
	 * call it needed, or count fewer than were made. */
	for (size_t i = 0; i + 1 < out->count; i++) {
		struct rc_finding *g = out->v[i];
		for (size_t k = 0; k < n->nwho; k++) {
			int tid = n->who[k].tid;
			if (tid <= 0 || (g->tid != tid && !(g->tid <= 0 && g->pid == tid)))
				continue;
			char note[160];
			int m = snprintf(note, sizeof(note), "records of thread %d were lost (the ring buffer was "
				 "full): this finding may rest on part of what it did", tid);
			finding_evidence(g, note, (size_t)m);
			break;
		}
	}
}
