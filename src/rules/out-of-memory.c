/* out-of-memory: memory the program asked for and did not get, or a
 * SIGKILL that followed large allocations (most likely the OOM killer).
 *
 *  - mmap/mremap failing with ENOMEM (malloc's large blocks and arenas,
 *    Python's and PyTorch's allocators), mprotect/munmap with ENOMEM (the
 *    map count limit), fork/clone with ENOMEM;
 *  - brk failing, which shows as brk(REQUESTED) returning the old, lower
 *    break; glibc's malloc then falls back to mmap, so a brk failure
 *    counts only when nothing was mapped after it;
 *  - a process killed by SIGKILL right after gaining a lot of anonymous
 *    memory (rules/oom-hint.h decides, the same way crashed does, so the
 *    kill is reported by exactly one of the two).
 * One finding per process.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "rules/common.h"
#include "rules/oom-hint.h"
#include "rules/proc-label.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "out-of-memory"
#define MAX_PROCS 4096
#define MAX_REPORTS 64

struct mem_proc {
	int pid;		/* the process (leader) */
	int tid;
	struct oom_hint hint;
	uint64_t nfail;		/* ENOMEM from mmap/mremap/mprotect/munmap/clone */
	uint64_t nbrk;		/* brk refused */
	uint64_t largest;	/* the largest request refused, bytes */
	uint64_t brk_want;	/* the largest brk growth refused */
	char *syscall;		/* of the largest refusal */
	bool map_count;		/* mprotect/munmap ENOMEM: too many mappings */
	bool fork_failed;
	char *first_line, *last_line;
	uint64_t first_seq, last_seq;
	double first_ts, last_ts;
	bool recovered;		/* a later mapping as large succeeded */
	bool brk_recovered;	/* something was mapped after the brk failure */
	/* Killed by SIGKILL right after large allocations. */
	bool killed;
	uint64_t killed_recent;	/* bytes gained in the window before */
	char *kill_line;
	uint64_t kill_seq;
	double kill_ts;
};

struct state {
	struct hmap procs;	/* leader pid -> struct mem_proc* */
	struct mem_proc *reports[MAX_REPORTS];	/* ended processes to report */
	size_t nreports;
	uint64_t dropped;
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->procs);
}

static void mp_free(void *p)
{
	struct mem_proc *m = p;

	if (!m)
		return;
	free(m->syscall);
	free(m->first_line);
	free(m->last_line);
	free(m->kill_line);
	free(m);
}

static void release(void *p)
{
	struct state *s = p;

	hmap_release(&s->procs, mp_free);
	for (size_t i = 0; i < s->nreports; i++)
		mp_free(s->reports[i]);
}

static bool reportable(const struct mem_proc *m)
{
	return m->nfail || m->killed || (m->nbrk && !m->brk_recovered);
}

static struct mem_proc *mp_get(struct state *s, int pid)
{
	bool created;
	struct mem_proc *m = rule_int_value(&s->procs, pid, true, sizeof(*m), MAX_PROCS, &created);

	if (created)
		m->pid = pid;
	return m;
}

static void refused(struct mem_proc *m, const struct rc_event *e, uint64_t want, bool brk)
{
	char *line = rule_line(e);

	if (!m->first_line) {
		m->first_line = line;
		m->first_seq = e->seq;
		m->first_ts = e->ts;
	} else {
		free(m->last_line);
		m->last_line = line;
	}
	m->last_seq = e->seq;
	m->last_ts = e->ts;
	m->tid = e->pid;
	if (brk) {
		m->nbrk++;
		m->brk_want = MAX(m->brk_want, want);
		m->brk_recovered = false;
		if (!m->syscall)
			m->syscall = xstrdup("brk");
		return;
	}
	m->nfail++;
	m->recovered = false;
	if (want >= m->largest || !m->syscall || strcmp(m->syscall, "brk") == 0) {
		m->largest = MAX(m->largest, want);
		finding_set(&m->syscall, e->name);
	}
}

