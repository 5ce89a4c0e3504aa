/* Process lifecycle and identity: execve, clone, fork, exit, wait, kill,
 * credentials, limits, prctl and the pidfd calls.
 *
 * Facts as the arguments' roles give them: execve's path and argv,
 * clone's flags word (the flag bits and the exit signal in the low byte),
 * clone3's flags with its exit signal, exit_group's code, wait4's status. */
#include "capture/decode.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <asm/prctl.h>

#include "capture/decode/decoders.h"
#include "event/facts.h"
#include "event/syscalls.h"
#include "gen/tables.h"
#include "util/util.h"

static void pid_arg(struct dec *d, int argi)
{
	strbuf_addf(d->out, "%d", (int)d->call.args[argi]);
}

/* strace's printuid: unsigned, except -1. */
static void uid_val(struct dec *d, unsigned uid)
{
	if (uid == (unsigned)-1)
		strbuf_add(d->out, "-1", 2);
	else
		strbuf_addf(d->out, "%u", uid);
}

/* Every argument as a signed int (strace's printargs_d), also for pid
 * calls: getpgid, setpgid, getsid. */
void dec_args_d(struct dec *d)
{
	const struct rc_syscall *sc = syscall_by_nr(d->call.nr);

	if (d->exiting || !sc)
		return;
	for (int i = 0; i < sc->nargs; i++) {
		if (i)
			dec_sep(d);
		pid_arg(d, i);
	}
}

/*
 * exec.
 */

/* path, argv, envp at ARGS[I..I+2]. */
static void exec_args(struct dec *d, int i)
{
	dec_path_arg(d, i);
	dec_sep(d);
	dec_argv_arg(d, i + 1);
	dec_sep(d);
	dec_envp(d, d->call.args[i + 2]);
}

void dec_execve(struct dec *d)
{
	if (!d->exiting)
		exec_args(d, 0);
}

void dec_execveat(struct dec *d)
{
	if (d->exiting)
		return;
	dec_dirfd(d, (int)d->call.args[0]);
	dec_sep(d);
	exec_args(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_at_flags, (unsigned)d->call.args[4], "AT_???");
}

/*
 * clone, clone3.
 */

/* An int the kernel stores at ADDR: "[1234]". */
static void int_at(struct dec *d, uint64_t addr)
{
	int v;

	if (dec_umove(d, addr, &v, sizeof(v)))
		strbuf_addf(d->out, "[%d]", v);
}

static void fd_at(struct dec *d, uint64_t addr)
{
	int v;

	if (dec_umove(d, addr, &v, sizeof(v))) {
		strbuf_addc(d->out, '[');
		dec_fd(d, v);
		strbuf_addc(d->out, ']');
	}
}

/* x86_64's clone(flags, stack, parent_tid, child_tid, tls). */
void dec_clone(struct dec *d)
{
	unsigned long long flags = d->call.args[0] & ~(unsigned long long)CSIGNAL;
	int sig = (int)(d->call.args[0] & CSIGNAL);

	if (!d->exiting) {
		strbuf_add(d->out, "child_stack=", 12);
		dec_ptr(d, d->call.args[1]);
		strbuf_add(d->out, ", flags=", 8);
		if (flags) {
			xlat_print_flags(d->out, &rc_xlat_clone_flags, flags, "CLONE_???");
			if (sig) {
				strbuf_addc(d->out, '|');
				dec_signal(d, sig);
			}
		} else {
			dec_signal(d, sig);
		}
		return;
	}
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		strbuf_add(d->out, ", parent_tid=", 13);
		if (flags & CLONE_PARENT_SETTID)
			int_at(d, d->call.args[2]);
		else
			fd_at(d, d->call.args[2]);
	}
	if (flags & CLONE_SETTLS) {
		strbuf_add(d->out, ", tls=", 6);
		dec_ptr(d, d->call.args[4]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		strbuf_add(d->out, ", child_tidptr=", 15);
		dec_ptr(d, d->call.args[3]);
	}
}

