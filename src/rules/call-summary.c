/* call-summary: what a strace -c table shows, and what a trace would add.
 *
 * Users often paste the summary strace -c prints, not a trace: calls,
 * failures and time per system call, with no paths, no addresses, no
 * errno values and no order. That is not enough to name a cause, but it
 * says where the program's system calls went, how many failed and of
 * which kinds, and what to record to learn more. No event reaches this
 * rule: the diagnosis hands it the tables the log held (event/call-summary.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/fds.h"
#include "rules/rule.h"

/* Nothing per event: the finding is made from the table. */
const struct rc_rule_ops rc_rule_call_summary_ops = { 0 };

/* Rows named in one evidence line, at most. */
#define LINE_ROWS 5

/* What a failing call of NAME usually is, for a reader who sees only
 * counts; NULL: nothing general to say. */
static const char *failure_kind(const char *name)
{
	static const char *const kinds[] = {
		"look-ups of files that were not there (ENOENT) or not allowed: mostly searches along a "
		"path (PATH, sys.path, library directories), which find the file later",
		"ioctl on what is no terminal (ENOTTY): programs ask, and carry on",
		"connections refused or still in progress (EINPROGRESS, which a non-blocking connect "
		"always gives)",
		"futex waits that timed out or found the lock changed (ETIMEDOUT, EAGAIN)",
		"waits with no child left to wait for (ECHILD)",
		"reads of non-blocking sockets or pipes with nothing yet (EAGAIN)",
		"memory refused (ENOMEM) or a mapping not allowed (EPERM, EACCES)",
		"closes of descriptors that were not open (EBADF): a loop over every possible descriptor, "
		"as daemons and spawners run before exec, which is slow when the open-files limit is high",
	};
	static const struct {
		const char *name;
		int kind;
	} calls[] = {
		{ "open", 0 }, { "openat", 0 }, { "openat2", 0 }, { "stat", 0 }, { "lstat", 0 },
		{ "newfstatat", 0 }, { "statx", 0 }, { "access", 0 }, { "faccessat", 0 }, { "faccessat2", 0 },
		{ "readlink", 0 }, { "readlinkat", 0 }, { "execve", 0 }, { "execveat", 0 }, { "statfs", 0 },
		{ "getxattr", 0 }, { "lgetxattr", 0 }, { "ioctl", 1 }, { "connect", 2 }, { "futex", 3 },
		{ "wait4", 4 }, { "waitid", 4 }, { "recvfrom", 5 }, { "recvmsg", 5 }, { "read", 5 },
		{ "accept", 5 }, { "accept4", 5 }, { "mmap", 6 }, { "brk", 6 }, { "mprotect", 6 },
		{ "close", 7 },
	};

	for (size_t k = 0; k < sizeof(calls) / sizeof(calls[0]); k++)
		if (strcmp(calls[k].name, name) == 0)
			return kinds[calls[k].kind];
	return NULL;
}

/* Calls that wait for something else: their time is the program waiting. */
static bool waits(const char *name)
{
	static const char *const names[] = {
		"wait4", "waitid", "futex", "poll", "ppoll", "select", "pselect6", "epoll_wait",
		"epoll_pwait", "epoll_pwait2", "nanosleep", "clock_nanosleep", "pause", "rt_sigsuspend",
		"rt_sigtimedwait", "accept", "accept4", "recvfrom", "recvmsg", "flock", "msgrcv", "semop",
		"semtimedop", "io_getevents", "io_uring_enter", NULL,
	};

	for (const char *const *n = names; *n; n++)
		if (strcmp(*n, name) == 0)
			return true;
	return false;
}

static bool data_call(const char *name)
{
	return strcmp(name, "read") == 0 || strcmp(name, "write") == 0 || strcmp(name, "pread64") == 0 ||
	       strcmp(name, "pwrite64") == 0 || strcmp(name, "readv") == 0 || strcmp(name, "writev") == 0;
}

