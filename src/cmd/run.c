/* rootcause run -- CMD ARGS...: trace a command, diagnose it when it ends. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/pipeline.h"

static const char run_usage[] =
	"usage: rootcause run [options] [--] CMD [ARGS...]\n"
	"\n"
	"Run CMD under rootcause's own capture (no strace needed), following every\n"
	"child and thread, and when it ends print why it failed, stalled or ran\n"
	"slowly. The report goes to standard error (or -o), so the command's own\n"
	"output is left as it was. Ctrl-C reaches the command as usual.\n"
	"\n"
	"Where eBPF loads (root, or CAP_BPF with CAP_PERFMON) the kernel captures\n"
	"the calls and no call stops the command; if rootcause is killed, the\n"
	"command runs on. Under ptrace only the calls the rules read stop it,\n"
	"through a seccomp filter when the kernel has one. That filter cannot work\n"
	"without its tracer, so if rootcause is killed with SIGKILL the command is\n"
	"killed too (SIGTERM or SIGHUP sent to rootcause are passed on to the\n"
	"command instead); use --no-filter for a command that must outlive it.\n"
	"\n"
	"options:\n"
	"  --trace-out LOG      also write the trace in strace's format (mode 0600);\n"
	"                       'rootcause analyze LOG' reads it back\n"
	"  -e trace=SET         trace only these calls (strace's syntax: open,read\n"
	"                       or %file,%network); default: what the rules read\n"
	"  --no-filter          stop on every call instead of using seccomp\n"
	BACKEND_SUMS_HELP
	STACKS_HELP
	"  --core-out FILE      when the process dies of a fatal signal, also write\n"
	"                       its core to FILE (mode 0600; gdb and 'rootcause core'\n"
	"                       read it); the stacks are in the report either way\n"
	REPORT_OPTIONS_HELP
	"\n"
	"exit status: the command's own (128+N when signal N killed it); 127 when\n"
	"it could not be found, 126 when it could not be run, 2 for a usage error.\n";

enum { OPT_TRACE_OUT = 0x200, OPT_NO_FILTER, OPT_CORE_OUT };

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "trace-out", required_argument, NULL, OPT_TRACE_OUT },
		{ "no-filter", no_argument, NULL, OPT_NO_FILTER },
		{ "core-out", required_argument, NULL, OPT_CORE_OUT },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	const char *core_out = NULL;
	const char *trace_out = NULL, *expr = NULL;
	bool no_filter = false;
	int opt, done;
	struct backend_opts bk = BACKEND_OPTS_INIT;

	report_opts_init(&ro);
	ro.fd = STDERR_FILENO;
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:ve:h", longopts, &ro, run_usage, &done)) != -1) {
		switch (opt) {
		case RC_OPTS_EXIT:
			return done;
		case OPT_TRACE_OUT:
			trace_out = optarg;
			continue;
		case OPT_CORE_OUT:
			core_out = optarg;
			continue;
		case OPT_NO_FILTER:
			no_filter = true;
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
	if (optind >= argc) {
		error_msg("run: no command given");
		fputs(run_usage, stderr);
		return RC_EXIT_USAGE;
	}

	unsigned char *sel = trace_selection(expr);
	if (!sel)
		return RC_EXIT_USAGE;

	FILE *tf = NULL;
	struct printer *pr = NULL;
	if (trace_out) {
		tf = open_private(trace_out);
		if (!tf) {
			error_msg("cannot write trace '%s': %s", trace_out, strerror(errno));
			free(sel);
			return RC_EXIT_INPUT;
		}
		struct printer_opts po = {
			.out = tf, .to_file = true, .follow = true, .ts = PR_TS_USEC, .durations = true,
		};
		pr = printer_new(&po);
	}

	struct session_opts so = {
		.argv = argv + optind,
		.no_seccomp = no_filter,
		.printer = pr,
	};
	struct rc_report rep = { .kind = "run", .command = (const char *const *)(argv + optind) };
	struct session_result res;
	int r = pipeline_run(&so, &bk, sel, core_out, &ro, &rep, &res);
	/* The command's own status, whatever the report found. */
	int status = command_status(&res, r >= 0);
	if (pr && printer_free(pr) < 0)
		error_msg("cannot write trace '%s'", trace_out);
	if (tf && fclose(tf) != 0)
		error_msg("cannot write trace '%s': %s", trace_out, strerror(errno));
	free(sel);
	return status;
}
