/* A tracing session (see session.h). */
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "capture/session.h"
#include "capture/spawn.h"
#ifdef RC_HAVE_BPF
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "capture/bpf/bpf.h"
#include "capture/watch.h"
#include "util/procfs.h"
#include "util/util.h"
#endif

/* Signal handlers see only these. */
static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t stop_signal;
static volatile pid_t forward_pid;
/* The session prints a trace (session_opts' printer). */
static bool printing;

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

static void forward_stop_signals(void)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		set_forward(stop_signals[i]);
}

static void handle_stop_signals(void)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		set_handler(stop_signals[i], on_stop_signal);
	set_handler(SIGALRM, on_alarm);
}

/* attach's duration, as a timer that raises SIGALRM. */
static void start_timer(double duration)
{
	if (duration <= 0)
		return;
	struct itimerval it = { { 0, 0 }, { (time_t)duration,
		(suseconds_t)((duration - (double)(time_t)duration) * 1e6) } };
	if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static int session_ptrace(const struct session_opts *o, struct session_result *res, struct capture *c,
			  struct strbuf *err)
{
	struct tracer_opts to = {
		.follow = o->follow,
		.wanted = o->select,
		.nbits = dec_nr_max(),
		.no_seccomp = o->no_seccomp,
	};
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
		forward_stop_signals();
		tracer_loop(tr);
		capture_finish(c, tr, false);
		res->child_status = tracer_child_status(tr);
		res->spawn_errno = tracer_spawn_error(tr);
	} else {
		handle_stop_signals();
		ignore_sigpipe();
		if (tracer_attach_set(tr, o->pid, o->more_pids, o->nmore, err) < 0) {
			r = -1;
			goto out;
		}
		start_timer(o->duration);
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
	capture_set_tracer(c, NULL);
	tracer_free(tr);
	return r;
}

#ifdef RC_HAVE_BPF
/* How often the reader looks whether the processes are gone, when no
 * record wakes it (the ring wakes it only past a backlog). */
#define POLL_MS 100
/* How often, once the kernel has seen the last of the processes, until
 * the command can be reaped: a process with a large address space is
 * told to its parent only after the kernel has freed it (tens of ms for
 * PyTorch), and a whole POLL_MS more would be the user's to wait. */
#define REAP_POLL_MS 2

static int replay_one(void *user, const void *rec, size_t size)
{
	bpf_replay_record(user, rec, size);
	/* Detaching a trace: the rest is not worth a printer that blocks.
	 * A diagnosis reads to the end, as the programs are gone by then:
	 * the last records are what happened as it was stopped (systemd
	 * stops watch as the service it watches fails). */
	return stop_flag && printing ? 1 : 0;
}

struct reader {
	struct bpf_capture *bc;
	struct bpf_replay *rp;
	struct strbuf *err;
	const struct session_opts *o;
};

/* Everything in the ring now, replayed (a dying process is held: what
 * it did before its signal must be in the rules' hands first). */
static void drain(void *arg)
{
	struct reader *rd = arg;

	while (bpf_capture_poll(rd->bc, 0, replay_one, rd->rp, rd->err) > 0)
		;
}

/* A thread the kernel holds: its Python frames named from its memory
 * (session_held_fn), which is all it waits for, without handing on the
 * records before it first (a backlog of other calls' stacks to unwind,
 * in a busy start-up). Only when the reader is at the program the thread
 * runs: the last stack record it saw of the process has the same memory
 * (an exec it has not replayed yet would make it forget what it names;
 * the records are handed on first then). */
static bool name_held(void *arg, pid_t tid)
{
	struct reader *rd = arg;
	struct rc_py_raw py[RCB_PY_FRAMES];
	struct bpf_replay_copies seen;
	uint64_t marks[RCB_PY_FRAMES], mm = 0;
	pid_t tgid = 0;
	size_t n;

	if (!rd->o->on_held || !(n = bpf_capture_held_frames(rd->bc, tid, &tgid, &mm, py, RCB_PY_FRAMES)) ||
	    !bpf_replay_copies(rd->rp, tgid, &seen) || seen.mm != mm ||
	    !rd->o->on_held(rd->o->user, tgid, tid, py, n, marks))
		return false;
	bpf_capture_python_named(rd->bc, tgid, py, marks, n);
	return true;
}

/* Whether the command CHILD has ended, its wait status then in *STATUS:
 * the watch reaps a child it seized; else we do, waiting when BLOCK
 * (a watch that still runs is not waited for: it is being freed). */
static bool reap(pid_t child, struct watch *w, bool block, int *status)
{
	if (w) {
		if (!watch_done(w))
			return false;
		*status = watch_child_status(w);
		return true;
	}
	return waitpid(child, status, block ? 0 : WNOHANG) == child;
}

static void wake_reader(void *arg)
{
	struct reader *rd = arg;

	bpf_capture_wake(rd->bc);
}

static bool is_hold(void *arg, pid_t tid, int sig)
{
	struct reader *rd = arg;

	return bpf_capture_held(rd->bc, tid, sig);
}

/* Process TGID's exit waits for the reader only while the kernel has
 * written stack records for it that the reader is not done with. One
 * the reader has seen none of waits: it cannot tell the kernel's id of
 * it (a pid namespace's), and nearly every process has one (the
 * dynamic loader's look for /etc/ld.so.preload fails). */
static bool copies_unread(void *arg, pid_t tgid)
{
	struct reader *rd = arg;
	struct bpf_replay_copies seen;

	/* A process with a view of its own (a chroot, a container) is
	 * looked at through it while it lives (lookup.h): what it did is
	 * handed on before it goes. */
	if (procfs_own_view(tgid))
		return true;
	if (!bpf_replay_copies(rd->rp, tgid, &seen))
		return true;
	return bpf_capture_copies(rd->bc, seen.kernel_tgid) > seen.read;
}

/* Stacks for a fatal signal (capture/watch.h): a ptrace seize for
 * signals only. Without it (ptrace refused where eBPF is allowed), the
 * run goes on without stacks, and says so once. With stacks, each
 * process's exit also waits until the reader has named its stacks from
 * its memory (watch.h, hold_exits): under eBPF they are copied in the
 * kernel, and read after the call. */
static struct watch *start_watch(const struct session_opts *o, struct spawn *held, pid_t pid, struct reader *rd,
				 struct session_result *res)
{
	struct watch_opts wo = {
		.held = held,
		.name = o->argv ? o->argv[0] : NULL,
		.pid = pid,
		.more_pids = pid ? o->more_pids : NULL,
		.nmore = pid ? o->nmore : 0,
		.on_fatal = o->on_fatal_signal,
		.user = o->user,
		.hold_exits = o->on_stack != NULL,
		.wake = wake_reader,
		/* Holds for a call's Python frames to be named, and for room
		 * in a ring buffer nearly full (capture.bpf.c's hold_for_room):
		 * the program waits then, as under strace, and loses nothing. */
		.is_hold = is_hold,
		.exit_pending = copies_unread,
		.wake_arg = rd,
	};
	struct watch *w;
	struct strbuf err = STRBUF_INIT;

	/* A trace (a printer) is watched for the holds alone. */
	if (!o->on_fatal_signal && !o->printer)
		return NULL;
	/* Before the command is let go: its first calls may be held. A
	 * thread no watch traces is never sent the request. */
	bpf_capture_hold_calls(rd->bc, wo.is_hold != NULL);
	if (watch_start(&w, &wo, &err) < 0) {
		/* A trace goes on without holds: what a full ring refuses is
		 * counted, and said. */
		if (o->on_fatal_signal)
			snprintf(res->no_stacks, sizeof(res->no_stacks), "%s", strbuf_str(&err));
		bpf_capture_hold_calls(rd->bc, false);
		w = NULL;
	}
	strbuf_release(&err);
	return w;
}

/* The loader holds a descriptor per map, program and link: under a
 * low RLIMIT_NOFILE (a worker run with ulimit -n 32) it raises its own
 * soft limit, and the command gets the one it was given back before its
 * exec (spawn.h's prepare). */
#define LOADER_FDS 256

static struct rlimit given_nofile;

static void raise_nofile(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &given_nofile) < 0)
		return;
	r = given_nofile;
	if (r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= LOADER_FDS)
		return;
	/* The hard limit too where we may (CAP_SYS_RESOURCE: eBPF needs
	 * root anyway); else as far as it allows. */
	r.rlim_cur = LOADER_FDS;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < LOADER_FDS)
		r.rlim_max = LOADER_FDS;
	if (setrlimit(RLIMIT_NOFILE, &r) < 0) {
		r = given_nofile;
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

static void restore_nofile(void)
{
	setrlimit(RLIMIT_NOFILE, &given_nofile);
}

static int restore_nofile_in_child(void *arg)
{
	(void)arg;
	restore_nofile();
	return 0;
}

/* The processes attach followed. */
struct followed {
	pid_t *v;
	size_t n, alloc;
};

/* Follow PID and every process below it, as attach takes them, into F;
 * each process and its threads told found running to C (capture_found),
 * as the tracer's attach tells those it seizes. */
static int follow_tree(struct bpf_capture *bc, pid_t pid, struct capture *c, struct followed *f, int depth,
		       struct strbuf *err)
{
	char path[64];

	if (bpf_capture_follow(bc, pid, err) < 0)
		return -1;
	if (f->n == f->alloc) {
		f->alloc = f->alloc ? 2 * f->alloc : 8;
		f->v = xrealloc(f->v, f->alloc * sizeof(*f->v));
	}
	f->v[f->n++] = pid;
	capture_found(c, pid, pid);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || tid <= 0)
			continue;
		if (tid != pid)
			capture_found(c, (pid_t)tid, pid);
		/* A process that died since it was listed is no failure. */
		char cpath[96];
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%ld/children", (int)pid, tid);
		FILE *kids = depth < 64 ? fopen(cpath, "r") : NULL;
		long child;
		while (kids && fscanf(kids, "%ld", &child) == 1) {
			struct strbuf e2 = STRBUF_INIT;
			follow_tree(bc, (pid_t)child, c, f, depth + 1, &e2);
			strbuf_release(&e2);
		}
		if (kids)
			fclose(kids);
	}
	closedir(d);
	return 0;
}

