/* repeated-open: the same regular file opened and read again and again
 * (story 2: the same weight file opened and read for every request).
 *
 * Per path: how often it was opened for reading, how many bytes were read
 * from descriptors that refer to it, and an estimate of its size (its
 * st_size from fstat/stat when seen, else the most read between two opens).
 * What was read beyond the size was read again. Reported when a file was
 * opened MIN_OPENS times or more and at least MIN_REREAD bytes were read
 * again.
 *
 * Left out: pseudo and device files (/proc, /sys, /dev), directories, and
 * code (.py, .pyc, shared objects, the loader cache): interpreters and the
 * loader read those once per process, and tools like inspect or linecache
 * read sources again on purpose.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* A file loaded once per request shows up after a handful of requests. */
#define MIN_OPENS 5
/* Reading small files again (configs, /etc/hosts) costs little; a mebibyte
 * read again is worth keeping in memory. */
#define MIN_REREAD (1LL << 20)
/* Paths kept at once. When full, paths opened only once are dropped. */
#define PATHS_MAX 4096
/* Findings at most, the most re-read first. */
#define REPORT_MAX 5

struct file_stat {
	const char *path;	/* the map's key */
	uint64_t opens;
	long long bytes;	/* read from it in all */
	long long cur;		/* read since the last open */
	long long max_session;	/* most read between two opens */
	long long st_size;	/* -1 unknown */
	int pid;		/* first opener */
	uint64_t seq;		/* last open */
	double ts;
	char *first_line;
	char *last_line;
};

struct state {
	struct hmap files;	/* path -> struct file_stat */
	uint64_t dropped;	/* paths not tracked for lack of room */
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->files);
}

static void file_free(void *p)
{
	struct file_stat *f = p;

	free(f->first_line);
	free(f->last_line);
	free(f);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->files, file_free);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool noise(const char *path)
{
	if (!path[0] || has_prefix(path, "/proc/") || has_prefix(path, "/sys/") || has_prefix(path, "/dev/"))
		return true;
	const char *base = basename_of(path);
	return has_suffix(base, ".py") || has_suffix(base, ".pyc") || has_suffix(base, ".so") ||
	       strstr(base, ".so.") != NULL || strcmp(path, "/etc/ld.so.cache") == 0;
}

/* The path an fd refers to, from the model or strace's -y decoration. */
static const char *fd_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = procs_fd(ctx->procs, e->pid, e->fd);

	if (f)
		return f->kind == RC_FD_FILE ? f->path : NULL;
	return e->fd_hint && e->fd_hint[0] == '/' ? e->fd_hint : NULL;
}

static struct file_stat *lookup(struct state *s, const char *path)
{
	void **slot = path ? hmap_get(&s->files, path, strlen(path)) : NULL;
	return slot ? *slot : NULL;
}

/* Make room by forgetting the files opened only once so far. */
static void evict(struct state *s)
{
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(&s->files, &it);

	while (n) {
		struct hmap_node *next = hmap_next(&s->files, &it);
		struct file_stat *f = n->value;
		if (f->opens <= 1)
			file_free(hmap_del(&s->files, n->key, n->keylen));
		n = next;
	}
}