/* The kernel's struct clone_args, version 2 (88 bytes). */
struct k_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

#define CLONE_ARGS_MIN offsetof(struct k_clone_args, set_tid)

/* priv[0]: whether the exit half prints the "=> {...}" part. */
void dec_clone3(struct dec *d)
{
	struct k_clone_args a;
	uint64_t addr = d->call.args[0], size = d->call.args[1];
	size_t fetch = (size_t)MIN(size, (uint64_t)sizeof(a));

	memset(&a, 0, sizeof(a));
	if (!d->exiting) {
		d->priv[0] = 0;
		if (fetch < CLONE_ARGS_MIN) {
			dec_ptr(d, addr);
		} else if (dec_umove(d, addr, &a, fetch)) {
			event_clone_args_facts(d->e, a.flags, a.exit_signal);
			strbuf_add(d->out, "{flags=", 7);
			xlat_print_flags2(d->out, &rc_xlat_clone_flags, &rc_xlat_clone3_flags, a.flags, "CLONE_???");
			if (a.flags & CLONE_PIDFD) {
				strbuf_add(d->out, ", pidfd=", 8);
				dec_ptr(d, a.pidfd);
			}
			if (a.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
				strbuf_add(d->out, ", child_tid=", 12);
				dec_ptr(d, a.child_tid);
			}
			if (a.flags & CLONE_PARENT_SETTID) {
				strbuf_add(d->out, ", parent_tid=", 13);
				dec_ptr(d, a.parent_tid);
			}
			strbuf_add(d->out, ", exit_signal=", 14);
			if (a.exit_signal < 0x7fffffff)
				dec_signal(d, (int)a.exit_signal);
			else
				strbuf_addf(d->out, "%llu", (unsigned long long)a.exit_signal);
			strbuf_add(d->out, ", stack=", 8);
			dec_ptr(d, a.stack);
			strbuf_addf(d->out, ", stack_size=%#llx", (unsigned long long)a.stack_size);
			if (a.flags & CLONE_SETTLS) {
				strbuf_add(d->out, ", tls=", 6);
				dec_ptr(d, a.tls);
			}
			if (a.set_tid || a.set_tid_size) {
				strbuf_add(d->out, ", set_tid=", 10);
				if (!a.set_tid || !a.set_tid_size || a.set_tid_size > 32) {
					dec_ptr(d, a.set_tid);
				} else {
					int tids[32];
					size_t n = (size_t)a.set_tid_size;
					if (dec_umove(d, a.set_tid, tids, n * sizeof(int))) {
						strbuf_addc(d->out, '[');
						for (size_t i = 0; i < n; i++)
							strbuf_addf(d->out, "%s%d", i ? ", " : "", tids[i]);
						strbuf_addc(d->out, ']');
					}
				}
				strbuf_addf(d->out, ", set_tid_size=%llu",
					    (unsigned long long)a.set_tid_size);
			}
			if (fetch > offsetof(struct k_clone_args, cgroup) &&
			    (a.cgroup || (a.flags & CLONE_INTO_CGROUP)))
				strbuf_addf(d->out, ", cgroup=%llu", (unsigned long long)a.cgroup);
			strbuf_addc(d->out, '}');
			if (a.flags & (CLONE_PIDFD | CLONE_PARENT_SETTID)) {
				d->priv[0] = 1;
				return;
			}
		}
		strbuf_addf(d->out, ", %llu", (unsigned long long)size);
		return;
	}
	if (!d->priv[0])
		return;
	if (!d->call.err) {
		if (mem_read(d->call.mem, addr, &a, fetch) != (ssize_t)fetch) {
			strbuf_add(d->out, " => ", 4);
			dec_ptr(d, addr);
		} else if (a.flags & (CLONE_PIDFD | CLONE_PARENT_SETTID)) {
			const char *sep = " => {";
			if (a.flags & CLONE_PIDFD) {
				strbuf_addf(d->out, "%spidfd=", sep);
				fd_at(d, a.pidfd);
				sep = ", ";
			}
			if (a.flags & CLONE_PARENT_SETTID) {
				strbuf_addf(d->out, "%sparent_tid=", sep);
				int_at(d, a.parent_tid);
			}
			strbuf_addc(d->out, '}');
		}
	}
	strbuf_addf(d->out, ", %llu", (unsigned long long)size);
}

