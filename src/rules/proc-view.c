/* Whose process an event belongs to (see proc-view.h). */
#include "rules/proc-view.h"



const char *rule_proc_key(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *name,
			  size_t len)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%d/", rule_leader(ctx, pid));
	strbuf_add(sb, name, len);
	return sb->buf;
}
