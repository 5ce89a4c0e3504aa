/* How findings name a process: its command line as the trace showed it,
 * shortened and quoted, with its pid: 'python3 app.py --port 8080' (pid 42). */
#ifndef RC_RULES_PROC_LABEL_H
#define RC_RULES_PROC_LABEL_H

#include "event/procs.h"
#include "rules/fileprobe.h"
#include "util/strbuf.h"

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

/* Append "'LABEL' (pid N)" to SB; logs without pids give only the label. */
static inline void proc_name(struct strbuf *sb, const struct rc_proc *p, int pid)
{
	strbuf_addc(sb, '\'');
	proc_label(sb, p, pid);
	strbuf_addc(sb, '\'');
	if (pid > 0)
		strbuf_addf(sb, " (pid %d)", pid);
}

#endif
