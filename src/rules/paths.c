/* Paths as the rules read them (see paths.h). */
#include "rules/paths.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "util/util.h"

bool rule_missing_dir(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *path)
{
	const char *base = strrchr(path, '/');
	struct stat st;

	if (path[0] != '/' || !base)
		return false;
	strbuf_reset(sb);
	/* Each directory from the top: "/srv", "/srv/app", ... */
	for (const char *p = path + 1; p <= base; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		strbuf_reset(sb);
		strbuf_add(sb, path, (size_t)(p - path));
		int r = lookup_stat(ctx->lookup, pid, sb->buf, &st);
		if (r == 1) {
			if (!S_ISDIR(st.st_mode))
				return false;
			continue;
		}
		return r == 0;
	}
	return false;
}

void rule_enter_failed(struct rule_enter_pending *p, int leader, const char *key)
{
	size_t i = p->next++ % RULE_ENTER_PENDING;

	free(p->key[i]);
	p->key[i] = xstrdup(key);
	p->pid[i] = leader;
}

void rule_enter_worked(struct rule_enter_pending *p, int leader, void (*found)(const char *key, void *arg),
		       void *arg)
{
	for (size_t i = 0; i < RULE_ENTER_PENDING; i++) {
		if (!p->key[i] || p->pid[i] != leader)
			continue;
		found(p->key[i], arg);
		free(p->key[i]);
		p->key[i] = NULL;
	}
}

void rule_enter_release(struct rule_enter_pending *p)
{
	for (size_t i = 0; i < RULE_ENTER_PENDING; i++)
		free(p->key[i]);
	memset(p, 0, sizeof(*p));
}