void dec_unshare(struct dec *d)
{
	if (!d->exiting)
		xlat_print_flags(d->out, &rc_xlat_unshare_flags, d->call.args[0], "CLONE_???");
}

void dec_setns(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_setns_types, (unsigned)d->call.args[1], "CLONE_NEW???");
}

/*
 * exit and wait.
 */
void dec_exit(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%d", (int)d->call.args[0]);
}

/* strace's printstatus. */
static void wait_status(struct dec *d, int status)
{
	unsigned rest;

	event_wait_status_facts(d->e, status);
	strbuf_addc(d->out, '[');
	if (WIFSTOPPED(status)) {
		int sig = WSTOPSIG(status);
		strbuf_add(d->out, "{WIFSTOPPED(s) && WSTOPSIG(s) == ", 33);
		dec_signal(d, sig & 0x7f);
		if (sig & 0x80)
			strbuf_add(d->out, " | 0x80", 7);
		strbuf_addc(d->out, '}');
		rest = (unsigned)status & ~(unsigned)W_STOPCODE(sig);
	} else if (WIFSIGNALED(status)) {
		strbuf_add(d->out, "{WIFSIGNALED(s) && WTERMSIG(s) == ", 34);
		dec_signal(d, WTERMSIG(status));
		if (WCOREDUMP(status))
			strbuf_add(d->out, " && WCOREDUMP(s)", 16);
		strbuf_addc(d->out, '}');
		rest = (unsigned)status & ~(unsigned)(W_EXITCODE(0, WTERMSIG(status)) | WCOREFLAG);
	} else if (WIFEXITED(status)) {
		strbuf_addf(d->out, "{WIFEXITED(s) && WEXITSTATUS(s) == %d}", WEXITSTATUS(status));
		rest = (unsigned)status & ~(unsigned)W_EXITCODE(WEXITSTATUS(status), 0);
	} else if (WIFCONTINUED(status)) {
		strbuf_add(d->out, "{WIFCONTINUED(s)}", 17);
		rest = (unsigned)status & ~(unsigned)__W_CONTINUED;
	} else {
		strbuf_addf(d->out, "%#x]", (unsigned)status);
		return;
	}
	if (rest >> 16) {
		strbuf_addc(d->out, '|');
		xlat_print_val(d->out, &rc_xlat_ptrace_events, rest >> 16, "PTRACE_EVENT_???");
		strbuf_add(d->out, "<<16", 4);
		rest &= 0xffff;
	}
	if (rest)
		strbuf_addf(d->out, "|%#x", rest);
	strbuf_addc(d->out, ']');
}

/* A struct rusage, abbreviated as strace does:
 * "{ru_utime={tv_sec=0, tv_usec=0}, ru_stime={...}, ...}". */
static void rusage_at(struct dec *d, uint64_t addr)
{
	struct rusage ru;

	if (!dec_umove(d, addr, &ru, sizeof(ru)))
		return;
	strbuf_addf(d->out,
		    "{ru_utime={tv_sec=%lld, tv_usec=%llu}, ru_stime={tv_sec=%lld, tv_usec=%llu}, ...}",
		    (long long)ru.ru_utime.tv_sec, (unsigned long long)ru.ru_utime.tv_usec,
		    (long long)ru.ru_stime.tv_sec, (unsigned long long)ru.ru_stime.tv_usec);
}

