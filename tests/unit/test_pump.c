/* event/pump: events through the second thread are the events the source
 * made, in order, whether the source left its argument facts for the
 * consumer's thread or not; an error ends the pump with the events
 * before it fed. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "event/pump.h"
#include "strace/parser.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define FIX SOURCE_ROOT "/tests/fixtures/strace/"

#define S(x) ((x) ? (x) : "(null)")

/* What a decoration said, every field by content. */
static void digest_shown(struct strbuf *sb, const struct rc_fdfacts *f)
{
	if (!f) {
		strbuf_adds(sb, "(none) ");
		return;
	}
	strbuf_addf(sb, "{%d %s %s %s %d %d %llu %llu %d %d %s %d %d %d %s %d} ", f->kind, S(f->desc), S(f->path),
		    S(f->proto), f->family, f->sock_type, f->inode, f->peer_inode, f->local.family, f->local.port,
		    S(f->local.host), f->local.abstract, f->peer.family, f->peer.port, S(f->peer.host),
		    f->peer.abstract);
}

/* Every field of E as text, the strings by content: two events that
 * print the same are the same event to every rule. */
static void digest(struct strbuf *sb, const struct rc_event *e)
{
	strbuf_addf(sb, "%d %d %llu %.6f %.6f %ld %s %d %lld %d %d %d|", e->kind, e->pid,
		    (unsigned long long)e->seq, e->ts, e->dur, e->nr, S(e->name), e->ret_known, e->ret, e->err,
		    e->interrupted, e->blocked);
	digest_shown(sb, e->dir_shown);
	digest_shown(sb, e->fd_shown);
	strbuf_addf(sb, "%d %d %s %d %s %lld %lld %llu %llu %lld %lld %d %lld|", e->fd, e->fd2, S(e->path),
		    e->dirfd, S(e->path2), e->flags, e->mode,
		    (unsigned long long)e->addr, (unsigned long long)e->len, e->offset, e->st_size, e->futex_op,
		    e->timeout_ms);
	strbuf_addf(sb, "%d %d %s %d %d %d %d|", e->sa.family, e->sa.port, S(e->sa.host), e->sa.abstract,
		    e->sockopt_level, e->sockopt_name, e->sockopt_value);
	strbuf_addf(sb, "%zu %zu %llu %d:", e->data_len, e->data_gap, (unsigned long long)e->data_omitted,
		    e->data_truncated);
	for (size_t i = 0; e->data && i < e->data_len; i++)
		strbuf_addf(sb, "%02x", e->data[i]);
	strbuf_addf(sb, "|%d %d %d %d %d %d %d %llu %d %d %d %d %d|", e->lock, e->lock_waits,
		    e->has_kill_target, e->kill_target, e->signo, e->si_code, e->has_fault_addr,
		    (unsigned long long)e->fault_addr, e->sender_pid, e->exited, e->exit_code, e->core_dumped,
		    e->forked_by);
	strbuf_add(sb, e->line ? e->line : "", e->line ? e->line_len : 0);
	strbuf_adds(sb, "|");
	for (int i = 0; i < e->nfds; i++)
		strbuf_addf(sb, "%d,", e->fds[i]);
	for (int i = 0; i < e->argc; i++)
		strbuf_addf(sb, "%s,", S(e->argv[i]));
	strbuf_addf(sb, "%d|", e->argv_truncated);
	for (int i = 0; i < e->nids; i++)
		strbuf_addf(sb, "%lld,", e->ids[i]);
	strbuf_addf(sb, "%d\n", e->ids_truncated);
}

enum leave_as { AS_ASKED, ALWAYS, NEVER, ALTERNATE };

struct src {
	struct strace_parser *p;
	enum leave_as how;
	uint64_t n;
};

static int src_next(void *arg, void *item, bool leave)
{
	struct src *s = arg;

	switch (s->how) {
	case AS_ASKED:
		break;
	case ALWAYS:
		leave = true;
		break;
	case NEVER:
		leave = false;
		break;
	case ALTERNATE:
		leave = s->n & 1;
		break;
	}
	s->n++;
	return strace_parser_pump(s->p, item, leave);
}

static void sink_feed(void *arg, struct rc_event *e)
{
	digest(arg, e);
}

