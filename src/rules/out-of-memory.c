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
 *
 * A refused mmap that the same thread follows at once with a mapping that
 * succeeds, of the same kind and at least half the size, was a fallback:
 * the program asked for something better than it needed and took what
 * there was. PostgreSQL asks for its shared memory in huge pages
 * (MAP_HUGETLB), gets ENOMEM when none are reserved, and maps the same
 * memory again with normal pages. That is not a lack of memory, so a
 * process whose every refusal was a fallback gets only a note saying so.
 * Whether a refusal was one is known at the thread's next mmap, so each
 * refused mmap waits there (one per process) before it is counted.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/oom-hint.h"
#include "rules/proc-view.h"
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
	/* The last refused mmap, until the thread's next mmap says whether
	 * it was a fallback (open) or a refusal (counted then). */
	bool open;
	int open_tid;
	uint64_t open_len;
	long long open_flags, open_prot;
	char *open_line;
	uint64_t open_seq;
	double open_ts;
	/* Refused mmaps that were fallbacks. */
	uint64_t nfallback;
	uint64_t fallback_asked, fallback_got;	/* the largest one's sizes */
	bool fallback_hugetlb;	/* one asked for huge pages */
	char *fallback_line, *fallback_ok_line;
	uint64_t fallback_seq;
	double fallback_ts;
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
	free(m->open_line);
	free(m->fallback_line);
	free(m->fallback_ok_line);
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
	return m->nfail || m->killed || (m->nbrk && !m->brk_recovered) || m->nfallback;
}

/* Only a fallback to tell: every refusal was followed by what the program
 * made do with. */
static bool only_fallbacks(const struct mem_proc *m)
{
	return m->nfallback && !m->nfail && !m->killed && !(m->nbrk && !m->brk_recovered);
}

static struct mem_proc *mp_get(struct state *s, int pid)
{
	bool created;
	struct mem_proc *m = rule_int_value(&s->procs, pid, true, sizeof(*m), MAX_PROCS, &created);

	if (created)
		m->pid = pid;
	return m;
}

/* Count a refusal: LINE (taken over), at SEQ and TS in thread TID, by
 * the call NAME, for WANT bytes. */
static void refused_at(struct mem_proc *m, char *line, uint64_t seq, double ts, int tid, const char *name,
		       uint64_t want, bool brk)
{
	if (!m->first_line) {
		m->first_line = line;
		m->first_seq = seq;
		m->first_ts = ts;
	} else {
		free(m->last_line);
		m->last_line = line;
	}
	m->last_seq = seq;
	m->last_ts = ts;
	m->tid = tid;
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
		finding_set(&m->syscall, name);
	}
}

static void refused(struct mem_proc *m, const struct rc_event *e, uint64_t want, bool brk)
{
	refused_at(m, rule_line(e), e->seq, e->ts, e->pid, e->name, want, brk);
}

/* The open refusal was not a fallback after all: count it. */
static void close_refusal(struct mem_proc *m)
{
	if (!m->open)
		return;
	m->open = false;
	refused_at(m, m->open_line, m->open_seq, m->open_ts, m->open_tid, "mmap", m->open_len, false);
	m->open_line = NULL;
}

/* Flags that say what a mapping is for, without how it is backed: huge
 * pages (and their size bits) are a way to get the same memory. */
static long long map_kind(long long flags)
{
	return flags & (MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK);
}

/* E, a successful mmap by the thread whose mmap was refused last: the
 * fallback when it maps the same kind of memory, at least half as much. */
static bool is_fallback(const struct mem_proc *m, const struct rc_event *e)
{
	return map_kind(e->flags) == map_kind(m->open_flags) && e->mode == m->open_prot &&
	       e->len >= m->open_len / 2 && (e->fd < 0) == !!(m->open_flags & MAP_ANONYMOUS);
}

static void fell_back(struct mem_proc *m, const struct rc_event *e)
{
	m->open = false;
	m->nfallback++;
	if (m->open_len >= m->fallback_asked) {
		m->fallback_asked = m->open_len;
		m->fallback_got = e->len;
		free(m->fallback_line);
		m->fallback_line = m->open_line;
		m->open_line = NULL;
		free(m->fallback_ok_line);
		m->fallback_ok_line = rule_line(e);
		m->fallback_seq = e->seq;
		m->fallback_ts = e->ts;
		m->tid = m->open_tid;
	}
	if (m->open_flags & MAP_HUGETLB)
		m->fallback_hugetlb = true;
	free(m->open_line);
	m->open_line = NULL;
}

