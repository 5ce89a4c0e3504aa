/* Calls no other family claims: clocks and timers, scheduling, System V
 * IPC, keys, modules and the long tail, most printed generically (every
 * argument in hex, as strace's printargs), the common ones decoded. */
#include "capture/decode.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "capture/decode/decoders.h"
#include "gen/tables.h"
#include "util/util.h"

/*
 * Clocks and time.
 */
static void clock_arg(struct dec *d, int argi)
{
	/* strace prints the clockid as an unsigned int: CPU clocks of other
	 * processes (negative ids) come out as 0xffff.... */
	dec_clockid(d, (unsigned)d->call.args[argi]);
}

/* The remaining time of a sleep is meaningful only when a signal
 * interrupted it (ERESTART_RESTARTBLOCK and friends); else the kernel did
 * not touch it and strace prints the address. */
static bool is_erestart(const struct dec *d)
{
	return d->call.err >= 512 && d->call.err <= 516;
}

static void remaining(struct dec *d, uint64_t addr)
{
	if (is_erestart(d)) {
		/* Read it although the call "failed". */
		int err = d->call.err;
		d->call.err = 0;
		dec_timespec(d, addr, NULL);
		d->call.err = err;
	} else {
		dec_ptr(d, addr);
	}
}

void dec_nanosleep(struct dec *d)
{
	if (!d->exiting) {
		dec_timespec(d, d->call.args[0], NULL);
		dec_sep(d);
	} else {
		remaining(d, d->call.args[1]);
	}
}

void dec_clock_nanosleep(struct dec *d)
{
	if (!d->exiting) {
		clock_arg(d, 0);
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_clockflags, (unsigned)d->call.args[1], "TIMER_???");
		dec_sep(d);
		dec_timespec(d, d->call.args[2], NULL);
		dec_sep(d);
	} else if (!d->call.args[1]) {
		remaining(d, d->call.args[3]);
	} else {
		dec_ptr(d, d->call.args[3]);
	}
}

/* clock_gettime, clock_getres. */
void dec_clock_gettime(struct dec *d)
{
	if (!d->exiting) {
		clock_arg(d, 0);
		dec_sep(d);
	} else {
		dec_timespec(d, d->call.args[1], NULL);
	}
}

void dec_clock_settime(struct dec *d)
{
	if (d->exiting)
		return;
	clock_arg(d, 0);
	dec_sep(d);
	dec_timespec(d, d->call.args[1], NULL);
}

static void timezone_at(struct dec *d, uint64_t addr)
{
	struct timezone tz;

	if (dec_umove(d, addr, &tz, sizeof(tz)))
		strbuf_addf(d->out, "{tz_minuteswest=%d, tz_dsttime=%d}", tz.tz_minuteswest,
			    tz.tz_dsttime);
}

void dec_gettimeofday(struct dec *d)
{
	if (!d->exiting)
		return;
	dec_timeval(d, d->call.args[0]);
	dec_sep(d);
	timezone_at(d, d->call.args[1]);
}

void dec_settimeofday(struct dec *d)
{
	if (d->exiting)
		return;
	dec_timeval(d, d->call.args[0]);
	dec_sep(d);
	timezone_at(d, d->call.args[1]);
}

/* strace's sprinttime: local time, ISO 8601; nothing for 0. */
static bool fmt_time(long long sec, char *buf, size_t size)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (sec == 0 || !localtime_r(&t, &tm))
		return false;
	size_t pos = strftime(buf, size, "%FT%T", &tm);
	if (!pos)
		return false;
	return strftime(buf + pos, size - pos, "%z", &tm) != 0;
}

void dec_time(struct dec *d)
{
	char when[64];
	int64_t t;

	if (!d->exiting)
		return;
	if (dec_umove(d, d->call.args[0], &t, sizeof(t))) {
		strbuf_addf(d->out, "[%lld", (long long)t);
		if (fmt_time(t, when, sizeof(when)))
			strbuf_addf(d->out, " /* %s */", when);
		strbuf_addc(d->out, ']');
	}
	if (!d->call.err && fmt_time(d->call.rval, when, sizeof(when)))
		strbuf_addf(d->rv_extra, "(%s)", when);
}

static void itimerval_at(struct dec *d, uint64_t addr)
{
	struct dec_ktime t[2];

	if (!dec_umove(d, addr, t, sizeof(t)))
		return;
	strbuf_add(d->out, "{it_interval=", 13);
	dec_timeval_val(d, &t[0]);
	strbuf_add(d->out, ", it_value=", 11);
	dec_timeval_val(d, &t[1]);
	strbuf_addc(d->out, '}');
}

