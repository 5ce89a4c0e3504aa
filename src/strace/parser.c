/* strace text -> events: each line (from input.c, its prefix parsed) made
 * into a call, a signal or an exit; the halves of split calls joined (their
 * store is join.c), pids of terminal logs resolved. Argument facts are in
 * roles.c, the lexing helpers in args.c.
 *
 * The hot path is one memchr per line, a short prefix scan, a hash lookup
 * of the name and a backward scan for the return value; arguments are
 * split only for the calls roles.c reads.
 */
#include "strace/parser.h"

#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "gen/tables.h"
#include "strace/args.h"
#include "strace/roles.h"
#include "event/syscalls.h"
#include "strace/backtrace.h"
#include "strace/input.h"
#include "strace/join.h"
#include "util/hmap.h"
#include "util/util.h"

/* Split calls waiting for their "resumed" half, at most. */
#define PENDING_PIDS_MAX 16384
/* A terminal line broken by program output or a strace message. */
#define CARRY_MAX (1u << 20)
#define LIVE_MAX 65536

#ifdef __SIGRTMIN
#define KERNEL_SIGRTMIN __SIGRTMIN
#else
#define KERNEL_SIGRTMIN 32
#endif

/* Stacks remembered by their frames' text (direct-mapped). */
#define STACK_MEMO 256

struct strace_parser {
	struct input in;
	bool at_eof;
	bool hold;		/* the current line is processed again */

	struct arena arena;
	struct strace_stats stats;
	uint64_t seq;

	struct join join;	/* calls waiting for their "resumed" half */
	struct strace_summary summary;	/* strace -c's tables, if any */

	struct strbuf joined;	/* a joined line */
	struct strbuf carry;	/* a terminal line cut short */
	struct strbuf carry_out;	/* the program's output lines that came inside it */
	struct prefix carry_pre;
	bool have_carry;
	bool carry_skipped;	/* the carried line was counted as skipped */

	struct imap live;	/* pids alive, for lines without a pid (terminal) */
	struct imap seen;	/* pids whose events were given out */
	/* Pids a fork-family call returned before any line of theirs: their
	 * parent is known, and no unfinished fork is theirs to claim. */
	struct imap returned;
	int root_alias;		/* the pid the unprefixed first process turned out to be */
	struct imap attached;	/* pids strace said it attached to ("Process N attached") */
	bool root_forked;	/* the unprefixed first process made a fork-family call */
	/* Forks whose returned pid no line has shown yet, latest last: in a
	 * pid namespace a fork returns the child's pid there, while strace
	 * prefixes the child's lines with its pid here. */
	struct unseen_fork {
		int parent, child;
	} unseen[8];
	size_t nunseen;
	/* Forks that ended without a return ("<... clone3 resumed>) = ?": the
	 * process died inside the call), latest last, with the event after
	 * which each ended: the child may still show up, just after. */
	struct unreturned_fork {
		int parent;
		bool thread;
		uint64_t seq;
	} unreturned[8];
	size_t nunreturned;
	int attached_root;	/* strace -p N: the unprefixed lines are N's (line_pid) */
	bool defer;		/* argument facts are left to the pump's finish */
	/* While DEFER: the call of the event being made whose argument
	 * facts are left to read (SC NULL: none), which strace_parser_pump
	 * puts in its work item. */
	struct {
		const struct rc_syscall *sc;
		struct call_text text;
		bool elided;
	} left;
	struct strbuf err;	/* what strace_parser_pump met */
	/* The stack strace -k wrote under the event last given out (its
	 * reference, until the next; strace_parser_pump hands it over). */
	const struct rc_stack *stack;
	/* Reads and writes seen per thread, of which every
	 * RC_STACK_SAMPLE_IO-th gets its frames read (a pointer's value). */
	struct imap io_seen;
	/* Stacks built from -k frames, by the frames' text: a loop's calls
	 * have the same frames, and a -k log's frame lines are most of it
	 * (80 a call in a PyTorch program, four in five seen before). */
	struct stack_memo {
		uint64_t hash;
		int tid;
		char *text;
		size_t len;
		const struct rc_stack *s;
	} memo[STACK_MEMO];
};

/* ---- pids ---- */

static void live_add(struct strace_parser *p, int pid)
{
	if (p->live.count >= LIVE_MAX) {
		imap_release(&p->live);
		imap_init(&p->live);
	}
	*imap_put(&p->live, pid) = p;
}

/* strace's "Process N attached" in MSG (N bytes): N is a child (or, with
 * -p, a process it was given), never the command it started. */
static void note_attached(struct strace_parser *p, const char *msg, size_t n)
{
	const char *q = memmem(msg, n, "Process ", 8);
	long long pid;

	if (!q)
		return;
	q += 8;
	const char *end = memmem(q, (size_t)(msg + n - q), " attached", 9);
	if (!end || !parse_ll(span_make(q, (size_t)(end - q)), &pid) || pid <= 0 || pid > INT_MAX)
		return;
	if (p->attached.count >= LIVE_MAX) {
		imap_release(&p->attached);
		imap_init(&p->attached);
	}
	*imap_put(&p->attached, (int)pid) = p;
}

/* The pid of a line: "[pid N]" where N may turn out to be the process that
 * printed without a prefix before its first child; a line without a pid in
 * a terminal log belongs to the only process alive, if that is known. */
static int line_pid(struct strace_parser *p, struct source *s, const struct prefix *pre)
{
	if (pre->bracket) {
		s->brackets = true;
		/* strace announces every child it attaches to before the child
		 * prints; the first process it started is never announced. So a
		 * bracketed pid strace never announced, once the unprefixed
		 * process forked, is that process under its real pid. */
		if (!p->root_alias && pre->pid > 0 && p->root_forked && imap_get(&p->live, 0) &&
		    !imap_get(&p->attached, pre->pid) && !imap_get(&p->live, pre->pid) && p->attached.count) {
			p->root_alias = pre->pid;
		}
		int pid = pre->pid == p->root_alias && p->root_alias ? 0 : pre->pid;
		live_add(p, pid);
		return pid;
	}
	if (pre->has_pid)
		return pre->pid;
	if (!s->brackets) {
		/* strace -p N says "Process N attached" before N's first line,
		 * which has no prefix: that process has a pid, not 0. */
		if (!p->live.count && p->attached.count == 1 && !p->attached_root)
			for (size_t i = 0; i <= p->attached.mask; i++)
				if (p->attached.s[i].used)
					p->attached_root = p->attached.s[i].key;
		if (!p->live.count)
			live_add(p, p->attached_root);
		return p->attached_root;
	}
	if (p->live.count == 1) {
		for (size_t i = 0; i <= p->live.mask; i++)
			if (p->live.s[i].used)
				return p->live.s[i].key;
	}
	return 0;
}