/* What the kernel is given of how to walk Python's frames: walks found
 * unwinding a stack record, and walks read from a program's files
 * before it runs (session_program_fn). */
struct walks {
	const struct session_opts *o;
	struct bpf_capture *bc;
};

static void give_walk(void *user, pid_t tgid, uint64_t mm, const struct rc_py_walk *w)
{
	struct walks *ws = user;

	bpf_capture_python(ws->bc, tgid, mm, w);
}

static void give_named(void *user, pid_t tgid, const struct rc_py_raw *py, const uint64_t *marks, size_t n)
{
	struct walks *ws = user;

	bpf_capture_python_named(ws->bc, tgid, py, marks, n);
}

/* Program PATH is about to run, or runs now. */
static void give_program(struct walks *ws, const char *path)
{
	struct rc_py_program p;

	if (ws->o->on_program && ws->o->on_program(ws->o->user, path, &p))
		bpf_capture_python_program(ws->bc, &p);
}

/* Process TGID's exec worked: the program it runs now, read from the
 * file it mapped (as the process sees it, whatever name it was run by). */
static void give_exec(void *user, pid_t tgid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)tgid);
	give_program(user, path);
}

/* The ring buffer's backlog passed three quarters of it: told once. */
static void tell_backlog(const struct session_opts *o, struct bpf_capture *bc, bool *told)
{
	if (o->on_backlog && !*told && bpf_capture_backlog_high(bc)) {
		*told = true;
		o->on_backlog();
	}
}

