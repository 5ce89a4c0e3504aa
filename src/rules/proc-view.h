/* Whose process an event belongs to, and how findings name a process:
 * its leader, the group its threads share, its parent, whether its
 * failure was handled or it carried on, and its command line as the
 * trace showed it, shortened and quoted: 'python3 app.py' (pid 42). */
#ifndef RC_RULES_PROC_VIEW_H
#define RC_RULES_PROC_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/procs.h"
#include "rules/paths.h"
#include "rules/rule.h"
#include "util/strbuf.h"

/* A thread that made this many more calls after a failure carried on
 * without what failed: it handled the failure, it did not give up on it. */
#define RULE_KEPT_GOING 1000

/* The process (thread-group leader) PID belongs to; PID itself when the
 * model does not know it. */
static inline int rule_leader(const struct rc_ctx *ctx, int pid)
{
	const struct rc_proc *l = procs_leader(ctx->procs, pid);

	return l ? l->pid : pid;
}

/* The process PID belongs to, for state its threads share. Threads and
 * processes already running when tracing began (strace -p) have no known
 * parent, and the model cannot tell which of them share a process: they
 * form one group, 0, which is right for the usual single attached process. */
static inline int rule_group(const struct rc_ctx *ctx, int pid)
{
	const struct rc_proc *p = procs_leader(ctx->procs, pid);

	if (!p || (!p->has_parent && !p->is_thread))
		return 0;
	return p->pid;
}

/* P's parent, when the trace showed it. */
static inline const struct rc_proc *rule_parent(const struct rc_ctx *ctx, const struct rc_proc *p)
{
	return p && p->has_parent ? procs_get(ctx->procs, p->ppid) : NULL;
}

/* P's failure was dealt with: an ancestor (its parent, or a shell above a
 * subshell that passed the status on) went on to exit 0 (a pipeline's
 * `head`, a supervisor stopping a helper). */
static inline bool rule_handled(const struct rc_ctx *ctx, const struct rc_proc *p)
{
	return p && procs_handled(ctx->procs, p);
}

/* Did thread PID, which had made NSYS calls at the failure, make many more
 * after it (RULE_KEPT_GOING)? */
static inline bool rule_kept_going(const struct rc_ctx *ctx, int pid, uint64_t nsys)
{
	const struct rc_proc *p = procs_get(ctx->procs, pid);

	return p && p->nsyscalls > nsys + RULE_KEPT_GOING;
}

/* One of the processes that met a failure (O) failed: the failure's
 * weight as a cause (RC_W_FAILED), whichever of them the finding names. */
static inline bool rule_met_by_failed(const struct rc_ctx *ctx, const struct rc_occurrences *o)
{
	for (int i = 0; i < o->n; i++)
		if (procs_failed(ctx->procs, o->v[i].pid, NULL))
			return true;
	return false;
}

/* The working directory relative paths of E resolved against
 * (procs_cwd). */
static inline const char *rule_cwd(const struct rc_proc *p, const struct rc_event *e)
{
	return procs_cwd(p, e);
}

/* The traced wall time, 0 without timestamps. */
static inline double rule_span(const struct rc_ctx *ctx)
{
	return ctx->has_time && ctx->last_ts > ctx->first_ts ? ctx->last_ts - ctx->first_ts : 0;
}

/* Key per-process state by a name: "LEADER/NAME" (NAME is LEN bytes) into
 * SB, which is reset; returns SB's contents, SB->len long. */
const char *rule_proc_key(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *name,
			  size_t len);

/* Longest command line quoted in a summary. */
#define PROC_LABEL_MAX 80

/* Append P's command line (or its executable, or "pid N") to SB. */
static inline void proc_label(struct strbuf *sb, const struct rc_proc *p, int pid)
{
	size_t start = sb->len;

	if (p && p->argc > 0) {
		for (int i = 0; i < p->argc && sb->len - start < PROC_LABEL_MAX; i++) {
			if (i)
				strbuf_addc(sb, ' ');
			strbuf_adds(sb, p->argv[i] ? p->argv[i] : "");
		}
		if (sb->len - start > PROC_LABEL_MAX) {
			sb->len = start + PROC_LABEL_MAX - 3;
			sb->buf[sb->len] = '\0';
			strbuf_adds(sb, "...");
		}
	} else if (p && p->exe) {
		strbuf_adds(sb, fp_name(p->exe));
	} else {
		strbuf_addf(sb, "pid %d", pid);
	}
}

/* Append "'LABEL' (pid N)" to SB; logs without pids give only the label.
 * A process whose command the log does not show is "pid N", and in a log
 * without pids either (strace without -f, or -e trace= leaving execve
 * out) "the traced program", not "pid 0". */
static inline void proc_name(struct strbuf *sb, const struct rc_proc *p, int pid)
{
	if (!(p && (p->argc > 0 || p->exe))) {
		if (pid > 0)
			strbuf_addf(sb, "pid %d", pid);
		else
			strbuf_adds(sb, "the traced program");
		return;
	}
	strbuf_addc(sb, '\'');
	proc_label(sb, p, pid);
	strbuf_addc(sb, '\'');
	if (pid > 0)
		strbuf_addf(sb, " (pid %d)", pid);
}

#endif
