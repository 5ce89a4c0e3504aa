/* Signals: rt_sigaction, rt_sigprocmask, rt_sigreturn and friends, and the
 * signal names, sigsets and siginfos the other families and the tracer's
 * "--- SIGSEGV {...} ---" lines print. The kill family is in process.c. */
#include "capture/decode.h"

#include <errno.h>
#include <linux/audit.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "capture/decode/decoders.h"
#include "gen/tables.h"
#include "util/util.h"

/* A kernel ABI value glibc's <signal.h> does not define; <asm/signal.h>
 * does, but it clashes with glibc's header. */
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

/* The kernel's sigset on x86_64: 64 signals (strace's NSIG_BYTES). */
#define KSIGSET_BYTES 8

/*
 * Names.
 */
const char *dec_signame(int sig)
{
	/* "SIGRT_32" and the NUL; strace names SIGRTMIN+n this way. */
	static char rt[__SIGRTMAX - __SIGRTMIN + 1][sizeof("SIGRT_32")];

	if (sig <= 0)
		return NULL;
	/* glibc's headers make SIGIO the alias of SIGPOLL; strace prints
	 * SIGIO. */
	if (sig == SIGIO)
		return "SIGIO";
	if (sig < __SIGRTMIN)
		return xlat_name(&rc_xlat_signal, sig);
	if (sig == __SIGRTMIN)
		return "SIGRTMIN";
	if (sig > __SIGRTMAX)
		return NULL;
	char *name = rt[sig - __SIGRTMIN];
	if (!name[0])
		snprintf(name, sizeof(rt[0]), "SIGRT_%d", sig - __SIGRTMIN);
	return name;
}

void dec_signal(struct dec *d, int sig)
{
	const char *name = dec_signame(sig);

	if (name)
		strbuf_adds(d->out, name);
	else
		strbuf_addf(d->out, "%d", sig);
}

/* strace's sprintsigmask_n over BYTES bytes of MASK. */
static void sigmask_text(struct strbuf *out, const uint32_t *mask, size_t bytes)
{
	size_t words = (MIN(bytes, (size_t)KSIGSET_BYTES) + 3) / 4;
	uint32_t m[KSIGSET_BYTES / 4];
	unsigned set = 0;
	bool first = true;

	for (size_t i = 0; i < words; i++) {
		m[i] = mask[i];
		set += (unsigned)__builtin_popcount(m[i]);
	}
	/* Mostly full sets print as what is missing. */
	if (set >= words * 32 * 2 / 3) {
		for (size_t i = 0; i < words; i++)
			m[i] = ~m[i];
		strbuf_addc(out, '~');
	}
	strbuf_addc(out, '[');
	for (size_t bit = 0; bit < words * 32; bit++) {
		if (!(m[bit / 32] & (1u << (bit % 32))))
			continue;
		if (!first)
			strbuf_addc(out, ' ');
		first = false;
		const char *name = dec_signame((int)bit + 1);
		if (name)
			strbuf_adds(out, name + 3);
		else
			strbuf_addf(out, "%zu", bit + 1);
	}
	strbuf_addc(out, ']');
}

/* print_sigset_addr_len_limit: LEN outside [MIN_LEN, 8] prints the
 * address. */
static void sigset_at(struct dec *d, uint64_t addr, uint64_t len, uint64_t min_len)
{
	uint32_t mask[KSIGSET_BYTES / 4] = { 0 };

	if (len < min_len || len > KSIGSET_BYTES) {
		dec_ptr(d, addr);
		return;
	}
	if (dec_umove(d, addr, mask, (size_t)len))
		sigmask_text(d->out, mask, (size_t)len);
}

void dec_sigset(struct dec *d, uint64_t addr, uint64_t len)
{
	sigset_at(d, addr, len, sizeof(long));
}

/*
 * siginfo, as strace's printsiginfo.
 */

static void put_ptr(struct strbuf *out, const char *field, const void *p)
{
	if (p)
		strbuf_addf(out, ", %s=%#llx", field, (unsigned long long)(uintptr_t)p);
	else
		strbuf_addf(out, ", %s=NULL", field);
}

/* A signal's name, or its number for one the tables lack. */
static void put_signal(struct strbuf *out, int sig)
{
	const char *name = dec_signame(sig);

	if (name)
		strbuf_adds(out, name);
	else
		strbuf_addf(out, "%d", sig);
}

/* An id: unsigned, except -1. */
static void put_id(struct strbuf *out, const char *field, unsigned id)
{
	if (id == (unsigned)-1)
		strbuf_addf(out, ", %s=-1", field);
	else
		strbuf_addf(out, ", %s=%u", field, id);
}

