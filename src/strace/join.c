/* The store of split calls' first halves (see join.h). */
#include "strace/join.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PENDING_TEXT_MAX (1u << 20)
#define PENDING_TEXT_TIGHT (4u << 10)
#define PENDING_TOTAL_MAX (64u << 20)

void join_init(struct join *j)
{
	memset(j, 0, sizeof(*j));
	imap_init(&j->pending);
}

static void free_pending_value(void *v)
{
	struct pending *pd = v;

	strbuf_release(&pd->text);
	free(pd);
}

void join_release(struct join *p)
{
	free(p->flush);
	free(p->arrival);
	for (size_t i = 0; p->pending.s && i <= p->pending.mask; i++)
		if (p->pending.s[i].used)
			free_pending_value(p->pending.s[i].val);
	imap_release(&p->pending);
	while (p->free_pending) {
		struct pending *pd = p->free_pending;
		p->free_pending = pd->next_free;
		free_pending_value(pd);
	}
	memset(p, 0, sizeof(*p));
}

static bool is_fork_call(const char *b, size_t n)
{
	static const char *const names[] = { "clone(", "clone3(", "fork(", "vfork(" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (n >= strlen(names[i]) && memcmp(b, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

struct pending *join_get(const struct join *p, int pid)
{
	void **slot = imap_get(&p->pending, pid);

	return slot ? *slot : NULL;
}

static void pending_free(struct join *p, struct pending *pd)
{
	/* Recycled entries keep a small buffer; a big one goes back. */
	p->pending_bytes -= pd->text.alloc;
	if (pd->text.alloc > PENDING_TEXT_TIGHT * 4)
		strbuf_release(&pd->text);
	strbuf_reset(&pd->text);
	p->pending_bytes += pd->text.alloc;
	pd->next_free = p->free_pending;
	p->free_pending = pd;
}

void join_drop(struct join *p, struct pending *pd)
{
	imap_del(&p->pending, pd->pid);
	pending_free(p, pd);
}

/* The oldest pending call, for eviction: the arrival queue is scanned
 * from its head, skipping calls resumed since. */
struct pending *join_oldest(struct join *p)
{
	while (p->arrival_head < p->arrival_len) {
		struct arrival *a = &p->arrival[p->arrival_head];
		struct pending *pd = join_get(p, a->pid);
		if (pd && pd->order == a->order)
			return pd;
		p->arrival_head++;
	}
	return NULL;
}

/* Remember the arrival of a pending call; the queue keeps only a bounded
 * number of stale entries. */
static void arrival_push(struct join *p, int pid, uint64_t order)
{
	if (p->arrival_len - p->arrival_head > 2 * p->pending.count + 1024) {
		size_t o = 0;
		for (size_t i = p->arrival_head; i < p->arrival_len; i++) {
			struct pending *pd = join_get(p, p->arrival[i].pid);
			if (pd && pd->order == p->arrival[i].order)
				p->arrival[o++] = p->arrival[i];
		}
		p->arrival_head = 0;
		p->arrival_len = o;
	} else if (p->arrival_head > 0 && p->arrival_len == p->arrival_cap) {
		memmove(p->arrival, p->arrival + p->arrival_head,
			(p->arrival_len - p->arrival_head) * sizeof(*p->arrival));
		p->arrival_len -= p->arrival_head;
		p->arrival_head = 0;
	}
	if (p->arrival_len == p->arrival_cap) {
		p->arrival_cap = p->arrival_cap ? p->arrival_cap * 2 : 256;
		p->arrival = xrealloc(p->arrival, p->arrival_cap * sizeof(*p->arrival));
	}
	p->arrival[p->arrival_len].pid = pid;
	p->arrival[p->arrival_len].order = order;
	p->arrival_len++;
}

struct pending *join_store(struct join *p, int pid, double ts, const char *text, size_t len,
			   size_t body, bool elided)
{
	struct pending *pd = p->free_pending;
	if (pd) {
		p->free_pending = pd->next_free;
	} else {
		pd = xcalloc(1, sizeof(*pd));
		strbuf_init(&pd->text);
	}
	size_t cap = p->pending_bytes > PENDING_TOTAL_MAX ? PENDING_TEXT_TIGHT : PENDING_TEXT_MAX;
	if (len > cap) {
		len = cap;
		elided = true;
	}
	if (body > len)
		body = len;
	p->pending_bytes -= pd->text.alloc;
	strbuf_reset(&pd->text);
	strbuf_add(&pd->text, text, len);
	p->pending_bytes += pd->text.alloc;
	pd->pid = pid;
	pd->ts = ts;
	pd->body = body;
	pd->elided = elided;
	pd->claimed = false;
	pd->order = ++p->pending_order;
	*imap_put(&p->pending, pid) = pd;
	arrival_push(p, pid, pd->order);
	return pd;
}

void join_move(struct join *p, struct pending *pd, int pid)
{
	imap_del(&p->pending, pd->pid);
	pd->pid = pid;
	*imap_put(&p->pending, pid) = pd;
	arrival_push(p, pid, pd->order);
}

bool join_is_fork(const struct pending *pd)
{
	return is_fork_call(pd->text.buf + pd->body, pd->text.len - pd->body);
}

bool join_text_makes_thread(const char *s, size_t n)
{
	return s && memmem(s, n, "CLONE_THREAD", 12) != NULL;
}

bool join_is_thread_fork(const struct pending *pd)
{
	return join_is_fork(pd) && join_text_makes_thread(pd->text.buf + pd->body, pd->text.len - pd->body);
}

struct pending *join_latest_fork(const struct join *p, int pid, bool thread, bool *alone)
{
	struct pending *best = NULL, *best_thread = NULL;
	size_t n = 0;

	for (size_t i = 0; p->pending.count && i <= p->pending.mask; i++) {
		const struct imap_slot *sl = &p->pending.s[i];
		if (!sl->used || sl->key == pid)
			continue;
		struct pending *pd = sl->val;
		if (!join_is_fork(pd) || pd->claimed)
			continue;
		n++;
		if (!best || pd->order > best->order)
			best = pd;
		if (thread && join_is_thread_fork(pd) && (!best_thread || pd->order > best_thread->order))
			best_thread = pd;
	}
	*alone = n == 1;
	return best_thread ? best_thread : best;
}

struct pending *join_flush_next(struct join *p)
{
	if (!p->flush) {
		p->flush = xcalloc(p->pending.count + 1, sizeof(*p->flush));
		for (size_t i = 0; i <= p->pending.mask; i++)
			if (p->pending.s[i].used)
				p->flush[p->flush_n++] = p->pending.s[i].val;
		for (size_t i = 1; i < p->flush_n; i++) {
			struct pending *x = p->flush[i];
			size_t j = i;
			while (j > 0 && p->flush[j - 1]->order > x->order) {
				p->flush[j] = p->flush[j - 1];
				j--;
			}
			p->flush[j] = x;
		}
	}
	if (p->flush_i >= p->flush_n)
		return NULL;
	return p->flush[p->flush_i++];
}