static void on_syscall(struct mem_proc *m, const struct rc_event *e)
{
	long nr = e->nr;
	unsigned long long cl = syscall_classes(nr);
	/* A new mapping at an address it returns: mmap, mmap2. */
	bool map = (cl & CL_RET_ADDR) != 0;

	/* The thread's next mmap after a refused one tells a fallback. */
	if (map && m->open && e->pid == m->open_tid) {
		if (e->ret_known && !event_failed(e) && is_fallback(m, e))
			fell_back(m, e);
		else
			close_refusal(m);
	}
	if (event_failed(e)) {
		if (e->err != ENOMEM)
			return;
		if (map) {
			close_refusal(m);
			m->open = true;
			m->open_tid = e->pid;
			m->open_len = e->len;
			m->open_flags = e->flags;
			m->open_prot = e->mode;
			m->open_line = rule_line(e);
			m->open_seq = e->seq;
			m->open_ts = e->ts;
		} else if (nr == SYS_mremap) {
			refused(m, e, e->len, false);
		} else if ((cl & CL_MAPS) && !(cl & CL_MAP_GROWS)) {
			/* munmap, mprotect, pkey_mprotect: they only split a
			 * mapping, so ENOMEM is the map count limit. */
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
	close_refusal(m);
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

/* The calls that allocate memory, or fail for lack of it: those that
 * change the mappings (munmap and mprotect split one, and fail with
 * ENOMEM past vm.max_map_count), and those that make a process. */
static bool memory_call(long nr)
{
	return syscall_is(nr, CL_MAPS | CL_FORK);
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

/* A process that only fell back: a note on what it asked for and what it
 * made do with. */
static void emit_fallback(const struct mem_proc *m, const struct strbuf *who, struct rc_findings *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s asked for ", strbuf_str(who));
	strbuf_add_bytes(&sb, m->fallback_asked);
	strbuf_adds(&sb, m->fallback_hugetlb ? " of huge pages (mmap MAP_HUGETLB) and got ENOMEM, then mapped "
					     : " with mmap and got ENOMEM, then mapped ");
	strbuf_add_bytes(&sb, m->fallback_got);
	strbuf_adds(&sb, m->fallback_hugetlb ? " of normal pages instead" : " instead");
	if (m->nfallback > 1)
		strbuf_addf(&sb, " (%llu times)", (unsigned long long)m->nfallback);
	strbuf_adds(&sb, ": a fallback, not a lack of memory");
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, &sb);
	rule_finding_pid(f, m->pid, m->tid);
	finding_set(&f->syscall, "mmap");
	f->err = ENOMEM;
	f->count = (long long)m->nfallback;
	f->bytes = (long long)m->fallback_asked;
	rule_evidence(f, m->fallback_line);
	rule_evidence(f, m->fallback_ok_line);
	if (m->fallback_hugetlb)
		finding_set(&f->advice, "no huge page was free for it (the kernel keeps none unless "
			    "vm.nr_hugepages reserves them; see HugePages_Free in /proc/meminfo): reserve "
			    "enough if the program should use huge pages, or turn its huge-page setting off");
	else
		finding_set(&f->advice, "the program retried with a smaller mapping and went on; "
			    "if it runs short later, give it more memory (`ulimit -v`, memory.max)");
	f->seq = m->fallback_seq;
	f->ts = m->fallback_ts;
}

static void emit(const struct mem_proc *m, const struct rc_ctx *ctx, struct rc_findings *out)
{
	const struct rc_proc *p = procs_get(ctx->procs, m->pid);
	struct strbuf sb = STRBUF_INIT;
	struct strbuf who = STRBUF_INIT;
	uint64_t nref = m->nfail + m->nbrk;
	bool recovered = m->nfail ? m->recovered : m->brk_recovered;

	proc_name(&who, p, m->pid);
	if (only_fallbacks(m)) {
		emit_fallback(m, &who, out);
		strbuf_release(&who);
		return;
	}
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
				strbuf_add_bytes(&sb, want);
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
		strbuf_add_bytes(&sb, m->killed_recent);
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
	for (struct hmap_node *n = hmap_first(&s->procs, &it); n; n = hmap_next(&s->procs, &it)) {
		close_refusal(n->value);
		if (reportable(n->value))
			emit(n->value, ctx, out);
	}
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, s->dropped,
			     "%llu more processes ran out of memory",
			     "free memory or raise the limits; the findings above show how");
}

const struct rc_rule_ops rc_rule_out_of_memory_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_EXITS, .call = memory_call },
	.finish = finish,
	.release = release,
};
