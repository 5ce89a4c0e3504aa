/* events -> strace text (see printer.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strace/printer.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

/* strace's default column for " = " (its -a 40). */
#define RV_COLUMN 39

/* One output: the stream, or one -ff file. */
struct stream {
	FILE *f;
	pid_t open_tid;		/* the thread whose line is not finished; 0 none */
	const char *open_name;	/* its call, for " <unfinished ...>" bookkeeping */
	size_t col;		/* column of the open line */
};

struct printer {
	struct printer_opts o;
	struct stream main;
	struct hmap files;	/* -ff: tid -> struct stream * */
	int nprocs;
	int err;		/* first write error */
};

struct printer *printer_new(const struct printer_opts *o)
{
	struct printer *p = xcalloc(1, sizeof(*p));

	p->o = *o;
	p->main.f = o->out;
	hmap_init(&p->files);
	p->nprocs = 1;
	return p;
}

void printer_set_nprocs(struct printer *p, int n)
{
	p->nprocs = n;
}

static struct stream *stream_of(struct printer *p, pid_t tid)
{
	if (!p->o.ff_base)
		return &p->main;
	bool created;
	void **slot = hmap_put_int(&p->files, tid, &created);
	if (created) {
		struct stream *s = xcalloc(1, sizeof(*s));
		struct strbuf name = STRBUF_INIT;
		strbuf_addf(&name, "%s.%d", p->o.ff_base, (int)tid);
		s->f = fopen(name.buf, "we");
		if (!s->f && !p->err)
			p->err = errno;
		strbuf_release(&name);
		*slot = s;
	}
	return *slot;
}

static void put(struct printer *p, struct stream *s, const char *text, size_t len)
{
	/* Unlocked: a printer is one thread's, and a line is several
	 * pieces, each of which would take the stream's lock. */
	if (s->f && fwrite_unlocked(text, 1, len, s->f) != len && !p->err)
		p->err = errno ? errno : EIO;
	const char *nl = memrchr(text, '\n', len);
	s->col = nl ? (size_t)(text + len - nl - 1) : s->col + len;
}

static void puts_(struct printer *p, struct stream *s, const char *text)
{
	put(p, s, text, strlen(text));
}

static void prefix(struct printer *p, struct stream *s, pid_t tid, double ts)
{
	char buf[96];
	int n = 0;

	if (!p->o.ff_base && p->o.follow && p->o.to_file)
		n = snprintf(buf, sizeof(buf), "%-5d ", (int)tid);
	else if (!p->o.ff_base && !p->o.to_file && p->nprocs > 1)
		n = snprintf(buf, sizeof(buf), "[pid %5d] ", (int)tid);
	if (p->o.ts != PR_TS_NONE) {
		time_t sec = (time_t)ts;
		long usec = (long)((ts - (double)sec) * 1e6 + 0.5);
		if (usec >= 1000000) {
			sec++;
			usec -= 1000000;
		}
		if (p->o.ts == PR_TS_EPOCH) {
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%lld.%06ld ", (long long)sec, usec);
		} else {
			struct tm tm;
			localtime_r(&sec, &tm);
			n += (int)strftime(buf + n, sizeof(buf) - (size_t)n, "%H:%M:%S", &tm);
			if (p->o.ts == PR_TS_USEC)
				n += snprintf(buf + n, sizeof(buf) - (size_t)n, ".%06ld", usec);
			buf[n++] = ' ';
			buf[n] = '\0';
		}
	}
	put(p, s, buf, (size_t)n);
}

/* End S's open line, if another thread's output must start. */
static void interrupt_open(struct printer *p, struct stream *s, const char *how)
{
	if (!s->open_tid)
		return;
	puts_(p, s, how);
	puts_(p, s, "\n");
	s->open_tid = 0;
}

void printer_entry(struct printer *p, pid_t tid, double ts, const char *text, size_t len)
{
	struct stream *s = stream_of(p, tid);

	interrupt_open(p, s, " <unfinished ...>");
	prefix(p, s, tid, ts);
	put(p, s, text, len);
	s->open_tid = tid;
}

void printer_exit(struct printer *p, pid_t tid, double ts, const char *name, const char *rest,
		  size_t len, const char *rv, double dur)
{
	struct stream *s = stream_of(p, tid);

	if (s->open_tid != tid) {
		interrupt_open(p, s, " <unfinished ...>");
		prefix(p, s, tid, ts);
		puts_(p, s, "<... ");
		puts_(p, s, name);
		puts_(p, s, " resumed>");
	}
	put(p, s, rest, len);
	s->open_tid = 0;
	if (s->col < RV_COLUMN) {
		static const char spaces[] = "                                        ";
		put(p, s, spaces, RV_COLUMN - s->col);
	}
	puts_(p, s, " = ");
	puts_(p, s, rv);
	if (p->o.durations && dur >= 0) {
		char buf[48];
		snprintf(buf, sizeof(buf), " <%.6f>", dur);
		puts_(p, s, buf);
	}
	puts_(p, s, "\n");
}

void printer_line(struct printer *p, pid_t tid, double ts, const char *text)
{
	struct stream *s = stream_of(p, tid);

	interrupt_open(p, s, " <unfinished ...>");
	prefix(p, s, tid, ts);
	puts_(p, s, text);
	puts_(p, s, "\n");
}

void printer_forget(struct printer *p, pid_t tid)
{
	if (!p->o.ff_base)
		return;
	struct stream *s = hmap_del_int(&p->files, tid);
	if (!s)
		return;
	if (s->f && fclose(s->f) != 0 && !p->err)
		p->err = errno;
	free(s);
}

void printer_close_open(struct printer *p, bool detached)
{
	const char *how = detached ? " <detached ...>" : " <unfinished ...>";
	struct hmap_iter it;

	interrupt_open(p, &p->main, how);
	for (struct hmap_node *n = hmap_first(&p->files, &it); n; n = hmap_next(&p->files, &it))
		interrupt_open(p, n->value, how);
}

static void free_stream(void *v)
{
	struct stream *s = v;

	if (s->f)
		fclose(s->f);
	free(s);
}

int printer_free(struct printer *p)
{
	if (!p)
		return 0;
	int err = p->err;
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&p->files, &it); n; n = hmap_next(&p->files, &it)) {
		struct stream *s = n->value;
		if (s->f && fflush(s->f) != 0 && !err)
			err = errno;
	}
	hmap_release(&p->files, free_stream);
	if (p->main.f && fflush(p->main.f) != 0 && !err)
		err = errno;
	free(p);
	return err ? -err : 0;
}
