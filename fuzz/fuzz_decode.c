/* libFuzzer entry for the tracer's syscall decoders (capture/decode/).
 *
 * A decoder reads the tracee's memory, which the traced program controls:
 * lengths, counts and strings there are as untrusted as a log's bytes. So
 * the input here picks calls (number, six arguments, return value or
 * errno) and a blob of bytes placed in this process's own memory, and the
 * calls are decoded as the tracer does, entry half then exit half, their
 * memory this process's own, read as a tracee's is (capture/call.h's
 * mem_live, as the unit tests do).
 * Nothing is ever called with those arguments: we only decode.
 *
 * The blob ends exactly where a PROT_NONE page begins, so that a decoder
 * that reads a length it found in memory runs into the guard and must cope
 * with a failed read; the blob is zero-padded in front, with another guard
 * page before the padding.
 *
 * Input layout (missing bytes read as zero):
 *
 *	u8  opts	bit0 -y, bit1 -x, bit2 through capture.c's hooks
 *			(else a direct decode as tests/unit/decode_test.h),
 *			bit3 run's options (-s 1024, preview 1024), bit4-5
 *			calls - 1, bit6 no data preview (trace's default),
 *			bit7 the capture printer's -tt -T
 *	u16 strsize	modulo 301
 *	u16 preview	modulo 1100
 *	u8  nrelocs	bits 0-5 modulo 33; bit7: the padding before the
 *			blob is 'A's, not zeroes, so that strings cross pages
 *	calls, 62 bytes each:
 *	  u8  kind	bit0-1: 0,1 a call, 2 a signal delivery (siginfo
 *			from the blob, its si_signo made a real signal), 3 a
 *			call that never returns (the thread dies inside it);
 *			bit2 the call failed; bit3 signal: a group-stop
 *			instead (capture mode)
 *	  u16 nr	below 0xff00: modulo dec_nr_max() + 8, else one of
 *			the odd numbers in odd_nrs[] (-1, x32, huge)
 *	  u8  ptrmask	bit i: argument i is an address (see map_addr)
 *	  u64 args[6]
 *	  u64 ret	the return value; when failed, the errno modulo 600
 *	  u8  spare
 *	relocs, 6 bytes each: u16 at, u32 target: the blob's 8 bytes at AT
 *	  become map_addr(target spread over 64 bits), so that iovecs,
 *	  msghdrs and argv arrays can point back into the blob
 *	blob: the rest
 *
 * With RC_FUZZ_DECODE_SEEDS=DIR set, the program writes a seed corpus
 * (every decoded call with plausible memory) into DIR and exits; fuzz/run
 * does that before fuzzing. With RC_FUZZ_DECODE_STRICT=1 a decoder's text
 * must also be one line of text (no NUL or newline) that the strace parser
 * reads back as one event. RC_FUZZ_DECODE_SKIP=NR,NR... drops inputs
 * that call those numbers, to fuzz on past a known bug until it is fixed.
 * RC_FUZZ_DECODE_PROCMEM=1 (EPERM) or 2 (ENOSYS) makes process_vm_readv
 * fail through a seccomp filter, so that capture/mem.c reads through
 * /proc/PID/mem instead, as it does where the kernel refuses the call.
 * That file reads PROT_NONE pages too (the kernel forces the access, as
 * for PTRACE_PEEKDATA), so then the guard pages are holes instead.
 * RC_FUZZ_DECODE_PRINT=1 prints each decoded line (direct mode) on stderr,
 * to read what a crashing input decodes.
 */
#include <errno.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/decode.h"
#include "report/report.h"
#include "diagnose/diagnose.h"
#include "strace/parser.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"
#include "input.h"
#include "touch.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CALLS 4
#define MAX_BLOB (64u * 1024)
#define PAD (4096u)	/* zeroes before the blob */

/* The memory the calls point into: [guard][pad + blob area][guard]. */
static struct {
	unsigned char *base;	/* the first guard */
	unsigned char *area;	/* after it */
	unsigned char *end;	/* the second guard: the blob ends here */
	size_t area_len;
	size_t dirty;		/* bytes before END written by the last input */
	size_t page;
} mem;