/* ---- pids of new processes ---- */

static bool is_fork(long nr)
{
	return nr == SYS_clone || nr == SYS_clone3 || nr == SYS_fork || nr == SYS_vfork;
}

/* E's fork makes a thread. */
static bool fork_makes_thread(const struct rc_event *e)
{
	return (e->flags & CLONE_THREAD) || join_text_makes_thread(e->line, e->line_len);
}

/* Events after a fork that never returned within which a new pid is taken
 * for its child: its process was dying, and so is the child. */
#define UNRETURNED_WINDOW 256

/* A fork that never returned, kept for a new pid just after it; one that
 * returned a pid no line has shown, kept so that the pid claims no other
 * fork, and, a process's, for the child's first line (a pid namespace's
 * child, named otherwise by strace). */
static void note_fork(struct strace_parser *p, const struct rc_event *e)
{
	if (e->kind == RC_EV_SYSCALL && is_fork(e->nr) && !e->ret_known) {
		if (p->nunreturned == ARRAY_SIZE(p->unreturned)) {
			memmove(p->unreturned, p->unreturned + 1, sizeof(p->unreturned) - sizeof(p->unreturned[0]));
			p->nunreturned--;
		}
		p->unreturned[p->nunreturned++] =
			(struct unreturned_fork){ e->pid, fork_makes_thread(e), p->seq };
		return;
	}
	if (e->kind != RC_EV_SYSCALL || !e->ret_known || e->ret <= 0 || e->ret > INT_MAX || !is_fork(e->nr) ||
	    imap_get(&p->seen, (int)e->ret))
		return;
	if (p->returned.count >= LIVE_MAX) {
		imap_release(&p->returned);
		imap_init(&p->returned);
	}
	*imap_put(&p->returned, (int)e->ret) = p;
	if (fork_makes_thread(e))
		return;
	if (p->nunseen == ARRAY_SIZE(p->unseen)) {
		memmove(p->unseen, p->unseen + 1, sizeof(p->unseen) - sizeof(p->unseen[0]));
		p->nunseen--;
	}
	p->unseen[p->nunseen++] = (struct unseen_fork){ e->pid, (int)e->ret };
}

/* The latest fork whose child's pid (there) no line has shown, by
 * another process than PID: that child is PID (here). */
static bool namespace_child(struct strace_parser *p, int pid, struct unseen_fork *out)
{
	size_t n = 0;

	/* Those whose child has shown up (this one, most often) are done. */
	for (size_t i = 0; i < p->nunseen; i++)
		if (!imap_get(&p->seen, p->unseen[i].child))
			p->unseen[n++] = p->unseen[i];
	p->nunseen = n;
	for (size_t i = n; i-- > 0;) {
		if (p->unseen[i].parent == pid)
			continue;
		*out = p->unseen[i];
		memmove(p->unseen + i, p->unseen + i + 1, (n - i - 1) * sizeof(p->unseen[0]));
		p->nunseen--;
		return true;
	}
	return false;
}

/* The latest fork that never returned, ended at most UNRETURNED_WINDOW
 * events ago by another process than PID: PID is its child. */
static bool unreturned_child(struct strace_parser *p, int pid, struct unreturned_fork *out)
{
	for (size_t i = p->nunreturned; i-- > 0;) {
		if (p->unreturned[i].parent == pid || p->seq - p->unreturned[i].seq > UNRETURNED_WINDOW)
			continue;
		*out = p->unreturned[i];
		memmove(p->unreturned + i, p->unreturned + i + 1, (p->nunreturned - i - 1) * sizeof(p->unreturned[0]));
		p->nunreturned--;
		return true;
	}
	return false;
}

/* E is the first event of its pid: the process whose fork-family call is
 * still unfinished (the latest, if several are, of those whose child has
 * not shown up yet), as the likely parent;
 * else the one whose fork returned a pid no line has shown (a pid
 * namespace's number for E's pid). */
static void note_first_event(struct strace_parser *p, struct rc_event *e)
{
	if (e->pid == 0 && e->kind == RC_EV_SYSCALL && e->ret_known && e->ret > 0 && is_fork(e->nr))
		p->root_forked = true;
	bool first = !imap_get(&p->seen, e->pid);
	note_fork(p, e);
	if (!first)
		return;
	if (p->seen.count >= LIVE_MAX) {
		imap_release(&p->seen);
		imap_init(&p->seen);
	}
	*imap_put(&p->seen, e->pid) = p;
	/* Its fork returned before this line (postmaster's fork of the
	 * startup process, whose first call came after the fork of the
	 * next child had begun): that unfinished fork is the next one's. */
	if (imap_get(&p->returned, e->pid)) {
		imap_del(&p->returned, e->pid);
		return;
	}
	bool alone;
	/* A new thread registers its rseq area first (glibc's start_thread);
	 * a forked child inherits its parent's, and never does: with a
	 * thread's clone and a fork both waiting (podman's clone3 and
	 * conmon's fork of crun), the first call tells whose child it is. */
	bool thread = e->kind == RC_EV_SYSCALL && e->nr == SYS_rseq;
	struct pending *best = join_latest_fork(&p->join, e->pid, thread, &alone);
	struct unseen_fork u;
	struct unreturned_fork r;
	if (best) {
		best->claimed = true;
		e->forked_by = best->pid;
		e->forked_sure = alone;
		e->forked_thread = join_is_thread_fork(best);
	} else if (e->pid > 0 && unreturned_child(p, e->pid, &r)) {
		/* Its parent ended inside the fork, just before: podman's
		 * thread in clone3 when exit_group came, whose new thread
		 * showed only its "+++ exited with 125 +++". */
		e->forked_by = r.parent;
		e->forked_sure = true;
		e->forked_thread = r.thread;
	} else if (e->pid > 0 && namespace_child(p, e->pid, &u)) {
		e->forked_by = u.parent;
		e->forked_as = u.child;
	}
}

