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
 * read sources again on purpose. So are files the program also writes (an
 * open for writing, a write to it): that is its own store, a database's
 * relation files or a cache it keeps up to date, read where it needs it.
 *
 * What the advice says depends on what the file is for, told by where its
 * bytes went and what it is:
 *  - sent on: what a thread read from the file it then wrote to a socket
 *    (served to clients: a static file server) or to another file or pipe
 *    (copied). Reading the file per request is how such a server works and
 *    the page cache keeps it in memory: a note, pointing at sendfile();
 *  - a package index (the package manager's own lists under /var/lib and
 *    /var/cache): apt parses them again whenever it keeps no binary cache;
 *    a note that says so;
 *  - model weights (the formats frameworks save them in): story 2's
 *    "load the model once", a warning;
 *  - anything else: data loaded again, a warning to keep it in memory.
 *
 * The same path looked up again and again is the same waste with nothing
 * opened: stat, access, readlink of one path by the thousand, at a pace
 * no poll for changes keeps (LOOKS_MIN times, LOOKS_RATE a second or
 * faster when the log has times). The advice fits what the path is: one
 * that was never there is asked for in vain (create it, or remember that
 * it is absent); one that is, is checked for a change (watch it). Not
 * directories: the import systems check theirs on every import, a
 * hundred times in PyTorch's start-up, and a lookup that shows a
 * directory (the path is a parent of one opened) drops its path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/rule.h"
#include "rules/sites.h"
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
/* Look-ups of one path that make a finding: far above what a start-up
 * makes of its busiest directory, and at a loop's pace. */
#define LOOKS_MIN 1000
#define LOOKS_RATE 100.0
#define LOOKS_REPORT_MAX 3

/* One path's look-ups (stat, access, readlink...). */
struct look_stat {
	const char *path;	/* the map's key */
	uint64_t count, fails;
	int err;		/* the last failure's */
	int pid;
	uint64_t seq;		/* the last */
	double first_ts, ts;
	char *call;		/* the last one's name */
	char *first_line, *last_line;
	bool dir;		/* a directory: left out */
};

struct file_stat {
	const char *path;	/* the map's key */
	uint64_t opens;
	long long bytes;	/* read from it in all */
	long long cur;		/* read since the last open */
	long long max_session;	/* most read between two opens */
	long long st_size;	/* -1 unknown */
	long long sent;		/* of those, written on to a socket (served) ... */
	long long copied;	/* ... or to another file or a pipe */
	bool writes;		/* the program writes it too: its own store */
	int pid;		/* first opener */
	uint64_t seq;		/* last open */
	double ts;
	char *first_line;
	char *last_line;
	struct site_tally sites;	/* where the opens were made */
};

/* What a thread read last from a tracked file and has not yet written on:
 * a server's read-then-send loop, cp's read-then-write. */
struct reader {
	char *path;
	long long pending;
};

/* Threads followed at once; past it a thread's reads are taken as loads. */
#define READERS_MAX 1024

struct state {
	struct hmap files;	/* path -> struct file_stat */
	struct hmap looks;	/* path -> struct look_stat */
	struct hmap readers;	/* tid -> struct reader */
	uint64_t dropped;	/* paths not tracked for lack of room */
};

static void init(void *st)
{
	struct state *s = st;

	hmap_init(&s->files);
	hmap_init(&s->readers);
	hmap_init(&s->looks);
}

static void reader_free(void *p)
{
	struct reader *r = p;

	if (r)
		free(r->path);
	free(r);
}

static void file_free(void *p)
{
	struct file_stat *f = p;

	free(f->first_line);
	free(f->last_line);
	site_tally_release(&f->sites);
	free(f);
}

static void look_free(void *p)
{
	struct look_stat *l = p;

	if (l) {
		free(l->call);
		free(l->first_line);
		free(l->last_line);
	}
	free(l);
}

