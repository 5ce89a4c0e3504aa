/* rootcause: the command table. Each subcommand lives in cmd/<name>.c. */
#include <stdio.h>
#include <string.h>

#include "capture/session.h"
#include "cmd/cmd.h"
#include "crash/decompress.h"
#include "crash/unwind.h"
#include "rules/rule.h"
#include "util/util.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *summary;
};

static const struct command commands[] = {
	{ "analyze", cmd_analyze, "analyze [--format text|json] [-o FILE] LOG...",
	  "diagnose existing strace logs (any flags, -ff sets, pasted terminal output)" },
	{ "run", cmd_run, "run [--format text|json] [-o FILE] [--trace-out LOG] -- CMD ARGS...",
	  "trace a command and diagnose it (exit status = the command's)" },
	{ "attach", cmd_attach, "attach [--duration S] [--format text|json] [-o FILE] PID",
	  "trace a running process for a while, detach, diagnose" },
	{ "trace", cmd_trace, "trace [-f|-ff] [-o FILE] [-e trace=SET] [-T] [-t|-tt|-ttt] [-s N] [-x] [-y] [-p PID | CMD...]",
	  "print the raw trace in strace's own text format" },
	{ "core", cmd_core, "core [--exe EXE] [--format text|json] [-o FILE] CORE",
	  "diagnose a crash dump: signal, every thread's stack, the cause (zstd/xz/lz4 cores too)" },
	{ "stack", cmd_stack, "stack [--format text|json] [-o FILE] PID",
	  "every thread's stack of a running process, then detach (it runs on)" },
	{ "cores", cmd_cores, "cores install|uninstall|list|show ID [--dir DIR] [...]",
	  "keep every crash of the machine: core_pattern into a store, each core with its report" },
	{ "watch", cmd_watch, "watch [--stall S] [--on RULES] [--format text|json] --cgroup PATH | --unit NAME | PID...",
	  "always on for a service: an incident report in the store on a failure, crash or stall" },
};

static void usage(FILE *f)
{
	fputs("usage: rootcause COMMAND [options] [args]\n"
	      "\n"
	      "rootcause tells why a program won't start, stalls, runs slowly or crashed,\n"
	      "with evidence and advice.\n"
	      "\n"
	      "commands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  rootcause %s\n      %s\n", commands[i].synopsis, commands[i].summary);
	fputs("\n'rootcause COMMAND --help' shows a command's options.\n\nrules (docs/rules.md):\n", f);
	for (size_t i = 0; i < rc_nrules; i++)
		fprintf(f, "  %-18s %s\n", rc_rules[i].id, rc_rules[i].doc);
	fputs("\n" EXIT_CODES_HELP, f);
}

int main(int argc, char **argv)
{
	if (sanitize_std_fds() < 0) {
		perror("rootcause: cannot open '/dev/null'");
		return RC_EXIT_INPUT;
	}
	signals_own();
	if (argc < 2) {
		usage(stderr);
		return RC_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
		usage(stdout);
		return RC_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0) {
		/* What was built in, with the libraries' versions, as strace
		 * -V lists its optional features. */
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "rootcause %s\nbackends: ", RC_VERSION);
		session_backends(&sb);
		strbuf_addf(&sb, "\ncores: elfutils %s; compressed: ", crash_unwinder_version());
		core_image_formats(&sb);
		strbuf_adds(&sb, "\nreports: text, json, html, perfetto\n");
		fputs(strbuf_str(&sb), stdout);
		strbuf_release(&sb);
		return RC_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(name, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	error_msg("unknown command '%s'", name);
	usage(stderr);
	return RC_EXIT_USAGE;
}