static void put_source(struct strbuf *out, const siginfo_t *si)
{
	strbuf_addf(out, ", si_pid=%d", (int)si->si_pid);
	put_id(out, "si_uid", (unsigned)si->si_uid);
}

static void put_value(struct strbuf *out, const siginfo_t *si)
{
	strbuf_addf(out, ", si_int=%d", si->si_int);
	put_ptr(out, "si_ptr", si->si_ptr);
}

static void put_clock(struct strbuf *out, const char *field, unsigned long long v)
{
	strbuf_addf(out, ", %s=", field);
	dec_clock_t(out, v);
}

static void put_syscall(struct strbuf *out, const siginfo_t *si)
{
	const char *name = NULL;

	if ((unsigned)si->si_arch == AUDIT_ARCH_X86_64)
		name = xlat_name(&rc_xlat_syscall, si->si_syscall);
	if (name)
		strbuf_addf(out, ", si_syscall=__NR_%s", name);
	else
		strbuf_addf(out, ", si_syscall=%u", (unsigned)si->si_syscall);
}

static void put_info(struct strbuf *out, const siginfo_t *si)
{
	if (si->si_errno) {
		const char *e = xlat_errno_name(si->si_errno);
		if (e)
			strbuf_addf(out, ", si_errno=%s", e);
		else
			strbuf_addf(out, ", si_errno=%u", (unsigned)si->si_errno);
	}
	if (si->si_code <= 0) {
		/* Sent by a process. */
		switch (si->si_code) {
		case SI_USER:
		case SI_TKILL:
			put_source(out, si);
			break;
		case SI_TIMER:
			strbuf_addf(out, ", si_timerid=%#x, si_overrun=%d", (unsigned)si->si_timerid,
				    si->si_overrun);
			put_value(out, si);
			break;
		case SI_SIGIO:
			strbuf_addf(out, ", si_band=%ld, si_fd=%d", si->si_band, si->si_fd);
			break;
		default:
			put_source(out, si);
			if (si->si_ptr)
				put_value(out, si);
			break;
		}
		return;
	}
	switch (si->si_signo) {
	case SIGCHLD:
		put_source(out, si);
		if (si->si_code == CLD_EXITED) {
			strbuf_addf(out, ", si_status=%d", si->si_status);
		} else {
			strbuf_add(out, ", si_status=", 12);
			put_signal(out, si->si_status);
		}
		put_clock(out, "si_utime", (unsigned long long)si->si_utime);
		put_clock(out, "si_stime", (unsigned long long)si->si_stime);
		break;
	case SIGILL:
	case SIGFPE:
	case SIGTRAP:
		put_ptr(out, "si_addr", si->si_addr);
		break;
	case SIGBUS:
		put_ptr(out, "si_addr", si->si_addr);
		if (si->si_code == BUS_MCEERR_AR || si->si_code == BUS_MCEERR_AO)
			strbuf_addf(out, ", si_addr_lsb=%#x", (unsigned)si->si_addr_lsb);
		break;
	case SIGSEGV:
		put_ptr(out, "si_addr", si->si_addr);
		if (si->si_code == SEGV_BNDERR) {
			put_ptr(out, "si_lower", si->si_lower);
			put_ptr(out, "si_upper", si->si_upper);
		} else if (si->si_code == SEGV_PKUERR) {
			strbuf_addf(out, ", si_pkey=%u", (unsigned)si->si_pkey);
		}
		break;
	case SIGIO:
		switch (si->si_code) {
		case POLL_IN: case POLL_OUT: case POLL_MSG:
		case POLL_ERR: case POLL_PRI: case POLL_HUP:
			strbuf_addf(out, ", si_band=%ld, si_fd=%d", si->si_band, si->si_fd);
			break;
		}
		break;
	case SIGSYS: {
		put_ptr(out, "si_call_addr", si->si_call_addr);
		put_syscall(out, si);
		const char *arch = xlat_name(&rc_xlat_audit_arches, (unsigned)si->si_arch);
		if (arch)
			strbuf_addf(out, ", si_arch=%s", arch);
		else
			strbuf_addf(out, ", si_arch=%#x /* AUDIT_ARCH_??? */", (unsigned)si->si_arch);
		break;
	}
	default:
		if (si->si_pid || si->si_uid)
			put_source(out, si);
		if (si->si_ptr)
			put_value(out, si);
		break;
	}
}