void dec_wait4(struct dec *d)
{
	int status;

	if (!d->exiting) {
		pid_arg(d, 0);
		dec_sep(d);
		return;
	}
	if (!d->call.err && d->call.rval == 0)
		dec_ptr(d, d->call.args[1]);
	else if (dec_umove(d, d->call.args[1], &status, sizeof(status)))
		wait_status(d, status);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_wait4_options, (unsigned)d->call.args[2], "W???");
	dec_sep(d);
	if (!d->call.err && d->call.rval > 0)
		rusage_at(d, d->call.args[3]);
	else
		dec_ptr(d, d->call.args[3]);
}

void dec_waitid(struct dec *d)
{
	if (!d->exiting) {
		unsigned idtype = (unsigned)d->call.args[0];
		xlat_print_val(d->out, &rc_xlat_waitid_types, idtype, "P_???");
		dec_sep(d);
		if (idtype == P_PIDFD)
			dec_fd(d, (int)d->call.args[1]);
		else
			pid_arg(d, 1);
		dec_sep(d);
		return;
	}
	dec_siginfo_at(d, d->call.args[2]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_wait4_options, (unsigned)d->call.args[3], "W???");
	dec_sep(d);
	rusage_at(d, d->call.args[4]);
}

void dec_getrusage(struct dec *d)
{
	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_usagewho, (unsigned)d->call.args[0], "RUSAGE_???");
		dec_sep(d);
	} else {
		rusage_at(d, d->call.args[1]);
	}
}

/*
 * Signals sent.
 */
void dec_kill(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	dec_signal(d, (int)d->call.args[1]);
}

void dec_tgkill(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	pid_arg(d, 1);
	dec_sep(d);
	dec_signal(d, (int)d->call.args[2]);
}

void dec_pidfd_open(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_pidfd_open_flags, (unsigned)d->call.args[1], "PIDFD_???");
}

void dec_pidfd_send_signal(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	dec_signal(d, (int)d->call.args[1]);
	dec_sep(d);
	dec_siginfo_at(d, d->call.args[2]);
	strbuf_addf(d->out, ", %#x", (unsigned)d->call.args[3]);
}

void dec_pidfd_getfd(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	strbuf_addf(d->out, ", %d, %#x", (int)d->call.args[1], (unsigned)d->call.args[2]);
}

/*
 * Credentials.
 */
void dec_uids(struct dec *d)
{
	const struct rc_syscall *sc = syscall_by_nr(d->call.nr);

	if (d->exiting || !sc)
		return;
	for (int i = 0; i < sc->nargs; i++) {
		if (i)
			dec_sep(d);
		uid_val(d, (unsigned)d->call.args[i]);
	}
}

/* getresuid, getresgid: three ids written at exit. */
void dec_getresuid(struct dec *d)
{
	if (!d->exiting)
		return;
	for (int i = 0; i < 3; i++) {
		unsigned id;
		if (i)
			dec_sep(d);
		if (dec_umove(d, d->call.args[i], &id, sizeof(id))) {
			strbuf_addc(d->out, '[');
			uid_val(d, id);
			strbuf_addc(d->out, ']');
		}
	}
}

static void groups_at(struct dec *d, uint64_t addr, unsigned len)
{
	long max = sysconf(_SC_NGROUPS_MAX);
	unsigned shown = MIN(len, (unsigned)(d->opts ? d->opts->strsize : 32));

	if (max > 0 && len > (unsigned long)max) {
		dec_ptr(d, addr);
		return;
	}
	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	if (!len) {
		strbuf_add(d->out, "[]", 2);
		return;
	}
	if (d->exiting && d->call.err) {
		dec_ptr(d, addr);
		return;
	}
	for (unsigned i = 0; i < shown; i++) {
		unsigned gid;
		if (mem_read(d->call.mem, addr + i * sizeof(gid), &gid, sizeof(gid)) != (ssize_t)sizeof(gid)) {
			if (i == 0) {
				dec_ptr(d, addr);
				return;
			}
			strbuf_addf(d->out, ", ... /* %#llx */", (unsigned long long)(addr + i * sizeof(gid)));
			strbuf_addc(d->out, ']');
			return;
		}
		strbuf_add(d->out, i ? ", " : "[", i ? 2 : 1);
		uid_val(d, gid);
		event_add_id(d->e, gid);
	}
	if (shown < len) {
		strbuf_add(d->out, ", ...", 5);
		d->e->ids_truncated = true;
	}
	strbuf_addc(d->out, ']');
}