static void on_syscall(struct mem_proc *m, const struct rc_event *e)
{
	long nr = e->nr;
	bool map = false;

#ifdef SYS_mmap
	map = nr == SYS_mmap;
#endif
	if (event_failed(e)) {
		if (e->err != ENOMEM)
			return;
		if (map || nr == SYS_mremap) {
			refused(m, e, e->len, false);
		} else if (nr == SYS_mprotect || nr == SYS_munmap) {
			m->map_count = true;
			refused(m, e, 0, false);
		} else if (rule_is_fork(nr)) {
			m->fork_failed = true;
			refused(m, e, 0, false);
		}
		return;
	}
	if (nr == SYS_brk && e->ret_known && e->addr && (uint64_t)e->ret < e->addr) {
		uint64_t want = m->hint.brk && e->addr > m->hint.brk ? e->addr - m->hint.brk : 0;
		refused(m, e, want, true);
		return;
	}
	if (map && e->ret_known && (e->fd < 0 || (e->flags & MAP_ANONYMOUS))) {
		if (m->nbrk && e->len >= m->brk_want)
			m->brk_recovered = true;
		if (m->nfail && e->len >= m->largest && m->largest)
			m->recovered = true;
	}
}

/* Move M out of the live table into the reports (or drop it). */
static void retire(struct state *s, struct mem_proc *m)
{
	hmap_del_int(&s->procs, m->pid);
	if (!reportable(m)) {
		mp_free(m);
		return;
	}
	if (s->nreports >= MAX_REPORTS) {
		s->dropped++;
		mp_free(m);
		return;
	}
	s->reports[s->nreports++] = m;
}

/* The calls that allocate memory, or fail for lack of it. */
static bool memory_call(long nr)
{
	switch (nr) {
#ifdef SYS_mmap
	case SYS_mmap:
#endif
	case SYS_mremap:
	case SYS_brk:
	case SYS_mprotect:
	case SYS_munmap:
		return true;
	default:
		return rule_is_fork(nr);
	}
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind == RC_EV_SIGNAL)
		return;
	if (e->kind == RC_EV_SYSCALL && !memory_call(e->nr))
		return;
	const struct rc_proc *leader = procs_leader(ctx->procs, e->pid);
	int lpid = leader ? leader->pid : e->pid;

	if (e->kind == RC_EV_EXIT) {
		void **slot = hmap_get_int(&s->procs, lpid);
		if (!slot || lpid != e->pid)
			return;
		struct mem_proc *m = *slot;
		if (!e->exited && e->signo == SIGKILL && oom_hint_likely(&m->hint, e, leader)) {
			m->killed = true;
			m->killed_recent = oom_hint_recent(&m->hint, e, leader);
			m->kill_line = rule_line(e);
			m->kill_seq = e->seq;
			m->kill_ts = e->ts;
			m->tid = e->pid;
		}
		retire(s, m);
		return;
	}
	struct mem_proc *m = mp_get(s, lpid);
	if (!m)
		return;
	on_syscall(m, e);
	oom_hint_add(&m->hint, e, leader);
}

static void human_bytes(struct strbuf *sb, uint64_t n)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)n;
	int u = -1;

	while (v >= 1024 && u < (int)ARRAY_SIZE(unit) - 1) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(sb, "%llu bytes", (unsigned long long)n);
	else
		strbuf_addf(sb, "%.1f %s", v, unit[u]);
}

