/* libFuzzer entry for the whole analysis of a log: parser, process model,
 * every rule (DNS packets, siginfo, mappings are decoded there) and both
 * report writers. Any bytes must give a report without a crash, a
 * sanitizer report or a leak. */
#include <stddef.h>
#include <stdint.h>

#include "report/report.h"
#include "rules/engine.h"
#include "strace/parser.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strace_parser *p = strace_parser_from_buffer((const char *)data, size);
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct rc_engine eng;
	struct rc_findings findings;
	struct rc_event e;

	engine_init(&eng);
	findings_init(&findings);
	while (strace_parser_next(p, &e, &err) == 1)
		engine_feed(&eng, &e);
	engine_finish(&eng, &findings);

	const struct strace_stats *st = strace_parser_stats(p);
	struct rc_report rep = {
		.kind = "log",
		.lines = st->lines,
		.skipped_lines = st->skipped,
		.events = st->events,
		.procs = &eng.procs,
		.findings = &findings,
	};
	report_json(&rep, &out);
	strbuf_reset(&out);
	report_text(&rep, &out, true, true);

	strbuf_release(&out);
	strbuf_release(&err);
	findings_release(&findings);
	engine_release(&eng);
	strace_parser_free(p);
	return 0;
}