void dec_setgroups(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	groups_at(d, d->call.args[1], (unsigned)(int)d->call.args[0]);
}

void dec_getgroups(struct dec *d)
{
	if (!d->exiting) {
		pid_arg(d, 0);
		dec_sep(d);
	} else {
		groups_at(d, d->call.args[1], (unsigned)d->call.rval);
	}
}

/*
 * Limits.
 */

static void rlim_val(struct dec *d, uint64_t v)
{
	if (v == UINT64_MAX)
		strbuf_adds(d->out, "RLIM64_INFINITY");
	else if (v > 1024 && v % 1024 == 0)
		strbuf_addf(d->out, "%llu*1024", (unsigned long long)(v / 1024));
	else
		strbuf_addf(d->out, "%llu", (unsigned long long)v);
}

/* The struct rlimit at ADDR, printed, and kept as the limits asked for,
 * or IN_FORCE those the call returned (only when it worked: else the
 * memory holds nothing the kernel wrote). */
static void rlimit_at(struct dec *d, uint64_t addr, bool in_force)
{
	uint64_t r[2];

	if (!dec_umove(d, addr, r, sizeof(r)))
		return;
	if (!in_force || !d->call.err)
		event_rlimit_facts(d->e, in_force, r);
	strbuf_add(d->out, "{rlim_cur=", 10);
	rlim_val(d, r[0]);
	strbuf_add(d->out, ", rlim_max=", 11);
	rlim_val(d, r[1]);
	strbuf_addc(d->out, '}');
}

static void resource_arg(struct dec *d, int argi)
{
	xlat_print_val(d->out, &rc_xlat_resources, (unsigned)d->call.args[argi], "RLIMIT_???");
}

void dec_prlimit64(struct dec *d)
{
	if (!d->exiting) {
		pid_arg(d, 0);
		dec_sep(d);
		resource_arg(d, 1);
		dec_sep(d);
		rlimit_at(d, d->call.args[2], false);
		dec_sep(d);
	} else {
		rlimit_at(d, d->call.args[3], true);
	}
}

void dec_getrlimit(struct dec *d)
{
	if (!d->exiting) {
		resource_arg(d, 0);
		dec_sep(d);
	} else {
		rlimit_at(d, d->call.args[1], true);
	}
}

void dec_setrlimit(struct dec *d)
{
	if (d->exiting)
		return;
	resource_arg(d, 0);
	dec_sep(d);
	rlimit_at(d, d->call.args[1], false);
}

/*
 * prctl and arch_prctl: the options programs commonly use are decoded,
 * the others print their arguments in hex as strace does for options it
 * does not know.
 */

#define PRCTL_NARGS 5

/* strace's print_prctl_args: arguments FIRST.. in hex. */
static void prctl_hex_from(struct dec *d, int first)
{
	for (int i = first; i < PRCTL_NARGS; i++)
		strbuf_addf(d->out, ", %#llx", (unsigned long long)d->call.args[i]);
}

/* A string of at most MAX-1 bytes (the kernel's TASK_COMM_LEN names). */
static void comm_at(struct dec *d, uint64_t addr, size_t max)
{
	char buf[32];
	bool cut;
	ssize_t n;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	n = mem_read_str(d->call.mem, addr, buf, MIN(max, sizeof(buf)), &cut);
	if (n < 0)
		dec_ptr(d, addr);
	else
		dec_quote(d, buf, (size_t)n, cut);
}

#define TASK_COMM_LEN 16