struct session_tick {
	struct bpf_replay *rp;
	struct bpf_capture *bc;
	struct capture *c;
	struct followed *fl;
};

bool session_blocked_now(struct session_tick *tick, pid_t tgid, pid_t tid, double since)
{
	return bpf_replay_blocked_now(tick->rp, tgid, tid, since);
}

bool session_follow_now(struct session_tick *tick, pid_t pid)
{
	struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < tick->fl->n; i++)
		if (tick->fl->v[i] == pid)
			return false;
	int r = follow_tree(tick->bc, pid, tick->c, tick->fl, 0, &err);
	strbuf_release(&err);
	return r == 0;
}

uint64_t session_calls_seen(struct session_tick *tick)
{
	return bpf_capture_calls_seen(tick->bc);
}

uint64_t session_starts(struct session_tick *tick)
{
	return bpf_capture_starts(tick->bc);
}

struct woke {
	const struct session_opts *o;
	struct session_tick tick;
};

static void woke(void *arg)
{
	struct woke *wk = arg;

	wk->o->on_wake(wk->o->user, &wk->tick);
}

int session_record_calls(struct session_tick *tick, bool on, struct strbuf *err)
{
	return bpf_capture_record_calls(tick->bc, on, err);
}

/* -2 when the capture could not be loaded (nothing was started). */
static int session_ebpf(const struct session_opts *o, struct session_result *res, struct capture *c,
			struct strbuf *err)
{
	/* The buffers read into are copied only to be printed, and only
	 * as much as is. */
	struct bpf_capture_opts bo = {
		.ring_bytes = o->ring_bytes,
		.print_bytes = o->printer ? (size_t)(o->dec.strsize > 0 ? o->dec.strsize : 32) : 0,
		/* What the tracer would stop on; the rest stays in the kernel. */
		.select = o->select,
		.nbits = dec_nr_max(),
		/* Diagnosis mode: what no trace prints may be summed. */
		.sums = !o->printer,
		.stacks = o->on_stack != NULL,
		.cgroup_id = o->cgroup_id,
		.cgroup_level = o->cgroup_level,
		.cgroup_path = o->cgroup_path,
		.cgroup_parent = o->cgroup_parent,
		.cgroup_only = o->cgroup_only,
		.quiet = o->quiet,
		.quiet_repeats = o->quiet && o->quiet_repeats,
		.pausable = o->pausable,
	};
	struct bpf_capture *bc;
	struct spawn sp = { .errfd = -1 };
	struct followed fl = { 0 };
	struct watch *w = NULL;
	pid_t child = 0;
	bool reaped = false;
	int r = 0;
	double since = monotonic();

