/* The eBPF capture's records as events (see bpf.h): the same facts as
 * the other sources, through event/facts.c and the table's roles. */
#include <errno.h>
#include <linux/futex.h>
#include <linux/types.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"
#include "capture/decode.h"
#include "event/facts.h"
#include "event/syscalls.h"

/* A thread as our user sees it: its id in our pid namespace, or the
 * kernel's when it is not in it. */
static int event_pid(const struct rcb_header *h)
{
	return (int)(h->ns_tid ? h->ns_tid : h->tid);
}

static int event_tgid(const struct rcb_header *h)
{
	return (int)(h->ns_tgid ? h->ns_tgid : h->tgid);
}

/* The kernel half keeps a write's head and tail as event.h's preview does. */
_Static_assert(RCB_DATA_END == RC_EVENT_DATA_HEAD && 2 * RCB_DATA_END == RC_EVENT_DATA_MAX,
	       "record.h's data ends are event.h's preview");

/* What a record's items say of its memory, per argument. */
struct items {
	const char *str[6];	/* strings, NUL-terminated copies */
	const unsigned char *bytes[6];	/* socket addresses, timeouts */
	size_t nbytes[6];
	const unsigned char *head, *tail;	/* the data, and the argument it is */
	size_t nhead, ntail;
	uint64_t total;
	int data_arg;
	const char *argv;	/* a new program's arguments, NUL-separated */
	size_t nargv;
	bool argv_cut;
};

/* The most an item of KIND holds, as the kernel half caps it: a record
 * that says more is not one of ours. */
static uint32_t item_max(uint8_t kind)
{
	switch (kind) {
	case RCB_I_STR:
		return RCB_STR_MAX;
	case RCB_I_BYTES:
		return RCB_ADDR_MAX;
	case RCB_I_HEAD:
	case RCB_I_TAIL:
		return RCB_DATA_END;
	case RCB_I_ARGV:
		return RCB_ARGV_MAX;
	default:
		return 0;
	}
}