static void on_open(struct state *s, const struct rc_event *e)
{
	if (!e->path || (e->flags & O_DIRECTORY) || (e->flags & O_ACCMODE) == O_WRONLY || noise(e->path))
		return;
	size_t len = strlen(e->path);
	void **slot = hmap_get(&s->files, e->path, len);
	if (!slot) {
		if (s->files.count >= PATHS_MAX)
			evict(s);
		if (s->files.count >= PATHS_MAX) {
			s->dropped++;
			return;
		}
		slot = hmap_put(&s->files, e->path, len, NULL);
		struct file_stat *f = xcalloc(1, sizeof(*f));
		f->path = hmap_slot_key(slot);
		f->st_size = -1;
		f->pid = e->pid;
		f->first_line = e->line ? xstrndup(e->line, e->line_len) : NULL;
		*slot = f;
	}
	struct file_stat *f = *slot;
	f->opens++;
	f->max_session = MAX(f->max_session, f->cur);
	f->cur = 0;
	f->seq = e->seq;
	f->ts = e->ts;
	if (f->opens > 1 && e->line) {
		free(f->last_line);
		f->last_line = xstrndup(e->line, e->line_len);
	}
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;
	struct file_stat *f;

	if (e->kind != RC_EV_SYSCALL || !e->ret_known || e->err)
		return;
	switch (e->nr) {
#ifdef SYS_open
	case SYS_open:
#endif
	case SYS_openat:
#ifdef SYS_openat2
	case SYS_openat2:
#endif
		if (e->ret >= 0)
			on_open(s, e);
		break;
	case SYS_read:
	case SYS_pread64:
	case SYS_readv:
	case SYS_preadv:
#ifdef SYS_preadv2
	case SYS_preadv2:
#endif
		if (e->ret > 0 && s->files.count && (f = lookup(s, fd_path(ctx, e)))) {
			f->bytes += e->ret;
			f->cur += e->ret;
		}
		break;
#ifdef SYS_fstat
	case SYS_fstat:
#endif
#ifdef SYS_stat
	case SYS_stat:
#endif
#ifdef SYS_newfstatat
	case SYS_newfstatat:
#endif
	case SYS_statx:
		if (e->st_size < 0 || !s->files.count)
			break;
		f = lookup(s, e->path && e->path[0] ? e->path : fd_path(ctx, e));
		if (f)
			f->st_size = e->st_size;
		break;
	default:
		break;
	}
}

static long long reread(const struct file_stat *f)
{
	long long size = f->st_size >= 0 ? f->st_size : MAX(f->max_session, f->cur);
	return f->bytes > size ? f->bytes - size : 0;
}

static int cmp_reread(const void *x, const void *y)
{
	const struct file_stat *a = *(struct file_stat *const *)x, *b = *(struct file_stat *const *)y;
	long long ra = reread(a), rb = reread(b);
	if (ra != rb)
		return ra > rb ? -1 : 1;
	return strcmp(a->path, b->path);
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

static void report(const struct file_stat *f, struct rc_findings *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "'%s' was opened %llu times and read ", f->path, (unsigned long long)f->opens);
	add_bytes(&sb, f->bytes);
	strbuf_adds(&sb, ", ");
	add_bytes(&sb, reread(f));
	strbuf_adds(&sb, " of it again");
	struct rc_finding *r = finding_add(out, "repeated-open", RC_SEV_WARNING, RC_SEV_WARNING, "%s",
					   strbuf_str(&sb));
	strbuf_release(&sb);
	r->pid = f->pid;
	finding_set(&r->syscall, "openat");
	finding_set(&r->path, f->path);
	r->count = (long long)f->opens;
	r->bytes = f->bytes;
	r->seq = f->seq;
	r->ts = f->ts;
	if (f->first_line)
		finding_evidence(r, f->first_line, strlen(f->first_line));
	if (f->last_line)
		finding_evidence(r, f->last_line, strlen(f->last_line));
	finding_echo_word(r, basename_of(f->path));
	finding_set(&r->advice,
		    "load it once and keep it in memory (cache the model or the decoded data between "
		    "requests) instead of reading it again each time");
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;
	struct file_stat **v = xcalloc(s->files.count + 1, sizeof(*v));
	size_t n = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&s->files, &it); node; node = hmap_next(&s->files, &it)) {
		struct file_stat *f = node->value;
		if (f->opens >= MIN_OPENS && reread(f) >= MIN_REREAD)
			v[n++] = f;
	}
	qsort(v, n, sizeof(*v), cmp_reread);
	for (size_t i = 0; i < n && i < REPORT_MAX; i++)
		report(v[i], out);
	free(v);
}

const struct rc_rule_ops rc_rule_repeated_open_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
