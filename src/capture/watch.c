/* The fatal-signal watch (see watch.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/watch.h"
#include "util/procfs.h"
#include "util/util.h"

/* The handshake over a dying process. */
enum watch_state {
	W_RUNNING,
	W_WANT_DRAIN,		/* a process is held: the caller must hand on its reads */
	W_DRAINED,		/* it has: ON_FATAL runs */
};

struct watch {
	struct watch_opts o;
	struct spawn held;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	enum watch_state state;
	bool started, ok, done, fatal_seen;
	struct strbuf err;
	int child_status;
	/* The watch's own stop request: its loop is woken by SIGURG. */
	volatile sig_atomic_t stop;
	/* With W_WANT_DRAIN: a held thread whose Python frames are all the
	 * caller need name (watch_sync's NAME), or 0: hand on everything. */
	pid_t name_tid;
	struct tracer *tr;
};

/* SIGURG only breaks the watch's wait4 (no SA_RESTART). */
static void on_wake(int sig)
{
	(void)sig;
}

/* With a process held: the caller's thread is woken to hand on what it
 * has read (watch_sync). True once it has; false when MAX_S passed
 * first (0: no bound) or the watch is stopping, and then the caller's
 * thread no longer waits to. */
static bool handed_on(struct watch *w, double max_s, pid_t name_tid)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)max_s;
	until.tv_nsec += (long)((max_s - (double)(time_t)max_s) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	w->state = W_WANT_DRAIN;
	w->name_tid = name_tid;
	pthread_cond_broadcast(&w->cond);
	if (w->o.wake)
		w->o.wake(w->o.wake_arg);
	while (w->state != W_DRAINED && !w->stop) {
		if (max_s <= 0)
			pthread_cond_wait(&w->cond, &w->lock);
		else if (pthread_cond_timedwait(&w->cond, &w->lock, &until) == ETIMEDOUT)
			break;
	}
	bool ok = w->state == W_DRAINED;
	if (!ok)
		w->state = W_RUNNING;
	pthread_mutex_unlock(&w->lock);
	return ok;
}

