/* mmap-churn: the same large mapping made and dropped again and again
 * (story 2: mmap(NULL, 1073741824, ...) and munmap(..., 1073741824) for
 * every request). Each round trip costs the mapping, a page fault and a
 * zero-filled page for every page touched, and the unmapping.
 *
 * glibc's malloc serves an allocation above its mmap threshold (128 KiB,
 * raised dynamically up to 32 MiB) with its own mmap and gives it back with
 * munmap on free, so a large buffer or tensor allocated per request shows
 * up here without the program ever calling mmap itself.
 *
 * A pair is a successful mmap of MIN_SIZE or more followed by a munmap of
 * the same address in the same process. Pairs are counted per size and
 * file (anonymous maps have none); reported from MIN_PAIRS pairs on.
 * mremap moves a mapping and ends its tracking, and so does a munmap of
 * only part of it: glibc's arenas and V8 map 64-128 MiB and trim it to an
 * aligned piece, which is not a round trip.
 *
 * Address-space reservations (event_mmap_reserves) are not counted at
 * all: remaking them costs next to nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/sites.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Smaller mappings are cheap to remake, and the loader maps libraries of
 * a few MiB once each. */
#define MIN_SIZE (16ULL << 20)
/* Once is a load, twice may be a reload: four round trips are a habit. */
#define MIN_PAIRS 4
/* Live large mappings and (size, file) keys kept at once. */
#define LIVE_MAX 4096
#define KEYS_MAX 1024
#define REPORT_MAX 5
/* Above this glibc never keeps an allocation in its heap: MALLOC_MMAP_THRESHOLD_
 * is capped at HEAP_MAX_SIZE / 2 on 64-bit systems. */
#define GLIBC_MMAP_THRESHOLD_MAX (32ULL << 20)

struct live_key {
	int pid;		/* rule_group(): threads share the address space */
	int pad;
	uint64_t addr;
};

struct live {
	uint64_t len;
	char *key;		/* the churn key */
	double dur;		/* the mmap's duration, -1 unknown */
	char *line;
	const struct rc_stack *stack;	/* where the mmap was made */
};

struct churn {
	uint64_t len;
	bool file;		/* a file mapping (else anonymous) */
	char *path;		/* the file, NULL unknown */
	uint64_t pairs;
	double time;		/* in mmap and munmap, when durations were known */
	bool timed;
	int pid;
	uint64_t seq;		/* the last munmap */
	double ts;
	char *first_map, *first_unmap, *last_map, *last_unmap;
	struct site_tally sites;	/* where the mappings were made */
};

struct state {
	struct hmap live;	/* struct live_key -> struct live */
	struct hmap churn;	/* "len path" -> struct churn */
	struct strbuf key;
	uint64_t dropped;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->live);
	hmap_init(&s->churn);
	strbuf_init(&s->key);
}

static void live_free(void *p)
{
	struct live *l = p;

	if (!l)
		return;
	free(l->key);
	free(l->line);
	stack_unref(l->stack);
	free(l);
}

static void churn_free(void *p)
{
	struct churn *c = p;

	free(c->path);
	free(c->first_map);
	free(c->first_unmap);
	free(c->last_map);
	free(c->last_unmap);
	site_tally_release(&c->sites);
	free(c);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->live, live_free);
	hmap_release(&s->churn, churn_free);
	strbuf_release(&s->key);
}

static struct live_key live_key(const struct rc_ctx *ctx, int pid, uint64_t addr)
{
	struct live_key k;

	memset(&k, 0, sizeof(k));
	k.pid = rule_group(ctx, pid);
	k.addr = addr;
	return k;
}

static bool file_map(const struct rc_event *e)
{
	return !(e->flags & MAP_ANONYMOUS) && e->fd >= 0;
}

/* The mapped file's path, NULL when anonymous or unknown. */
static const char *map_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	return file_map(e) ? rule_fd_path(ctx, e) : NULL;
}

static void on_mmap(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const char *path = map_path(ctx, e);

	if (s->live.count >= LIVE_MAX) {
		s->dropped++;
		return;
	}
	struct live_key k = live_key(ctx, e->pid, (uint64_t)e->ret);
	struct live *l = xcalloc(1, sizeof(*l));
	l->len = e->len;
	strbuf_reset(&s->key);
	strbuf_addf(&s->key, "%c %llu %s", file_map(e) ? 'f' : 'a', (unsigned long long)e->len,
		    path ? path : "");
	l->key = xstrdup(strbuf_str(&s->key));
	l->dur = e->dur;
	l->line = rule_line(e);
	l->stack = stack_ref(e->stack);
	void **slot = hmap_put(&s->live, &k, sizeof(k), NULL);
	live_free(*slot);
	*slot = l;
}