static int by_seconds(const void *a, const void *b)
{
	const struct rc_call_count *x = *(const struct rc_call_count *const *)a;
	const struct rc_call_count *y = *(const struct rc_call_count *const *)b;

	return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static int by_errors(const void *a, const void *b)
{
	const struct rc_call_count *x = *(const struct rc_call_count *const *)a;
	const struct rc_call_count *y = *(const struct rc_call_count *const *)b;

	return (x->errors < y->errors) - (x->errors > y->errors);
}

static int by_calls(const void *a, const void *b)
{
	const struct rc_call_count *x = *(const struct rc_call_count *const *)a;
	const struct rc_call_count *y = *(const struct rc_call_count *const *)b;

	return (x->calls < y->calls) - (x->calls > y->calls);
}

/* The row whose count is one or two calls for each possible descriptor
 * (rule_fd_limit_near): a loop over them all, which no program's work
 * needs (a close-all before exec, a library's clean-up of each). Reads
 * and writes count data, not descriptors, and are left out; so are
 * counts under the smallest such limit. NULL: none. */
static const struct rc_call_count *fd_loop(const struct rc_call_summary *s, uint64_t *limit, unsigned *times)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct rc_call_count *r = &s->rows[i];
		if (r->calls < 60000 || data_call(r->name))
			continue;
		*limit = rule_fd_limit_near(r->calls, 2, times);
		if (*limit)
			return r;
	}
	return NULL;
}

