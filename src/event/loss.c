/* What a capture lost, in words (see loss.h). */
#include "event/loss.h"

#include <stdbool.h>

#include "event/syscalls.h"

static void add_what(struct strbuf *sb, long what)
{
	const char *name;

	switch (what) {
	case RC_LOSS_SIGNAL: strbuf_adds(sb, "a signal"); return;
	case RC_LOSS_FORK: strbuf_adds(sb, "a new thread or process"); return;
	case RC_LOSS_EXIT: strbuf_adds(sb, "its end"); return;
	case RC_LOSS_STACK: strbuf_adds(sb, "call stacks"); return;
	case RC_LOSS_SUM: strbuf_adds(sb, "summed reads or writes"); return;
	default: break;
	}
	name = what >= 0 ? syscall_name(what) : NULL;
	if (name)
		strbuf_adds(sb, name);
	else if (what >= 0)
		strbuf_addf(sb, "syscall %ld", what);
	else
		strbuf_adds(sb, "other records");
}

void loss_describe(struct strbuf *sb, const struct rc_loss *v, size_t n)
{
	bool done[RC_LOSSES_KEPT] = { false };

	n = n < RC_LOSSES_KEPT ? n : RC_LOSSES_KEPT;
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		strbuf_addf(sb, "%sthread %d: ", i ? "; " : "", v[i].tid);
		for (size_t j = i, k = 0; j < n; j++) {
			if (done[j] || v[j].tid != v[i].tid)
				continue;
			done[j] = true;
			if (k++)
				strbuf_adds(sb, ", ");
			add_what(sb, v[j].what);
			strbuf_addc(sb, ' ');
			strbuf_add_count(sb, v[j].n);
		}
	}
}

void loss_keep(struct rc_loss *v, size_t *nv, int tid, long what, uint64_t n)
{
	size_t at = *nv;

	while (at > 0 && v[at - 1].n < n)
		at--;
	if (at >= RC_LOSSES_KEPT)
		return;
	size_t last = *nv < RC_LOSSES_KEPT ? *nv : RC_LOSSES_KEPT - 1;
	for (size_t i = last; i > at; i--)
		v[i] = v[i - 1];
	v[at] = (struct rc_loss){ tid, what, n };
	if (*nv < RC_LOSSES_KEPT)
		(*nv)++;
}
