/* rootcause attach PID|CONTAINER, attach --cgroup PATH: trace running
 * processes for a while, detach, and diagnose what they did and where
 * their threads are blocked. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/pipeline.h"
#include "lookup/cgroups.h"

static const char attach_usage[] =
	"usage: rootcause attach [options] PID\n"
	"       rootcause attach [options] CONTAINER\n"
	"       rootcause attach [options] --cgroup PATH\n"
	"\n"
	"Trace every thread of the running process PID, and the children it starts,\n"
	"for --duration seconds or until Ctrl-C or SIGTERM; then detach, leaving it\n"
	"running as before, and print the diagnosis: what failed, what is slow, and\n"
	"which threads are still blocked in a call (on which fd, path or peer, and\n"
	"for how long).\n"
	"\n"
	"CONTAINER (a container's id, or 4 or more of its first hex digits; a podman\n"
	"container's name) and --cgroup PATH (a cgroup v2 directory, or its path from\n"
	"the cgroup root: /system.slice/nginx.service) trace every process in it and\n"
	"in the cgroups below it; under eBPF also those that start later, even by\n"
	"joining it from outside (podman exec). The report names the container each\n"
	"process ran in, and its pid there.\n"
	"\n"
	"Where eBPF loads (root, or CAP_BPF with CAP_PERFMON) the kernel captures\n"
	"the calls and none stops the process. Under ptrace an attached process\n"
	"cannot be given a seccomp filter from outside, so every call stops it\n"
	"twice (entry and exit); calls the rules do not read are not decoded.\n"
	"\n"
	"options:\n"
	"  --duration S         detach after S seconds (default: on Ctrl-C/SIGTERM)\n"
	"  --cgroup PATH        trace the processes of this cgroup (see above)\n"
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
	"  3  cannot attach (no such process, container or cgroup, an empty cgroup,\n"
	"     ptrace refused: the message says why)\n"
	"  4  internal failure\n";

enum { OPT_DURATION = 0x200, OPT_CORE_OUT, OPT_CGROUP };

/* The most processes a cgroup's attach takes at its start. */
#define CGROUP_PIDS_MAX 4096

/* The processes of cgroup CG, in *PIDS: how many, or -1 (said). */
static long cgroup_targets(const struct cgroup_dir *cg, pid_t **pids)
{
	size_t n = cgroup_procs(cg, pids, CGROUP_PIDS_MAX);

	if (!n)
		error_msg("no process in cgroup '%s' to attach to", cg->name);
	return n ? (long)n : -1;
}

int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "core-out", required_argument, NULL, OPT_CORE_OUT },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	const char *core_out = NULL;
	const char *expr = NULL, *cgroup = NULL;
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
		case OPT_CGROUP:
			cgroup = optarg;
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
	if (optind != argc - (cgroup ? 0 : 1)) {
		error_msg(cgroup ? "attach: --cgroup takes no pid or container too" :
			  optind >= argc ? "attach: no pid or container given" : "attach: one pid or container only");
		fputs(attach_usage, stderr);
		return RC_EXIT_USAGE;
	}
	/* A pid, else a container (an id's hex digits, or a name). */
	const char *what = cgroup ? NULL : argv[optind];
	char *end = NULL;
	long pid = what ? strtol(what, &end, 10) : 0;
	bool by_pid = what && !*end && end != what;
	if (by_pid && (pid <= 0 || pid > 0x3fffffff)) {
		error_msg("invalid pid '%s'", what);
		return RC_EXIT_USAGE;
	}
	struct cgroup_dir cg;
	pid_t *pids = NULL;
	long npids = 1;
	if (!by_pid) {
		struct strbuf err = STRBUF_INIT;
		bool found = cgroup ? cgroup_find(cgroup, &cg, &err) : cgroup_find_container(what, &cg, &err);
		if (!found)
			error_msg("%s", err.buf);
		strbuf_release(&err);
		if (!found || (npids = cgroup_targets(&cg, &pids)) < 0)
			return RC_EXIT_INPUT;
		pid = pids[0];
	}

	unsigned char *sel = trace_selection(expr);
	if (!sel) {
		free(pids);
		return RC_EXIT_USAGE;
	}
	struct session_opts so = {
		.pid = (pid_t)pid,
		.more_pids = pids ? pids + 1 : NULL,
		.nmore = (size_t)npids - 1,
		.cgroup_id = by_pid ? 0 : cg.id,
		.cgroup_level = by_pid ? 0 : cg.level,
		.duration = duration,
	};
	struct rc_report rep = {
		.kind = "attach",
		.pid = by_pid ? (int)pid : 0,
		.cgroup = by_pid ? NULL : cg.name,
		.cgroup_procs = (size_t)npids,
	};
	struct session_result res;
	int status = pipeline_run(&so, &bk, sel, core_out, &ro, &rep, &res);
	if (status < 0)
		status = RC_EXIT_INPUT;
	free(sel);
	free(pids);
	return status;
}
