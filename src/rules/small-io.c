/* small-io: a regular file read or written in small chunks (story 2: the
 * audio read in 1024-byte read()s while the images are read in one go).
 * Every call costs a kernel round trip, and many more under a tracer.
 *
 * Per path and direction: the number of read/write calls on descriptors
 * that refer to it, the bytes moved, and the typical (median) size asked
 * for. Reported when a file saw MIN_CALLS calls or more, of a typical size
 * under SMALL_MAX, moving MIN_BYTES or more.
 *
 * Left out: pseudo and device files (/proc, /sys, /dev: terminals, pipes
 * and sockets are no regular files either), and reads at end of file.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* A file read in a few hundred pieces is read in a loop, not by accident. */
#define MIN_CALLS 256
/* Below a page: stdio and Python's buffered I/O move 4 KiB or 8 KiB at a
 * time, which is a reasonable default, not a finding. */
#define SMALL_MAX 4095
/* Small files cost little however they are read. */
#define MIN_BYTES (256LL << 10)
/* Paths kept at once; when full, those with few calls are dropped. */
#define PATHS_MAX 2048
#define EVICT_BELOW 16
/* Sizes counted exactly for the "typically N bytes" of the summary
 * (Misra-Gries: the most frequent size is among them). */
#define SIZES 4
#define EVIDENCE 3
#define REPORT_MAX 5

struct io_stat {
	const char *key;	/* the map's key: 'r' or 'w', then the path */
	uint64_t calls;
	long long bytes;
	uint64_t hist[65];	/* calls by bit length of the size asked for */
	uint64_t size[SIZES], size_count[SIZES];
	int pid;
	uint64_t seq;
	double ts;
	char *syscall;
	char *ev[EVIDENCE];
	int nev;
};

struct state {
	struct hmap files;	/* "r/path" or "w/path" -> struct io_stat */
	struct strbuf key;
	uint64_t dropped;
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->files);
	strbuf_init(&s->key);
}

static void io_free(void *p)
{
	struct io_stat *f = p;

	for (int i = 0; i < f->nev; i++)
		free(f->ev[i]);
	free(f->syscall);
	free(f);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->files, io_free);
	strbuf_release(&s->key);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The regular file an fd refers to, from the model or strace's -y. */
static const char *file_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = procs_fd(ctx->procs, e->pid, e->fd);
	const char *path;

	if (f)
		path = f->kind == RC_FD_FILE ? f->path : NULL;
	else
		path = e->fd_hint && e->fd_hint[0] == '/' ? e->fd_hint : NULL;
	if (!path || !path[0] || has_prefix(path, "/proc/") || has_prefix(path, "/sys/") ||
	    has_prefix(path, "/dev/"))
		return NULL;
	return path;
}

static void evict(struct state *s)
{
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(&s->files, &it);

	while (n) {
		struct hmap_node *next = hmap_next(&s->files, &it);
		struct io_stat *f = n->value;
		if (f->calls < EVICT_BELOW)
			io_free(hmap_del(&s->files, n->key, n->keylen));
		n = next;
	}
}

