/* libFuzzer entry for the whole analysis of a log: parser, process model,
 * every rule (DNS packets, siginfo, mappings are decoded there), the
 * timeline the drawn reports keep, and every report writer (text, JSON,
 * HTML, Perfetto), the events carried as analyze's pump carries them.
 * Any bytes must give a report without a crash, a sanitizer report or a
 * leak. */
#include <stddef.h>
#include <stdint.h>

#include "event/pump.h"
#include "report/report.h"
#include "rules/engine.h"
#include "strace/parser.h"
#include "util/arena.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strace_parser *p = strace_parser_from_buffer((const char *)data, size);
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct rc_engine eng;
	struct rc_findings findings;
	struct rc_event e;
	struct rc_timeline tl;

	engine_init(&eng);
	timeline_init(&tl);
	eng.timeline = &tl;
	findings_init(&findings);
	/* As analyze's pump does (event/pump.h), in one thread: every other
	 * event's argument facts are left for later, and each event's
	 * strings are copied out of the parser's buffers before they are. */
	struct arena strings = { 0 }, facts = { 0 };
	for (uint64_t n = 0;; n++) {
		strace_parser_defer_facts(p, n & 1);
		if (strace_parser_next(p, &e, &err) != 1)
			break;
		arena_reset(&strings);
		event_own_strings(&e, &strings);
		arena_reset(&facts);
		strace_event_facts(&e, &facts);
		engine_feed(&eng, &e);
	}
	arena_release(&strings);
	arena_release(&facts);
	engine_finish(&eng, &findings);

	const struct strace_stats *st = strace_parser_stats(p);
	struct rc_report rep = {
		.kind = "log",
		.lines = st->lines,
		.skipped_lines = st->skipped,
		.events = st->events,
		.procs = &eng.procs,
		.findings = &findings,
		.timeline = &tl,
	};
	report_json(&rep, &out);
	strbuf_reset(&out);
	report_text(&rep, &out, true, true);
	strbuf_reset(&out);
	report_html(&rep, &out);
	strbuf_reset(&out);
	report_perfetto(&rep, &out);

	strbuf_release(&out);
	strbuf_release(&err);
	findings_release(&findings);
	timeline_release(&tl);
	engine_release(&eng);
	strace_parser_free(p);
	return 0;
}