static bool strict, print_lines;
static long skip_nrs[64];
static int nskip;
static FILE *devnull;
/* A readable address that is neither the blob nor a heap object. */
static const char rodata[] = "/etc/ld.so.cache";

static const long odd_nrs[] = {
	-1, -2, LONG_MIN, LONG_MAX, INT_MAX, (long)INT_MAX + 1, 0x10000, 0xffff,
	0x40000000, 0x40000000 | SYS_read, 0x40000000 | SYS_execve, 0x40000000 | 512,
	0x40000000 | 545, 0x80000000L, -4096,
};

static void mem_setup(bool holes)
{
	long ps = sysconf(_SC_PAGESIZE);

	mem.page = ps > 0 ? (size_t)ps : 4096;
	mem.area_len = (MAX_BLOB + PAD + mem.page - 1) / mem.page * mem.page;
	mem.base = mmap(NULL, mem.area_len + 2 * mem.page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem.base == MAP_FAILED)
		abort();
	mem.area = mem.base + mem.page;
	mem.end = mem.area + mem.area_len;
	if (holes ? munmap(mem.base, mem.page) || munmap(mem.end, mem.page)
		  : mprotect(mem.base, mem.page, PROT_NONE) || mprotect(mem.end, mem.page, PROT_NONE))
		abort();
}

/* Place BLOB so that it ends at the guard; the padding before it is
 * zeroes, or 'A's when FILL. */
static unsigned char *mem_place(const uint8_t *blob, size_t len, bool fill)
{
	unsigned char *start = mem.end - len;

	memset(mem.end - mem.dirty, 0, mem.dirty);
	if (len)
		memcpy(start, blob, len);
	mem.dirty = len;
	if (fill) {
		memset(start - PAD, 'A', PAD);
		mem.dirty += PAD;
	}
	return start;
}

/* process_vm_readv fails with ERR from now on. */
static void deny_vm_readv(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		abort();
}

/*
 * An address argument from a raw 64-bit value: the top four bits choose
 * where, the low 32 bits how far in.
 *	0-7, 12-15	inside the blob, its end (the guard) included
 *	8-9		the last 32 bytes of the blob, or the guard itself
 *	10		up to a page before the blob (zeroes, or the first guard)
 *	11		a wild address from the table below
 */
static uint64_t map_addr(uint64_t raw, const unsigned char *blob, size_t len)
{
	uint64_t sel = raw >> 60, off = raw & 0xffffffffu;
	uint64_t b = (uint64_t)(uintptr_t)blob, e = (uint64_t)(uintptr_t)mem.end;

	switch (sel) {
	case 8:
	case 9:
		return e - off % (MIN(len, 32u) + 1);
	case 10:
		return b - off % (PAD + mem.page + 1);
	case 11: {
		const uint64_t wild[] = {
			0, 1, 0x10, 0xfff, 0x1000, UINT64_MAX, UINT64_MAX - 7, (uint64_t)-4096,
			0xffffffff80000000ull, 0xffff800000000000ull, 0x00007ffffffff000ull,
			1ull << 47, 1ull << 63, e, e + mem.page - 1, (uint64_t)(uintptr_t)mem.base,
			(uint64_t)(uintptr_t)rodata, (uint64_t)(uintptr_t)&sink,
			(uint64_t)(uintptr_t)(rodata + sizeof(rodata) - 1),
		};
		return wild[off % (sizeof(wild) / sizeof(wild[0]))];
	}
	default:
		return b + off % (len + 1);
	}
}

struct call {
	int kind;
	bool failed;
	bool group_stop;
	long nr;
	uint64_t args[6];
	long long rval;	/* the kernel's: -errno when failed */
};

static long map_nr(uint64_t v)
{
	if (v >= 0xff00)
		return odd_nrs[(v - 0xff00) % (sizeof(odd_nrs) / sizeof(odd_nrs[0]))];
	return (long)(v % (uint64_t)(dec_nr_max() + 8));
}