static void count_size(struct io_stat *f, uint64_t size)
{
	int free_slot = -1;

	for (int i = 0; i < SIZES; i++) {
		if (f->size_count[i] && f->size[i] == size) {
			f->size_count[i]++;
			return;
		}
		if (!f->size_count[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot >= 0) {
		f->size[free_slot] = size;
		f->size_count[free_slot] = 1;
		return;
	}
	for (int i = 0; i < SIZES; i++)
		f->size_count[i]--;
}

static void on_io(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, char dir)
{
	const char *path = file_path(ctx, e);
	if (!path)
		return;

	strbuf_reset(&s->key);
	strbuf_addc(&s->key, dir);
	strbuf_adds(&s->key, path);
	void **slot = hmap_get(&s->files, s->key.buf, s->key.len);
	if (!slot) {
		if (s->files.count >= PATHS_MAX)
			evict(s);
		if (s->files.count >= PATHS_MAX) {
			s->dropped++;
			return;
		}
		slot = hmap_put(&s->files, s->key.buf, s->key.len, NULL);
		struct io_stat *n = xcalloc(1, sizeof(*n));
		n->key = hmap_slot_key(slot);
		n->pid = e->pid;
		*slot = n;
	}
	struct io_stat *f = *slot;
	/* The size the program asked for is its chunk size; what came
	 * back is less only at the end of the file. */
	uint64_t size = e->len > 0 ? e->len : (uint64_t)e->ret;
	f->calls++;
	f->bytes += e->ret;
	f->hist[size ? 64 - __builtin_clzll(size) : 0]++;
	count_size(f, size);
	f->seq = e->seq;
	f->ts = e->ts;
	if (f->nev < EVIDENCE && e->line)
		f->ev[f->nev++] = xstrndup(e->line, e->line_len);
	if (!f->syscall && e->name)
		f->syscall = xstrdup(e->name);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind != RC_EV_SYSCALL)
		return;
	switch (e->nr) {
	case SYS_read:
	case SYS_pread64:
	case SYS_readv:
	case SYS_preadv:
		if (e->ret_known && !e->err && e->ret > 0)
			on_io(s, e, ctx, 'r');
		break;
	case SYS_write:
	case SYS_pwrite64:
	case SYS_writev:
	case SYS_pwritev:
		if (e->ret_known && !e->err && e->ret > 0)
			on_io(s, e, ctx, 'w');
		break;
	default:
		break;
	}
}

/* The bit length of the median size: every size of that length or less is
 * at most 2^len - 1. */
static int median_bits(const struct io_stat *f)
{
	uint64_t seen = 0;

	for (int b = 0; b < 65; b++) {
		seen += f->hist[b];
		if (seen * 2 >= f->calls)
			return b;
	}
	return 64;
}

static uint64_t common_size(const struct io_stat *f)
{
	int best = 0;

	for (int i = 1; i < SIZES; i++)
		if (f->size_count[i] > f->size_count[best])
			best = i;
	return f->size[best];
}

static bool small(const struct io_stat *f)
{
	int bits = median_bits(f);
	return f->calls >= MIN_CALLS && f->bytes >= MIN_BYTES && bits < 64 &&
	       (bits == 0 || (1ULL << bits) - 1 <= SMALL_MAX);
}

static int cmp_calls(const void *x, const void *y)
{
	const struct io_stat *a = *(struct io_stat *const *)x, *b = *(struct io_stat *const *)y;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* "320 KiB", "1.5 GiB", "832 bytes". */
static void add_bytes(struct strbuf *sb, long long n)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = -1;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(sb, "%lld bytes", n);
	else if ((long long)(v * 10 + 0.5) % 10 == 0)
		strbuf_addf(sb, "%.0f %s", v, unit[u]);
	else
		strbuf_addf(sb, "%.1f %s", v, unit[u]);
}

static void report(const struct io_stat *f, struct rc_findings *out)
{
	bool reading = f->key[0] == 'r';
	const char *path = f->key + 1;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "'%s' was %s in %llu calls of typically %llu bytes (", path,
		    reading ? "read" : "written", (unsigned long long)f->calls,
		    (unsigned long long)common_size(f));
	add_bytes(&sb, f->bytes);
	strbuf_adds(&sb, " in all)");
	struct rc_finding *r = finding_add(out, "small-io", RC_SEV_WARNING, RC_SEV_WARNING, "%s",
					   strbuf_str(&sb));
	strbuf_release(&sb);
	r->pid = f->pid;
	finding_set(&r->syscall, f->syscall);
	finding_set(&r->path, path);
	r->count = (long long)f->calls;
	r->bytes = f->bytes;
	r->seq = f->seq;
	r->ts = f->ts;
	for (int i = 0; i < f->nev; i++)
		finding_evidence(r, f->ev[i], strlen(f->ev[i]));
	finding_set(&r->advice, reading ?
		    "read it in large blocks (1 MiB or the whole file at once) or through a buffer, "
		    "and decode it up front instead of chunk by chunk" :
		    "buffer the writes (a larger stdio or io buffer) or collect the data and write "
		    "it in large blocks");
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	struct io_stat **v = xcalloc(s->files.count + 1, sizeof(*v));
	size_t n = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&s->files, &it); node; node = hmap_next(&s->files, &it))
		if (small(node->value))
			v[n++] = node->value;
	qsort(v, n, sizeof(*v), cmp_calls);
	for (size_t i = 0; i < n && i < REPORT_MAX; i++)
		report(v[i], out);
	free(v);
}

const struct rc_rule_ops rc_rule_small_io_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