/* S seconds as a person reads them: "0.42 s", "11 ms", "89 us". */
static void add_seconds(struct strbuf *b, double s)
{
	if (s >= 1)
		strbuf_addf(b, "%.2f s", s);
	else if (s >= 0.1)
		strbuf_addf(b, "%.3f s", s);
	else if (s >= 0.001)
		strbuf_addf(b, "%.3g ms", s * 1e3);
	else
		strbuf_addf(b, "%.3g us", s * 1e6);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static double share(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

void call_summary_finding(struct rc_findings *out, const struct rc_call_summary *s)
{
	const struct rc_call_count *t = &s->total;

	if (!s->nrows || !t->calls)
		return;
	const struct rc_call_count **v = xcalloc(s->nrows, sizeof(*v));
	for (size_t i = 0; i < s->nrows; i++)
		v[i] = &s->rows[i];
	bool timed = t->seconds > 0;
	struct strbuf sum = STRBUF_INIT, line = STRBUF_INIT;

	/* Where the time went, or the calls when the table has no time. */
	qsort(v, s->nrows, sizeof(*v), timed ? by_seconds : by_calls);
	const struct rc_call_count *top = v[0];
	strbuf_addf(&sum, "a strace -c summary, not a trace: %llu call%s", (unsigned long long)t->calls,
		    plural(t->calls));
	if (t->errors)
		strbuf_addf(&sum, ", %llu of them failed", (unsigned long long)t->errors);
	if (timed) {
		double pct = share(top->seconds, t->seconds);
		strbuf_addf(&sum, "; %s took %.0f%% of the ", top->name, pct);
		add_seconds(&sum, t->seconds);
		strbuf_adds(&sum, " spent in system calls");
		if (waits(top->name) && pct >= 50)
			strbuf_adds(&sum, ", waiting");
	} else {
		strbuf_addf(&sum, "; the most were %s (%llu)", top->name, (unsigned long long)top->calls);
	}
	uint64_t limit = 0;
	unsigned times = 0;
	const struct rc_call_count *loop = fd_loop(s, &limit, &times);
	if (loop) {
		strbuf_addf(&sum, "; %s's ", loop->name);
		strbuf_add_count(&sum, loop->calls);
		strbuf_addf(&sum, " calls are %s for each possible descriptor, a loop up to an open-files limit of ",
			    times == 1 ? "one" : "two");
		strbuf_add_count(&sum, limit);
	}
	enum rc_severity sev = t->errors || loop ? RC_SEV_WARNING : RC_SEV_INFO;
	struct rc_finding *f = finding_add(out, "call-summary", sev, sev, "%s", strbuf_str(&sum));
	f->syscall = xstrdup(top->name);
	f->count = (long long)t->calls;
	if (timed)
		f->duration_s = t->seconds;

	if (timed) {
		strbuf_adds(&line, "time:");
		for (size_t i = 0; i < s->nrows && i < LINE_ROWS && v[i]->seconds > 0; i++) {
			strbuf_addf(&line, "%s %s ", i ? "," : "", v[i]->name);
			add_seconds(&line, v[i]->seconds);
			strbuf_addf(&line, " (%.0f%%, %llu call%s)", share(v[i]->seconds, t->seconds),
				    (unsigned long long)v[i]->calls, plural(v[i]->calls));
		}
		finding_evidence(f, line.buf, line.len);
	}

	/* The most frequent, and reads and writes by the thousand. */
	qsort(v, s->nrows, sizeof(*v), by_calls);
	strbuf_reset(&line);
	strbuf_adds(&line, "calls:");
	for (size_t i = 0; i < s->nrows && i < LINE_ROWS; i++)
		strbuf_addf(&line, "%s %s %llu", i ? "," : "", v[i]->name, (unsigned long long)v[i]->calls);
	finding_evidence(f, line.buf, line.len);
	uint64_t data = 0;
	for (size_t i = 0; i < s->nrows; i++)
		if (data_call(v[i]->name))
			data += v[i]->calls;
	if (loop) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%s: %llu calls", loop->name, (unsigned long long)loop->calls);
		if (loop->errors)
			strbuf_addf(&line, ", %llu failed", (unsigned long long)loop->errors);
		strbuf_addf(&line, ": about %u for each descriptor number up to %llu; a loop over every "
			    "descriptor a process could have (a close-all before exec, a clean-up of each), "
			    "whatever is open: its cost grows with the limit, 2^20 in containers and systemd "
			    "units", times, (unsigned long long)limit);
		finding_evidence(f, line.buf, line.len);
	}
	/* Most of the time in reads or writes that each took little: the
	 * count is the cost, as a reader without a buffer makes it. */
	if (timed && data_call(top->name) && top->calls >= 10000 &&
	    share(top->seconds, t->seconds) >= 50 && top->seconds / (double)top->calls < 50e-6) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%s: %llu calls of ", top->name, (unsigned long long)top->calls);
		add_seconds(&line, top->seconds / (double)top->calls);
		strbuf_addf(&line, " each, %.0f%% of the time: no one call is slow, their number is the cost, "
			    "which a program reading or writing a few bytes a call (small-io: an unbuffered "
			    "readline reads a byte a call) makes; a trace shows their sizes",
			    share(top->seconds, t->seconds));
		finding_evidence(f, line.buf, line.len);
	} else if (data >= 10000 && share((double)data, (double)t->calls) >= 30) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%llu reads and writes (%.0f%% of the calls): if they are small, that is "
			    "small-io, which a trace shows by their sizes",
			    (unsigned long long)data, share((double)data, (double)t->calls));
		finding_evidence(f, line.buf, line.len);
	}

	/* What failed, most first, and what such failures usually are. */
	if (t->errors) {
		qsort(v, s->nrows, sizeof(*v), by_errors);
		strbuf_reset(&line);
		strbuf_adds(&line, "failed:");
		for (size_t i = 0; i < s->nrows && i < LINE_ROWS && v[i]->errors; i++)
			strbuf_addf(&line, "%s %s %llu of %llu", i ? "," : "", v[i]->name,
				    (unsigned long long)v[i]->errors, (unsigned long long)v[i]->calls);
		finding_evidence(f, line.buf, line.len);
		const char *kind = failure_kind(v[0]->name);
		if (kind) {
			strbuf_reset(&line);
			strbuf_addf(&line, "%s: %s", v[0]->name, kind);
			finding_evidence(f, line.buf, line.len);
		}
	}
	/* strace -c counts the time a call ran in the kernel, not the time
	 * it waited (strace -c -w does): a sleep of a second shows as none. */
	for (size_t i = 0; timed && i < s->nrows; i++) {
		const struct rc_call_count *w = &s->rows[i];
		if (!waits(w->name) || share(w->seconds, t->seconds) >= 50)
			continue;
		strbuf_reset(&line);
		strbuf_addf(&line, "%s: %llu call%s, ", w->name, (unsigned long long)w->calls, plural(w->calls));
		add_seconds(&line, w->seconds);
		strbuf_adds(&line, ": strace -c counts the time calls ran in the kernel, not the time they "
			    "waited; strace -c -w counts that");
		finding_evidence(f, line.buf, line.len);
		break;
	}
	if (s->dropped) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%llu more calls of names past the first %zu are not shown",
			    (unsigned long long)s->dropped, s->nrows);
		finding_evidence(f, line.buf, line.len);
	}
	if (loop)
		finding_setf(&f->advice, "find the loop (`rootcause run -- CMD` names the code that makes "
			     "it; `strace -f -k -e trace=%s` shows its stack), make it visit only the open "
			     "descriptors (close_range, or those listed in /proc/self/fd), and lower the "
			     "open-files limit (ulimit -n, LimitNOFILE=) until then", loop->name);
	else
		finding_set(&f->advice, "a summary has no paths, addresses, errno values or order, so which call "
				"mattered is not in it: run the program under `rootcause run -- CMD`, or trace it "
				"with `strace -f -tt -T -y -s 256 -o LOG CMD` and `rootcause analyze LOG`, to "
				"learn which files, sockets and waits these calls were and which failure "
				"stopped it");
	/* About the log as a whole: after the findings of its trace, if any. */
	f->rank = out->count - 1;
	f->effective = f->severity;
	strbuf_release(&sum);
	strbuf_release(&line);
	free(v);
}
