/* rootcause analyze LOG...: diagnose existing strace logs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "diagnose/diagnose.h"
#include "event/pump.h"
#include "strace/parser.h"

static const char analyze_usage[] =
	"usage: rootcause analyze [options] LOG...\n"
	"\n"
	"Diagnose strace logs: name why the traced program failed, stalled or ran\n"
	"slowly, with evidence and advice. LOG may be '-' for standard input.\n"
	"Any strace flags are understood (-f, -ff sets given together as LOG.PID\n"
	"files, -t/-tt/-ttt/-r, -T, -y/-yy, -s, -x/-X), and so is a pasted terminal\n"
	"session: lines that are not trace lines are counted and skipped. A strace -c\n"
	"table (calls, errors and time per call) is read too, and said what it shows.\n"
	"For the best diagnosis record with: strace -f -tt -T -y -s 256 -o LOG CMD...\n"
	"(-s 256 keeps the program's error messages whole).\n"
	"\n"
	"options:\n"
	REPORT_OPTIONS_HELP
	"\n"
	EXIT_CODES_HELP;

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

	/* A log may be an excerpt: nine pasted lines around the failing call. */
	const struct diagnose_opts dopts = {
		.rules = ro.rules, .input = DIAGNOSE_LOG, .timeline = report_format_timed(ro.format),
	};
	struct rc_diagnosis dg;
	diagnose_init(&dg, &dopts);
	/* The log is parsed in a thread of its own while the rules read
	 * what it gave; while the rules keep up, the argument facts are
	 * read in their thread, which balances the two (event/pump.h). */
	const struct event_pump pump = {
		.next = strace_parser_pump, .src = p, .item_size = sizeof(struct strace_work),
		.finish = strace_work_finish,
		.feed = diagnose_feed, .sink = &dg,
	};
	int status;
	const struct strace_stats *st = strace_parser_stats(p);
	const struct rc_call_summary *sum = &strace_parser_summary(p)->sum;
	if (event_pump(&pump) < 0) {
		error_msg("%s", strace_parser_error(p));
		status = RC_EXIT_INPUT;
	} else if (st->events == 0 && !sum->nrows) {
		/* Nothing in it was strace output: say so rather than "no problems". */
		if (nfiles == 1)
			error_msg("no strace output in '%s' (%llu lines read)", files[0],
				  (unsigned long long)st->lines);
		else
			error_msg("no strace output in the %zu logs given (%llu lines read)", nfiles,
				  (unsigned long long)st->lines);
		status = RC_EXIT_INPUT;
	} else {
		/* A strace -c table alone (after a trace, -C, it only sums the
		 * calls the rules read one by one). */
		if (st->events == 0)
			diagnose_summary(&dg, sum);
		struct rc_report rep = {
			.kind = "log",
			.files = files,
			.lines = st->lines,
			.skipped_lines = st->skipped,
			.events = st->events,
		};
		diagnose_finish(&dg, &rep);
		status = report_emit(&ro, &rep);
	}
	diagnose_release(&dg);
	strace_parser_free(p);
	strbuf_release(&err);
	return status;
}