/* Every string the event holds must be readable, every count sane. */
static void check_event(const struct rc_event *e, const struct dec_opts *o)
{
	touch(e->name);
	touch(e->path);
	touch(e->path2);
	touch_shown(e->fd_shown);
	touch_shown(e->dir_shown);
	touch(e->sa.host);
	if (e->nfds < 0 || e->nfds > RC_EVENT_MAX_FDS || e->argc < 0 || e->argc > RC_EVENT_MAX_ARGV)
		__builtin_trap();
	for (int i = 0; i < e->argc; i++) {
		if (!e->argv[i])
			__builtin_trap();
		touch(e->argv[i]);
	}
	if (e->data_len) {
		if (!e->data || e->data_len > o->preview_max)
			__builtin_trap();
		sink += e->data[0] + e->data[e->data_len - 1];
	}
}

/* One line of text: what a log would hold, and what the parser reads. */
static void check_text(const struct strbuf *sb)
{
	if (!strict || !sb->len)
		return;
	if (memchr(sb->buf, '\0', sb->len) || memchr(sb->buf, '\n', sb->len)) {
		fprintf(stderr, "strict: a NUL or newline in \"%.*s\"\n", (int)MIN(sb->len, 2000u), sb->buf);
		__builtin_trap();
	}
}

static void parse_back(const struct strbuf *line)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct strace_parser *p;
	struct rc_event e;
	int n = 0;

	strbuf_add(&text, line->buf, line->len);
	strbuf_addc(&text, '\n');
	p = strace_parser_from_buffer(text.buf, text.len);
	while (strace_parser_next(p, &e, &err) == 1)
		n++;
	strace_parser_free(p);
	strbuf_release(&text);
	strbuf_release(&err);
	if (strict && n != 1) {
		fprintf(stderr, "strict: the parser read %d events from \"%s\"\n", n, line->buf);
		__builtin_trap();
	}
}

/*
 * The direct way: the decoders alone, as tests/unit/decode_test.h drives
 * them, the event checked, then fed to the rules with its line.
 */
struct direct {
	struct dec_arena arena;
	struct strbuf out, rv_extra, line;
	struct rc_event ev;
	char name[32];		/* capture.c's name for unnamed calls */
};

static void direct_call(struct direct *t, const struct call *c, const struct dec_opts *o,
			struct rc_engine *eng, double ts)
{
	struct dec d;
	struct mem_live self;
	bool returns = c->kind != 3;

	dec_arena_reset(&t->arena);
	strbuf_reset(&t->out);
	strbuf_reset(&t->rv_extra);
	strbuf_reset(&t->line);
	event_clear(&t->ev);
	t->ev.kind = RC_EV_SYSCALL;
	t->ev.pid = getpid();
	t->ev.ts = ts;
	t->ev.nr = c->nr;
	t->ev.name = dec_syscall_name(c->nr);
	if (!t->ev.name) {
		snprintf(t->name, sizeof(t->name), "syscall_%#lx", (unsigned long)c->nr);
		t->ev.name = t->name;
	}

	memset(&d, 0, sizeof(d));
	d.tid = getpid();
	mem_live_init(&self, getpid());
	d.call.mem = &self.m;
	d.call.nr = c->nr;
	memcpy(d.call.args, c->args, sizeof(d.call.args));
	d.e = &t->ev;
	d.out = &t->out;
	d.arena = &t->arena;
	d.opts = o;
	d.rv_extra = &t->rv_extra;
	dec_call(&d);
	check_event(&t->ev, o);
	if (returns) {
		d.exiting = true;
		d.call.rval = c->failed ? -1 : c->rval;
		d.call.err = c->failed ? (int)-c->rval : 0;
		dec_call(&d);
		t->ev.ret_known = true;
		t->ev.ret = c->failed ? -1 : c->rval;
		t->ev.err = c->failed ? (int)-c->rval : 0;
		t->ev.interrupted = t->ev.err >= 512 && t->ev.err <= 516;
		t->ev.dur = 0.001;
		check_event(&t->ev, o);
	}
	check_text(&t->out);
	check_text(&t->rv_extra);

