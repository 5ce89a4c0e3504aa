/* The eBPF capture's records as events (see bpf.h): the same facts as
 * the other sources, through event/facts.c and the table's roles. */
#include <errno.h>
#include <linux/types.h>
#include <string.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"
#include "event/facts.h"
#include "event/syscalls.h"
#include "gen/tables.h"
#include "util/xlat.h"

/* A string the kernel read: NUL-terminated within its slot, or cut. */
static const char *record_str(const char *s, struct arena *a)
{
	size_t n = strnlen(s, RCB_STR_MAX);

	return arena_strndup(a, s, n);
}

/* The evidence line: the call with its arguments as numbers and its
 * path arguments as strings, and what it returned. */
static void call_line(struct rc_event *e, const struct rcb_call *r, const struct rc_syscall *sc,
		      const char *strs[6], struct arena *a)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned nargs = sc ? sc->nargs : 6;

	strbuf_addf(&sb, "%s(", e->name ? e->name : "syscall");
	for (unsigned i = 0; i < nargs && i < 6; i++) {
		if (i)
			strbuf_adds(&sb, ", ");
		if (strs[i]) {
			strbuf_addc(&sb, '"');
			strbuf_add_escaped(&sb, strs[i], strlen(strs[i]));
			strbuf_addc(&sb, '"');
		} else if ((__s64)r->args[i] < 0 && (__s64)r->args[i] > -4096) {
			strbuf_addf(&sb, "%lld", (long long)(__s64)r->args[i]);
		} else {
			strbuf_addf(&sb, r->args[i] < 4096 ? "%llu" : "%#llx", (unsigned long long)r->args[i]);
		}
	}
	strbuf_adds(&sb, ") = ");
	if (e->err) {
		const char *name = xlat_name(&rc_xlat_errno, e->err);
		if (name)
			strbuf_addf(&sb, "-1 %s (%s)", name, strerror(e->err));
		else
			strbuf_addf(&sb, "-1 (errno %d)", e->err);
	} else {
		strbuf_addf(&sb, r->ret < 0 || r->ret < 4096 ? "%lld" : "%#llx", (long long)r->ret);
	}
	e->line = arena_strndup(a, sb.buf, sb.len);
	e->line_len = sb.len;
	strbuf_release(&sb);
}

static int call_event(const struct rcb_call *r, struct rc_event *e, struct arena *a)
{
	const struct rc_syscall *sc = syscall_by_nr(r->nr);
	const char *strs[6] = { NULL };
	uint64_t args[RC_SC_MAX_ARGS] = { 0 };

	event_clear(e);
	e->kind = RC_EV_SYSCALL;
	e->pid = (int)r->h.tid;
	e->nr = r->nr;
	e->name = syscall_name(r->nr);
	e->ts = (double)r->enter_ns / 1e9;
	e->dur = r->exit_ns >= r->enter_ns ? (double)(r->exit_ns - r->enter_ns) / 1e9 : 0;
	e->ret_known = true;
	if (r->ret < 0 && r->ret >= -4095) {
		e->ret = -1;
		e->err = (int)-r->ret;
		e->interrupted = e->err >= 512 && e->err <= 516;
	} else {
		e->ret = r->ret;
	}
	for (int k = 0; k < RCB_STRINGS; k++)
		if (r->str_arg[k] < 6)
			strs[r->str_arg[k]] = record_str(r->str[k], a);
	if (sc) {
		for (unsigned i = 0; i < RC_SC_MAX_ARGS && i < 6; i++)
			args[i] = r->args[i];
		event_raw_arg_facts(e, sc, args);
		event_raw_exit_facts(e, sc, args, e->ret, e->err);
		for (unsigned i = 0; i < sc->nroles && i < 6; i++) {
			if (!strs[i])
				continue;
			if (sc->roles[i] == ROLE_PATH)
				e->path = strs[i];
			else if (sc->roles[i] == ROLE_PATH2)
				e->path2 = strs[i];
		}
		event_call_facts(e, sc, true, e->ret, e->err);
	}
	call_line(e, r, sc, strs, a);
	return 1;
}

static int exit_event(const struct rcb_exit *r, struct rc_event *e, struct arena *a)
{
	if (!r->group_dead)
		return 0;
	event_clear(e);
	e->kind = RC_EV_EXIT;
	e->pid = (int)r->h.tgid;
	e->ts = (double)r->ns / 1e9;
	int sig = r->exit_code & 0x7f;
	struct strbuf sb = STRBUF_INIT;
	if (sig) {
		e->exited = false;
		e->signo = sig;
		e->core_dumped = (r->exit_code & 0x80) != 0;
		const char *name = xlat_name(&rc_xlat_signal, sig);
		strbuf_addf(&sb, "+++ killed by %s%s +++", name ? name : "a signal", e->core_dumped ? " (core dumped)" : "");
	} else {
		e->exited = true;
		e->exit_code = (r->exit_code >> 8) & 0xff;
		strbuf_addf(&sb, "+++ exited with %d +++", e->exit_code);
	}
	e->line = arena_strndup(a, sb.buf, sb.len);
	e->line_len = sb.len;
	strbuf_release(&sb);
	return 1;
}

int bpf_record_event(const void *rec, size_t size, struct rc_event *e, struct arena *a)
{
	struct rcb_header h;

	if (size < sizeof(h))
		return -1;
	memcpy(&h, rec, sizeof(h));
	switch (h.kind) {
	case RCB_CALL: {
		struct rcb_call r;
		if (size < sizeof(r))
			return -1;
		memcpy(&r, rec, sizeof(r));
		return call_event(&r, e, a);
	}
	case RCB_EXIT: {
		struct rcb_exit r;
		if (size < sizeof(r))
			return -1;
		memcpy(&r, rec, sizeof(r));
		return exit_event(&r, e, a);
	}
	default:
		return -1;
	}
}