static void emit(const struct mem_proc *m, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct rc_proc *p = procs_get(ctx->procs, m->pid);
	struct strbuf sb = STRBUF_INIT;
	struct strbuf who = STRBUF_INIT;
	uint64_t nref = m->nfail + m->nbrk;
	bool recovered = m->nfail ? m->recovered : m->brk_recovered;

	proc_name(&who, p, m->pid);
	if (nref && !(m->nbrk && !m->nfail && m->brk_recovered)) {
		if (m->fork_failed && !m->largest)
			strbuf_addf(&sb, "%s could not fork: ENOMEM", strbuf_str(&who));
		else if (m->map_count && !m->largest)
			strbuf_addf(&sb, "%s ran out of memory mappings: %s returned ENOMEM",
				    strbuf_str(&who), m->syscall ? m->syscall : "mprotect");
		else {
			strbuf_addf(&sb, "memory allocation failed in %s: %s", strbuf_str(&who),
				    m->syscall ? m->syscall : "mmap");
			uint64_t want = m->nfail ? m->largest : m->brk_want;
			if (want) {
				strbuf_adds(&sb, " of ");
				human_bytes(&sb, want);
			}
			strbuf_adds(&sb, m->nfail ? " returned ENOMEM" : " was refused");
		}
		if (nref > 1)
			strbuf_addf(&sb, " (%llu allocations refused)", (unsigned long long)nref);
		if (m->killed)
			strbuf_adds(&sb, ", then it was killed by SIGKILL");
		else if (recovered)
			strbuf_adds(&sb, ", later allocations succeeded");
	} else {
		strbuf_addf(&sb, "%s was killed by SIGKILL after gaining ", strbuf_str(&who));
		human_bytes(&sb, m->killed_recent);
		strbuf_addf(&sb, " of memory %s: most likely the OOM killer",
			    ctx->has_time ? "in the seconds before" : "just before");
	}

	bool soft = recovered && !m->killed;
	struct rc_finding *f = rule_finding(out, RULE_ID, soft ? RC_SEV_WARNING : RC_SEV_ERROR,
					    soft ? RC_SEV_INFO : RC_SEV_WARNING, &sb);
	rule_finding_pid(f, m->pid, m->tid);
	if (nref) {
		finding_set(&f->syscall, m->syscall);
		if (m->nfail)
			f->err = ENOMEM;
		f->count = (long long)nref;
		if (m->largest || m->brk_want)
			f->bytes = (long long)(m->nfail ? m->largest : m->brk_want);
	}
	if (m->killed) {
		f->signo = SIGKILL;
		finding_set(&f->message, "killed by SIGKILL (possibly the OOM killer: check `dmesg` or the "
			    "kernel journal)");
	}
	rule_evidence(f, m->first_line);
	rule_evidence(f, m->last_line);
	rule_evidence(f, m->kill_line);

	struct strbuf adv = STRBUF_INIT;
	if (m->killed)
		strbuf_adds(&adv, "confirm with `dmesg | grep -i 'killed process'` or `journalctl -k`; ");
	if (m->map_count && !m->largest)
		strbuf_adds(&adv, "the process has too many memory mappings: raise vm.max_map_count "
			    "(sysctl) or map fewer, larger regions");
	else if (m->fork_failed && !m->largest)
		strbuf_adds(&adv, "the kernel would not commit memory for a copy of the process: free memory, "
			    "check vm.overcommit_memory, or spawn helpers before the process grows");
	else if (m->largest >= (64ULL << 30))
		strbuf_adds(&adv, "the request is enormous: most likely a size computed wrong (a corrupt "
			    "header or length field); otherwise give the process more memory");
	else
		strbuf_adds(&adv, "the process needs more memory than it may have: check the limits "
			    "(`ulimit -v`, the container's or cgroup's memory.max) and free memory (`free -h`); "
			    "load less at once (smaller batches, a smaller model, memory-mapped weights)");
	f->advice = strbuf_detach(&adv);
	f->seq = m->killed ? m->kill_seq : m->last_seq;
	f->ts = m->killed ? m->kill_ts : m->last_ts;
	f->unrecovered = !recovered || m->killed;
	finding_echo_word(f, "memory");
	if (m->killed)
		finding_echo_word(f, "killed");
	else
		finding_echo_word(f, "bad_alloc");
	strbuf_release(&who);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;
	struct hmap_iter it;

	for (size_t i = 0; i < s->nreports; i++)
		emit(s->reports[i], ctx, out);
	for (struct hmap_node *n = hmap_first(&s->procs, &it); n; n = hmap_next(&s->procs, &it))
		if (reportable(n->value))
			emit(n->value, ctx, out);
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more processes ran out of memory",
			     "free memory or raise the limits; the findings above show how");
}

const struct rc_rule_ops rc_rule_out_of_memory_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.finish = finish,
	.release = release,
};
