/* An event kept past its dispatch (event.h's event_copy): one block that
 * holds the event and everything it points to, so that a recorder keeps
 * and frees it whole. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "event/event.h"
#include "event/stack.h"
#include "util/util.h"

/* The block being filled: BASE NULL measures only. */
struct block {
	char *base;
	size_t off;
};

static void *take(struct block *b, const void *src, size_t n, size_t align)
{
	b->off = (b->off + align - 1) & ~(align - 1);
	void *p = b->base ? b->base + b->off : NULL;
	if (p && src)
		memcpy(p, src, n);
	b->off += n;
	return p;
}

static const char *take_str(struct block *b, const char *s)
{
	return s ? take(b, s, strlen(s) + 1, 1) : NULL;
}

/* A string of F's, in the copy C: into C's text where F's points into
 * its own (as the decoration's reader leaves it), else a copy of its own. */
static const char *take_facts_str(struct block *b, const struct rc_fdfacts *f, struct rc_fdfacts *c,
				  const char *s)
{
	if (s && s >= f->text && s < f->text + f->size)
		return c ? c->text + (s - f->text) : NULL;
	return take_str(b, s);
}

static const struct rc_fdfacts *take_facts(struct block *b, const struct rc_fdfacts *f)
{
	if (!f)
		return NULL;
	struct rc_fdfacts *c = take(b, f, sizeof(*f) + f->size, alignof(struct rc_fdfacts));
	const char *desc = take_facts_str(b, f, c, f->desc), *path = take_facts_str(b, f, c, f->path);
	const char *proto = take_facts_str(b, f, c, f->proto);
	const char *local = take_facts_str(b, f, c, f->local.host), *peer = take_facts_str(b, f, c, f->peer.host);
	if (c) {
		c->desc = desc;
		c->path = path;
		c->proto = proto;
		c->local.host = local;
		c->peer.host = peer;
	}
	return c;
}

static const struct rc_found *take_found(struct block *b, const struct rc_found *f)
{
	if (!f)
		return NULL;
	struct rc_found *c = take(b, f, sizeof(*f), alignof(struct rc_found));
	const char **argv = f->argv && f->argc > 0 ?
		take(b, NULL, (size_t)f->argc * sizeof(*argv), alignof(const char *)) : NULL;
	struct rc_found_fd *fds = f->fds && f->nfds ?
		take(b, f->fds, f->nfds * sizeof(*fds), alignof(struct rc_found_fd)) : NULL;
	for (int i = 0; f->argv && i < f->argc; i++) {
		const char *s = take_str(b, f->argv[i]);
		if (argv)
			argv[i] = s;
	}
	const char *exe = take_str(b, f->exe), *cwd = take_str(b, f->cwd);
	for (size_t i = 0; f->fds && i < f->nfds; i++) {
		const struct rc_fdfacts *s = take_facts(b, f->fds[i].shown);
		if (fds)
			fds[i].shown = s;
	}
	if (c) {
		c->argv = argv;
		c->exe = exe;
		c->cwd = cwd;
		c->fds = fds;
	}
	return c;
}

/* Lays E out in B (measuring only when B has no base). */
static struct rc_event *lay_out(struct block *b, const struct rc_event *e)
{
	struct rc_event *c = take(b, e, sizeof(*e), alignof(struct rc_event));
	const char *name = take_str(b, e->name), *path = take_str(b, e->path), *path2 = take_str(b, e->path2);
	const char *line = take_str(b, e->line), *host = take_str(b, e->sa.host);
	const struct rc_fdfacts *dir_shown = take_facts(b, e->dir_shown), *fd_shown = take_facts(b, e->fd_shown);
	const unsigned char *data = e->data ? take(b, e->data, e->data_len, 1) : NULL;
	const struct rc_sum *sum = e->sum ? take(b, e->sum, sizeof(*e->sum), alignof(struct rc_sum)) : NULL;
	const struct rc_live *live = e->live ? take(b, e->live, sizeof(*e->live), alignof(struct rc_live)) : NULL;
	const struct rc_found *found = take_found(b, e->found);
	const char *argv[RC_EVENT_MAX_ARGV];
	for (int i = 0; i < e->argc && i < RC_EVENT_MAX_ARGV; i++)
		argv[i] = take_str(b, e->argv[i]);
	if (!c)
		return NULL;
	c->name = name;
	c->path = path;
	c->path2 = path2;
	c->line = line;
	c->sa.host = host;
	c->dir_shown = dir_shown;
	c->fd_shown = fd_shown;
	c->data = data;
	c->sum = sum;
	c->live = live;
	c->found = found;
	for (int i = 0; i < e->argc && i < RC_EVENT_MAX_ARGV; i++)
		c->argv[i] = argv[i];
	c->quoted = NULL;
	c->stack = e->stack ? stack_ref(e->stack) : NULL;
	return c;
}

struct rc_event *event_copy(const struct rc_event *e, size_t *bytes)
{
	struct block b = { NULL, 0 };

	lay_out(&b, e);
	b.base = xmalloc(b.off);
	b.off = 0;
	struct rc_event *c = lay_out(&b, e);
	if (bytes)
		*bytes = b.off;
	return c;
}

void event_copy_free(struct rc_event *c)
{
	if (!c)
		return;
	stack_unref(c->stack);
	free(c);
}