static struct strace_parser *open_log(const char *data, size_t len)
{
	return strace_parser_from_buffer(data, len);
}

/* DATA's events as the parser gives them, digested. */
static void direct(const char *data, size_t len, struct strbuf *out)
{
	struct strace_parser *p = open_log(data, len);
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	while (strace_parser_next(p, &e, &err) > 0)
		digest(out, &e);
	strace_parser_free(p);
	strbuf_release(&err);
}

static void pumped(const char *data, size_t len, enum leave_as how, struct strbuf *out)
{
	struct src s = { .p = open_log(data, len), .how = how };
	const struct event_pump io = {
		.next = src_next, .src = &s, .item_size = sizeof(struct strace_work),
		.finish = strace_work_finish, .feed = sink_feed, .sink = out,
	};

	assert_int_equal(event_pump(&io), 0);
	strace_parser_free(s.p);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	*len = sb.len;
	return strbuf_detach(&sb);
}

static void check_same(const char *data, size_t len, const char *what)
{
	struct strbuf want = STRBUF_INIT;

	direct(data, len, &want);
	for (int how = AS_ASKED; how <= ALTERNATE; how++) {
		struct strbuf got = STRBUF_INIT;
		pumped(data, len, how, &got);
		if (got.len != want.len || memcmp(got.buf, want.buf, want.len) != 0)
			fail_msg("'%s': the pumped events differ from the parser's (leave mode %d)", what, how);
		strbuf_release(&got);
	}
	strbuf_release(&want);
}

/* Every fixture log, and all of them one after another many times over
 * (hundreds of batches, the queue full and empty in turn). */
static void same_events_as_the_parser(void **state)
{
	(void)state;
	DIR *d = opendir(FIX);
	assert_non_null(d);
	struct strbuf all = STRBUF_INIT;
	struct dirent *de;
	int logs = 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".log") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof(path), FIX "%s", de->d_name);
		size_t len;
		char *data = slurp(path, &len);
		check_same(data, len, de->d_name);
		strbuf_add(&all, data, len);
		free(data);
		logs++;
	}
	closedir(d);
	assert_true(logs >= 10);
	struct strbuf many = STRBUF_INIT;
	for (int i = 0; i < 40; i++)
		strbuf_add(&many, all.buf, all.len);
	check_same(many.buf, many.len, "every fixture, 40 times");
	strbuf_release(&many);
	strbuf_release(&all);
}

/* A source of COUNT events, then END (0 or -1). */
struct counted {
	int count, made, end;
	char text[64];
};

static int counted_next(void *arg, void *item, bool leave)
{
	struct counted *c = arg;
	struct rc_event *e = item;

	(void)leave;
	if (c->made == c->count)
		return c->end;
	event_clear(e);
	e->kind = RC_EV_SYSCALL;
	e->seq = (uint64_t)++c->made;
	/* The same buffer each time: the pump must copy it. */
	snprintf(c->text, sizeof(c->text), "/data/shard-%05d.bin", c->made);
	e->path = c->text;
	e->line = c->text;
	e->line_len = strlen(c->text);
	return 1;
}

struct seen {
	int n;
	bool in_order;
};

static void counted_feed(void *arg, struct rc_event *e)
{
	struct seen *s = arg;
	char want[64];

	s->n++;
	snprintf(want, sizeof(want), "/data/shard-%05d.bin", s->n);
	if (e->seq != (uint64_t)s->n || strcmp(e->path, want) != 0 || e->line_len != strlen(want) ||
	    memcmp(e->line, want, e->line_len) != 0)
		s->in_order = false;
}

static void error_ends_the_pump(void **state)
{
	(void)state;
	static const int counts[] = { 0, 1, 127, 128, 129, 5000 };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (int end = -1; end <= 0; end++) {
			struct counted c = { .count = counts[i], .end = end };
			struct seen s = { .in_order = true };
			const struct event_pump io = {
				.next = counted_next, .src = &c, .feed = counted_feed, .sink = &s,
			};
			assert_int_equal(event_pump(&io), end);
			assert_int_equal(s.n, counts[i]);
			assert_true(s.in_order);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_events_as_the_parser),
		cmocka_unit_test(error_ends_the_pump),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