/* Options whose result the kernel writes through arg2 print it at exit. */
void dec_prctl(struct dec *d)
{
	unsigned option = (unsigned)d->call.args[0];
	uint64_t arg2 = d->call.args[1];

	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_prctl_options, option, "PR_???");
		switch (option) {
		case PR_GET_KEEPCAPS:
		case PR_GET_SECCOMP:
		case PR_GET_TIMERSLACK:
		case PR_GET_TIMING:
		case PR_GET_DUMPABLE:
		case PR_TASK_PERF_EVENTS_DISABLE:
		case PR_TASK_PERF_EVENTS_ENABLE:
			return;
		case PR_GET_CHILD_SUBREAPER:
		case PR_GET_ENDIAN:
		case PR_GET_FPEMU:
		case PR_GET_FPEXC:
		case PR_GET_NAME:
		case PR_GET_PDEATHSIG:
		case PR_GET_TID_ADDRESS:
			dec_sep(d);
			return;
		case PR_SET_CHILD_SUBREAPER:
		case PR_SET_ENDIAN:
		case PR_SET_FPEMU:
		case PR_SET_FPEXC:
		case PR_SET_KEEPCAPS:
		case PR_SET_TIMING:
			strbuf_addf(d->out, ", %llu", (unsigned long long)arg2);
			return;
		case PR_SET_DUMPABLE:
			dec_sep(d);
			xlat_print_val(d->out, &rc_xlat_pr_dumpable, arg2, "SUID_DUMP_???");
			return;
		case PR_CAPBSET_DROP:
		case PR_CAPBSET_READ:
			dec_sep(d);
			xlat_print_val(d->out, &rc_xlat_caps, arg2, "CAP_???");
			return;
		case PR_SET_NAME:
			dec_sep(d);
			comm_at(d, arg2, TASK_COMM_LEN);
			return;
		case PR_SET_PDEATHSIG:
			dec_sep(d);
			if (arg2 > 128)
				strbuf_addf(d->out, "%llu", (unsigned long long)arg2);
			else
				dec_signal(d, (int)arg2);
			return;
		case PR_SET_PTRACER:
			if ((int)arg2 == -1)
				strbuf_adds(d->out, ", PR_SET_PTRACER_ANY");
			else
				strbuf_addf(d->out, ", %d", (int)arg2);
			return;
		case PR_SET_SECCOMP:
			dec_sep(d);
			xlat_print_val(d->out, &rc_xlat_seccomp_mode, arg2, "SECCOMP_MODE_???");
			if (arg2 == SECCOMP_MODE_STRICT)
				return;
			if (arg2 == SECCOMP_MODE_FILTER) {
				struct {
					uint16_t len;
					uint64_t filter;
				} prog;
				dec_sep(d);
				if (dec_umove(d, d->call.args[2], &prog, sizeof(prog))) {
					strbuf_addf(d->out, "{len=%u, filter=", prog.len);
					dec_ptr(d, prog.filter);
					strbuf_addc(d->out, '}');
				}
				return;
			}
			prctl_hex_from(d, 2);
			return;
		case PR_SET_TIMERSLACK:
			strbuf_addf(d->out, ", %lld", (long long)arg2);
			return;
		case PR_SET_NO_NEW_PRIVS:
		case PR_SET_THP_DISABLE:
		case PR_SET_IO_FLUSHER:
			strbuf_addf(d->out, ", %llu", (unsigned long long)arg2);
			prctl_hex_from(d, 2);
			return;
#ifdef PR_SET_VMA
		case PR_SET_VMA:
			dec_sep(d);
			if (arg2 == PR_SET_VMA_ANON_NAME) {
				strbuf_adds(d->out, "PR_SET_VMA_ANON_NAME, ");
				dec_ptr(d, d->call.args[2]);
				strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[3]);
				dec_str(d, d->call.args[4]);
			} else {
				strbuf_addf(d->out, "%#llx /* PR_SET_VMA_??? */", (unsigned long long)arg2);
				prctl_hex_from(d, 2);
			}
			return;