static void release(void *st)
{
	struct state *s = st;

	hmap_release(&s->files, file_free);
	hmap_release(&s->readers, reader_free);
	hmap_release(&s->looks, look_free);
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
	if (!e->path || (e->flags & O_DIRECTORY) || noise(e->path))
		return;
	if ((e->flags & O_ACCMODE) != O_RDONLY) {
		struct file_stat *w = lookup(s, e->path);
		if (w)
			w->writes = true;
		if ((e->flags & O_ACCMODE) == O_WRONLY)
			return;
	}
	void **slot = rule_key_slot(&s->files, e->path, strlen(e->path), PATHS_MAX, opened_once, file_free);
	if (!slot) {
		s->dropped++;
		return;
	}
	if (!*slot) {
		struct file_stat *f = xcalloc(1, sizeof(*f));
		f->path = hmap_slot_key(slot);
		f->st_size = -1;
		f->pid = e->pid;
		f->first_line = rule_line(e);
		*slot = f;
	}
	struct file_stat *f = *slot;
	if ((e->flags & O_ACCMODE) != O_RDONLY)
		f->writes = true;
	f->opens++;
	site_tally_add(&f->sites, e->stack);
	f->max_session = MAX(f->max_session, f->cur);
	f->cur = 0;
	f->seq = e->seq;
	f->ts = e->ts;
	if (f->opens > 1 && e->line) {
		free(f->last_line);
		f->last_line = xstrndup(e->line, e->line_len);
	}
}

static void note_read(struct state *s, int tid, const struct file_stat *f, long long n)
{
	bool created;
	struct reader *r = rule_int_value(&s->readers, tid, true, sizeof(*r), READERS_MAX, &created);

	if (!r)
		return;
	if (!r->path || strcmp(r->path, f->path) != 0) {
		free(r->path);
		r->path = xstrdup(f->path);
		r->pending = 0;
	}
	r->pending = n > LLONG_MAX - r->pending ? LLONG_MAX : r->pending + n;
}

/* A write of BYTES by thread TID on E's fd: to the file itself (the
 * program's store), or on to a socket, a pipe or another file with what
 * it read last. */
static void on_write(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, int tid, long long bytes)
{
	const char *path = rule_fd_path(ctx, e);
	struct file_stat *f = lookup(s, path);

	if (f) {
		f->writes = true;
		return;
	}
	void **slot = hmap_get_int(&s->readers, tid);
	struct reader *r = slot ? *slot : NULL;
	if (!r || r->pending <= 0 || !(f = lookup(s, r->path)))
		return;
	const struct rc_fd *fd = procs_fd(ctx->procs, e->pid, e->fd);
	long long n = MIN(bytes, r->pending);
	r->pending -= n;
	if (fd && fd->kind == RC_FD_SOCKET)
		f->sent += n;
	else if (path || (fd && fd->kind == RC_FD_PIPE))
		f->copied += n;
	else
		r->pending += n;
}

/* BYTES read by thread TID on E's fd. */
static void on_read(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx, int tid, long long bytes)
{
	struct file_stat *f = lookup(s, rule_fd_path(ctx, e));

	if (!f)
		return;
	f->bytes = bytes > LLONG_MAX - f->bytes ? LLONG_MAX : f->bytes + bytes;
	f->cur = bytes > LLONG_MAX - f->cur ? LLONG_MAX : f->cur + bytes;
	note_read(s, tid, f, bytes);
}

/* Reads or writes the capture summed: as many bytes, by the thread that
 * began them. */
static void on_sum(struct state *s, const struct rc_event *e, const struct rc_ctx *ctx)
{
	if (!s->files.count || e->sum->bytes <= 0)
		return;
	if (syscall_classes(e->nr) & CL_READ)
		on_read(s, e, ctx, e->sum->tid, e->sum->bytes);
	else
		on_write(s, e, ctx, e->sum->tid, e->sum->bytes);
}

/* When full, the paths looked up only a few times are forgotten. */
static bool looked_little(const void *value)
{
	const struct look_stat *l = value;

	return l->count < 8 || l->dir;
}

/* A look-up of a path by name (an fd's, AT_EMPTY_PATH, is no look-up of
 * a path). */