	strbuf_addf(&t->line, "%s(", t->ev.name);
	strbuf_add(&t->line, t->out.buf, t->out.len);
	if (returns) {
		const struct dec_syscall *sc = dec_lookup(c->nr);
		const char *en = xlat_errno_name(t->ev.err);
		strbuf_adds(&t->line, ") = ");
		if (c->failed && en)
			strbuf_addf(&t->line, "-1 %s (%s)", en, strerror(t->ev.err));
		else if (c->failed)
			strbuf_addf(&t->line, "-1 E??? (errno %d)", t->ev.err);
		else if (sc && sc->rv == RC_RV_HEX)
			strbuf_addf(&t->line, "%#llx", (unsigned long long)c->rval);
		else
			strbuf_addf(&t->line, "%lld", c->rval);
		if (t->rv_extra.len) {
			strbuf_addc(&t->line, ' ');
			strbuf_add(&t->line, t->rv_extra.buf, t->rv_extra.len);
		}
	} else {
		strbuf_adds(&t->line, ") = ?");
	}
	if (print_lines)
		fprintf(stderr, "decoded: %s\n", t->line.buf);
	parse_back(&t->line);
	t->ev.line = t->line.buf;
	t->ev.line_len = t->line.len;
	engine_feed(eng, &t->ev);
}

/* The siginfo of a signal delivery: anything a process can queue to
 * itself (rt_tgsigqueueinfo lets it choose si_code and the union), but the
 * kernel sets si_signo to the signal, which is always a real one. */
static void siginfo_from(siginfo_t *si, const unsigned char *blob, size_t len)
{
	memset(si, 0, sizeof(*si));
	memcpy(si, blob, MIN(len, sizeof(*si)));
	si->si_signo = 1 + (int)((unsigned)si->si_signo % 64);
}

static void direct_signal(struct direct *t, const unsigned char *blob, size_t len,
			  struct rc_engine *eng, double ts)
{
	siginfo_t si;

	siginfo_from(&si, blob, len);
	strbuf_reset(&t->line);
	strbuf_adds(&t->line, "--- ");
	const char *name = dec_signame(si.si_signo);
	strbuf_adds(&t->line, name ? name : "SIG???");
	strbuf_addc(&t->line, ' ');
	dec_siginfo(&t->line, &si);
	strbuf_adds(&t->line, " ---");
	check_text(&t->line);
	parse_back(&t->line);
	event_clear(&t->ev);
	t->ev.kind = RC_EV_SIGNAL;
	t->ev.pid = getpid();
	t->ev.ts = ts;
	t->ev.signo = si.si_signo;
	t->ev.si_code = si.si_code;
	t->ev.line = t->line.buf;
	t->ev.line_len = t->line.len;
	engine_feed(eng, &t->ev);
}

static void run_direct(const struct call *calls, int ncalls, const struct dec_opts *o,
		       const unsigned char *blob, size_t len, struct rc_engine *eng)
{
	struct direct t;

	memset(&t, 0, sizeof(t));
	for (int i = 0; i < ncalls; i++) {
		if (calls[i].kind == 2)
			direct_signal(&t, blob, len, eng, 1.0 + i);
		else
			direct_call(&t, &calls[i], o, eng, 1.0 + i);
	}
	dec_arena_release(&t.arena);
	strbuf_release(&t.out);
	strbuf_release(&t.rv_extra);
	strbuf_release(&t.line);
}

/* capture.c's events to the rules, as the commands wire them
 * (cmd/pipeline.c). */
static void feed_engine(void *user, struct rc_event *e)
{
	engine_feed(user, e);
}

/*
 * The tracer's own way: capture.c's hooks with a thread that is us, so
 * its return-value printing (-y on new fds), evidence lines, signal and
 * death paths and the printer run too.
 */
