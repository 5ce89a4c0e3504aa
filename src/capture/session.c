/* A tracing session (see session.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "capture/session.h"

/* Signal handlers see only these. */
static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t stop_signal;
static volatile pid_t forward_pid;

static void on_stop_signal(int sig)
{
	if (!stop_flag)
		stop_signal = sig;
	stop_flag = 1;
	/* The flag may have been set just before the tracer blocked in
	 * wait4: a SIGALRM soon after breaks that wait for sure. */
	alarm(1);
}

static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
	alarm(1);
}

static void on_forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* A terminal's signals (SI_KERNEL) went to the command's process
	 * group already; pass on only what was sent to us alone. */
	if (forward_pid > 0 && si->si_code != SI_KERNEL)
		kill(forward_pid, sig);
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: wait4 must return EINTR */
	sigaction(sig, &sa, NULL);
}

static void set_forward(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_forward;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);
}

/* A reader of our output that goes away must not kill us while we hold
 * the target: writes fail with EPIPE instead. Set only after the command
 * started, which must inherit the disposition we were given. */
static void ignore_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int session_run(const struct session_opts *o, struct session_result *res, struct strbuf *err)
{
	struct capture_opts co = {
		.select = o->select,
		.nbits = dec_nr_max(),
		.dec = o->dec,
		.printer = o->printer,
		.on_event = o->on_event,
		.on_fatal_signal = o->on_fatal_signal,
		.user = o->user,
		.procs = o->procs,
		.adopt = o->argv == NULL,
	};
	struct tracer_opts to = {
		.follow = o->follow,
		.wanted = o->select,
		.nbits = dec_nr_max(),
		.no_seccomp = o->no_seccomp,
	};
	double t0 = monotonic();

	memset(res, 0, sizeof(*res));
	res->child_status = -1;
	stop_flag = 0;
	stop_signal = 0;
	forward_pid = 0;

	struct capture *c = capture_new(&co);
	struct tracer *tr = tracer_new(&to, capture_hooks(), c, &stop_flag);
	capture_set_tracer(c, tr);
	int r = 0;

	if (o->argv) {
		pid_t pid = tracer_spawn(tr, o->argv, err);
		if (pid < 0) {
			res->spawn_errno = tracer_spawn_error(tr);
			r = -1;
			goto out;
		}
		forward_pid = pid;
		ignore_sigpipe();
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			set_forward(stop_signals[i]);
		tracer_loop(tr);
		capture_finish(c, tr, false);
		res->child_status = tracer_child_status(tr);
		res->spawn_errno = tracer_spawn_error(tr);
	} else {
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			set_handler(stop_signals[i], on_stop_signal);
		set_handler(SIGALRM, on_alarm);
		ignore_sigpipe();
		if (tracer_attach(tr, o->pid, err) < 0) {
			r = -1;
			goto out;
		}
		if (o->duration > 0) {
			struct itimerval it = { { 0, 0 }, { (time_t)o->duration,
				(suseconds_t)((o->duration - (double)(time_t)o->duration) * 1e6) } };
			if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
				it.it_value.tv_usec = 1;
			setitimer(ITIMER_REAL, &it, NULL);
		}
		tracer_loop(tr);
		alarm(0);
		capture_finish(c, tr, true);
		tracer_detach_all(tr);
		res->detached = true;
		res->stop_signal = stop_signal;
	}
out:
	res->seccomp = tracer_uses_seccomp(tr);
	res->no_syscall_info = tracer_lacks_syscall_info(tr);
	res->stops = tracer_stops(tr);
	res->events = capture_events(c);
	tracer_free(tr);
	capture_free(c);
	forward_pid = 0;
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	res->seconds = monotonic() - t0;
	return r;
}