static void on_look(struct state *s, const struct rc_event *e)
{
	if (!e->path || !e->path[0] || noise(e->path))
		return;
	void **slot = rule_key_slot(&s->looks, e->path, strlen(e->path), PATHS_MAX, looked_little, look_free);
	if (!slot) {
		s->dropped++;
		return;
	}
	if (!*slot) {
		struct look_stat *l = xcalloc(1, sizeof(*l));
		l->path = hmap_slot_key(slot);
		l->pid = e->pid;
		l->first_ts = e->ts;
		l->first_line = rule_line(e);
		*slot = l;
	}
	struct look_stat *l = *slot;
	l->count++;
	if (e->err) {
		l->fails++;
		l->err = e->err;
	}
	l->seq = e->seq;
	l->ts = e->ts;
	if (!l->call || strcmp(l->call, e->name ? e->name : "?") != 0) {
		free(l->call);
		l->call = xstrdup(e->name ? e->name : "?");
	}
	if (l->count > 1) {
		free(l->last_line);
		l->last_line = rule_line(e);
	}
}

/* PATH worked: every directory above it is one, and no file. */
static void parent_is_dir(struct state *s, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return;
	void **slot = hmap_get(&s->looks, path, (size_t)(slash - path));
	if (slot)
		((struct look_stat *)*slot)->dir = true;
}

static void on_event(void *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = st;
	struct file_stat *f;

	if (e->kind == RC_EV_EXIT) {
		reader_free(hmap_del_int(&s->readers, e->pid));
		return;
	}
	if (e->kind == RC_EV_SUM) {
		on_sum(s, e, ctx);
		return;
	}
	if (e->kind == RC_EV_SYSCALL && e->ret_known && (syscall_classes(e->nr) & CL_LOOK))
		on_look(s, e);
	if (e->kind != RC_EV_SYSCALL || !e->ret_known || e->err)
		return;
	if (e->path && e->path[0] == '/' && s->looks.count)
		parent_is_dir(s, e->path);
	if (rule_is_open(e->nr)) {
		if (e->ret >= 0)
			on_open(s, e);
		return;
	}
	unsigned long long cl = syscall_classes(e->nr);
	/* The calls that return the bytes they moved through memory: what a
	 * reader read, and what it wrote on (a count of messages, or a copy
	 * inside the kernel, is none). */
	if ((cl & (CL_MEM_IO | CL_READ)) == (CL_MEM_IO | CL_READ)) {
		/* A log (or a hostile tracee) can claim any count: saturate
		 * rather than overflow. */
		if (e->ret > 0 && s->files.count)
			on_read(s, e, ctx, e->pid, e->ret);
		return;
	}
	if (cl & CL_MEM_IO) {
		if (e->ret > 0 && s->files.count)
			on_write(s, e, ctx, e->pid, e->ret);
		return;
	}
	/* The file's size, by path or by fd. */
	if ((cl & CL_STAT) && e->st_size >= 0 && s->files.count) {
		f = lookup(s, e->path && e->path[0] ? e->path : rule_fd_path(ctx, e));
		if (f)
			f->st_size = e->st_size;
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

	return f->opens >= MIN_OPENS && reread(f) >= MIN_REREAD && !f->writes;
}

enum kind {
	KIND_DATA,
	KIND_WEIGHTS,
	KIND_SENT,
	KIND_COPIED,
	KIND_INDEX,
};

/* The formats frameworks save model weights in. */
static bool weights_file(const char *base)
{
	static const char *const ext[] = {
		".pth", ".pt", ".ckpt", ".safetensors", ".onnx", ".gguf", ".ggml", ".h5", ".hdf5",
		".tflite", ".pb", ".npz", ".caffemodel", ".params", ".mlmodel",
	};
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++)
		if (has_suffix(base, ext[i]))
			return true;
	return false;
}

/* The package manager's own lists: apt's (and dpkg's) under /var/lib and
 * /var/cache, rpm's and dnf's databases and metadata. */