static void store_pending(struct strace_parser *p, int pid, double ts, const char *text,
			  size_t len, size_t body, bool elided)
{
	struct pending *pd = join_store(&p->join, pid, ts, text, len, body, elided);

	if (pid == 0 && join_is_fork(pd))
		p->root_forked = true;
}

/* ---- events ---- */

static void start_event(struct strace_parser *p, struct rc_event *e, int pid, double ts)
{
	event_clear(e);
	p->left.sc = NULL;
	e->pid = pid;
	e->ts = ts;
	e->seq = ++p->seq;
	p->stats.events++;
}

/* The bytes of a syscall name: a lower-case letter, a digit or '_'. */
static const unsigned char name_char[256] = {
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['_'] = 1,
};

static inline bool is_name_char(char c)
{
	return name_char[(unsigned char)c];
}

/* The length of the syscall name at B when B starts a call ("name("), else 0. */
static size_t call_name_len(const char *b, size_t n)
{
	size_t i = 0;

	if (!n || !((b[0] >= 'a' && b[0] <= 'z') || b[0] == '_'))
		return 0;
	while (i < n && i < 64 && is_name_char(b[i]))
		i++;
	return i < n && b[i] == '(' ? i : 0;
}

static bool ends_with(const char *b, size_t n, const char *lit, size_t k)
{
	return n >= k && memcmp(b + n - k, lit, k) == 0;
}

#define UNFINISHED " <unfinished ...>"
#define DETACHED " <detached ...>"

struct tail {
	const char *close;	/* the ')' ending the arguments */
	const char *ret;	/* the return text after "= " */
	const char *ret_end;
	double dur;
};

static bool ret_start_ok(const char *r, const char *end)
{
	if (r >= end)
		return false;
	if (*r == '?')
		return r + 1 == end || r[1] == ' ';
	if (*r == '-')
		r++;
	return r < end && isdigit_c(*r);
}

/* Find " = RET" after the arguments, scanning from the end of the line
 * (string arguments may contain anything), and the -T duration. */
static bool find_tail(const char *b, size_t n, struct tail *t)
{
	const char *end = b + n;

	t->dur = -1;
	if (n > 11 && end[-1] == '>' && end[-10] == '<' && end[-11] == ' ' && end[-8] == '.' &&
	    isdigit_c(end[-9]) && isdigit_c(end[-7]) && isdigit_c(end[-6]) && isdigit_c(end[-5]) &&
	    isdigit_c(end[-4]) && isdigit_c(end[-3]) && isdigit_c(end[-2])) {
		/* -T's " <S.uuuuuu>" under ten seconds, nearly every duration:
		 * the value lex_decimal gives below. */
		uint64_t f = 0;
		for (const char *d = end - 7; d < end - 1; d++)
			f = f * 10 + (uint64_t)(*d - '0');
		t->dur = (double)(end[-9] - '0') + (double)f / lex_pow10[6];
		end -= 11;
	} else if (n > 4 && end[-1] == '>') {
		const char *lt = end - 2;
		while (lt > b && (isdigit_c(*lt) || *lt == '.'))
			lt--;
		if (*lt == '<' && lt < end - 2 && lt > b && lt[-1] == ' ') {
			double v;
			bool frac;
			int ni;
			lex_decimal(lt + 1, end - 1, &v, &frac, &ni);
			if (ni) {
				t->dur = v;
				end = lt - 1;
			}
		}
	}
	const char *q = end;
	while (q > b) {
		q = memrchr(b, '=', (size_t)(q - b));
		if (!q)
			return false;
		if (q > b + 1 && q[-1] == ' ' && q + 2 <= end && (q + 1 == end || q[1] == ' ')) {
			const char *c = q - 1;
			while (c > b && *c == ' ')
				c--;
			if (*c == ')' && ret_start_ok(q + 2, end)) {
				t->close = c;
				t->ret = q + 2;
				t->ret_end = end;
				return true;
			}
		}
	}
	return false;
}