/* The items after the call's fixed part, checked against SIZE. */
static int read_items(const unsigned char *rec, size_t size, uint32_t nitems, struct items *it, struct arena *a)
{
	size_t off = sizeof(struct rcb_call);

	memset(it, 0, sizeof(*it));
	it->data_arg = -1;
	for (uint32_t k = 0; k < nitems; k++) {
		struct rcb_item h;
		if (off > size || size - off < sizeof(h))
			return -1;
		memcpy(&h, rec + off, sizeof(h));
		off += sizeof(h);
		if (h.len > size - off || h.arg >= 6 || h.len > item_max(h.kind))
			return -1;
		const unsigned char *p = rec + off;
		off += (h.len + 7) & ~7u;
		if (h.fault)
			continue;
		switch (h.kind) {
		case RCB_I_STR:
			/* The kernel's copy ends at its NUL, or at the cap. */
			it->str[h.arg] = arena_strndup(a, (const char *)p, strnlen((const char *)p, h.len));
			break;
		case RCB_I_BYTES:
			it->bytes[h.arg] = p;
			it->nbytes[h.arg] = h.len;
			break;
		case RCB_I_HEAD:
			it->head = p;
			it->nhead = h.len;
			it->total = h.total;
			it->data_arg = h.arg;
			break;
		case RCB_I_TAIL:
			if (it->data_arg != h.arg)
				return -1;
			it->tail = p;
			it->ntail = h.len;
			break;
		case RCB_I_ARGV:
			it->argv = (const char *)p;
			it->nargv = h.len;
			it->argv_cut = h.total > h.len;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/* The data preview: the head and tail the kernel kept, as one block. */
static void data_facts(struct rc_event *e, const struct items *it, struct arena *a)
{
	size_t n = it->nhead + it->ntail;
	unsigned char *d = arena_alloc(a, n + 1);

	memcpy(d, it->head, it->nhead);
	if (it->ntail)
		memcpy(d + it->nhead, it->tail, it->ntail);
	d[n] = 0;
	event_data_facts(e, d, it->nhead, it->ntail, it->total);
}

/* A socket address the kernel kept: its facts as every source has them. */
static void sockaddr_facts(struct rc_event *e, const unsigned char *b, size_t n, struct arena *a)
{
	unsigned char buf[sizeof(struct sockaddr_storage)];
	char host[RC_SOCKADDR_HOST_MAX];

	memset(buf, 0, sizeof(buf));
	memcpy(buf, b, n < sizeof(buf) ? n : sizeof(buf));
	ssize_t hn = event_sockaddr_facts(&e->sa, buf, n < sizeof(buf) ? n : sizeof(buf), host);
	if (hn >= 0)
		e->sa.host = arena_strndup(a, host, (size_t)hn);
}

/* A timeout the kernel kept at entry: a timespec, or select's timeval. */
static void timeout_facts(struct rc_event *e, const struct rcb_call *r, enum rc_sc_role role,
			  const unsigned char *b, size_t n)
{
	int64_t t[2];

	if (n < sizeof(t))
		return;
	memcpy(t, b, sizeof(t));
	double sec = (double)t[0] + (double)t[1] * (role == ROLE_TIMEOUT_TV ? 1e-6 : 1e-9);
	if (role == ROLE_FUTEX_TIMEOUT) {
		int op = (int)r->args[1];
		event_futex_timeout_facts(e, op & FUTEX_CMD_MASK, sec, (op & FUTEX_CLOCK_REALTIME) != 0);
	} else {
		event_timeout_facts(e, sec);
	}
}

/* The new program's argv (execve's ROLE_ARGV), as far as it was kept. */
static void argv_facts(struct rc_event *e, const struct items *it, struct arena *a)
{
	size_t at = 0;

	while (at < it->nargv) {
		size_t n = strnlen(it->argv + at, it->nargv - at);
		if (at + n == it->nargv && it->argv_cut) {
			/* The last one, cut by the cap. */
			e->argv_truncated = true;
			break;
		}
		if (e->argc == RC_EVENT_MAX_ARGV) {
			e->argv_truncated = true;
			break;
		}
		e->argv[e->argc++] = arena_strndup(a, it->argv + at, n);
		at += n + 1;
	}
	if (it->argv_cut)
		e->argv_truncated = true;
}

/* The evidence line: the call with its arguments as numbers, its paths
 * and the start of its data as strings, and what it returned. */
static void call_line(struct rc_event *e, const struct rcb_call *r, const struct rc_syscall *sc,
		      const struct items *it, struct arena *a)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned nargs = sc ? sc->nargs : 6;

	strbuf_addf(&sb, "%s(", e->name ? e->name : "syscall");
	for (unsigned i = 0; i < nargs && i < 6; i++) {
		if (i)
			strbuf_adds(&sb, ", ");
		if (it->str[i]) {
			strbuf_addc(&sb, '"');
			strbuf_add_escaped(&sb, it->str[i], strlen(it->str[i]));
			strbuf_addc(&sb, '"');
		} else if (sc && i < sc->nroles && sc->roles[i] == ROLE_ARGV && e->argc) {
			strbuf_addc(&sb, '[');
			for (int k = 0; k < e->argc; k++) {
				strbuf_adds(&sb, k ? ", \"" : "\"");
				strbuf_add_escaped(&sb, e->argv[k], strlen(e->argv[k]));
				strbuf_addc(&sb, '"');
			}
			strbuf_adds(&sb, e->argv_truncated ? ", ...]" : "]");
		} else if ((int)i == it->data_arg && e->data) {
			size_t n = e->data_len < 64 ? e->data_len : 64;
			strbuf_addc(&sb, '"');
			strbuf_add_escaped(&sb, e->data, n);
			strbuf_adds(&sb, n < it->total ? "\"..." : "\"");
		} else if ((__s64)r->args[i] < 0 && (__s64)r->args[i] > -4096) {
			strbuf_addf(&sb, "%lld", (long long)(__s64)r->args[i]);
		} else {
			strbuf_addf(&sb, r->args[i] < 4096 ? "%llu" : "%#llx", (unsigned long long)r->args[i]);
		}
	}
	strbuf_adds(&sb, ") = ");
	if (e->err) {
		dec_error_rv(&sb, e->err);
	} else {
		strbuf_addf(&sb, r->ret < 0 || r->ret < 4096 ? "%lld" : "%#llx", (long long)r->ret);
	}
	e->line = arena_strndup(a, sb.buf, sb.len);
	e->line_len = sb.len;
	strbuf_release(&sb);
}

static int call_event(const unsigned char *rec, size_t size, const struct rcb_call *r, double epoch,
		      struct rc_event *e, struct arena *a)
{
	const struct rc_syscall *sc = syscall_by_nr(r->nr);
	uint64_t args[RC_SC_MAX_ARGS] = { 0 };
	struct items it;

	if (read_items(rec, size, r->nitems, &it, a) < 0)
		return -1;
	event_clear(e);
	e->kind = RC_EV_SYSCALL;
	e->pid = event_pid(&r->h);
	e->nr = r->nr;
	e->name = syscall_name(r->nr);
	e->ts = epoch + (double)r->enter_ns / 1e9;
	e->dur = r->exit_ns >= r->enter_ns ? (double)(r->exit_ns - r->enter_ns) / 1e9 : 0;
	e->ret_known = true;
	if (r->ret < 0 && r->ret >= -4095) {
		e->ret = -1;
		e->err = (int)-r->ret;
		e->interrupted = e->err >= 512 && e->err <= 516;
	} else {
		e->ret = r->ret;
	}
	if (sc) {
		for (unsigned i = 0; i < RC_SC_MAX_ARGS && i < 6; i++)
			args[i] = r->args[i];
		event_raw_arg_facts(e, sc, args);
		event_raw_exit_facts(e, sc, args, e->ret, e->err);
		for (unsigned i = 0; i < sc->nroles && i < 6; i++) {
			if (!it.str[i])
				continue;
			if (sc->roles[i] == ROLE_PATH)
				e->path = it.str[i];
			else if (sc->roles[i] == ROLE_PATH2)
				e->path2 = it.str[i];
		}
		for (unsigned i = 0; i < sc->nroles && i < 6; i++) {
			if (!it.bytes[i])
				continue;
			switch (sc->roles[i]) {
			case ROLE_SOCKADDR:
			case ROLE_SOCKADDR_OUT:
				sockaddr_facts(e, it.bytes[i], it.nbytes[i], a);
				break;
			case ROLE_TIMEOUT_TS:
			case ROLE_TIMEOUT_TV:
			case ROLE_FUTEX_TIMEOUT:
				timeout_facts(e, r, sc->roles[i], it.bytes[i], it.nbytes[i]);
				break;
			default:
				break;
			}
		}
		if (it.head)
			data_facts(e, &it, a);
		if (it.argv)
			argv_facts(e, &it, a);
		event_call_facts(e, sc, true, e->ret, e->err);
	}
	call_line(e, r, sc, &it, a);
	return 1;
}

static int exit_event(const struct rcb_exit *r, double epoch, struct rc_event *e, struct arena *a)
{
	struct strbuf sb = STRBUF_INIT;

	if (!r->group_dead)
		return 0;
	event_clear(e);
	e->kind = RC_EV_EXIT;
	e->pid = event_tgid(&r->h);
	e->ts = epoch + (double)r->ns / 1e9;
	/* task->exit_code is the status its parent's wait gets. */
	e->exited = WIFEXITED(r->exit_code);
	event_wait_status_facts(e, r->exit_code);
	dec_exit_line(&sb, e);
	e->line = arena_strndup(a, sb.buf, sb.len);
	e->line_len = sb.len;
	strbuf_release(&sb);
	return 1;
}

/* The delivery line as strace prints it, from the tracer's own printer. */
static int signal_event(const struct rcb_signal *r, double epoch, struct rc_event *e, struct arena *a)
{
	siginfo_t si;
	struct strbuf sb = STRBUF_INIT;

	event_clear(e);
	e->kind = RC_EV_SIGNAL;
	e->pid = event_pid(&r->h);
	e->ts = epoch + (double)r->ns / 1e9;
	e->dur = -1;
	event_siginfo_facts(e, r->signo, r->code, r->addr, r->pid);
	memset(&si, 0, sizeof(si));
	si.si_signo = r->signo;
	si.si_code = r->code;
	if (e->has_fault_addr)
		si.si_addr = (void *)(uintptr_t)r->addr;
	else
		si.si_pid = r->pid;
	dec_signal_line(&sb, &si);
	e->line = arena_strndup(a, sb.buf, sb.len);
	e->line_len = sb.len;
	strbuf_release(&sb);
	return 1;
}

int bpf_record_event(const void *rec, size_t size, double epoch, struct rc_event *e, struct arena *a)
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
		return call_event(rec, size, &r, epoch, e, a);
	}
	case RCB_SIGNAL: {
		struct rcb_signal r;
		if (size < sizeof(r))
			return -1;
		memcpy(&r, rec, sizeof(r));
		return signal_event(&r, epoch, e, a);
	}
	case RCB_EXIT: {
		struct rcb_exit r;
		if (size < sizeof(r))
			return -1;
		memcpy(&r, rec, sizeof(r));
		return exit_event(&r, epoch, e, a);
	}
	default:
		return -1;
	}
}