static bool package_index(const char *path)
{
	static const char *const dirs[] = {
		"/var/lib/apt/", "/var/cache/apt/", "/var/lib/dpkg/", "/var/lib/rpm/", "/var/cache/dnf/",
		"/var/cache/yum/", "/var/lib/pacman/", "/var/cache/apk/", "/lib/apk/db/",
	};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (fp_has_prefix(path, dirs[i]))
			return true;
	return false;
}

static enum kind file_kind(const struct file_stat *f)
{
	long long on = f->sent + f->copied;

	/* Most of what was read went on somewhere. */
	if (on >= f->bytes / 2 && on > 0)
		return f->sent >= f->copied ? KIND_SENT : KIND_COPIED;
	if (package_index(f->path))
		return KIND_INDEX;
	if (weights_file(fp_base(f->path)))
		return KIND_WEIGHTS;
	return KIND_DATA;
}

static void report(const void *value, struct rc_findings *out)
{
	const struct file_stat *f = value;
	struct strbuf sb = STRBUF_INIT;

	enum kind kind = file_kind(f);
	static const char *const what[] = {
		[KIND_DATA] = "", [KIND_WEIGHTS] = "model weights ", [KIND_SENT] = "",
		[KIND_COPIED] = "", [KIND_INDEX] = "the package index ",
	};

	strbuf_addf(&sb, "%s'%s' was opened %llu times and read ", what[kind], f->path,
		    (unsigned long long)f->opens);
	strbuf_add_bytes(&sb, (unsigned long long)f->bytes);
	strbuf_adds(&sb, ", ");
	strbuf_add_bytes(&sb, (unsigned long long)reread(f));
	strbuf_adds(&sb, " of it again");
	if (kind == KIND_SENT)
		strbuf_adds(&sb, ", to send it to clients");
	else if (kind == KIND_COPIED)
		strbuf_adds(&sb, ", to copy it on");
	/* A file sent on, or a package manager's lists, is read again by
	 * design: worth knowing, not a warning. */
	enum rc_severity sev = kind == KIND_SENT || kind == KIND_COPIED || kind == KIND_INDEX ? RC_SEV_INFO
											  : RC_SEV_WARNING;
	struct rc_finding *r = rule_finding(out, "repeated-open", sev, sev, &sb);
	r->pid = f->pid;
	finding_set(&r->syscall, "openat");
	finding_set(&r->path, f->path);
	r->count = (long long)f->opens;
	r->bytes = f->bytes;
	r->seq = f->seq;
	r->ts = f->ts;
	rule_evidence(r, f->first_line);
	rule_evidence(r, f->last_line);
	/* Every open, or (the eBPF capture's) a sample of them. */
	site_tally_put_of(&f->sites, r, f->opens);
	finding_echo_name(r, fp_base(f->path));
	switch (kind) {
	case KIND_WEIGHTS:
		finding_set(&r->advice, "load the model once and keep it in memory between requests "
			    "instead of loading it again for each one");
		break;
	case KIND_SENT:
		finding_set(&r->advice, "a server reads a file again for each client that asks for it, "
			    "and the page cache keeps it in memory; sendfile() (os.sendfile, nginx's "
			    "`sendfile on`) would spare the copies through the program");
		break;
	case KIND_COPIED:
		finding_set(&r->advice, "each copy reads the file again; the page cache keeps it in "
			    "memory, so this costs little unless the copies themselves are not needed");
		break;
	case KIND_INDEX:
		finding_set(&r->advice, "a package manager parses its lists, in several passes, whenever it "
			    "keeps no binary cache of them (apt's pkgcache.bin, which Dir::Cache::pkgcache \"\" "
			    "in a container image's apt.conf turns off): each run pays for that, nothing is wrong");
		break;
	default:
		finding_set(&r->advice, "read it once and keep what you need in memory (cache the decoded "
			    "data between requests) instead of reading it again each time");
		break;
	}
}

/* Looked up by the thousand at a loop's pace, not a directory, and not a
 * file whose opens make a finding of their own. */