	raise_nofile();
	if (bpf_capture_open(&bc, &bo, err) < 0) {
		restore_nofile();
		return -2;
	}
	struct bpf_replay *rp = bpf_replay_new(c, bpf_capture_epoch(bc));
	struct walks ws = { o, bc };
	struct reader rd = { bc, rp, err, o };
	bpf_replay_walks_to(rp, give_walk, give_named, &ws);
	if (o->on_program)
		bpf_replay_execs_to(rp, give_exec, &ws);
	if (o->argv && o->on_program) {
		/* Read before it runs: its first calls are walked. */
		int ferr;
		char *file = spawn_find(o->argv[0], &ferr);
		if (file)
			give_program(&ws, file);
		free(file);
	}
	if (o->argv) {
		child = spawn_held(&sp, o->argv, restore_nofile_in_child, NULL, err);
		if (child < 0) {
			res->spawn_errno = sp.spawn_errno;
			r = -1;
			goto out;
		}
		if (bpf_capture_follow(bc, child, err) < 0) {
			spawn_abort(&sp);
			r = -1;
			goto out;
		}
		bpf_replay_hide_until_exec(rp, child);
		if (!o->follow)
			bpf_replay_only(rp, child);
		forward_pid = child;
		ignore_sigpipe();
		forward_stop_signals();
		/* Followed now: let it go on to its exec (the watch does, once
		 * it has seized it). */
		if (!(w = start_watch(o, &sp, 0, &rd, res)))
			kill(child, SIGCONT);
	} else {
		handle_stop_signals();
		ignore_sigpipe();
		if (!o->pid && o->keep_on) {
			/* An empty cgroup, watched: its programs are followed
			 * from their exec. */
		} else if (kill(o->pid, 0) < 0 && errno == ESRCH && !o->nmore) {
			tracer_explain_attach(o->pid, ESRCH, err);	/* as the tracer says it */
			r = -1;
			goto out;
		}
		/* Its program first: the kernel walks its Python from the
		 * first call it sees (a libpython already mapped is found by
		 * the kernel's probe instead). */
		if (o->pid)
			give_exec(&ws, o->pid);
		/* A set's first process may have ended since it was listed. */
		if (o->pid && follow_tree(bc, o->pid, c, &fl, 0, err) < 0 && !o->nmore && !o->keep_on) {
			r = -1;
			goto out;
		}
		strbuf_reset(err);
		for (size_t i = 0; i < o->nmore; i++) {
			/* One ended since it was listed is passed over. */
			struct strbuf e2 = STRBUF_INIT;
			give_exec(&ws, o->more_pids[i]);
			follow_tree(bc, o->more_pids[i], c, &fl, 0, &e2);
			strbuf_release(&e2);
		}
		if (!o->follow)
			bpf_replay_only(rp, o->pid);
		w = start_watch(o, NULL, o->pid, &rd, res);
		start_timer(o->duration);
	}
	int poll_ms = POLL_MS;
	bool told_backlog = false;
	struct woke wk = { o, { rp, bc, c, &fl } };
	if (o->on_wake)
		bpf_capture_on_wake(bc, woke, &wk);
	for (;;) {
		int got = bpf_capture_poll(bc, poll_ms, replay_one, rp, err);
		if (got < 0) {
			r = -1;
			break;
		}
		tell_backlog(o, bc, &told_backlog);
		if (w)
			watch_sync(w, drain, name_held, &rd);
		if (child && !reaped)
			reaped = reap(child, w, false, &res->child_status);
		if (!child && stop_flag)
			break;
		if (o->on_tick)
			o->on_tick(o->user, &wk.tick);
		/* The kernel forgets a process when its last thread ends:
		 * once none is left, what remains is in the ring (a watch
		 * waits for the next). */
		bool following = bpf_capture_following(bc);
		if ((!child || reaped) && !following && !o->keep_on) {
			drain(&rd);
			break;
		}
		/* While records come, soon again: the kernel wakes the reader
		 * for a stack record only now and then (RCB_BUSY_POLL_MS). */
		poll_ms = !following && !o->keep_on ? REAP_POLL_MS : got > 0 ? RCB_BUSY_POLL_MS : POLL_MS;
	}
	/* What is left is read as the programs go: nothing is asked of the
	 * session now. */
	bpf_capture_on_wake(bc, NULL, NULL);
	/* The sums of processes that live on, while their fds are known
	 * (the kernel wrote those of each process that ended): read once
	 * the programs are gone, which would change them as they are read. */
	if (bpf_capture_following(bc)) {
		bpf_capture_detach(bc);
		drain(&rd);
		bpf_capture_flush_sums(bc, replay_one, rp);
	}
	drain(&rd);
	/* Detaching: what each thread is blocked in, as the tracer says;
	 * then the watch lets go of them. */
	bpf_replay_end(rp, fl.v, fl.n, since, !child);
	if (child && !reaped)
		reap(child, w, true, &res->child_status);
	watch_free(w);
	alarm(0);
	if (child) {
		res->spawn_errno = spawn_error(&sp);
	} else {
		res->detached = true;
		res->stop_signal = stop_signal;
	}
	/* A backlog that came at the very end is said too, before the
	 * losses it led to. */
	tell_backlog(o, bc, &told_backlog);
	struct bpf_capture_losses l;
	bpf_capture_losses(bc, &l);
	res->lost_records = l.reserve;
	memcpy(res->lost_who, l.who, sizeof(l.who));
	res->nlost_who = l.nwho;
	res->held_for_room = l.held;
	res->quiet_calls = l.quiet;
	res->lost_entries = l.entry;
	res->lost_follows = l.follow;
	res->stacks_skipped = l.stacks;
out:
	res->bad_records = bpf_replay_bad_records(rp);
	/* Detaching is closing: the exit hook goes first (bpf.h). */
	bpf_capture_close(bc);
	bpf_replay_free(rp);
	free(fl.v);
	restore_nofile();
	return r;
}
#else
struct session_tick {
	int none;
};