#endif
		default:
			prctl_hex_from(d, 1);
			return;
		}
	}

	switch (option) {
	case PR_GET_CHILD_SUBREAPER:
	case PR_GET_ENDIAN:
	case PR_GET_FPEMU:
	case PR_GET_FPEXC: {
		unsigned v;
		if (dec_umove(d, arg2, &v, sizeof(v)))
			strbuf_addf(d->out, "[%u]", v);
		break;
	}
	case PR_GET_NAME:
		if (d->call.err)
			dec_ptr(d, arg2);
		else
			comm_at(d, arg2, TASK_COMM_LEN + 1);
		break;
	case PR_GET_PDEATHSIG: {
		int v;
		if (dec_umove(d, arg2, &v, sizeof(v))) {
			strbuf_addc(d->out, '[');
			dec_signal(d, v);
			strbuf_addc(d->out, ']');
		}
		break;
	}
	case PR_GET_TID_ADDRESS: {
		uint64_t v;
		if (dec_umove(d, arg2, &v, sizeof(v))) {
			strbuf_addc(d->out, '[');
			dec_ptr(d, v);
			strbuf_addc(d->out, ']');
		}
		break;
	}
	case PR_GET_DUMPABLE:
		if (!d->call.err) {
			const char *s = xlat_name(&rc_xlat_pr_dumpable, d->call.rval);
			if (s)
				strbuf_addf(d->rv_extra, "(%s)", s);
		}
		break;
	default:
		break;
	}
}

void dec_arch_prctl(struct dec *d)
{
	unsigned option = (unsigned)d->call.args[0];

	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_archvals, option, "ARCH_???");
		switch (option) {
		case ARCH_GET_FS:
		case ARCH_GET_GS:
			dec_sep(d);
			return;
#ifdef ARCH_GET_CPUID
		case ARCH_GET_CPUID:
			return;
#endif
		default:
			strbuf_addf(d->out, ", %#llx", (unsigned long long)d->call.args[1]);
			return;
		}
	}
	if (option == ARCH_GET_FS || option == ARCH_GET_GS) {
		uint64_t v;
		if (dec_umove(d, d->call.args[1], &v, sizeof(v))) {
			strbuf_addc(d->out, '[');
			dec_ptr(d, v);
			strbuf_addc(d->out, ']');
		}
	}
}

/*
 * The rest of the process family.
 */

/* set_robust_list(head, len). */
void dec_set_robust_list(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
}

/* The kernel's affinity mask size, found as strace finds it: the smallest
 * size sched_getaffinity accepts (it checks the size before the pointer). */
static unsigned cpuset_size(void)
{
	static unsigned size;

	if (!size) {
		size = 128;
		while (size && syscall(SYS_sched_getaffinity, 0, size, NULL) == -1 && errno == EINVAL)
			size <<= 1;
		if (!size)
			size = 128;
	}
	return size;
}

static void affinity_at(struct dec *d, uint64_t addr, unsigned len)
{
	unsigned get = MIN(len, cpuset_size());
	unsigned size = (get + 7) & ~7u;
	unsigned char buf[1024];
	bool first = true;

	if ((d->exiting && d->call.err) || !addr) {
		dec_ptr(d, addr);
		return;
	}
	if (!len) {
		strbuf_add(d->out, "[]", 2);
		return;
	}
	if (size > sizeof(buf))
		size = sizeof(buf), get = MIN(get, size);
	memset(buf, 0, size);
	if (!dec_umove(d, addr, buf, get))
		return;
	strbuf_addc(d->out, '[');
	for (unsigned i = 0; i < size * 8; i++) {
		if (!(buf[i / 8] & (1u << (i % 8))))
			continue;
		strbuf_addf(d->out, first ? "%u" : " %u", i);
		first = false;
	}
	if (size < len)
		strbuf_add(d->out, first ? "..." : " ...", first ? 3 : 4);
	strbuf_addc(d->out, ']');
}