static bool looked_often(const void *value, const void *arg)
{
	const struct look_stat *l = value;
	const struct state *s = arg;

	if (l->count < LOOKS_MIN || l->dir)
		return false;
	double span = l->ts - l->first_ts;
	if (l->first_ts > 0 && span > 0 && (double)l->count / span < LOOKS_RATE)
		return false;
	const struct file_stat *f = lookup((struct state *)s, l->path);
	return !f || !reported(f, NULL);
}

static int cmp_looks(const void *x, const void *y)
{
	const struct look_stat *a = *(void *const *)x, *b = *(void *const *)y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->path, b->path);
}

static void report_looks(const struct look_stat *l, struct rc_findings *out)
{
	bool absent = l->fails == l->count && l->err == ENOENT;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "'%s' looked up %llu times (%s)", l->path, (unsigned long long)l->count, l->call);
	double span = l->ts - l->first_ts;
	if (l->first_ts > 0 && span > 0)
		strbuf_addf(&sb, " in %.2g s", span);
	if (absent)
		strbuf_adds(&sb, ", and it was never there (ENOENT)");
	else if (l->fails)
		strbuf_addf(&sb, ", %llu of them failed", (unsigned long long)l->fails);
	struct rc_finding *f = finding_add(out, "repeated-open", RC_SEV_WARNING, RC_SEV_WARNING, "%s", sb.buf);
	f->pid = l->pid;
	f->path = xstrdup(l->path);
	f->syscall = xstrdup(l->call);
	f->count = (long long)l->count;
	if (absent)
		f->err = ENOENT;
	f->seq = l->seq;
	f->ts = l->ts;
	rule_evidence(f, l->first_line);
	rule_evidence(f, l->last_line);
	if (strcmp(l->path, "/etc/localtime") == 0)
		/* glibc's tzset, run by localtime() and strftime(): with TZ
		 * unset it checks the file at every call; with TZ set to it,
		 * it reads it once. */
		finding_set(&f->advice, "with TZ unset, the C library checks /etc/localtime at every "
					"localtime() or strftime(): set TZ=:/etc/localtime in the program's "
					"environment (Environment=TZ=:/etc/localtime in a systemd unit, ENV in a "
					"Dockerfile) and it reads the file once");
	else if (absent)
		finding_set(&f->advice, "the program asks again and again for a file that is not there: create "
					"it, or have the program remember that it is absent (or watch its "
					"directory with inotify) instead of asking on every pass; the call's stack "
					"names the code that asks");
	else
		finding_set(&f->advice, "the program checks the file again and again, for a change or its "
					"existence: keep what it learned and check less often, or watch it with "
					"inotify, which costs no call until the file changes; the call's stack names "
					"the code that checks");
	strbuf_release(&sb);
}

static void finish(void *st, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = st;

	(void)ctx;
	rule_report_top(&s->files, reported, cmp_reread, REPORT_MAX, report, out);
	size_t n = 0;
	void **v = rule_values(&s->looks, looked_often, s, &n);
	qsort(v, n, sizeof(*v), cmp_looks);
	for (size_t i = 0; i < n && i < LOOKS_REPORT_MAX; i++)
		report_looks(v[i], out);
	free(v);
}

/* What on_event reads besides the opens: its own switch's calls. */
static const long reads_calls[] = {
#ifdef SYS_preadv2
	SYS_preadv2,
#endif
#ifdef SYS_fstat
	SYS_fstat,
#endif
#ifdef SYS_stat
	SYS_stat,
#endif
#ifdef SYS_newfstatat
	SYS_newfstatat,
#endif
	SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_write, SYS_writev, SYS_pwrite64,
	SYS_pwritev, SYS_sendto, SYS_sendmsg, SYS_statx, -1,
};

const struct rc_rule_ops rc_rule_repeated_open_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = {
		.events = RC_READS_EXITS | RC_READS_SUMS,
		/* The opens, the reads and writes, the stats: by class and by
		 * on_event's own list. */
		.classes = CL_OPEN | CL_READ | CL_WRITE | CL_LOOK,
		.calls = reads_calls,
	},
	.finish = finish,
	.release = release,
};