void dec_getitimer(struct dec *d)
{
	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_itimer_which, (unsigned)d->call.args[0], "ITIMER_???");
		dec_sep(d);
	} else {
		itimerval_at(d, d->call.args[1]);
	}
}

void dec_setitimer(struct dec *d)
{
	if (!d->exiting) {
		xlat_print_val(d->out, &rc_xlat_itimer_which, (unsigned)d->call.args[0], "ITIMER_???");
		dec_sep(d);
		itimerval_at(d, d->call.args[1]);
		dec_sep(d);
	} else {
		itimerval_at(d, d->call.args[2]);
	}
}

/* POSIX timers. */

/* The kernel's struct sigevent on x86_64 (64 bytes). */
struct k_sigevent {
	uint64_t value;
	int32_t signo;
	int32_t notify;
	union {
		int32_t tid;
		struct {
			uint64_t function;
			uint64_t attribute;
		} thread;
		int32_t pad[12];
	} un;
};

static void sigevent_at(struct dec *d, uint64_t addr)
{
	struct k_sigevent ev;

	if (!dec_umove(d, addr, &ev, sizeof(ev)))
		return;
	strbuf_addc(d->out, '{');
	if (ev.value) {
		strbuf_addf(d->out, "sigev_value={sival_int=%d, sival_ptr=", (int)(uint32_t)ev.value);
		dec_ptr(d, ev.value);
		strbuf_add(d->out, "}, ", 3);
	}
	strbuf_add(d->out, "sigev_signo=", 12);
	if (ev.notify == SIGEV_SIGNAL || ev.notify == SIGEV_THREAD || ev.notify == SIGEV_THREAD_ID)
		dec_signal(d, ev.signo);
	else
		strbuf_addf(d->out, "%u", (unsigned)ev.signo);
	strbuf_add(d->out, ", sigev_notify=", 15);
	xlat_print_val(d->out, &rc_xlat_sigev_notify, (unsigned)ev.notify, "SIGEV_???");
	if (ev.notify == SIGEV_THREAD_ID) {
		strbuf_addf(d->out, ", sigev_notify_thread_id=%d", ev.un.tid);
	} else if (ev.notify == SIGEV_THREAD) {
		strbuf_add(d->out, ", sigev_notify_function=", 24);
		dec_ptr(d, ev.un.thread.function);
		strbuf_add(d->out, ", sigev_notify_attributes=", 26);
		dec_ptr(d, ev.un.thread.attribute);
	}
	strbuf_addc(d->out, '}');
}

static void itimerspec_at(struct dec *d, uint64_t addr)
{
	struct dec_ktime t[2];

	if (!dec_umove(d, addr, t, sizeof(t)))
		return;
	strbuf_addf(d->out, "{it_interval={tv_sec=%lld, tv_nsec=%llu}, it_value={tv_sec=%lld, tv_nsec=%llu}}",
		    (long long)t[0].sec, (unsigned long long)t[0].nsec, (long long)t[1].sec,
		    (unsigned long long)t[1].nsec);
}

void dec_timer_create(struct dec *d)
{
	int id;

	if (!d->exiting) {
		clock_arg(d, 0);
		dec_sep(d);
		sigevent_at(d, d->call.args[1]);
		dec_sep(d);
	} else if (dec_umove(d, d->call.args[2], &id, sizeof(id))) {
		strbuf_addf(d->out, "[%d]", id);
	}
}

void dec_timer_settime(struct dec *d)
{
	if (!d->exiting) {
		strbuf_addf(d->out, "%d, ", (int)d->call.args[0]);
		xlat_print_flags(d->out, &rc_xlat_clockflags, (unsigned)d->call.args[1], "TIMER_???");
		dec_sep(d);
		itimerspec_at(d, d->call.args[2]);
		dec_sep(d);
	} else {
		itimerspec_at(d, d->call.args[3]);
	}
}

void dec_timer_gettime(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%d, ", (int)d->call.args[0]);
	else
		itimerspec_at(d, d->call.args[1]);
}

/* timer_getoverrun, timer_delete: strace's printargs_d. */
void dec_timer_id(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%d", (int)d->call.args[0]);
}

void dec_alarm(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%u", (unsigned)d->call.args[0]);
}