bool session_blocked_now(struct session_tick *tick, pid_t tgid, pid_t tid, double since)
{
	(void)tick;
	(void)tgid;
	(void)tid;
	(void)since;
	return false;
}

bool session_follow_now(struct session_tick *tick, pid_t pid)
{
	(void)tick;
	(void)pid;
	return false;
}

uint64_t session_calls_seen(struct session_tick *tick)
{
	(void)tick;
	return 0;
}

uint64_t session_starts(struct session_tick *tick)
{
	(void)tick;
	return 0;
}

int session_record_calls(struct session_tick *tick, bool on, struct strbuf *err)
{
	(void)tick;
	(void)on;
	strbuf_adds(err, "this rootcause was built without the eBPF capture");
	return -1;
}

static int session_ebpf(const struct session_opts *o, struct session_result *res, struct capture *c,
			struct strbuf *err)
{
	(void)o;
	(void)res;
	(void)c;
	strbuf_adds(err, "this rootcause was built without the eBPF capture (meson setup -Dbpf=enabled, "
		    "with clang, bpftool and libbpf-dev)");
	return -2;
}
#endif

int session_run(const struct session_opts *o, struct session_result *res, struct strbuf *err)
{
	struct capture_opts co = {
		.select = o->select,
		.nbits = dec_nr_max(),
		.dec = o->dec,
		.printer = o->printer,
		.on_event = o->on_event,
		.on_fatal_signal = o->on_fatal_signal,
		.on_stack = o->on_stack,
		.user = o->user,
		.adopt = o->argv == NULL,
	};
	double t0 = monotonic();

	memset(res, 0, sizeof(*res));
	res->child_status = -1;
	stop_flag = 0;
	stop_signal = 0;
	forward_pid = 0;
	printing = o->printer != NULL;

	struct capture *c = capture_new(&co);
	int r;
	res->backend = o->backend == BACKEND_PTRACE ? BACKEND_PTRACE : BACKEND_EBPF;
	if (o->backend == BACKEND_PTRACE) {
		r = session_ptrace(o, res, c, err);
	} else {
		r = session_ebpf(o, res, c, err);
		res->no_ebpf = r == -2;
		if (r == -2 && o->backend == BACKEND_AUTO) {
			snprintf(res->fallback, sizeof(res->fallback), "%s", strbuf_str(err));
			strbuf_reset(err);
			res->backend = BACKEND_PTRACE;
			r = session_ptrace(o, res, c, err);
		}
		r = r < 0 ? -1 : r;
	}
	res->events = capture_events(c);
	res->summed = capture_summed(c);
	capture_free(c);
	forward_pid = 0;
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	res->seconds = monotonic() - t0;
	return r;
}

void session_backends(struct strbuf *out)
{
#ifdef RC_HAVE_BPF
	strbuf_adds(out, "ptrace, ebpf (");
	bpf_capture_version(out);
	strbuf_addc(out, ')');
#else
	strbuf_adds(out, "ptrace (built without the eBPF capture)");
#endif
}
