/* rootcause analyze LOG...: diagnose existing strace logs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "event/pump.h"
#include "rules/engine.h"
#include "strace/parser.h"

static const char analyze_usage[] =
	"usage: rootcause analyze [options] LOG...\n"
	"\n"
	"Diagnose strace logs: name why the traced program failed, stalled or ran\n"
	"slowly, with evidence and advice. LOG may be '-' for standard input.\n"
	"Any strace flags are understood (-f, -ff sets given together as LOG.PID\n"
	"files, -t/-tt/-ttt/-r, -T, -y/-yy, -s, -x/-X), and so is a pasted terminal\n"
	"session: lines that are not trace lines are counted and skipped.\n"
	"For the best diagnosis record with: strace -f -tt -T -y -s 256 -o LOG CMD...\n"
	"(-s 256 keeps the program's error messages whole).\n"
	"\n"
	"options:\n"
	REPORT_OPTIONS_HELP
	"\n"
	EXIT_CODES_HELP;

struct source {
	struct strace_parser *p;
	struct strbuf *err;
};

static int source_next(void *arg, struct rc_event *e, bool leave)
{
	struct source *s = arg;

	strace_parser_defer_facts(s->p, leave);
	return strace_parser_next(s->p, e, s->err);
}

static void engine_feed_event(void *eng, struct rc_event *e)
{
	engine_feed(eng, e);
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	int opt, done;

	report_opts_init(&ro);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:vh", longopts, &ro, analyze_usage, &done)) != -1)
		if (opt == RC_OPTS_EXIT)
			return done;
	if (optind >= argc) {
		error_msg("analyze: no log given");
		fputs(analyze_usage, stderr);
		return RC_EXIT_USAGE;
	}

	const char *const *files = (const char *const *)argv + optind;
	size_t nfiles = (size_t)(argc - optind);
	struct strbuf err = STRBUF_INIT;
	struct strace_parser *p;
	if (strace_parser_open(&p, files, nfiles, &err) < 0) {
		error_msg("%s", strbuf_str(&err));
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}

	struct rc_engine eng;
	struct rc_timeline tl;
	engine_init_rules(&eng, ro.rules);
	if (report_format_timed(ro.format)) {
		timeline_init(&tl);
		eng.timeline = &tl;
	}
	/* A log may be an excerpt: nine pasted lines around the failing call. */
	eng.may_be_excerpt = true;
	/* The log is parsed in a thread of its own while the rules read
	 * what it gave; while the rules keep up, the argument facts are
	 * read in their thread, which balances the two (event/pump.h). */
	struct source src = { p, &err };
	const struct event_pump pump = {
		.next = source_next, .src = &src,
		.finish = strace_event_facts,
		.feed = engine_feed_event, .sink = &eng,
	};
	if (event_pump(&pump) < 0) {
		error_msg("%s", strbuf_str(&err));
		strace_parser_free(p);
		engine_release(&eng);
		if (eng.timeline)
			timeline_release(&tl);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}

	const struct strace_stats *st = strace_parser_stats(p);
	struct rc_findings findings;
	findings_init(&findings);
	engine_finish(&eng, &findings);

	int status;
	if (st->events == 0) {
		/* Nothing in it was strace output: say so rather than "no problems". */
		if (nfiles == 1)
			error_msg("no strace output in '%s' (%llu lines read)", files[0],
				  (unsigned long long)st->lines);
		else
			error_msg("no strace output in the %zu logs given (%llu lines read)", nfiles,
				  (unsigned long long)st->lines);
		status = RC_EXIT_INPUT;
	} else {
		struct rc_report rep = {
			.kind = "log",
			.files = files,
			.lines = st->lines,
			.skipped_lines = st->skipped,
			.events = st->events,
			.procs = &eng.procs,
			.findings = &findings,
			.no_outcome = eng.no_outcome,
			.timeline = eng.timeline,
		};
		status = report_emit(&ro, &rep);
	}
	findings_release(&findings);
	strace_parser_free(p);
	if (eng.timeline)
		timeline_release(&tl);
	engine_release(&eng);
	strbuf_release(&err);
	return status;
}