void dec_siginfo(struct strbuf *out, const siginfo_t *si)
{
	strbuf_addc(out, '{');
	if (si->si_signo) {
		strbuf_add(out, "si_signo=", 9);
		put_signal(out, si->si_signo);
		strbuf_add(out, ", si_code=", 10);
		/* strace names a 0 code SI_USER whoever sent it. */
		const char *code = xlat_si_code_name(si->si_signo, si->si_code, 1);
		if (code)
			strbuf_adds(out, code);
		else
			strbuf_addf(out, "%#x", (unsigned)si->si_code);
		put_info(out, si);
	}
	strbuf_addc(out, '}');
}

void dec_siginfo_at(struct dec *d, uint64_t addr)
{
	siginfo_t si;

	if (dec_umove(d, addr, &si, sizeof(si)))
		dec_siginfo(d->out, &si);
}

/*
 * The calls.
 */

/* The kernel's struct sigaction on x86_64, with the mask as long as
 * strace reads it (NSIG / sizeof(long) words). */
struct k_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask[NSIG / sizeof(long)];
};

static void sigaction_at(struct dec *d, uint64_t addr)
{
	struct k_sigaction sa;
	const char *h;

	if (!dec_umove(d, addr, &sa, sizeof(sa)))
		return;
	strbuf_add(d->out, "{sa_handler=", 12);
	h = xlat_name(&rc_xlat_sa_handler_values, sa.handler);
	if (h)
		strbuf_adds(d->out, h);
	else
		dec_ptr(d, sa.handler);
	strbuf_add(d->out, ", sa_mask=", 10);
	sigmask_text(d->out, (const uint32_t *)sa.mask, KSIGSET_BYTES);
	strbuf_add(d->out, ", sa_flags=", 11);
	xlat_print_flags(d->out, &rc_xlat_sigact_flags, sa.flags, "SA_???");
	if (sa.flags & SA_RESTORER) {
		strbuf_add(d->out, ", sa_restorer=", 14);
		dec_ptr(d, sa.restorer);
	}
	strbuf_addc(d->out, '}');
}

void dec_rt_sigaction(struct dec *d)
{
	if (!d->exiting) {
		dec_signal(d, (int)d->call.args[0]);
		dec_sep(d);
		sigaction_at(d, d->call.args[1]);
		dec_sep(d);
	} else {
		sigaction_at(d, d->call.args[2]);
		dec_sep(d);
		dec_ulong(d, 3);
	}
}

void dec_rt_sigprocmask(struct dec *d)
{
	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_sigprocmaskcmds, (unsigned)d->call.args[0], "SIG_???");
		dec_sep(d);
		dec_sigset(d, d->call.args[1], d->call.args[3]);
		dec_sep(d);
	} else {
		dec_sigset(d, d->call.args[2], d->call.args[3]);
		dec_sep(d);
		dec_ulong(d, 3);
	}
}

/* The mask rt_sigreturn restores sits in the signal frame the stack
 * pointer points just past (the handler's return popped pretcode):
 * frame = sp - 8, mask = frame + 8 + offsetof(ucontext_t, uc_sigmask). A
 * source without the stack pointer shows no argument. */
void dec_rt_sigreturn(struct dec *d)
{
	if (d->exiting || !d->call.sp)
		return;
	strbuf_add(d->out, "{mask=", 6);
	sigset_at(d, d->call.sp + offsetof(ucontext_t, uc_sigmask), KSIGSET_BYTES, KSIGSET_BYTES);
	strbuf_addc(d->out, '}');
}

void dec_rt_sigpending(struct dec *d)
{
	if (!d->exiting)
		return;
	/* The one call whose size may be below a word (sigpending). */
	sigset_at(d, d->call.args[0], d->call.args[1], 1);
	dec_sep(d);
	dec_ulong(d, 1);
}

void dec_rt_sigsuspend(struct dec *d)
{
	if (d->exiting)
		return;
	dec_sigset(d, d->call.args[0], d->call.args[1]);
	dec_sep(d);
	dec_ulong(d, 1);
}

/* rt_sigtimedwait prints its timeout after the siginfo it returns, but
 * the timeout is read at entry (strace's sprint_timespec): priv[0..1] hold
 * it, priv[2] how it printed. */
enum { TS_NULL, TS_READ, TS_ADDR };