void dec_sched_getaffinity(struct dec *d)
{
	if (!d->exiting) {
		strbuf_addf(d->out, "%d, %u, ", (int)d->call.args[0], (unsigned)d->call.args[1]);
		return;
	}
	affinity_at(d, d->call.args[2], (unsigned)d->call.rval);
}

void dec_sched_setaffinity(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%d, %u, ", (int)d->call.args[0], (unsigned)d->call.args[1]);
	affinity_at(d, d->call.args[2], (unsigned)d->call.args[1]);
}

void dec_uname(struct dec *d)
{
	struct utsname u;

	if (!d->exiting || !dec_umove(d, d->call.args[0], &u, sizeof(u)))
		return;
	strbuf_add(d->out, "{sysname=", 9);
	dec_quote(d, u.sysname, strnlen(u.sysname, sizeof(u.sysname)), false);
	strbuf_add(d->out, ", nodename=", 11);
	dec_quote(d, u.nodename, strnlen(u.nodename, sizeof(u.nodename)), false);
	strbuf_add(d->out, ", ...}", 6);
}

/* The random bytes, always in \x form (strace's QUOTE_FORCE_HEX), read in
 * pieces so that any -s fits. */
static void random_bytes(struct dec *d, uint64_t addr, size_t len)
{
	static const char hexdig[] = "0123456789abcdef";
	size_t shown = MIN(len, (size_t)(d->opts ? d->opts->strsize : 32));
	unsigned char buf[512];

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	/* All or nothing, as strace's umoven: check the whole range first. */
	for (size_t off = 0; off < shown; off += sizeof(buf)) {
		size_t n = MIN(sizeof(buf), shown - off);
		if (mem_read(d->call.mem, addr + off, buf, n) != (ssize_t)n) {
			dec_ptr(d, addr);
			return;
		}
	}
	strbuf_addc(d->out, '"');
	for (size_t off = 0; off < shown; off += sizeof(buf)) {
		size_t n = MIN(sizeof(buf), shown - off);
		if (mem_read(d->call.mem, addr + off, buf, n) != (ssize_t)n)
			memset(buf, 0, n);
		for (size_t i = 0; i < n; i++) {
			char e[4] = { '\\', 'x', hexdig[buf[i] >> 4], hexdig[buf[i] & 15] };
			strbuf_add(d->out, e, 4);
		}
	}
	strbuf_addc(d->out, '"');
	if (shown < len)
		strbuf_add(d->out, "...", 3);
}

void dec_getrandom(struct dec *d)
{
	if (!d->exiting)
		return;
	if (d->call.err)
		dec_ptr(d, d->call.args[0]);
	else
		random_bytes(d, d->call.args[0], (size_t)d->call.rval);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_getrandom_flags, (unsigned)d->call.args[2], "GRND_???");
}

static void personality_text(struct dec *d, unsigned pers)
{
	xlat_print_val(d->out, &rc_xlat_personality_types, pers & PER_MASK, "PER_???");
	if (pers & ~PER_MASK) {
		strbuf_addc(d->out, '|');
		xlat_print_flags(d->out, &rc_xlat_personality_flags, pers & ~PER_MASK, NULL);
	}
}

/* The result goes to rv_extra through a swap of d->out. */
void dec_personality(struct dec *d)
{
	unsigned pers;

	if (!d->exiting) {
		pers = (unsigned)d->call.args[0];
		if (pers == 0xffffffff)
			strbuf_add(d->out, "0xffffffff", 10);
		else
			personality_text(d, pers);
		return;
	}
	if (d->call.err)
		return;
	struct strbuf *out = d->out;
	d->out = d->rv_extra;
	strbuf_addc(d->out, '(');
	personality_text(d, (unsigned)d->call.rval);
	strbuf_addc(d->out, ')');
	d->out = out;
}