static void parse_return(struct strace_parser *p, struct rc_event *e, const char *r,
			 const char *end, struct span *decoration)
{
	const char *q;

	if (*r == '?') {
		e->ret_known = false;
		q = r + 1;
	} else {
		long long v;
		if (!parse_ll(span_make(r, (size_t)(end - r)), &v))
			return;
		e->ret_known = true;
		e->ret = v;
		q = r;
		if (q < end && *q == '-')
			q++;
		if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
			q += 2;
		while (q < end && (isdigit_c(*q) || (*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F')))
			q++;
		if (q < end && *q == '<') {
			*decoration = span_make(q, (size_t)(end - q));
			q = decoration_after(q, end);
		}
	}
	while (q < end && *q == ' ')
		q++;
	if (q < end && *q == 'E') {
		const char *ne = q;
		while (ne < end && (isdigit_c(*ne) || (*ne >= 'A' && *ne <= 'Z') || *ne == '_'))
			ne++;
		int errv;
		if (xlat_errno_value(q, (size_t)(ne - q), &errv))
			e->err = errv;
		else
			e->err = 4095;	/* a name this build's headers lack */
		e->interrupted = ne - q > 8 && memcmp(q, "ERESTART", 8) == 0;
		/* "= ? ERESTARTSYS": the call did end, cut short by a signal;
		 * only a bare "= ?" never returned. The tracer says the same. */
		if (e->interrupted && !e->ret_known) {
			e->ret_known = true;
			e->ret = -1;
		}
	} else if (end - q > 7 && memcmp(q, "(errno ", 7) == 0) {
		long long v;
		if (parse_ll(span_make(q + 7, (size_t)(end - q - 7)), &v) && v > 0)
			e->err = (int)v;
	}
}

/* Fill a syscall event from BODY ("name(args) = ret <dur>"); FINISHED is
 * false for a call that never returned (no return text to look for);
 * ARGS false when the arguments are not all there. KNOWN, when not NULL,
 * is BODY's tail as the caller found it (so the line is not scanned twice),
 * and NL, when not 0, the length of its name as call_name_len gave it. */
static void fill_call_tail(struct strace_parser *p, struct rc_event *e, const char *body,
			   size_t blen, size_t nl, bool finished, const struct tail *known, bool elided,
			   bool args)
{
	if (!nl)
		nl = call_name_len(body, blen);
	const struct rc_syscall *sc = syscall_by_name(body, nl);
	struct call_text ct = { span_make(body + nl + 1, blen - nl - 1), false, span_make(NULL, 0) };
	struct tail t;

	e->kind = RC_EV_SYSCALL;
	e->name = sc ? sc->name : arena_strndup(&p->arena, body, nl);
	e->nr = sc ? sc->nr : -1;
	/* The tail process_line found already, else found here. */
	const struct tail *tp = !finished ? NULL : known ? known : find_tail(body, blen, &t) ? &t : NULL;
	if (tp) {
		ct.args = span_make(body + nl + 1, (size_t)(tp->close - (body + nl + 1)));
		ct.complete = true;
		e->dur = tp->dur;
		parse_return(p, e, tp->ret, tp->ret_end, &ct.ret);
	}
	/* Calls no rule reads the arguments of have no roles: nothing to
	 * read. The others are read now, or left for the rules' thread. */
	if (!args || !sc || !sc->nroles)
		return;
	if (!p->defer) {
		call_facts(e, sc, &ct, elided, &p->arena);
		return;
	}
	p->left.sc = sc;
	p->left.text = ct;
	p->left.elided = elided;
}


static void fill_call(struct strace_parser *p, struct rc_event *e, const char *body, size_t blen,
		      bool finished, bool elided, bool args)
{
	fill_call_tail(p, e, body, blen, 0, finished, NULL, elided, args);
}

static int signal_value(const char *s, size_t n)
{
	long long v;

	if (xlat_value(&rc_xlat_signal, s, n, &v))
		return (int)v;
	if (n >= 8 && memcmp(s, "SIGRTMIN", 8) == 0) {
		if (n > 9 && s[8] == '+' && parse_ll(span_make(s + 9, n - 9), &v))
			return KERNEL_SIGRTMIN + (int)v;
		return KERNEL_SIGRTMIN;
	}
	if (n > 6 && memcmp(s, "SIGRT_", 6) == 0 && parse_ll(span_make(s + 6, n - 6), &v))
		return KERNEL_SIGRTMIN + (int)v;
	if (parse_ll(span_make(s, n), &v))
		return (int)v;
	return 0;
}

static size_t sig_name_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (isdigit_c(s[i]) || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' || s[i] == '+'))
		i++;
	return i;
}

/* "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---",
 * "--- stopped by SIGTSTP ---". */
static bool fill_signal(struct rc_event *e, const char *b, size_t n)
{
	const char *q = b + 4, *end = b + n - 4;
	struct span in, v;
	long long x;
	unsigned long long u;

	if (end - q > 11 && memcmp(q, "stopped by ", 11) == 0)
		q += 11;
	size_t sl = sig_name_len(q, (size_t)(end - q));
	int sig = signal_value(q, sl);
	if (!sl || !sig)
		return false;
	e->kind = RC_EV_SIGNAL;
	e->signo = sig;
	in = inner(span_make(q + sl, (size_t)(end - q - sl)));
	if (find_field(in, "si_code", &v)) {
		if (xlat_span(&rc_xlat_si_code, v, &x) || parse_ll(v, &x))
			e->si_code = (int)x;
	}
	if (find_field(in, "si_addr", &v) && parse_ull(v, &u)) {
		e->has_fault_addr = true;
		e->fault_addr = u;
	}
	if (find_field(in, "si_pid", &v) && parse_ll(v, &x))
		e->sender_pid = (int)x;
	return true;
}

/* "+++ exited with 1 +++", "+++ killed by SIGSEGV (core dumped) +++". */
static bool fill_exit(struct rc_event *e, const char *b, size_t n)
{
	const char *q = b + 4, *end = b + n - 4;
	long long v;

	if (end - q > 12 && memcmp(q, "exited with ", 12) == 0) {
		if (!parse_ll(span_make(q + 12, (size_t)(end - q - 12)), &v))
			return false;
		e->kind = RC_EV_EXIT;
		e->exited = true;
		e->exit_code = (int)v;
		return true;
	}
	if (end - q > 10 && memcmp(q, "killed by ", 10) == 0) {
		q += 10;
		size_t sl = sig_name_len(q, (size_t)(end - q));
		int sig = signal_value(q, sl);
		if (!sig)
			return false;
		e->kind = RC_EV_EXIT;
		e->exited = false;
		e->signo = sig;
		e->core_dumped = memmem(q, (size_t)(end - q), "(core dumped)", 13) != NULL;
		return true;
	}
	return false;
}

/* ---- line processing ---- */

enum { LINE_DONE, LINE_EVENT, LINE_EVENT_HOLD };

/* An event for a call that never got its "resumed" half. */
static void emit_unresumed(struct strace_parser *p, struct rc_event *e, struct pending *pd)
{
	strbuf_reset(&p->joined);
	strbuf_add(&p->joined, pd->text.buf, pd->text.len);
	size_t blen = p->joined.len - pd->body;
	strbuf_adds(&p->joined, UNFINISHED);
	start_event(p, e, pd->pid, pd->ts);
	fill_call(p, e, p->joined.buf + pd->body, blen, false, pd->elided, true);
	e->line = p->joined.buf;
	e->line_len = p->joined.len;
	p->stats.unmatched++;
	join_drop(&p->join, pd);
}

/* A syscall name this architecture has: a line cut short is only taken
 * for a call in progress when it starts with one, so that text which
 * merely looks like "word(" is program output. */
static bool known_call(struct strace_parser *p, const char *b, size_t bn)
{
	size_t nl = call_name_len(b, bn);
	return nl && syscall_by_name(b, nl) != NULL;
}

/* Whether call text B (N bytes, "close(13)") has its closing parenthesis:
 * strace prints it when the call returns, with " = ", so such a line
 * without its return is a paste that lost it, not a call in progress
 * ("close(13", "read(3, "). Parentheses in strings do not count. */
static bool args_closed(const char *b, size_t n)
{
	while (n && (b[n - 1] == ' ' || b[n - 1] == '\t' || b[n - 1] == '\r'))
		n--;
	if (!n || b[n - 1] != ')')
		return false;
	int depth = 0;
	bool quoted = false;
	for (size_t i = 0; i < n; i++) {
		if (quoted) {
			if (b[i] == '\\')
				i++;
			else if (b[i] == '"')
				quoted = false;
			continue;
		}
		if (b[i] == '"')
			quoted = true;
		else if (b[i] == '(')
			depth++;
		else if (b[i] == ')' && --depth < 0)
			return false;
	}
	return depth == 0 && !quoted;
}

/* A call line: complete, unfinished, detached, or cut short. NL: the
 * length of its name when the caller has it, else 0. */
static int do_call(struct strace_parser *p, struct rc_event *e, const char *line, size_t len,
		   size_t body, size_t nl, int pid, double ts, bool elided, bool from_carry)
{
	const char *b = line + body;
	size_t bn = len - body;
	struct pending *pd;

	if (ends_with(b, bn, UNFINISHED, sizeof(UNFINISHED) - 1)) {
		pd = join_get(&p->join, pid);
		if (pd) {
			emit_unresumed(p, e, pd);
			return LINE_EVENT_HOLD;
		}
		if (p->join.pending.count >= PENDING_PIDS_MAX) {
			emit_unresumed(p, e, join_oldest(&p->join));
			return LINE_EVENT_HOLD;
		}
		store_pending(p, pid, ts, line, len - (sizeof(UNFINISHED) - 1), body, elided);
		return LINE_DONE;
	}
	if (ends_with(b, bn, DETACHED, sizeof(DETACHED) - 1)) {
		size_t cut = len - (sizeof(DETACHED) - 1);
		start_event(p, e, pid, ts);
		fill_call(p, e, b, cut - body, false, elided, true);
		e->blocked = true;
		e->detached = true;
		e->line = line;
		e->line_len = len;
		p->stats.unmatched++;
		return LINE_EVENT;
	}
	/* "execve(...) <pid changed to 1234 ...>": the call resumes as 1234. */
	if (bn > 20 && b[bn - 1] == '>' && b[bn - 2] == '.') {
		const char *m = memmem(b, bn, " <pid changed to ", 17);
		long long np;
		if (m && parse_ll(span_make(m + 17, (size_t)(b + bn - m - 17)), &np)) {
			pd = join_get(&p->join, (int)np);
			if (pd) {
				emit_unresumed(p, e, pd);
				return LINE_EVENT_HOLD;
			}
			store_pending(p, (int)np, ts, line, (size_t)(m - line), body, elided);
			return LINE_DONE;
		}
	}
	struct tail t;
	if (find_tail(b, bn, &t)) {
		start_event(p, e, pid, ts);
		fill_call_tail(p, e, b, bn, nl, true, &t, elided, true);
		e->line = line;
		e->line_len = len;
		return LINE_EVENT;
	}
	if (from_carry)
		return -1;
	if (!known_call(p, b, bn)) {
		p->stats.skipped++;
		return LINE_DONE;
	}
	/* Cut short: on a terminal, program output or a strace message landed
	 * inside the line; the rest follows on a later line. */
	const char *msg = memmem(b, bn, "strace: ", 8);
	size_t keep = len;
	if (msg) {
		keep = (size_t)(msg - line);
		p->stats.strace_messages++;
		note_attached(p, msg, (size_t)(line + len - msg));
	} else {
		p->stats.skipped++;
	}
	if (keep <= CARRY_MAX) {
		p->carry_skipped = !msg;
		strbuf_reset(&p->carry);
		strbuf_add(&p->carry, line, keep);
		p->carry_pre.pid = pid;
		p->carry_pre.ts = ts;
		p->carry_pre.body = body;
		p->have_carry = true;
		strbuf_reset(&p->carry_out);
	}
	return LINE_DONE;
}

/* On a terminal, a write to the terminal prints its own text inside its
 * line, after the count: 'write(2, "fs.js:972\n  binding.stat(pathMod"...,
 * 701fs.js:972', then the program's lines, then ") = 701". When strace's
 * -s cut the quoted string, those lines are the whole of it: the call is
 * read as strace would have printed it with a -s long enough, when the
 * text between the count and ") = N" is about N bytes. LINE is the last
 * line; the rebuilt call goes to p->joined. */
static bool whole_write(struct strace_parser *p, const char *line, size_t len)
{
	const char *c = p->carry.buf + p->carry_pre.body, *end = p->carry.buf + p->carry.len;
	long long ret;
	char num[24];

	/* Each program line comes here: the cheap tests first. */
	if ((size_t)(end - c) < 7 || memcmp(c, "write(", 6) != 0)
		return false;
	const char *close = memmem(line, len, ") = ", 4);
	const char *cut = close ? memmem(c, (size_t)(end - c), "\"..., ", 6) : NULL;
	if (!cut)
		return false;
	const char *r = close + 4, *re = r;
	while (re < line + len && *re >= '0' && *re <= '9')
		re++;
	if (!parse_ll(span_make(r, (size_t)(re - r)), &ret) || ret <= 0)
		return false;
	int nn = snprintf(num, sizeof(num), "%lld", ret);
	const char *count = cut + 6;
	if (end - count < nn || memcmp(count, num, (size_t)nn) != 0)
		return false;
	/* The text: the rest of the first line, the lines between, and the
	 * last line up to its ")". */
	struct strbuf out = STRBUF_INIT;
	strbuf_add(&out, count + nn, (size_t)(end - count - nn));
	strbuf_addc(&out, '\n');
	strbuf_add(&out, p->carry_out.buf, p->carry_out.len);
	strbuf_add(&out, line, (size_t)(close - line));
	/* A paste loses trailing blanks and indents, and a terminal may
	 * turn "\n" into "\r\n": about N bytes, not more than a byte a
	 * line over, nor under half. */
	size_t lines = 1;
	for (size_t i = 0; i < out.len; i++)
		lines += out.buf[i] == '\n';
	const char *open = memchr(c, '"', (size_t)(cut - c));
	bool ok = open && out.len <= (size_t)ret + lines && out.len * 2 >= (size_t)ret;
	if (ok) {
		strbuf_reset(&p->joined);
		strbuf_add(&p->joined, p->carry.buf, (size_t)(open - p->carry.buf));
		strbuf_addc(&p->joined, '"');
		strbuf_add_escaped(&p->joined, out.buf, out.len);
		strbuf_addf(&p->joined, "\", %s", num);
		strbuf_add(&p->joined, close, (size_t)(line + len - close));
	}
	strbuf_release(&out);
	return ok;
}

/* A line that may finish the carried one. */
static int do_continuation(struct strace_parser *p, struct rc_event *e, const char *line, size_t len)
{
	size_t old = p->carry.len;

	if (old + len > CARRY_MAX) {
		p->have_carry = false;
		p->stats.skipped++;
		return LINE_DONE;
	}
	/* do_call may store the text as pending or point the event at it: the
	 * event's line must outlive the next carry, so use the join buffer. */
	if (!whole_write(p, line, len)) {
		strbuf_reset(&p->joined);
		strbuf_add(&p->joined, p->carry.buf, p->carry.len);
		strbuf_add(&p->joined, line, len);
	}
	strbuf_add(&p->carry, line, len);
	int r = do_call(p, e, p->joined.buf, p->joined.len, p->carry_pre.body, 0, p->carry_pre.pid,
			p->carry_pre.ts, false, true);
	if (r >= 0) {
		if (r != LINE_EVENT_HOLD)
			p->have_carry = false;
		else
			p->carry.len = old;
		return r;
	}
	p->carry.len = old;
	p->carry.buf[old] = '\0';
	const char *msg = memmem(line, len, "strace: ", 8);
	if (msg) {
		strbuf_add(&p->carry, line, (size_t)(msg - line));
		p->stats.strace_messages++;
		note_attached(p, msg, (size_t)(line + len - msg));
	} else {
		p->stats.skipped++;
		/* The program's own line, for whole_write. */
		if (p->carry_out.len + len < CARRY_MAX) {
			strbuf_add(&p->carry_out, line, len);
			strbuf_addc(&p->carry_out, '\n');
		}
	}
	return LINE_DONE;
}

/* "<... read resumed>rest": join with the pending start. */
static int do_resumed(struct strace_parser *p, struct rc_event *e, struct source *s,
		      const char *line, size_t len, size_t body, int pid, double ts, bool elided)
{
	const char *b = line + body;
	size_t bn = len - body;
	const char *name = b + 5;
	const char *gt = memchr(name, '>', bn - 5);
	const char *sp = memchr(name, ' ', bn - 5);

	if (!gt || !sp || sp > gt || gt - sp != 8 || memcmp(sp, " resumed", 8) != 0) {
		p->stats.skipped++;
		return LINE_DONE;
	}
	size_t nlen = (size_t)(sp - name);
	bool any = nlen == 3 && memcmp(name, "???", 3) == 0;
	struct pending *pd = join_get(&p->join, pid);
	if (!pd && pid && s->brackets && !p->root_alias) {
		/* The first process printed without a pid until its first child
		 * appeared: its call resumes under its real pid. */
		struct pending *p0 = join_get(&p->join, 0);
		if (p0) {
			pd = p0;
			p->root_alias = pid;
			imap_del(&p->live, pid);
			pid = 0;
		}
	}
	if (pd && !any) {
		const char *pb = pd->text.buf + pd->body;
		size_t pn = pd->text.len - pd->body;
		if (pn <= nlen || memcmp(pb, name, nlen) != 0 || pb[nlen] != '(')
			pd = NULL;
	}
	const char *rest = gt + 1;
	size_t rlen = (size_t)(line + len - rest);
	if (!pd) {
		/* Resumed without a start (the log begins mid-call): the return
		 * and duration are still facts; the arguments are not. */
		p->stats.unmatched++;
		if (any)
			return LINE_DONE;
		strbuf_reset(&p->joined);
		strbuf_add(&p->joined, name, nlen);
		strbuf_addc(&p->joined, '(');
		strbuf_add(&p->joined, rest, rlen);
		start_event(p, e, pid, ts);
		fill_call(p, e, p->joined.buf, p->joined.len, true, elided, false);
		e->line = line;
		e->line_len = len;
		return LINE_EVENT;
	}
	strbuf_reset(&p->joined);
	strbuf_add(&p->joined, pd->text.buf, pd->text.len);
	strbuf_add(&p->joined, rest, rlen);
	start_event(p, e, pd->pid, pd->ts);
	fill_call(p, e, p->joined.buf + pd->body, p->joined.len - pd->body, true,
		  elided || pd->elided, true);
	e->line = p->joined.buf;
	e->line_len = p->joined.len;
	join_drop(&p->join, pd);
	return LINE_EVENT;
}

/* Whether LINE may be the header of a strace -c table: "% time ..." or,
 * with -U, columns from "syscall" on. */
static bool summary_header_start(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && i < 8 && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return i < len && (line[i] == '%' || (line[i] == 's' && len - i > 8 && memcmp(line + i, "syscall ", 8) == 0));
}

static int process_line(struct strace_parser *p, struct rc_event *e, struct source *s)
{
	const char *line = s->line;
	size_t len = s->len;
	const struct prefix *pre = &s->pre;
	const char *b = line + pre->body;
	size_t bn = len - pre->body;

	/* strace -c's tables (summary.h): one begins with its header, so
	 * that a trace line costs one look at its first character. */
	if ((p->summary.state != SUM_NONE || summary_header_start(line, len)) &&
	    strace_summary_line(&p->summary, line, len)) {
		p->stats.summary_lines++;
		return LINE_DONE;
	}
	/* strace -k's frames, read with the call they follow. */
	if (backtrace_is_frame(line, len)) {
		p->stats.frames++;
		return LINE_DONE;
	}
	if (bn >= 8 && memcmp(b, "strace: ", 8) == 0) {
		p->stats.strace_messages++;
		note_attached(p, b, bn);
		return LINE_DONE;
	}
	/* strace before 4.9 wrote its attach notice without "strace: ":
	 * "Process N attached - interrupt to quit". */
	if (bn >= 8 && memcmp(b, "Process ", 8) == 0 && memmem(b, bn, " attached", 9)) {
		p->stats.strace_messages++;
		note_attached(p, b, bn);
		return LINE_DONE;
	}
	if (bn >= 8 && b[0] == '-' && memcmp(b, "--- ", 4) == 0 && ends_with(b, bn, " ---", 4)) {
		int pid = line_pid(p, s, pre);
		struct rc_event tmp;
		event_clear(&tmp);
		if (!fill_signal(&tmp, b, bn)) {
			p->stats.skipped++;
			return LINE_DONE;
		}
		start_event(p, e, pid, pre->ts);
		e->kind = tmp.kind;
		e->signo = tmp.signo;
		e->si_code = tmp.si_code;
		e->has_fault_addr = tmp.has_fault_addr;
		e->fault_addr = tmp.fault_addr;
		e->sender_pid = tmp.sender_pid;
		e->line = line;
		e->line_len = len;
		return LINE_EVENT;
	}
	if (bn >= 8 && b[0] == '+' && memcmp(b, "+++ ", 4) == 0 && ends_with(b, bn, " +++", 4)) {
		int pid = line_pid(p, s, pre);
		const char *q = b + 4;
		if (bn > 34 && memcmp(q, "superseded by execve in pid ", 28) == 0) {
			long long old;
			if (parse_ll(span_make(q + 28, bn - 32), &old)) {
				struct pending *pd = join_get(&p->join, (int)old);
				if (pd && (int)old != pid) {
					struct pending *mine = join_get(&p->join, pid);
					if (mine) {
						emit_unresumed(p, e, mine);
						return LINE_EVENT_HOLD;
					}
					join_move(&p->join, pd, pid);
				}
				imap_del(&p->live, (int)old);
			}
			return LINE_DONE;
		}
		struct rc_event tmp;
		event_clear(&tmp);
		if (!fill_exit(&tmp, b, bn)) {
			p->stats.skipped++;
			return LINE_DONE;
		}
		struct pending *pd = join_get(&p->join, pid);
		if (pd) {
			emit_unresumed(p, e, pd);
			return LINE_EVENT_HOLD;
		}
		start_event(p, e, pid, pre->ts);
		e->kind = RC_EV_EXIT;
		e->exited = tmp.exited;
		e->exit_code = tmp.exit_code;
		e->signo = tmp.signo;
		e->core_dumped = tmp.core_dumped;
		e->line = line;
		e->line_len = len;
		imap_del(&p->live, pid);
		return LINE_EVENT;
	}
	if (bn > 5 && memcmp(b, "<... ", 5) == 0) {
		p->have_carry = false;
		int pid = line_pid(p, s, pre);
		return do_resumed(p, e, s, line, len, pre->body, pid, pre->ts, s->elided);
	}
	size_t nl = call_name_len(b, bn);
	if (nl) {
		if (p->have_carry) {
			p->have_carry = false;
		}
		int pid = line_pid(p, s, pre);
		return do_call(p, e, line, len, pre->body, nl, pid, pre->ts, s->elided, false);
	}
	if (p->have_carry)
		return do_continuation(p, e, line, len);
	/* On a terminal, output without a final newline runs into the next
	 * trace line: "hi[pid  12] exit_group(0) = ?". */
	const char *pid = len > 6 ? memmem(line + 1, len - 1, "[pid ", 5) : NULL;
	if (pid && !pre->bracket) {
		size_t off = (size_t)(pid - line);
		s->line += off;
		s->len -= off;
		input_parse_prefix(s, s->line, s->len, &s->pre);
		if (s->pre.bracket) {
			p->stats.skipped++;
			return process_line(p, e, s);
		}
	}
	p->stats.skipped++;
	return LINE_DONE;
}

/* ---- API ---- */

static struct strace_parser *parser_new(void)
{
	struct strace_parser *p = xcalloc(1, sizeof(*p));

	arena_init(&p->arena);
	join_init(&p->join);
	imap_init(&p->live);
	imap_init(&p->seen);
	imap_init(&p->returned);
	imap_init(&p->attached);
	imap_init(&p->io_seen);
	strbuf_init(&p->joined);
	strbuf_init(&p->carry);
	strbuf_init(&p->carry_out);
	strace_summary_init(&p->summary);
	return p;
}

int strace_parser_open(struct strace_parser **out, const char *const *files, size_t n,
		       struct strbuf *err)
{
	if (n == 0) {
		strbuf_adds(err, "no strace log given");
		return -1;
	}
	struct strace_parser *p = parser_new();
	if (input_open(&p->in, files, n, err) < 0) {
		strace_parser_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

struct strace_parser *strace_parser_from_buffer(const char *data, size_t len)
{
	struct strace_parser *p = parser_new();

	input_from_buffer(&p->in, data, len);
	return p;
}

/* At the end of the input: calls never resumed, oldest first. */
static int flush_next(struct strace_parser *p, struct rc_event *e)
{
	struct pending *pd = join_flush_next(&p->join);

	if (!pd)
		return 0;
	emit_unresumed(p, e, pd);
	/* Still inside its call when the log ended. */
	e->blocked = true;
	return 1;
}

const char *strace_parser_error(const struct strace_parser *p)
{
	return strbuf_str(&p->err);
}

/* E, a read or write that worked, is its thread's RC_STACK_SAMPLE_IO-th
 * (the first among them). */
static bool sampled_io(struct strace_parser *p, const struct rc_event *e)
{
	if (e->err || !e->ret_known || e->ret <= 0 || !(syscall_classes(e->nr) & (CL_READ | CL_WRITE)))
		return false;
	void **slot = imap_put(&p->io_seen, e->pid);
	uintptr_t n = (uintptr_t)*slot;
	*slot = (void *)(n + 1);
	return n % RC_STACK_SAMPLE_IO == 0;
}

/* A memo's key for frames' text T (N bytes) of thread TID: its length,
 * and sixteen words spread over it, not every byte (a PyTorch call's
 * frames are 6 KiB, and hashing them all was a tenth of a -k log's
 * time); the memo compares the whole text before it takes a stack. */
static uint64_t frames_hash(const char *t, size_t n, int tid)
{
	uint64_t h = hash_mix64(n ^ ((uint64_t)(unsigned)tid << 32));

	if (n < 8)
		return hash_mix64(h ^ hash_bytes(t, n));
	for (size_t i = 0; i < 16; i++) {
		uint64_t w;
		memcpy(&w, t + (n - 8) * i / 15, 8);
		h = hash_mix64(h ^ w);
	}
	return h;
}

/* The frames strace -k wrote under E's line, if any: E's stack. They
 * are read from what the input has buffered after the line, and passed
 * over when their turn comes (process_line). */
static void read_backtrace(struct strace_parser *p, struct rc_event *e)
{
	const struct source *s = &p->in.src[p->in.cur];
	struct stack_builder *b = NULL;

	/* No -k log (a frame line would follow), or a call no finding may
	 * quote: its frames are passed over unread, as the tracer unwinds
	 * only those (event/stack.h). */
	if (!input_next_is(s, " > ", 3) || (!stack_may_quote(e) && !sampled_io(p, e)))
		return;
	size_t at = 0, end = 0;
	const char *line, *first = NULL;
	size_t len;
	char buf[1024];

	/* The frames' lines follow the call's in the input's buffer, one
	 * run of text: the same text (and thread) is the same stack. */
	while (input_peek(s, &at, &line, &len) && backtrace_is_frame(line, len)) {
		first = first ? first : line;
		end = at;
	}
	if (!first)
		return;
	size_t n = (size_t)(s->buf + end - first);
	uint64_t h = frames_hash(first, n, e->pid);
	struct stack_memo *m = &p->memo[h % STACK_MEMO];
	if (m->s && m->hash == h && m->tid == e->pid && m->len == n && memcmp(m->text, first, n) == 0) {
		p->stack = stack_ref(m->s);
		e->stack = p->stack;
		return;
	}
	at = 0;
	while (input_peek(s, &at, &line, &len) && backtrace_is_frame(line, len)) {
		struct rc_stack_frame f;
		if (!backtrace_frame(line, len, &f, buf, sizeof(buf)))
			continue;
		if (!b)
			b = stack_builder_new(e->pid);
		stack_builder_native(b, &f);
	}
	if (b) {
		p->stack = stack_build(b);
		e->stack = p->stack;
		stack_unref(m->s);
		free(m->text);
		char *text = xmalloc(n ? n : 1);
		memcpy(text, first, n);
		*m = (struct stack_memo){ h, e->pid, text, n, stack_ref(p->stack) };
	}
}

/* The next event into E; its argument facts left in P->left while
 * P->defer. */
static int next_event(struct strace_parser *p, struct rc_event *e, struct strbuf *err)
{
	arena_reset(&p->arena);
	stack_unref(p->stack);
	p->stack = NULL;
	for (;;) {
		if (p->at_eof)
			return flush_next(p, e);
		if (!p->hold) {
			int r = input_advance(&p->in, err);
			if (r < 0)
				return -1;
			if (r == 0) {
				p->at_eof = true;
				if (p->have_carry) {
					/* A last line cut short: the call was in progress. */
					p->have_carry = false;
					size_t body = p->carry_pre.body;
					if (body < p->carry.len &&
					    known_call(p, p->carry.buf + body, p->carry.len - body) &&
					    !args_closed(p->carry.buf + body, p->carry.len - body)) {
						int pid = p->carry_pre.pid;
						struct pending *pd = join_get(&p->join, pid);
						if (!pd) {
							store_pending(p, pid, p->carry_pre.ts, p->carry.buf,
								      p->carry.len, body, false);
							if (p->carry_skipped)
								p->stats.skipped--;
						}
					}
				}
				continue;
			}
			p->stats.lines++;
		}
		p->hold = false;
		int r = process_line(p, e, &p->in.src[p->in.cur]);
		if (r == LINE_DONE)
			continue;
		if (r == LINE_EVENT_HOLD)
			p->hold = true;
		else if (e->kind == RC_EV_SYSCALL)
			read_backtrace(p, e);
		note_first_event(p, e);
		return 1;
	}
}

int strace_parser_next(struct strace_parser *p, struct rc_event *e, struct strbuf *err)
{
	p->defer = false;
	return next_event(p, e, err);
}

/* S (p NULL: nothing) lies inside E's line. */
static bool in_line(const struct rc_event *e, struct span s)
{
	return !s.p || (e->line && s.p >= e->line && s.p + s.n <= e->line + e->line_len);
}

/* The argument facts P left of W's event, left in W: where the text lies
 * in the line, which the pump copies with the event. Text outside the
 * line (a call whose start the log lacked is read from a buffer of its
 * own) is read now. */
static void leave_in_line(struct strace_parser *p, struct strace_work *w)
{
	const struct call_text *ct = &p->left.text;
	const char *line = w->ev.line;

	if (!in_line(&w->ev, ct->args) || !in_line(&w->ev, ct->ret)) {
		call_facts(&w->ev, p->left.sc, ct, p->left.elided, &p->arena);
		return;
	}
	w->left = (struct strace_left){
		.sc = p->left.sc,
		.args_at = (size_t)(ct->args.p - line), .args_len = ct->args.n,
		.ret_at = ct->ret.p ? (size_t)(ct->ret.p - line) : 0, .ret_len = ct->ret.p ? ct->ret.n : 0,
		.complete = ct->complete, .elided = p->left.elided,
	};
}

int strace_parser_pump(void *arg, void *item, bool leave)
{
	struct strace_parser *p = arg;
	struct strace_work *w = item;

	p->defer = leave;
	int r = next_event(p, &w->ev, &p->err);
	/* The work item keeps the stack: the pump drops it once fed. */
	p->stack = NULL;
	w->left.sc = NULL;
	if (r > 0 && p->left.sc)
		leave_in_line(p, w);
	return r;
}

void strace_work_finish(void *item, struct arena *a)
{
	struct strace_work *w = item;
	const struct strace_left *l = &w->left;

	if (!l->sc)
		return;
	const char *line = w->ev.line;
	const struct call_text ct = {
		span_make(line + l->args_at, l->args_len), l->complete,
		l->ret_len ? span_make(line + l->ret_at, l->ret_len) : span_make(NULL, 0),
	};
	call_facts(&w->ev, l->sc, &ct, l->elided, a);
	w->left.sc = NULL;
}

const struct strace_stats *strace_parser_stats(const struct strace_parser *p)
{
	return &p->stats;
}

const struct strace_summary *strace_parser_summary(const struct strace_parser *p)
{
	return &p->summary;
}

void strace_parser_free(struct strace_parser *p)
{
	if (!p)
		return;
	input_release(&p->in);
	join_release(&p->join);
	imap_release(&p->live);
	imap_release(&p->seen);
	imap_release(&p->returned);
	imap_release(&p->attached);
	imap_release(&p->io_seen);
	arena_release(&p->arena);
	strbuf_release(&p->joined);
	strbuf_release(&p->carry);
	strbuf_release(&p->carry_out);
	strbuf_release(&p->err);
	strace_summary_release(&p->summary);
	stack_unref(p->stack);
	for (size_t i = 0; i < STACK_MEMO; i++) {
		stack_unref(p->memo[i].s);
		free(p->memo[i].text);
	}
	free(p);
}
