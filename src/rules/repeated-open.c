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
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "rules/common.h"
#include "rules/fileprobe.h"
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

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static bool noise(const char *path)
{
	if (!path[0] || fp_pseudo(path))
		return true;
	const char *base = fp_base(path);
	return has_suffix(base, ".py") || has_suffix(base, ".pyc") || has_suffix(base, ".so") ||
	       strstr(base, ".so.") != NULL || strcmp(path, "/etc/ld.so.cache") == 0;
}

static struct file_stat *lookup(struct state *s, const char *path)
{
	void **slot = path ? hmap_get(&s->files, path, strlen(path)) : NULL;
	return slot ? *slot : NULL;
}

/* When full, the files opened only once so far are forgotten. */
static bool opened_once(const void *value)
{
	const struct file_stat *f = value;

	return f->opens <= 1;
}

static void on_open(struct state *s, const struct rc_event *e)
{
	if (!e->path || (e->flags & O_DIRECTORY) || (e->flags & O_ACCMODE) == O_WRONLY || noise(e->path))
		return;
	size_t len = strlen(e->path);
	void **slot = hmap_get(&s->files, e->path, len);
	if (!slot) {
		if (s->files.count >= PATHS_MAX)
			rule_evict(&s->files, opened_once, file_free);
		if (s->files.count >= PATHS_MAX) {
			s->dropped++;
			return;
		}
		slot = hmap_put(&s->files, e->path, len, NULL);
		struct file_stat *f = xcalloc(1, sizeof(*f));
		f->path = hmap_slot_key(slot);
		f->st_size = -1;
		f->pid = e->pid;
		f->first_line = rule_line(e);
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
	if (rule_is_open(e->nr)) {
		if (e->ret >= 0)
			on_open(s, e);
		return;
	}
	switch (e->nr) {
	case SYS_read:
	case SYS_pread64:
	case SYS_readv:
	case SYS_preadv:
#ifdef SYS_preadv2
	case SYS_preadv2:
#endif
		/* A log (or a hostile tracee) can claim any count: saturate
		 * rather than overflow. */
		if (e->ret > 0 && s->files.count && (f = lookup(s, rule_fd_path(ctx, e)))) {
			f->bytes = e->ret > LLONG_MAX - f->bytes ? LLONG_MAX : f->bytes + e->ret;
			f->cur = e->ret > LLONG_MAX - f->cur ? LLONG_MAX : f->cur + e->ret;
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
		f = lookup(s, e->path && e->path[0] ? e->path : rule_fd_path(ctx, e));
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
	const struct file_stat *a = *(void *const *)x, *b = *(void *const *)y;
	long long ra = reread(a), rb = reread(b);
	if (ra != rb)
		return ra > rb ? -1 : 1;
	return strcmp(a->path, b->path);
}

/* Opened often, and much of it read again. */
static bool reported(const void *value, const void *arg)
{
	const struct file_stat *f = value;

	return f->opens >= MIN_OPENS && reread(f) >= MIN_REREAD;
}

static void report(const void *value, struct rc_findings *out)
{
	const struct file_stat *f = value;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "'%s' was opened %llu times and read ", f->path, (unsigned long long)f->opens);
	rule_add_bytes(&sb, (unsigned long long)f->bytes);
	strbuf_adds(&sb, ", ");
	rule_add_bytes(&sb, (unsigned long long)reread(f));
	strbuf_adds(&sb, " of it again");
	struct rc_finding *r = rule_finding(out, "repeated-open", RC_SEV_WARNING, RC_SEV_WARNING, &sb);
	r->pid = f->pid;
	finding_set(&r->syscall, "openat");
	finding_set(&r->path, f->path);
	r->count = (long long)f->opens;
	r->bytes = f->bytes;
	r->seq = f->seq;
	r->ts = f->ts;
	rule_evidence(r, f->first_line);
	rule_evidence(r, f->last_line);
	finding_echo_name(r, fp_base(f->path));
	finding_set(&r->advice,
		    "load it once and keep it in memory (cache the model or the decoded data between "
		    "requests) instead of reading it again each time");
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	rule_report_top(&s->files, reported, cmp_reread, REPORT_MAX, report, out);
}

const struct rc_rule_ops rc_rule_repeated_open_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
