/* What the commands write: their errors (one line, "rootcause: ..."),
 * the files they make private (traces and reports quote arguments and
 * program output), and a diagnosis's report, with the options every
 * diagnosing command takes for it (cmd.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "rules/rule.h"
#include "util/strbuf.h"
#include "util/util.h"

void error_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("rootcause: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Open a trace log private to the user, as reports are. */
FILE *open_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

void report_opts_init(struct report_opts *o)
{
	o->format = RC_FORMAT_TEXT;
	o->output = NULL;
	o->verbose = false;
	o->color = -1;
	o->fd = STDOUT_FILENO;
	o->rules = RC_RULES_ALL;
}

bool report_opts_parse(struct report_opts *o, int opt, const char *arg, bool *bad)
{
	switch (opt) {
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			o->format = RC_FORMAT_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = RC_FORMAT_JSON;
		else if (strcmp(arg, "html") == 0)
			o->format = RC_FORMAT_HTML;
		else if (strcmp(arg, "perfetto") == 0)
			o->format = RC_FORMAT_PERFETTO;
		else {
			error_msg("unknown format '%s' (use text, json, html or perfetto)", arg);
			*bad = true;
		}
		return true;
	case 'o':
		o->output = arg;
		return true;
	case 'v':
		o->verbose = true;
		return true;
	case OPT_RULES: {
		struct strbuf err = STRBUF_INIT;
		if (rule_pick("--rules", arg, &o->rules, &err) < 0) {
			error_msg("%s", err.buf);
			*bad = true;
		}
		strbuf_release(&err);
		return true;
	}
	case OPT_COLOR:
		if (strcmp(arg, "auto") == 0)
			o->color = -1;
		else if (strcmp(arg, "always") == 0)
			o->color = 1;
		else if (strcmp(arg, "never") == 0)
			o->color = 0;
		else {
			error_msg("unknown color mode '%s' (use auto, always or never)", arg);
			*bad = true;
		}
		return true;
	default:
		return false;
	}
}

int report_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts,
		  struct report_opts *o, const char *usage, int *status)
{
	int opt;
	bool bad = false;

	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage, stdout);
			*status = RC_EXIT_OK;
			return RC_OPTS_EXIT;
		}
		if (report_opts_parse(o, opt, optarg, &bad) && !bad)
			continue;
		/* getopt said what was wrong with an unknown option; a bad
		 * value was said by report_opts_parse. */
		if (!bad && (opt == '?' || opt == ':'))
			fputs(usage, stderr);
		if (bad || opt == '?' || opt == ':') {
			*status = RC_EXIT_USAGE;
			return RC_OPTS_EXIT;
		}
		return opt;
	}
	/* A page or a trace file is for a browser: on a terminal it would
	 * bury everything else (run's report shares stderr with the
	 * command). Said before anything is traced. */
	if (report_format_timed(o->format) && !o->output && isatty(o->fd)) {
		error_msg("the %s report is a file to open in a browser, not to print on a terminal: "
			  "write it with -o FILE", o->format == RC_FORMAT_HTML ? "html" : "perfetto");
		*status = RC_EXIT_USAGE;
		return RC_OPTS_EXIT;
	}
	return -1;
}

int report_emit(const struct report_opts *o, const struct rc_report *given)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = o->fd;
	/* The report says which rules --rules left out, so that no one
	 * reads their silence as a clean bill. */
	const char *off[65], *on[65];
	size_t noff = 0, non = 0;
	for (size_t i = 0; i < rc_nrules && i < ARRAY_SIZE(off) - 1; i++) {
		if (rule_picked(o->rules, &rc_rules[i]))
			on[non++] = rc_rules[i].id;
		else
			off[noff++] = rc_rules[i].id;
	}
	off[noff] = on[non] = NULL;
	struct rc_report shown = *given;
	const struct rc_report *r = &shown;
	if (noff)
		shown.rules_off = off;
	if (noff > non)
		shown.rules_only = on;

	if (o->output) {
		/* Reports quote paths and program output: keep them private. */
		fd = open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			error_msg("cannot write report '%s': %m", o->output);
			return RC_EXIT_INPUT;
		}
		/* An existing file keeps its mode through O_TRUNC; a regular
		 * file is made private too (a FIFO or /dev/stdout is left be). */
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 077))
			fchmod(fd, 0600);
	}
	if (o->format == RC_FORMAT_JSON) {
		report_json(r, &sb);
	} else if (o->format == RC_FORMAT_HTML) {
		report_html(r, &sb);
	} else if (o->format == RC_FORMAT_PERFETTO) {
		report_perfetto(r, &sb);
	} else {
		bool color = o->color == 1 || (o->color == -1 && !o->output && isatty(fd) &&
					       !getenv("NO_COLOR"));
		report_text(r, &sb, color, o->verbose);
	}
	bool ok = write_all(fd, strbuf_str(&sb), sb.len);
	if (o->output && close(fd) != 0)
		ok = false;
	strbuf_release(&sb);
	if (!ok) {
		error_msg("cannot write report '%s': %m",
			  o->output ? o->output : fd == STDERR_FILENO ? "stderr" : "stdout");
		return RC_EXIT_INPUT;
	}
	return report_has_errors(r) ? RC_EXIT_FINDINGS : RC_EXIT_OK;
}

bool parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	}
	if (*end || v > (ULLONG_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}
