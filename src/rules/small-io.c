/* small-io: a regular file read or written in small chunks (story 2: the
 * audio read in 1024-byte read()s while the images are read in one go).
 * Every call costs a kernel round trip, and many more under a tracer.
 *
 * Per path and direction: the number of read/write calls on descriptors
 * that refer to it, the bytes moved, and the typical (median) size asked
 * for. Reported when a file saw MIN_CALLS calls or more, of a typical size
 * under SMALL_MAX, moving MIN_BYTES or more.
 *
 * In a short log (a pasted excerpt, EXCERPT_EVENTS events or fewer) the
 * shape is the evidence, not the total: EXCERPT_CALLS calls or more of
 * EXCERPT_MAX bytes or less, making a quarter of what it shows, are a
 * file read or written in pieces, whatever they add up to. So are
 * TINY_CALLS calls or more that each ask for TINY_MAX bytes or less, by
 * a process whose end the log does not show: a reader that takes a file a
 * byte or a field at a time (an unbuffered readline, a parser fed
 * straight from the fd) shows it in three lines, and a user pastes no
 * more than that of it.
 *
 * Left out: pseudo and device files (/proc, /sys, /dev: terminals, pipes
 * and sockets are no regular files either), and reads at end of file.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/rule.h"
#include "rules/sites.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* A file read in a few hundred pieces is read in a loop, not by accident. */
#define MIN_CALLS 256
/* Below half a page: stdio and Python's buffered I/O move 4 KiB or 8 KiB
 * at a time, which is a reasonable default, not a finding, and so is a
 * reader that keeps a partial line and asks for the rest of its 4 KiB
 * buffer (mawk asks for 4090 or so). */
#define SMALL_MAX 2047
/* Small files cost little however they are read. */
#define MIN_BYTES (256LL << 10)
/* A short log's tiny calls (see the top). */
#define EXCERPT_EVENTS 400
#define EXCERPT_CALLS 16
#define EXCERPT_MAX 64
/* Fewer, but each of a few bytes: a byte, a length, a short field.
 * Headers are read in one call of their size, so three in a row of a
 * file are a loop. */
#define TINY_CALLS 3
#define TINY_MAX 16
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
	uint64_t biggest;	/* the largest size asked for */
	uint64_t hist[65];	/* calls by bit length of the size asked for */
	uint64_t size[SIZES], size_count[SIZES];
	int pid;
	uint64_t seq;
	double ts;
	char *syscall;
	char *ev[EVIDENCE];
	int nev;
	struct site_tally sites;	/* where the calls were made */
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
	site_tally_release(&f->sites);
	free(f);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->files, io_free);
	strbuf_release(&s->key);
}

/* The regular file an fd refers to, from the model or strace's -y. */
static const char *file_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const char *path = rule_fd_path(ctx, e);

	if (!path || !path[0] || fp_pseudo(path))
		return NULL;
	return path;
}

/* When full, the files with few calls so far are forgotten. */
static bool few_calls(const void *value)
{
	const struct io_stat *f = value;

	return f->calls < EVICT_BELOW;
}

/* N more calls of SIZE (Misra-Gries, weighted: a size not kept takes
 * the place of the rarest once the others have paid for it). */