static void on_munmap(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct live_key k = live_key(ctx, e->pid, e->addr);
	struct live *l = hmap_del(&s->live, &k, sizeof(k));

	if (!l)
		return;
	/* A trim (a length the log did not show counts as the whole). */
	if (e->len && e->len < l->len) {
		live_free(l);
		return;
	}
	size_t keylen = strlen(l->key);
	void **slot = hmap_get(&s->churn, l->key, keylen);
	if (!slot) {
		if (s->churn.count >= KEYS_MAX) {
			s->dropped++;
			live_free(l);
			return;
		}
		slot = hmap_put(&s->churn, l->key, keylen, NULL);
		struct churn *c = xcalloc(1, sizeof(*c));
		const char *sp = strchr(l->key + 2, ' ');
		c->len = l->len;
		c->file = l->key[0] == 'f';
		c->path = sp && sp[1] ? xstrdup(sp + 1) : NULL;
		c->pid = e->pid;
		c->first_map = l->line;
		l->line = NULL;
		c->first_unmap = rule_line(e);
		*slot = c;
	} else {
		struct churn *c = *slot;
		free(c->last_map);
		free(c->last_unmap);
		c->last_map = l->line;
		l->line = NULL;
		c->last_unmap = rule_line(e);
	}
	struct churn *c = *slot;
	c->pairs++;
	site_tally_add(&c->sites, l->stack);
	if (l->dur >= 0 && e->dur >= 0) {
		c->time += l->dur + e->dur;
		c->timed = true;
	}
	c->seq = e->seq;
	c->ts = e->ts;
	live_free(l);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind != RC_EV_SYSCALL)
		return;
	/* A new mapping: mmap, mmap2 (the table's CL_RET_ADDR). */
	if (syscall_is(e->nr, CL_RET_ADDR)) {
		if (e->ret_known && !e->err && e->len >= MIN_SIZE && !event_mmap_reserves(e))
			on_mmap(s, e, ctx);
		return;
	}
	switch (e->nr) {
	case SYS_munmap:
		if (e->ret_known && !e->err && s->live.count)
			on_munmap(s, e, ctx);
		break;
	case SYS_mremap:
		if (e->ret_known && !e->err && s->live.count) {
			struct live_key k = live_key(ctx, e->pid, e->addr);
			live_free(hmap_del(&s->live, &k, sizeof(k)));
		}
		break;
	default:
		break;
	}
}

static int cmp_volume(const void *x, const void *y)
{
	const struct churn *a = *(void *const *)x, *b = *(void *const *)y;
	double va = (double)a->len * (double)a->pairs, vb = (double)b->len * (double)b->pairs;
	if (va != vb)
		return va > vb ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* A habit: made and dropped MIN_PAIRS times or more. */
static bool reported(const void *value, const void *arg)
{
	const struct churn *c = value;

	return c->pairs >= MIN_PAIRS;
}

static void report(const void *value, struct rc_findings *out)
{
	const struct churn *c = value;
	struct strbuf sb = STRBUF_INIT;

	if (c->path) {
		strbuf_addf(&sb, "'%s' was mapped (", c->path);
		strbuf_add_bytes(&sb, c->len);
		strbuf_addf(&sb, ") and unmapped %llu times", (unsigned long long)c->pairs);
	} else {
		strbuf_adds(&sb, "a ");
		strbuf_add_bytes(&sb, c->len);
		strbuf_addf(&sb, " %s mapping was made and dropped %llu times",
			    c->file ? "file" : "anonymous", (unsigned long long)c->pairs);
	}
	strbuf_adds(&sb, " (");
	strbuf_add_bytes(&sb, c->len * c->pairs);
	strbuf_adds(&sb, " in all");
	if (c->timed)
		strbuf_addf(&sb, ", %.3f s in mmap/munmap", c->time);
	strbuf_adds(&sb, ")");

	struct rc_finding *f = rule_finding(out, "mmap-churn", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	f->pid = c->pid;
	finding_set(&f->syscall, "mmap");
	finding_set(&f->path, c->path);
	f->count = (long long)c->pairs;
	f->bytes = (long long)c->len;
	if (c->timed)
		f->duration_s = c->time;
	f->seq = c->seq;
	f->ts = c->ts;
	const char *ev[] = { c->first_map, c->first_unmap, c->last_map, c->last_unmap };
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
		rule_evidence(f, ev[i]);
	/* Every mapping, or (the eBPF capture's) a sample of them. */
	site_tally_put_of(&c->sites, f, c->pairs);
	if (c->file)
		finding_set(&f->advice,
			    "keep the file mapped between requests (map it once at start-up) instead of "
			    "mapping and unmapping it each time");
	else if (c->len > GLIBC_MMAP_THRESHOLD_MAX)
		finding_set(&f->advice,
			    "allocate the buffer once and reuse it (or keep a pool of them): glibc's malloc "
			    "returns allocations this large to the kernel on every free, and "
			    "MALLOC_MMAP_THRESHOLD_ cannot be raised above 32 MiB; an allocator that caches "
			    "(jemalloc, tcmalloc) also keeps them");
	else
		finding_set(&f->advice,
			    "allocate the buffer once and reuse it; glibc's malloc returns allocations above "
			    "its mmap threshold to the kernel on free: MALLOC_MMAP_THRESHOLD_=33554432 with "
			    "MALLOC_TRIM_THRESHOLD_ raised keeps them in the heap instead");
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	rule_report_top(&s->churn, reported, cmp_volume, REPORT_MAX, report, out);
}

static const long reads_calls[] = {
#ifdef SYS_mmap
	SYS_mmap,
#endif
#ifdef SYS_mmap2
	SYS_mmap2,
#endif
	SYS_munmap, SYS_mremap, -1,
};

const struct rc_rule_ops rc_rule_mmap_churn_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .classes = CL_RET_ADDR, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
