/* libFuzzer entry for the whole analysis of a log: parser, process model,
 * every rule (DNS packets, siginfo, mappings are decoded there), the
 * timeline the drawn reports keep, and every report writer (text, JSON,
 * HTML, Perfetto), the events carried as analyze's pump carries them.
 * Any bytes must give a report without a crash, a sanitizer report or a
 * leak. */
#include <stddef.h>
#include <stdint.h>

#include "diagnose/diagnose.h"
#include "event/stack.h"
#include "event/pump.h"
#include "report/report.h"
#include "strace/parser.h"
#include "util/arena.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strace_parser *p = strace_parser_from_buffer((const char *)data, size);
	struct strbuf out = STRBUF_INIT;
	const struct diagnose_opts dopts = { .rules = RC_RULES_ALL, .input = DIAGNOSE_LOG, .timeline = true };
	struct rc_diagnosis dg;
	struct strace_work w;

	diagnose_init(&dg, &dopts);
	/* As analyze's pump does (event/pump.h), in one thread: every other
	 * event's argument facts are left for later, and each event's
	 * strings are copied out of the parser's buffers before they are. */
	struct arena strings = { 0 }, facts = { 0 };
	for (uint64_t n = 0;; n++) {
		if (strace_parser_pump(p, &w, n & 1) != 1)
			break;
		arena_reset(&strings);
		event_own_strings(&w.ev, &strings);
		arena_reset(&facts);
		strace_work_finish(&w, &facts);
		diagnose_event(&dg, &w.ev);
		stack_unref(w.ev.stack);
	}
	arena_release(&strings);
	arena_release(&facts);

	const struct strace_stats *st = strace_parser_stats(p);
	struct rc_report rep = {
		.kind = "log",
		.lines = st->lines,
		.skipped_lines = st->skipped,
		.events = st->events,
	};
	diagnose_finish(&dg, &rep);
	report_json(&rep, &out);
	strbuf_reset(&out);
	report_text(&rep, &out, true, true);
	strbuf_reset(&out);
	report_html(&rep, &out);
	strbuf_reset(&out);
	report_perfetto(&rep, &out);

	strbuf_release(&out);
	diagnose_release(&dg);
	strace_parser_free(p);
	return 0;
}