static void count_size(struct io_stat *f, uint64_t size, uint64_t n)
{
	int free_slot = -1;

	for (int i = 0; i < SIZES; i++) {
		if (f->size_count[i] && f->size[i] == size) {
			f->size_count[i] += n;
			return;
		}
		if (!f->size_count[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		uint64_t least = n;
		for (int i = 0; i < SIZES; i++)
			least = MIN(least, f->size_count[i]);
		for (int i = 0; i < SIZES; i++) {
			f->size_count[i] -= least;
			if (!f->size_count[i] && free_slot < 0)
				free_slot = i;
		}
		n -= least;
	}
	if (free_slot >= 0 && n) {
		f->size[free_slot] = size;
		f->size_count[free_slot] = n;
	}
}

/* The stats of the file E's fd refers to, in direction DIR; NULL when
 * it is none, or cannot be kept. */
static struct io_stat *io_stat_of(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, char dir)
{
	const char *path = file_path(ctx, e);
	if (!path)
		return NULL;

	strbuf_reset(&s->key);
	strbuf_addc(&s->key, dir);
	strbuf_adds(&s->key, path);
	void **slot = rule_key_slot(&s->files, s->key.buf, s->key.len, PATHS_MAX, few_calls, io_free);
	if (!slot) {
		s->dropped++;
		return NULL;
	}
	if (!*slot) {
		struct io_stat *n = xcalloc(1, sizeof(*n));
		n->key = hmap_slot_key(slot);
		n->pid = e->pid;
		*slot = n;
	}
	struct io_stat *f = *slot;
	f->seq = e->seq;
	f->ts = e->ts;
	if (!f->syscall && e->name)
		f->syscall = xstrdup(e->name);
	return f;
}

static void add_bytes(struct io_stat *f, long long n)
{
	/* Saturate: a log can claim any count. */
	f->bytes = n > LLONG_MAX - f->bytes ? LLONG_MAX : f->bytes + n;
}

static void on_io(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, char dir)
{
	struct io_stat *f = io_stat_of(s, e, ctx, dir);
	if (!f)
		return;
	/* The size the program asked for is its chunk size; what came
	 * back is less only at the end of the file. */
	uint64_t size = e->len > 0 ? e->len : (uint64_t)e->ret;
	f->calls++;
	f->biggest = MAX(f->biggest, size);
	site_tally_add(&f->sites, e->stack);
	add_bytes(f, e->ret);
	f->hist[size ? 64 - __builtin_clzll(size) : 0]++;
	count_size(f, size, 1);
	if (f->nev < EVIDENCE && e->line)
		f->ev[f->nev++] = rule_line(e);
}

/* Calls the capture summed (the same counts, made in the kernel). */
static void on_sum(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const struct rc_sum *sum = e->sum;
	struct io_stat *f = io_stat_of(s, e, ctx, (syscall_classes(e->nr) & CL_READ) ? 'r' : 'w');
	if (!f)
		return;
	f->calls = sum->calls > UINT64_MAX - f->calls ? UINT64_MAX : f->calls + sum->calls;
	add_bytes(f, sum->bytes);
	for (int b = 0; b < 65 && b < RC_SUM_BITS; b++) {
		f->hist[b] += sum->hist[b];
		/* The bound of the sizes of that bit length. */
		if (sum->hist[b])
			f->biggest = MAX(f->biggest, b ? (b >= 64 ? UINT64_MAX : (1ULL << b) - 1) : 0);
	}
	for (int i = 0; i < RC_SUM_SIZES; i++)
		if (sum->size_count[i])
			count_size(f, sum->size[i], sum->size_count[i]);
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;

	if (e->kind == RC_EV_SUM) {
		on_sum(s, e, ctx);
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	/* The calls that return the bytes they moved through memory; on_io
	 * keeps those on files (a socket's fd has no path). */
	unsigned long long cl = syscall_classes(e->nr);
	if (!(cl & CL_MEM_IO) || !e->ret_known || e->err || e->ret <= 0)
		return;
	on_io(s, e, ctx, (cl & CL_READ) ? 'r' : 'w');
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

static bool small(const void *value, const void *arg)
{
	const struct io_stat *f = value;
	const struct rc_ctx *ctx = arg;
	int bits = median_bits(f);

	if (bits >= 64)
		return false;
	uint64_t most = bits == 0 ? 0 : (1ULL << bits) - 1;
	if (f->calls >= MIN_CALLS && f->bytes >= MIN_BYTES && most <= SMALL_MAX)
		return true;
	if (!ctx || ctx->nevents > EXCERPT_EVENTS || 4 * f->calls < ctx->nevents)
		return false;
	if (f->calls >= EXCERPT_CALLS && most <= EXCERPT_MAX)
		return true;
	/* A log that shows the reader's end shows its whole reading, and
	 * a few tiny calls that were all of it cost nothing. */
	const struct rc_proc *p = procs_get(ctx->procs, f->pid);
	return f->calls >= TINY_CALLS && f->biggest <= TINY_MAX && !(p && p->ended);
}

static int cmp_calls(const void *x, const void *y)
{
	const struct io_stat *a = *(void *const *)x, *b = *(void *const *)y;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void report(const void *value, struct rc_findings *out)
{
	const struct io_stat *f = value;
	bool reading = f->key[0] == 'r';
	const char *path = f->key + 1;
	struct strbuf sb = STRBUF_INIT;

	uint64_t typical = common_size(f);
	strbuf_addf(&sb, "'%s' was %s in %llu calls of typically %llu byte%s (", path,
		    reading ? "read" : "written", (unsigned long long)f->calls, (unsigned long long)typical,
		    typical == 1 ? "" : "s");
	strbuf_add_bytes(&sb, (unsigned long long)f->bytes);
	strbuf_adds(&sb, " in all)");
	/* A few lines of a paste: what they stand for. */
	if (f->calls < MIN_CALLS && f->biggest <= TINY_MAX)
		strbuf_addf(&sb, ", a kernel round trip for every %s%s", typical <= 1 ? "byte" : "few bytes",
			    reading ? ": a reader without a buffer" : ": a writer without a buffer");
	struct rc_finding *r = rule_finding(out, "small-io", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	r->pid = f->pid;
	finding_set(&r->syscall, f->syscall);
	finding_set(&r->path, path);
	r->count = (long long)f->calls;
	r->bytes = f->bytes;
	r->seq = f->seq;
	r->ts = f->ts;
	for (int i = 0; i < f->nev; i++)
		rule_evidence(r, f->ev[i]);
	site_tally_put_of(&f->sites, r, f->calls);
	finding_set(&r->advice, reading ?
		    "read it in large blocks (1 MiB or the whole file at once) or through a buffer, "
		    "and decode it up front instead of chunk by chunk" :
		    "buffer the writes (a larger stdio or io buffer) or collect the data and write "
		    "it in large blocks");
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	size_t n = 0;
	void **v = rule_values(&s->files, small, ctx, &n);

	qsort(v, n, sizeof(*v), cmp_calls);
	for (size_t i = 0; i < n && i < REPORT_MAX; i++)
		report(v[i], out);
	free(v);
}

static const long reads_calls[] = {
	SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_write, SYS_pwrite64, SYS_writev, SYS_pwritev, -1,
};

const struct rc_rule_ops rc_rule_small_io_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .classes = CL_READ | CL_WRITE, .calls = reads_calls, .events = RC_READS_SUMS },
	.finish = finish,
	.release = release,
};
