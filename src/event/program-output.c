/* The process model's output ring (procs.h): the last lines the traced
 * programs wrote to their stdout and stderr, each with the program image
 * that wrote it. */
#include <stdlib.h>
#include <string.h>

#include "event/procs-internal.h"
#include "util/util.h"

/* Kept by the output ring per line: enough for any error message. */
#define OUTPUT_LINE_MAX 1024

static void output_push(struct rc_procs *m, int pid, int fd, uint64_t seq, bool discarded, const char *s,
			size_t n, size_t cut_shown, size_t unshown)
{
	if (n == 0)
		return;
	/* Lines are pushed as they end, by a write of the same process (or
	 * a flush): its image is the one that wrote them. */
	const struct rc_proc *w = procs_leader(m, pid);
	size_t slot = (m->out_head + m->out_count) % RC_OUTPUT_KEEP;
	if (m->out_count == RC_OUTPUT_KEEP) {
		slot = m->out_head;
		m->out_head = (m->out_head + 1) % RC_OUTPUT_KEEP;
	} else {
		m->out_count++;
	}
	free(m->out[slot].text);
	m->out[slot].text = xstrndup(s, MIN(n, OUTPUT_LINE_MAX));
	m->out[slot].pid = pid;
	m->out[slot].fd = fd;
	m->out[slot].seq = seq;
	m->out[slot].discarded = discarded;
	m->out[slot].cut = cut_shown > 0;
	m->out[slot].shown = cut_shown;
	m->out[slot].unshown = unshown;
	m->out[slot].image = w ? w->image : 0;
	free(m->out[slot].exe);
	m->out[slot].exe = w && w->exe ? xstrdup(w->exe) : NULL;
}

/* CUT_SHOWN: the line ends where the source stopped showing a write of
 * which it showed that many bytes (0 for a whole line), and UNSHOWN of
 * its bytes followed (0 when unknown). */
static void output_flush_cut(struct rc_procs *m, int i, size_t cut_shown, size_t unshown)
{
	struct strbuf *sb = &m->partial[i];
	if (sb->len)
		output_push(m, m->partial_pid[i], i + 1, m->partial_seq[i], m->partial_discarded[i], sb->buf,
			    sb->len, cut_shown, unshown);
	strbuf_reset(sb);
}

void output_flush_fd(struct rc_procs *m, int i)
{
	output_flush_cut(m, i, 0, 0);
}

/* The bytes of E's write that its preview did not show. */
static size_t write_unshown(const struct rc_event *e)
{
	size_t shown = e->data_len + (size_t)e->data_omitted;

	return e->ret_known && !e->err && e->ret > 0 && (size_t)e->ret > shown ? (size_t)e->ret - shown : 0;
}

void procs_flush_output(struct rc_procs *m)
{
	output_flush_fd(m, 0);
	output_flush_fd(m, 1);
}

/* N bytes of a write, split into lines. */
static void output_lines(struct rc_procs *m, const struct rc_event *e, int i, bool discarded, const char *s,
			 size_t n)
{
	struct strbuf *sb = &m->partial[i];

	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t take = nl ? (size_t)(nl - s) : n;
		if (sb->len == 0) {
			m->partial_pid[i] = e->pid;
			m->partial_seq[i] = e->seq;
			m->partial_discarded[i] = discarded;
		}
		if (sb->len < OUTPUT_LINE_MAX)
			strbuf_add(sb, s, MIN(take, OUTPUT_LINE_MAX - sb->len));
		if (!nl)
			break;
		output_flush_fd(m, i);
		s = nl + 1;
		n -= take + 1;
	}
}

void output_add(struct rc_procs *m, const struct rc_event *e, int stream, bool discarded)
{
	int i = stream - 1;
	struct strbuf *sb = &m->partial[i];
	const char *s = (const char *)e->data;
	size_t gap = e->data_omitted && e->data_gap <= e->data_len ? e->data_gap : e->data_len;

	if (sb->len && (m->partial_pid[i] != e->pid || m->partial_discarded[i] != discarded))
		output_flush_fd(m, i);
	output_lines(m, e, i, discarded, s, gap);
	if (gap < e->data_len) {
		/* The middle of a long write was left out: the line it breaks
		 * ends "..." and what follows begins a fragment. */
		if (sb->len) {
			strbuf_adds(sb, "...");
			output_flush_fd(m, i);
		}
		m->partial_pid[i] = e->pid;
		m->partial_seq[i] = e->seq;
		m->partial_discarded[i] = discarded;
		strbuf_adds(sb, "...");
		output_lines(m, e, i, discarded, s + gap, e->data_len - gap);
	}
	/* A preview cut short by strace's -s is a line of its own, marked the
	 * way strace marks it. */
	if (e->data_truncated && sb->len) {
		strbuf_adds(sb, "...");
		output_flush_cut(m, i, e->data_len + (size_t)e->data_omitted, write_unshown(e));
	} else if (e->data_truncated && m->out_count) {
		/* Cut right after a newline: the line before is the last seen. */
		struct rc_output *last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
		if (last->seq == e->seq && last->fd == stream) {
			last->cut = true;
			last->shown = e->data_len + (size_t)e->data_omitted;
			last->unshown = write_unshown(e);
		}
	}
}

void restamp_thread_output(struct rc_procs *m, int tid, const struct rc_proc *leader)
{
	for (size_t i = 0; leader && i < m->out_count; i++) {
		struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->pid != tid)
			continue;
		o->image = leader->image;
		free(o->exe);
		o->exe = leader->exe ? xstrdup(leader->exe) : NULL;
	}
}