/* The caller's thread may go on. */
static void resume_caller(struct watch *w)
{
	pthread_mutex_lock(&w->lock);
	w->state = W_RUNNING;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static void hold_for_fatal(void *ctx, struct tracee *t, const siginfo_t *si)
{
	struct watch *w = ctx;

	if (w->fatal_seen || !w->o.on_fatal || !procfs_signal_is_fatal(t->tgid, si->si_signo))
		return;
	w->fatal_seen = true;
	tracer_hold_group(w->tr, t->tgid, t->tid);
	handed_on(w, 0, 0);
	w->o.on_fatal(w->o.user, t->tgid, t->tid, si);
	resume_caller(w);
}

/* A process's exit (its leader's, which holds the memory the caller's
 * thread reads through the process's pid) waits until the caller has
 * read what the process did: its stacks are named from its memory. */
#define EXIT_HOLD_S 2.0

static void hold_at_exit(void *ctx, struct tracee *t)
{
	struct watch *w = ctx;

	if (t->tid != t->tgid || (w->o.exit_pending && !w->o.exit_pending(w->o.wake_arg, t->tgid)))
		return;
	if (handed_on(w, EXIT_HOLD_S, 0))
		resume_caller(w);
}

/* A hold request (watch.h, is_hold): T waits where it is, right after
 * its call, until what it did is read. */
static bool hold_on_request(void *ctx, struct tracee *t, const siginfo_t *si)
{
	struct watch *w = ctx;

	if (!w->o.is_hold || si->si_code != SI_KERNEL || !w->o.is_hold(w->o.wake_arg, t->tid, si->si_signo))
		return false;
	if (handed_on(w, EXIT_HOLD_S, t->tid))
		resume_caller(w);
	return true;
}

static const struct tracer_hooks hooks = {
	.signal = hold_for_fatal,
	.request = hold_on_request,
};

static const struct tracer_hooks exit_hooks = {
	.signal = hold_for_fatal,
	.request = hold_on_request,
	.exiting = hold_at_exit,
};

static void *watch_main(void *arg)
{
	struct watch *w = arg;
	struct tracer_opts to = { .follow = true, .signals_only = true, .no_seccomp = true };
	struct strbuf err = STRBUF_INIT;
	int r;

	w->tr = tracer_new(&to, w->o.hold_exits ? &exit_hooks : &hooks, w, &w->stop);
	if (w->o.held)
		r = tracer_seize_held(w->tr, &w->held, w->o.name, &err);
	else
		r = tracer_attach_set(w->tr, w->o.pid, w->o.more_pids, w->o.nmore, &err);
	pthread_mutex_lock(&w->lock);
	w->started = true;
	w->ok = r == 0;
	strbuf_adds(&w->err, strbuf_str(&err));
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (r == 0) {
		tracer_loop(w->tr);
		tracer_detach_all(w->tr);
	}
	int status = tracer_child_status(w->tr);
	tracer_free(w->tr);
	w->tr = NULL;
	strbuf_release(&err);
	pthread_mutex_lock(&w->lock);
	w->child_status = status;
	w->done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int watch_start(struct watch **out, const struct watch_opts *o, struct strbuf *err)
{
	struct watch *w = xcalloc(1, sizeof(*w));
	struct sigaction sa;

	*out = NULL;
	w->o = *o;
	if (o->held) {
		/* The exec-error pipe stays the caller's. */
		w->held = *o->held;
		w->held.errfd = -1;
	}
	w->child_status = -1;
	strbuf_init(&w->err);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGURG, &sa, NULL);
	int e = pthread_create(&w->thread, NULL, watch_main, w);
	if (e) {
		strbuf_addf(err, "cannot start the signal watch: %s", strerror(e));
		free(w);
		return -1;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->started)
		pthread_cond_wait(&w->cond, &w->lock);
	bool ok = w->ok;
	pthread_mutex_unlock(&w->lock);
	if (!ok) {
		strbuf_adds(err, strbuf_str(&w->err));
		/* A held child it could not seize is held still (tracer.h). */
		pthread_join(w->thread, NULL);
		strbuf_release(&w->err);
		free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void watch_sync(struct watch *w, void (*drain)(void *arg), bool (*name)(void *arg, pid_t tid), void *arg)
{
	pthread_mutex_lock(&w->lock);
	/* Each hand-over in turn: the watch may ask for the next one (a
	 * held thread, then its process's exit) before this thread has seen
	 * the last one end, so it waits only while the watch has what it
	 * handed on, and serves a new request at once. */
	while (w->state == W_WANT_DRAIN) {
		/* A held thread's frames named from its memory are all it
		 * waits for; else (or when they cannot be) everything read. */
		if (!w->name_tid || !name || !name(arg, w->name_tid))
			drain(arg);
		w->state = W_DRAINED;
		pthread_cond_broadcast(&w->cond);
		while (w->state == W_DRAINED && !w->done)
			pthread_cond_wait(&w->cond, &w->lock);
	}
	pthread_mutex_unlock(&w->lock);
}

bool watch_done(struct watch *w)
{
	pthread_mutex_lock(&w->lock);
	bool d = w->done;
	pthread_mutex_unlock(&w->lock);
	return d;
}

int watch_child_status(struct watch *w)
{
	pthread_mutex_lock(&w->lock);
	int s = w->child_status;
	pthread_mutex_unlock(&w->lock);
	return s;
}

void watch_free(struct watch *w)
{
	if (!w)
		return;
	/* Wake its wait4 until it sees the request (a wake may come just
	 * before it blocks). */
	w->stop = 1;
	while (!watch_done(w)) {
		pthread_kill(w->thread, SIGURG);
		pthread_mutex_lock(&w->lock);
		/* A held process waits for no drain any more. */
		pthread_cond_broadcast(&w->cond);
		if (!w->done) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50 * 1000 * 1000;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&w->cond, &w->lock, &ts);
		}
		pthread_mutex_unlock(&w->lock);
	}
	pthread_join(w->thread, NULL);
	strbuf_release(&w->err);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
