/* rootcause trace: print the raw trace in strace's own text format, for
 * people and scripts that expect strace. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/session.h"
#include "cmd/cmd.h"

static const char trace_usage[] =
	"usage: rootcause trace [options] CMD [ARGS...]\n"
	"       rootcause trace [options] -p PID\n"
	"\n"
	"Trace CMD, or attach to PID, and print every call in strace's line format.\n"
	"\n"
	"options (as strace's):\n"
	"  -f                   follow forks, vforks and threads\n"
	"  -ff                  with -o: write one file per thread, FILE.TID\n"
	"  -o FILE              write the trace to FILE (mode 0600) instead of stderr\n"
	"  -e trace=SET         only these calls: names, %file, %network, %process,\n"
	"                       %signal, %ipc, %desc, %memory, %creds, %stat, %clock,\n"
	"                       /regex, !negation; a seccomp filter then stops the\n"
	"                       command only on them\n"
	"  -T                   show the time spent in each call\n"
	"  -t, -tt, -ttt        prefix wall-clock time, with microseconds, as epoch\n"
	"  -s N                 print N bytes of each data buffer (default 32)\n"
	"  -x                   print non-ASCII strings in hex (\\x..)\n"
	"  -y                   print the paths of file descriptors (read while each\n"
	"                       call is stopped: the default backend is then ptrace)\n"
	"  -p PID               attach to PID (all its threads) until Ctrl-C\n"
	BACKEND_OPTION_HELP
	"  --allow-loss         with eBPF: exit 0 even when records were lost\n"
	"  -h, --help           show this help\n"
	"\n"
	"exit status: the command's own (128+N when signal N killed it); 0 after\n"
	"-p; 2 usage error; 3 cannot attach or write, or (eBPF, without\n"
	"--allow-loss) records were lost; 127/126 command not found or not runnable.\n";

int cmd_trace(int argc, char **argv)
{
	enum { OPT_ALLOW_LOSS = 0x200 };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "allow-loss", no_argument, NULL, OPT_ALLOW_LOSS },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *expr = NULL;
	int follow = 0, tstamps = 0, opt;
	bool durations = false, yfds = false, xhex = false, allow_loss = false;
	struct backend_opts bk = BACKEND_OPTS_INIT;
	long strsize = 32, pid = 0;
	char *end;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+fo:e:Tts:xyp:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			follow++;
			break;
		case 'o':
			out = optarg;
			break;
		case 'e':
			expr = optarg;
			break;
		case 'T':
			durations = true;
			break;
		case 't':
			tstamps++;
			break;
		case 's':
			strsize = strtol(optarg, &end, 10);
			if (*end || end == optarg || strsize < 0 || strsize > (1 << 20)) {
				error_msg("invalid -s '%s'", optarg);
				return RC_EXIT_USAGE;
			}
			break;
		case 'y':
			yfds = true;
			break;
		case 'x':
			xhex = true;
			break;
		case 'p':
			pid = strtol(optarg, &end, 10);
			if (*end || end == optarg || pid <= 0 || pid > 0x3fffffff) {
				error_msg("invalid pid '%s'", optarg);
				return RC_EXIT_USAGE;
			}
			break;
		case OPT_BACKEND:
		case OPT_RING_SIZE:
			if (backend_getopt(opt, optarg, &bk) < 0)
				return RC_EXIT_USAGE;
			break;
		case OPT_ALLOW_LOSS:
			allow_loss = true;
			break;
		case 'h':
			fputs(trace_usage, stdout);
			return RC_EXIT_OK;
		default:
			fputs(trace_usage, stderr);
			return RC_EXIT_USAGE;
		}
	}
	if ((optind < argc) == (pid != 0)) {
		error_msg(pid ? "trace: give a command or -p PID, not both" : "trace: no command or -p PID given");
		fputs(trace_usage, stderr);
		return RC_EXIT_USAGE;
	}

	struct strbuf err = STRBUF_INIT;
	unsigned char *sel = NULL;
	if (expr) {
		sel = select_new();
		if (select_parse(sel, expr, &err) < 0) {
			error_msg("%s", strbuf_str(&err));
			strbuf_release(&err);
			free(sel);
			return RC_EXIT_USAGE;
		}
	}

	/* -y names each fd as its call made it: the tracer reads that
	 * while the call is stopped, but the eBPF capture's records are
	 * read after the program may have closed the fd and opened another
	 * under its number, where /proc would name the wrong file. So auto
	 * takes ptrace for -y, and eBPF asked for by name prints no names. */
	if (yfds && bk.backend == BACKEND_AUTO) {
		bk.backend = BACKEND_PTRACE;
	} else if (yfds && bk.backend == BACKEND_EBPF) {
		error_msg("-y is ignored with --backend ebpf: a descriptor's file is known only while its call is made "
			  "(--backend ptrace prints it)");
		yfds = false;
	}

	FILE *f = stderr;
	if (out && follow < 2) {
		f = open_private(out);
		if (!f) {
			error_msg("cannot write trace '%s': %s", out, strerror(errno));
			free(sel);
			return RC_EXIT_INPUT;
		}
		/* strace's cost is mostly in printing: write in large blocks. */
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	} else if (!out) {
		/* One write per line on a terminal or pipe, not per piece. */
		setvbuf(stderr, NULL, _IOLBF, 1 << 14);
	}
	struct printer_opts po = {
		.out = f,
		.ff_base = (out && follow >= 2) ? out : NULL,
		.to_file = out != NULL,
		.follow = follow > 0,
		.ts = tstamps >= 3 ? PR_TS_EPOCH : tstamps == 2 ? PR_TS_USEC : tstamps ? PR_TS_SEC : PR_TS_NONE,
		.durations = durations,
	};
	struct printer *pr = printer_new(&po);
	struct session_opts so = {
		.backend = (enum capture_backend)bk.backend,
		.ring_bytes = bk.ring_bytes,
		.argv = pid ? NULL : argv + optind,
		.pid = (pid_t)pid,
		.follow = follow > 0,
		.select = sel,
		.dec = { .strsize = (int)strsize, .decode_fds = yfds, .hex_all = xhex, .preview_max = 0 },
		.printer = pr,
	};
	struct session_result res;
	int status;
	if (trace_session(&so, &res, false, &err) < 0) {
		error_msg("%s", strbuf_str(&err));
		status = pid ? RC_EXIT_INPUT : command_status(&res, false);
	} else {
		status = pid ? RC_EXIT_OK : command_status(&res, true);
		/* A full trace with holes is no strace output: say so in the
		 * status too, unless holes are acceptable. */
		if (session_losses(&res) && !allow_loss && status == RC_EXIT_OK)
			status = RC_EXIT_INPUT;
	}
	if (printer_free(pr) < 0 && out) {
		error_msg("cannot write trace '%s'", out);
		status = RC_EXIT_INPUT;
	}
	if (f != stderr && fclose(f) != 0) {
		error_msg("cannot write trace '%s': %s", out, strerror(errno));
		status = RC_EXIT_INPUT;
	}
	strbuf_release(&err);
	free(sel);
	return status;
}