void dec_sysinfo(struct dec *d)
{
	struct sysinfo si;

	if (!d->exiting || !dec_umove(d, d->call.args[0], &si, sizeof(si)))
		return;
	strbuf_addf(d->out,
		    "{uptime=%lu, loads=[%lu, %lu, %lu], totalram=%lu, freeram=%lu, sharedram=%lu, "
		    "bufferram=%lu, totalswap=%lu, freeswap=%lu, procs=%u, totalhigh=%lu, "
		    "freehigh=%lu, mem_unit=%u}",
		    (unsigned long)si.uptime, si.loads[0], si.loads[1], si.loads[2], si.totalram, si.freeram,
		    si.sharedram, si.bufferram, si.totalswap, si.freeswap, (unsigned)si.procs,
		    si.totalhigh, si.freehigh, si.mem_unit);
}

void dec_times(struct dec *d)
{
	struct tms_k {
		int64_t utime, stime, cutime, cstime;
	} t;

	if (!d->exiting || !dec_umove(d, d->call.args[0], &t, sizeof(t)))
		return;
	strbuf_add(d->out, "{tms_utime=", 11);
	dec_clock_t(d->out, (unsigned long long)t.utime);
	strbuf_add(d->out, ", tms_stime=", 12);
	dec_clock_t(d->out, (unsigned long long)t.stime);
	strbuf_add(d->out, ", tms_cutime=", 13);
	dec_clock_t(d->out, (unsigned long long)t.cutime);
	strbuf_add(d->out, ", tms_cstime=", 13);
	dec_clock_t(d->out, (unsigned long long)t.cstime);
	strbuf_addc(d->out, '}');
}

void dec_restart_syscall(struct dec *d)
{
	/* strace names the interrupted call when it saw it; we do not
	 * remember it, which strace also prints this way. */
	if (!d->exiting)
		strbuf_adds(d->out, "<... resuming interrupted system call ...>");
}

/*
 * Scheduling.
 */

static void pid_arg(struct dec *d, int argi)
{
	strbuf_addf(d->out, "%d", (int)d->call.args[argi]);
}

/* An int the call reads or writes at ADDR: "[5]". */
static void int_at(struct dec *d, uint64_t addr)
{
	int v;

	if (dec_umove(d, addr, &v, sizeof(v)))
		strbuf_addf(d->out, "[%d]", v);
}

void dec_sched_getscheduler(struct dec *d)
{
	if (!d->exiting) {
		pid_arg(d, 0);
	} else if (!d->call.err) {
		const char *name = xlat_name(&rc_xlat_schedulers, d->call.rval);
		if (name)
			strbuf_addf(d->rv_extra, "(%s)", name);
	}
}

void dec_sched_setscheduler(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_schedulers, (unsigned)d->call.args[1], "SCHED_???");
	dec_sep(d);
	int_at(d, d->call.args[2]);
}

void dec_sched_getparam(struct dec *d)
{
	if (!d->exiting) {
		pid_arg(d, 0);
		dec_sep(d);
	} else {
		int_at(d, d->call.args[1]);
	}
}

void dec_sched_setparam(struct dec *d)
{
	if (d->exiting)
		return;
	pid_arg(d, 0);
	dec_sep(d);
	int_at(d, d->call.args[1]);
}

/* sched_get_priority_max, sched_get_priority_min. */
void dec_sched_priority(struct dec *d)
{
	if (!d->exiting)
		xlat_print_val(d->out, &rc_xlat_schedulers, (unsigned)d->call.args[0], "SCHED_???");
}

void dec_sched_rr_get_interval(struct dec *d)
{
	if (!d->exiting) {
		pid_arg(d, 0);
		dec_sep(d);
	} else if (d->call.err) {
		dec_ptr(d, d->call.args[1]);
	} else {
		dec_timespec(d, d->call.args[1], NULL);
	}
}

static void prio_who(struct dec *d)
{
	pid_arg(d, 1);
}

void dec_getpriority(struct dec *d)
{
	if (d->exiting)
		return;
	xlat_print_val(d->out, &rc_xlat_priorities, (unsigned)d->call.args[0], "PRIO_???");
	dec_sep(d);
	prio_who(d);
}

void dec_setpriority(struct dec *d)
{
	if (d->exiting)
		return;
	xlat_print_val(d->out, &rc_xlat_priorities, (unsigned)d->call.args[0], "PRIO_???");
	dec_sep(d);
	prio_who(d);
	dec_sep(d);
	strbuf_addf(d->out, "%d", (int)d->call.args[2]);
}
