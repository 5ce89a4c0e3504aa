/* rootcause stack PID: every thread's stack of a running process, then
 * detach.  The process is stopped only while its stacks are read, and that
 * time is measured and printed. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/tracer.h"
#include "cmd/cmd.h"
#include "crash/crash.h"
#include "crash/export.h"
#include "crash/live.h"
#include "crash/python.h"
#include "crash/unwind.h"
#include "util/util.h"

static const char stack_usage[] =
	"usage: rootcause stack [options] PID\n"
	"\n"
	"Print every thread's stack of the running process PID (function,\n"
	"file:line, module; recursion folded), then detach: the process runs on as\n"
	"before. It is stopped only while the stacks are read; the report says for\n"
	"how long. A thread that cannot be stopped within 5 s (in uninterruptible\n"
	"sleep) is left running and shown without a stack. Frames inside the C\n"
	"runtime (libc, ld.so...) get file:line and inlined frames with -v only.\n"
	"\n"
	"options:\n"
	REPORT_OPTIONS_HELP
	"\n"
	EXIT_CODES_HELP;

/* How long to wait for every thread to stop before giving up on the rest. */
#define STACK_HOLD_DEADLINE_S 5

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_stack(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	int opt, done;

	report_opts_init(&ro);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:vh", longopts, &ro, stack_usage, &done)) != -1)
		if (opt == RC_OPTS_EXIT)
			return done;
	if (optind != argc - 1) {
		error_msg(optind >= argc ? "stack: no pid given" : "stack: one pid at a time");
		fputs(stack_usage, stderr);
		return RC_EXIT_USAGE;
	}
	char *end;
	errno = 0;
	long pid = strtol(argv[optind], &end, 10);
	if (errno || *end || end == argv[optind] || pid <= 0 || pid > 0x3fffffff) {
		error_msg("invalid pid '%s'", argv[optind]);
		return RC_EXIT_USAGE;
	}

	/* No SA_RESTART: a signal or the deadline must end a wait. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);

	static const struct tracer_hooks no_hooks;
	struct tracer_opts to = { .no_seccomp = true };
	struct tracer *tr = tracer_new(&to, &no_hooks, NULL, &stop_flag);
	struct strbuf err = STRBUF_INIT;
	struct rc_crash c;
	crash_init(&c);
	c.pid = (int)pid;
	c.full_debuginfo = ro.verbose;
	crash_describe_pid(&c, (pid_t)pid);

	double t0 = now();
	alarm(STACK_HOLD_DEADLINE_S);
	if (tracer_attach(tr, (pid_t)pid, &err) < 0) {
		alarm(0);
		error_msg("%s", err.buf);
		tracer_free(tr);
		crash_release(&c);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}
	size_t held = tracer_hold_all(tr);
	alarm(0);
	struct crash_live_unwind *w = crash_unwind_pid_begin(&c, (pid_t)pid, &err);
	/* Python's frames change as soon as it runs: read them held. */
	struct strbuf pyerr = STRBUF_INIT;
	c.live_pid = (pid_t)pid;
	if (w && crash_python_frames(&c, &pyerr) < 0)
		crash_problem(&c, "%s", pyerr.buf);
	c.live_pid = 0;
	strbuf_release(&pyerr);
	tracer_release_all(tr);
	double stopped = now() - t0;
	tracer_free(tr);
	/* Symbols and lines with the process running again. */
	int r = w ? crash_unwind_pid_end(w, &err) : -1;
	if (!held && r < 0) {
		error_msg("cannot read the stacks of process %ld: %s", pid, err.buf);
		crash_release(&c);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}
	if (r < 0)
		crash_problem(&c, "no stacks: %s", err.buf);
	if (stop_flag)
		crash_problem(&c, "not every thread stopped within %d s: those are shown without a stack",
			      STACK_HOLD_DEADLINE_S);

	/* Stacks to show, no crash to judge: no finding. */
	const struct rc_report_findings findings = { 0 };
	struct rc_report_crash crash_part;
	crash_report_fill(&c, &crash_part);
	struct rc_report rep = {
		.kind = "stack",
		.pid = (int)pid,
		.seconds = stopped,
		.findings = &findings,
		.crash = &crash_part,
	};
	int status = report_emit(&ro, &rep);
	crash_report_release(&crash_part);
	crash_release(&c);
	strbuf_release(&err);
	return status;
}