void dec_rt_sigtimedwait(struct dec *d)
{
	if (!d->exiting) {
		dec_sigset(d, d->call.args[0], d->call.args[3]);
		dec_sep(d);
		if (!d->call.args[1]) {
			dec_ptr(d, d->call.args[1]);
			dec_sep(d);
			dec_timespec(d, d->call.args[2], NULL);
			dec_sep(d);
			dec_ulong(d, 3);
			return;
		}
		int64_t ts[2];
		if (!d->call.args[2])
			d->priv[2] = TS_NULL;
		else if (mem_read(d->call.mem, d->call.args[2], ts, sizeof(ts)) == (ssize_t)sizeof(ts))
			d->priv[2] = TS_READ;
		else
			d->priv[2] = TS_ADDR;
		if (d->priv[2] == TS_READ) {
			d->priv[0] = (uint64_t)ts[0];
			d->priv[1] = (uint64_t)ts[1];
		}
		return;
	}
	if (d->call.args[1]) {
		dec_siginfo_at(d, d->call.args[1]);
		dec_sep(d);
		if (d->priv[2] == TS_READ)
			strbuf_addf(d->out, "{tv_sec=%lld, tv_nsec=%llu}", (long long)d->priv[0],
				    (unsigned long long)d->priv[1]);
		else
			dec_ptr(d, d->call.args[2]);
		dec_sep(d);
		dec_ulong(d, 3);
	}
	if (!d->call.err && d->call.rval) {
		const char *name = dec_signame((int)d->call.rval);
		if (name)
			strbuf_addf(d->rv_extra, "(%s)", name);
	}
}

void dec_rt_sigqueueinfo(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%d, ", (int)d->call.args[0]);
	dec_signal(d, (int)d->call.args[1]);
	dec_sep(d);
	dec_siginfo_at(d, d->call.args[2]);
}

void dec_rt_tgsigqueueinfo(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%d, %d, ", (int)d->call.args[0], (int)d->call.args[1]);
	dec_signal(d, (int)d->call.args[2]);
	dec_sep(d);
	dec_siginfo_at(d, d->call.args[3]);
}

static void stack_at(struct dec *d, uint64_t addr)
{
	stack_t ss;

	if (!dec_umove(d, addr, &ss, sizeof(ss)))
		return;
	strbuf_add(d->out, "{ss_sp=", 7);
	dec_ptr(d, (uint64_t)(uintptr_t)ss.ss_sp);
	strbuf_add(d->out, ", ss_flags=", 11);
	xlat_print_flags(d->out, &rc_xlat_sigaltstack_flags, (unsigned)ss.ss_flags, "SS_???");
	strbuf_addf(d->out, ", ss_size=%zu}", ss.ss_size);
}

void dec_sigaltstack(struct dec *d)
{
	if (!d->exiting) {
		stack_at(d, d->call.args[0]);
		dec_sep(d);
	} else {
		stack_at(d, d->call.args[1]);
	}
}

/* signalfd(fd, mask, size) and signalfd4(..., flags). */
void dec_signalfd(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	dec_sigset(d, d->call.args[1], d->call.args[2]);
	dec_sep(d);
	dec_ulong(d, 2);
	if (d->call.nr == SYS_signalfd4) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_sfd_flags, (unsigned)d->call.args[3], "SFD_???");
	}
}

void dec_signal_line(struct strbuf *out, const siginfo_t *si)
{
	strbuf_reset(out);
	strbuf_adds(out, "--- ");
	put_signal(out, si->si_signo);
	strbuf_addc(out, ' ');
	dec_siginfo(out, si);
	strbuf_adds(out, " ---");
}

void dec_stop_line(struct strbuf *out, int sig)
{
	strbuf_reset(out);
	strbuf_adds(out, "--- stopped by ");
	put_signal(out, sig);
	strbuf_adds(out, " ---");
}

void dec_exit_line(struct strbuf *out, const struct rc_event *e)
{
	strbuf_reset(out);
	if (e->exited) {
		strbuf_addf(out, "+++ exited with %d +++", e->exit_code);
		return;
	}
	strbuf_adds(out, "+++ killed by ");
	put_signal(out, e->signo);
	strbuf_adds(out, e->core_dumped ? " (core dumped) +++" : " +++");
}

/* Kernel-internal errnos a call can show a tracer (include/linux/errno.h);
 * strace prints their explanations, as do we. */
static const char *errno_text(int err)
{
	switch (err) {
	case 512: return "To be restarted if SA_RESTART is set";
	case 513: return "To be restarted";
	case 514: return "To be restarted if no handler";
	case 515: return "Unknown ioctl command";
	case 516: return "Interrupted by signal";
	default: return strerror(err);
	}
}

void dec_error_rv(struct strbuf *out, int err)
{
	const char *name = xlat_errno_name(err);
	bool restart = err >= 512 && err <= 516;

	if (name)
		strbuf_addf(out, "%s %s (%s)", restart ? "?" : "-1", name, errno_text(err));
	else
		strbuf_addf(out, "-1 E??? (errno %d)", err);
}