static void run_capture(const struct call *calls, int ncalls, const struct dec_opts *o, bool pr_opts,
			const unsigned char *blob, size_t len, struct rc_engine *eng)
{
	struct printer_opts po = {
		.out = devnull,
		.to_file = true,
		.follow = true,
		.ts = pr_opts ? PR_TS_USEC : PR_TS_NONE,
		.durations = pr_opts,
	};
	struct printer *pr = devnull ? printer_new(&po) : NULL;
	struct capture_opts co = {
		.dec = *o, .on_event = feed_engine, .user = eng, .printer = pr,
	};
	struct capture *c = capture_new(&co);
	const struct tracer_hooks *h = capture_hooks();
	struct tracee t = { .tid = getpid(), .tgid = getpid() };
	bool dead = false;

	h->born(c, NULL, &t);
	for (int i = 0; i < ncalls && !dead; i++) {
		const struct call *k = &calls[i];
		if (k->kind == 2) {
			siginfo_t si;
			siginfo_from(&si, blob, len);
			if (k->group_stop)
				h->stopped(c, &t, si.si_signo);
			else
				h->signal(c, &t, &si);
			continue;
		}
		struct ptrace_syscall_info si;
		memset(&si, 0, sizeof(si));
		si.op = PTRACE_SYSCALL_INFO_ENTRY;
		si.entry.nr = (__u64)k->nr;
		memcpy(si.entry.args, k->args, sizeof(si.entry.args));
		h->entry(c, &t, &si);
		t.in_syscall = true;
		if (k->kind == 3) {
			/* The thread dies inside the call: "= ?". */
			h->gone(c, &t, (int)(k->args[0] & 0xffff));
			dead = true;
			break;
		}
		memset(&si, 0, sizeof(si));
		si.op = PTRACE_SYSCALL_INFO_EXIT;
		si.exit.rval = k->rval;
		si.exit.is_error = k->failed;
		h->exit(c, &t, &si);
		t.in_syscall = false;
	}
	if (!dead)
		h->gone(c, &t, 0);
	h->release(c, &t);
	sink += capture_events(c);
	capture_free(c);
	if (pr)
		printer_free(pr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct call calls[MAX_CALLS];
	struct dec_opts o = { 0 };
	uint64_t opts = fuzz_take(&in, 1);
	uint64_t ssize = fuzz_take(&in, 2), prev = fuzz_take(&in, 2);
	uint64_t rbyte = fuzz_take(&in, 1);
	int nrelocs = (int)((rbyte & 63) % 33);
	int ncalls = 1 + (int)((opts >> 4) & 3);
	uint8_t ptrmask[MAX_CALLS];

	o.decode_fds = opts & 1;
	o.hex_all = opts & 2;
	o.strsize = (int)(ssize % 301);
	o.preview_max = (opts & 64) ? 0 : prev % 1100;
	if (opts & 8) {
		o.strsize = 1024;
		o.preview_max = 1024;
	}

	for (int i = 0; i < ncalls; i++) {
		struct call *c = &calls[i];
		uint64_t kind = fuzz_take(&in, 1);
		c->kind = (int)(kind & 3);
		c->failed = kind & 4;
		c->group_stop = kind & 8;
		c->nr = map_nr(fuzz_take(&in, 2));
		ptrmask[i] = (uint8_t)fuzz_take(&in, 1);
		for (int a = 0; a < 6; a++)
			c->args[a] = fuzz_take(&in, 8);
		uint64_t ret = fuzz_take(&in, 8);
		/* The kernel's errnos are 1..4095; 512..516 are the restarts. */
		c->rval = c->failed ? -(long long)(1 + ret % 600) : (long long)ret;
		fuzz_take(&in, 1);
	}
	for (int i = 0; i < ncalls; i++)
		for (int k = 0; k < nskip; k++)
			if (calls[i].nr == skip_nrs[k] && calls[i].kind != 2)
				return -1;
	uint64_t relocs[33][2];
	for (int i = 0; i < nrelocs; i++) {
		relocs[i][0] = fuzz_take(&in, 2);
		relocs[i][1] = fuzz_take(&in, 4);
	}
	size_t len = MIN(in.left, (size_t)MAX_BLOB);
	unsigned char *blob = mem_place(in.p, len, rbyte & 128);
	for (int i = 0; i < nrelocs; i++) {
		uint64_t t = relocs[i][1];
		uint64_t addr = map_addr(((t >> 28) << 60) | (t & 0x0fffffff), blob, len);
		if (relocs[i][0] + 8 <= len)
			memcpy(blob + relocs[i][0], &addr, 8);
	}
	for (int i = 0; i < ncalls; i++)
		for (int a = 0; a < 6; a++)
			if (ptrmask[i] & (1u << a))
				calls[i].args[a] = map_addr(calls[i].args[a], blob, len);

	struct rc_engine eng;
	struct rc_findings findings;
	struct strbuf out = STRBUF_INIT;

	engine_init(&eng);
	findings_init(&findings);
	if (opts & 4)
		run_capture(calls, ncalls, &o, opts & 128, blob, len, &eng);
	else
		run_direct(calls, ncalls, &o, blob, len, &eng);
	engine_finish(&eng, &findings);
	rank_findings(&findings, &eng.procs, eng.no_outcome);
	findings_link(&findings, &eng.procs);
	struct rc_report_findings shown;
	findings_for_report(&findings, &shown);
	struct rc_report rep = {
		.kind = "run",
		.events = (uint64_t)ncalls,
		.procs = &eng.procs,
		.findings = &shown,
	};
	report_text(&rep, &out, false, true);
	strbuf_reset(&out);
	report_json(&rep, &out);
	strbuf_release(&out);
	report_findings_release(&shown);
	engine_release(&eng);
	return 0;
}

/*
 * Seeds: every call the table decodes, with plausible memory behind its
 * pointers, in a few shapes. The blob (offsets from its start):
 *	0	"/tmp/rc-fuzz\0"
 *	64	struct iovec[2] -> 0 (12 bytes), 128 (4 bytes)
 *	96	sockaddr_in 127.0.0.1:53
 *	128	"abc\n"
 *	192	argv: -> 0, -> 128, NULL
 *	256	ints 3, 4, 16, 1
 *	320	struct msghdr: name 96 (16), iov 64 (2), control 512 (24)
 *	384	sockaddr_in6 ::1 port 443
 *	448	a sigset, all set
 *	512	a cmsghdr: SOL_SOCKET SCM_RIGHTS fds 0, 1
 *	536	zeroes up to 1024
 */
struct seed {
	uint8_t buf[1024 + 1024];
	size_t len;
};

static void put(struct seed *s, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		s->buf[s->len++] = (uint8_t)(v >> (8 * i));
}

static void write_seed(const char *dir, const struct seed *s, long nr, int variant)
{
	char name[PATH_MAX];
	FILE *f;

	snprintf(name, sizeof(name), "%s/decode-%ld-%d", dir, nr, variant);
	f = fopen(name, "we");
	if (!f)
		return;
	fwrite(s->buf, 1, s->len, f);
	fclose(f);
}

/* Blob offset OFF as an address argument (map_addr's selector 0). */
#define AT(off) ((uint64_t)(off))

static void make_seed(struct seed *s, long nr, int variant)
{
	static const uint16_t relocs[][2] = {
		{ 64, 0 }, { 80, 128 }, { 192, 0 }, { 200, 128 }, { 320, 96 }, { 336, 64 },
		{ 352, 512 },
	};
	uint8_t blob[1024];
	uint64_t args[6];
	uint8_t mask;
	uint8_t opts = 0;

	memset(blob, 0, sizeof(blob));
	memcpy(blob, "/tmp/rc-fuzz", 12);
	uint64_t v = 12;
	memcpy(blob + 72, &v, 8);
	v = 4;
	memcpy(blob + 88, &v, 8);
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(53),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	memcpy(blob + 96, &sin, sizeof(sin));
	memcpy(blob + 128, "abc\n", 4);
	uint32_t ints[4] = { 3, 4, 16, 1 };
	memcpy(blob + 256, ints, sizeof(ints));
	uint32_t namelen = sizeof(sin);
	memcpy(blob + 328, &namelen, 4);
	v = 2;
	memcpy(blob + 344, &v, 8);
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(443),
				     .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	memcpy(blob + 384, &sin6, sizeof(sin6));
	memset(blob + 448, 0xff, 8);
	v = CMSG_SPACE(2 * sizeof(int));
	memcpy(blob + 360, &v, 8);
	struct cmsghdr cm = { .cmsg_len = CMSG_LEN(2 * sizeof(int)), .cmsg_level = SOL_SOCKET,
			      .cmsg_type = SCM_RIGHTS };
	int fds[2] = { 0, 1 };
	memcpy(blob + 512, &cm, sizeof(cm));
	memcpy(blob + 512 + sizeof(cm), fds, sizeof(fds));

	switch (variant) {
	case 0:		/* every argument an address */
		mask = 0x3f;
		for (int i = 0; i < 6; i++)
			args[i] = AT((uint64_t)i * 64);
		break;
	case 1:		/* fd, buffer, length, address... */
		mask = 0x2a;
		args[0] = 3;
		args[1] = AT(0);
		args[2] = 16;
		args[3] = AT(256);
		args[4] = 0;
		args[5] = AT(320);
		opts = 1;	/* -y */
		break;
	case 2:		/* small numbers and a socket address */
		mask = 0x02;
		args[0] = 3;
		args[1] = AT(96);
		args[2] = 16;
		args[3] = 0;
		args[4] = 0;
		args[5] = 0;
		opts = 4;	/* through capture.c */
		break;
	case 4:		/* AT_FDCWD, a path, flags, a mode */
		mask = 0x02;
		args[0] = (uint64_t)(int64_t)-100;
		args[1] = AT(0);
		args[2] = 0x241;	/* O_WRONLY|O_CREAT|O_TRUNC */
		args[3] = 0644;
		args[4] = 0;
		args[5] = 0;
		opts = 1;
		break;
	case 5:		/* small numbers: options, families, sizes */
		mask = 0;
		for (int i = 0; i < 6; i++)
			args[i] = (uint64_t)i + 1;
		break;
	default:	/* addresses at the very end of the blob */
		mask = 0x3f;
		for (int i = 0; i < 6; i++)
			args[i] = (8ull << 60) | (uint64_t)i;
		opts = 8;
		break;
	}
	s->len = 0;
	put(s, opts, 1);
	put(s, 32, 2);
	put(s, 64, 2);
	put(s, sizeof(relocs) / sizeof(relocs[0]), 1);
	put(s, variant == 3 ? 4 : 0, 1);	/* kind: failed for variant 3 */
	put(s, (uint64_t)nr, 2);
	put(s, mask, 1);
	for (int i = 0; i < 6; i++)
		put(s, args[i], 8);
	put(s, variant == 3 ? EFAULT - 1 : 4, 8);
	put(s, 0, 1);
	for (size_t i = 0; i < sizeof(relocs) / sizeof(relocs[0]); i++) {
		put(s, relocs[i][0], 2);
		put(s, relocs[i][1], 4);
	}
	memcpy(s->buf + s->len, blob, sizeof(blob));
	s->len += sizeof(blob);
}

static void write_seeds(const char *dir)
{
	static struct seed s;

	for (long nr = 0; nr < dec_nr_max() + 2; nr++) {
		if (!dec_lookup(nr) && nr < dec_nr_max())
			continue;
		for (int v = 0; v < 6; v++) {
			make_seed(&s, nr, v);
			write_seed(dir, &s, nr, v);
		}
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("RC_FUZZ_DECODE_SEEDS");
	const char *st = getenv("RC_FUZZ_DECODE_STRICT");

	(void)argc;
	(void)argv;
	if (seeds && *seeds) {
		write_seeds(seeds);
		exit(0);
	}
	strict = st && *st == '1';
	print_lines = getenv("RC_FUZZ_DECODE_PRINT") != NULL;
	const char *pm = getenv("RC_FUZZ_DECODE_PROCMEM");
	if (pm && (*pm == '1' || *pm == '2'))
		deny_vm_readv(*pm == '1' ? EPERM : ENOSYS);
	for (const char *p = getenv("RC_FUZZ_DECODE_SKIP"); p && *p && nskip < 64;) {
		char *end;
		skip_nrs[nskip++] = strtol(p, &end, 0);
		p = *end == ',' ? end + 1 : "";
	}
	mem_setup(pm && (*pm == '1' || *pm == '2'));
	devnull = fopen("/dev/null", "we");
	return 0;
}
