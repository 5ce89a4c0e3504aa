/* rootcause core CORE [--exe EXE]: diagnose a crash dump. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "crash/crash.h"
#include "crash/decompress.h"
#include "crash/python.h"
#include "crash/unwind.h"
#include "diagnose/diagnose.h"

static const char core_usage[] =
	"usage: rootcause core [options] CORE\n"
	"\n"
	"Diagnose a crash dump: the signal and fault address, every thread's stack\n"
	"(function, file:line, module; inlined frames; recursion folded), the\n"
	"crashed thread's registers, and the cause, named by the crash rules\n"
	"(null-deref, stack-overflow, abort, ...) with the module to blame.\n"
	"CORE is a kernel core file, or one stored by systemd-coredump\n"
	"(compressed with zstd, xz or lz4: read as it is). Modules are looked up\n"
	"where the core says they were; symbols also in /usr/lib/debug. Frames\n"
	"inside the C runtime (libc, ld.so...) are named from its symbol table;\n"
	"-v adds their file:line and inlined frames (loading libc's debug info\n"
	"costs more than all the rest).\n"
	"\n"
	"options:\n"
	"  --exe EXE            the crashed program, when it has moved since\n"
	REPORT_OPTIONS_HELP
	"\n"
	EXIT_CODES_HELP;

enum { OPT_EXE = 0x200 };

int core_report(const char *path, const char *exe, const struct report_opts *ro, const char *note,
		const struct core_origin *origin)
{
	struct strbuf err = STRBUF_INIT;
	struct core_image im;
	if (core_image_load(&im, path, &err) < 0) {
		error_msg("%s", err.buf);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}
	struct rc_crash c;
	crash_init(&c);
	c.full_debuginfo = ro->verbose;
	if (origin)
		c.root_fd = origin->root_fd;
	if (crash_read_core(&c, im.data, im.size, &err) < 0) {
		error_msg("cannot read core '%s': %s", path, err.buf);
		crash_release(&c);
		core_image_release(&im);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}
	if (note && *note)
		crash_problem(&c, "%s", note);
	/* Without frames the notes still tell the signal, threads and
	 * mappings: say why the stacks are missing and go on. */
	if (crash_unwind_core(&c, im.data, im.size, exe, &err) < 0) {
		crash_problem(&c, "no stacks: %s", err.buf);
		strbuf_reset(&err);
	}
	if (crash_python_frames(&c, &err) < 0) {
		crash_problem(&c, "%s", err.buf);
		strbuf_reset(&err);
	}

	const struct diagnose_opts dopts = { .rules = ro->rules, .input = DIAGNOSE_CORE };
	struct rc_diagnosis dg;
	diagnose_init(&dg, &dopts);
	diagnose_crash(&dg, &c);
	const char *files[] = { path, NULL };
	struct rc_report rep = {
		.kind = "core",
		.files = files,
		.pid = c.pid,
	};
	diagnose_finish(&dg, &rep);
	if (origin && origin->container) {
		rep.containers = origin->container;
		rep.ncontainers = 1;
	}
	int status = report_emit(ro, &rep);
	diagnose_release(&dg);
	crash_release(&c);
	core_image_release(&im);
	strbuf_release(&err);
	return status;
}

int cmd_core(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "exe", required_argument, NULL, OPT_EXE },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	const char *exe = NULL;
	int opt, done;

	report_opts_init(&ro);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:vh", longopts, &ro, core_usage, &done)) != -1) {
		if (opt == RC_OPTS_EXIT)
			return done;
		if (opt == OPT_EXE)
			exe = optarg;
	}
	if (optind != argc - 1) {
		error_msg(optind >= argc ? "core: no core file given" : "core: one core file at a time");
		fputs(core_usage, stderr);
		return RC_EXIT_USAGE;
	}
	return core_report(argv[optind], exe, &ro, NULL, NULL);
}
