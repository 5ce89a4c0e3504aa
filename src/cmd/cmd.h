/* Subcommands: each parses its options, prints its usage, and calls into
 * the library. Exit codes are part of the interface (see --help). */
#ifndef RC_CMD_CMD_H
#define RC_CMD_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "util/strbuf.h"

enum rc_exit {
	RC_EXIT_OK = 0,		/* analysed, no error cause */
	RC_EXIT_FINDINGS = 1,	/* analysed, an error cause found */
	RC_EXIT_USAGE = 2,
	RC_EXIT_INPUT = 3,	/* input unreadable */
	RC_EXIT_INTERNAL = 4,	/* out of memory, internal failure */
};

int cmd_analyze(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_core(int argc, char **argv);
int cmd_stack(int argc, char **argv);
int cmd_cores(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* fopen(PATH, "w") with mode 0600 for a new file: traces quote arguments
 * (output.c). */
FILE *open_private(const char *path);

/* Shared by run, attach and trace (capture-opts.c). */
struct session_opts;
struct session_result;
/* The calls to trace: strace's -e EXPR when given, else what the rules
 * read. NULL (the message printed) for a bad EXPR. */
unsigned char *trace_selection(const char *expr);
/* session_run, printing what the user must know of the kernel, and of
 * what the eBPF capture could not keep or could not do; when REPORTED,
 * why eBPF was not used and why a crash would have no stacks are left
 * to the report (report_session). */
int trace_session(const struct session_opts *so, struct session_result *res, bool reported, struct strbuf *err);
/* What run's and attach's report says of the session RES: its events,
 * how long it traced, the backend, and why not eBPF or no stacks. */
void report_session(struct rc_report *rep, const struct session_result *res);
/* --backend and --ring-size, as run, attach and trace take them. */
struct backend_opts {
	int backend;		/* enum capture_backend */
	size_t ring_bytes;	/* 0: the default */
	bool no_stacks;		/* run, attach: --no-stacks */
};
#define BACKEND_OPTS_INIT { BACKEND_AUTO, 0, false }
/* OPT (OPT_BACKEND or OPT_RING_SIZE) with its ARG into B: 0, or -1 with
 * the message printed for a bad value. */
int backend_getopt(int opt, const char *arg, struct backend_opts *b);
#define OPT_BACKEND 0x300
#define OPT_RING_SIZE 0x301
#define OPT_NO_STACKS 0x302
/* run and attach: the call stacks findings carry. */
#define STACKS_HELP                                                                          \
	"  --no-stacks          take no call stacks (where in the code each finding's\n"     \
	"                       call was made: under ptrace, the calls a finding may\n"      \
	"                       quote are unwound at their exit)\n"
#define BACKEND_OPTION_HELP BACKEND_CHOICE_HELP RING_SIZE_HELP
#define BACKEND_CHOICE_HELP                                                                  \
	"  --backend ptrace|ebpf|auto\n"                                                     \
	"                       who captures the calls: the ptrace tracer, the\n"          \
	"                       in-kernel eBPF capture (root, or CAP_BPF with\n"          \
	"                       CAP_PERFMON; no call stops the command), or auto (the\n"  \
	"                       default): eBPF where it loads, ptrace where not, and\n"   \
	"                       one line says why\n"
#define RING_SIZE_HELP                                                                       \
	"  --ring-size SIZE     eBPF: the ring buffer the kernel writes to (default 16M;\n" \
	"                       a power of two, 4K to 1G); what a full one drops is\n"      \
	"                       counted and reported\n"
/* run and attach: what eBPF does when no trace is written. */
#define EBPF_SUMS_HELP                                                                       \
	"                       (with eBPF and no trace written, the fast reads and\n"     \
	"                       writes of regular files are summed in the kernel)\n"
/* run and attach: the backend, what eBPF sums, its ring. */
#define BACKEND_SUMS_HELP BACKEND_CHOICE_HELP EBPF_SUMS_HELP RING_SIZE_HELP
/* A traced command's exit status as a shell gives it: its own, 128+N for
 * signal N, 127/126 when it could not be started (STARTED false). */
int command_status(const struct session_result *res, bool started);

/* Shared by the diagnosing commands (output.c). */
struct report_opts {
	enum rc_format format;
	const char *output;	/* -o FILE, or NULL for stdout */
	bool verbose;
	int color;		/* -1 auto, 0 never, 1 always */
	int fd;			/* without -o: STDOUT_FILENO, or STDERR_FILENO for run */
	uint64_t rules;		/* --rules: the rules run (rule_pick), RC_RULES_ALL */
};

void report_opts_init(struct report_opts *o);
/* Handle --format/-o/--color/--verbose/--rules; returns false when OPT is not one
 * of them, or sets *bad on an invalid value. */
bool report_opts_parse(struct report_opts *o, int opt, const char *arg, bool *bad);
/* getopt_long for a command that takes the report options: those are
 * parsed into O, and -h prints USAGE.  Returns the next of the command's
 * own options (optarg set), -1 after the last, or RC_OPTS_EXIT with *STATUS
 * the command's exit code: RC_EXIT_OK after -h, RC_EXIT_USAGE after a bad
 * option or value (said on stderr). */
#define RC_OPTS_EXIT (-2)
int report_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
		  struct report_opts *o, const char *usage, int *status);
/* Write R as asked; returns an exit code (RC_EXIT_INPUT when -o fails). */
int report_emit(const struct report_opts *o, const struct rc_report *r);

/* The core command's work on PATH (core.c), for cores show and receive:
 * NOTE, if any, goes into the report's problems; ORIGIN (NULL: unknown)
 * where the core came from. Returns an exit code. */
/* Where a core came from, when the core handler could see the crashed
 * process (cores receive): its root held open, when it had one of its
 * own (-1 none), and the container it ran in (NULL none). */
struct core_origin {
	int root_fd;
	const struct rc_report_container *container;
};
int core_report(const char *path, const char *exe, const struct report_opts *ro, const char *note,
		const struct core_origin *origin);

/* S, a size in bytes with an optional K, M or G (a count, for --keep),
 * into *OUT: false when it is none (output.c; the caller says so). */
bool parse_size(const char *s, uint64_t *out);

/* "rootcause: " + message to stderr (output.c). */
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The shared option codes (beyond single letters). */
enum {
	OPT_FORMAT = 0x100,
	OPT_COLOR,
	OPT_RULES,
	OPT_HELP,
};

#define REPORT_LONG_OPTIONS                                           \
	{ "format", required_argument, NULL, OPT_FORMAT },            \
	{ "output", required_argument, NULL, 'o' },                   \
	{ "color", required_argument, NULL, OPT_COLOR },              \
	{ "rules", required_argument, NULL, OPT_RULES },              \
	{ "verbose", no_argument, NULL, 'v' },                        \
	{ "help", no_argument, NULL, 'h' }

#define REPORT_OPTIONS_HELP                                                              \
	"  --format text|json|html|perfetto\n"                                                   \
	"                       report format: text (the default); json\n"                    \
	"                       (docs/report-schema.md); html, one page with the\n"          \
	"                       timeline, to open in a browser; perfetto, Chrome\n"          \
	"                       trace-event JSON for ui.perfetto.dev (use -o)\n"             \
	"  -o, --output FILE    write the report to FILE (mode 0600) instead of stdout\n"      \
	"  --color auto|always|never\n"                                                         \
	"                       colour the text report (default auto: on a terminal)\n"         \
	"  -v, --verbose        also list notes (findings of little consequence)\n"             \
	"  --rules SET          run only these rules (ids as 'rootcause --help' lists\n"     \
	"                       them, comma-separated), or all but these: '!small-io'\n"     \
	"  -h, --help           show this help\n"

#define EXIT_CODES_HELP                                                 \
	"exit status:\n"                                                \
	"  0  analysed, no error cause found\n"                         \
	"  1  analysed, an error cause found (its consequences do not count)\n" \
	"  2  usage error\n"                                            \
	"  3  input unreadable (missing file, not a log, -o not writable)\n" \
	"  4  internal failure (out of memory)\n"

#endif
