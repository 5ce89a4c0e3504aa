/* rootcause attach PID: trace a running process for a while, detach, and
 * diagnose what it did and where its threads are blocked. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/pipeline.h"

static const char attach_usage[] =
	"usage: rootcause attach [options] PID\n"
	"\n"
	"Trace every thread of the running process PID, and the children it starts,\n"
	"for --duration seconds or until Ctrl-C or SIGTERM; then detach, leaving it\n"
	"running as before, and print the diagnosis: what failed, what is slow, and\n"
	"which threads are still blocked in a call (on which fd, path or peer, and\n"
	"for how long).\n"
	"\n"
	"Where eBPF loads (root, or CAP_BPF with CAP_PERFMON) the kernel captures\n"
	"the calls and none stops the process. Under ptrace an attached process\n"
	"cannot be given a seccomp filter from outside, so every call stops it\n"
	"twice (entry and exit); calls the rules do not read are not decoded.\n"
	"\n"
	"options:\n"
	"  --duration S         detach after S seconds (default: on Ctrl-C/SIGTERM)\n"
	"  -e trace=SET         trace only these calls (strace's syntax)\n"
	BACKEND_SUMS_HELP
	STACKS_HELP
	"  --core-out FILE      when the process dies of a fatal signal, also write\n"
	"                       its core to FILE (mode 0600; gdb and 'rootcause core'\n"
	"                       read it); the stacks are in the report either way\n"
	REPORT_OPTIONS_HELP
	"\n"
	"exit status:\n"
	"  0  analysed, no error findings\n"
	"  1  analysed, error findings\n"
	"  2  usage error\n"
	"  3  cannot attach (no such process, ptrace refused: the message says why)\n"
	"  4  internal failure\n";

enum { OPT_DURATION = 0x200, OPT_CORE_OUT };

int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "core-out", required_argument, NULL, OPT_CORE_OUT },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	const char *core_out = NULL;
	const char *expr = NULL;
	double duration = 0;
	int opt, done;
	struct backend_opts bk = BACKEND_OPTS_INIT;

	report_opts_init(&ro);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:ve:h", longopts, &ro, attach_usage, &done)) != -1) {
		char *end;
		switch (opt) {
		case RC_OPTS_EXIT:
			return done;
		case OPT_CORE_OUT:
			core_out = optarg;
			continue;
		case OPT_DURATION:
			duration = strtod(optarg, &end);
			if (*end || end == optarg || !(duration > 0) || duration > 1e6) {
				error_msg("invalid duration '%s' (seconds, e.g. 10 or 0.5)", optarg);
				return RC_EXIT_USAGE;
			}
			continue;
		case OPT_BACKEND:
		case OPT_RING_SIZE:
		case OPT_NO_STACKS:
			if (backend_getopt(opt, optarg, &bk) < 0)
				return RC_EXIT_USAGE;
			continue;
		case 'e':
			expr = optarg;
			continue;
		}
	}
	if (optind != argc - 1) {
		error_msg(optind >= argc ? "attach: no pid given" : "attach: one pid only");
		fputs(attach_usage, stderr);
		return RC_EXIT_USAGE;
	}
	char *end;
	long pid = strtol(argv[optind], &end, 10);
	if (*end || end == argv[optind] || pid <= 0 || pid > 0x3fffffff) {
		error_msg("invalid pid '%s'", argv[optind]);
		return RC_EXIT_USAGE;
	}

	unsigned char *sel = trace_selection(expr);
	if (!sel)
		return RC_EXIT_USAGE;
	struct session_opts so = { .pid = (pid_t)pid, .duration = duration };
	struct rc_report rep = { .kind = "attach", .pid = (int)pid };
	struct session_result res;
	int status = pipeline_run(&so, &bk, sel, core_out, &ro, &rep, &res);
	if (status < 0)
		status = RC_EXIT_INPUT;
	free(sel);
	return status;
}
