/* capture/bpf: the in-kernel capture follows a process and its children
 * from their first call, gives each call with its path and outcome, each
 * process's end with its status, and nothing of the processes it does
 * not follow; a ring buffer too small for a stalled reader counts what
 * it lost. Skipped where the kernel refuses BPF (no privilege). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/capture.skel.h"
#include "capture/bpf/kernel-btf.h"
#include "capture/bpf/record.h"
#include "event/pump.h"

#define MAX_EVENTS 8192

struct seen {
	struct arena a;
	struct rc_event ev[MAX_EVENTS];
	int n;
	pid_t until;		/* stop once this process's end is seen */
	bool ended;
	/* Records replayed through capture's hooks, as the session does. */
	struct capture *cap;
	struct bpf_replay *rp;
};

/* capture's event, kept: its strings copied into the arena. */
static void keep_event(void *user, struct rc_event *e)
{
	struct seen *s = user;

	if (s->n >= MAX_EVENTS)
		return;
	struct rc_event *k = &s->ev[s->n++];
	*k = *e;
	event_own_strings(k, &s->a);
	if (e->kind == RC_EV_EXIT && e->pid == s->until)
		s->ended = true;
}

static int keep(void *user, const void *rec, size_t size)
{
	struct seen *s = user;

	bpf_replay_record(s->rp, rec, size);
	return 0;
}

static struct seen *seen_new(struct bpf_capture *c)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct capture_opts co = {
		.nbits = dec_nr_max(),
		.dec = { .strsize = 256, .preview_max = RC_EVENT_DATA_MAX },
		.on_event = keep_event,
	};

	assert_non_null(s);
	co.user = s;
	s->cap = capture_new(&co);
	s->rp = bpf_replay_new(s->cap, bpf_capture_epoch(c));
	return s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read until UNTIL's end has come through, for 10 s at most. */
static void drain(struct bpf_capture *c, struct seen *s)
{
	struct strbuf err = STRBUF_INIT;
	double deadline = now() + 10;

	while (!s->ended && now() < deadline)
		assert_true(bpf_capture_poll(c, 50, keep, s, &err) >= 0);
	/* What came after the end (nothing should). */
	assert_true(bpf_capture_poll(c, 0, keep, s, &err) >= 0);
	strbuf_release(&err);
}

static struct bpf_capture *open_or_skip(const struct bpf_capture_opts *o)
{
	struct bpf_capture *c;
	struct strbuf err = STRBUF_INIT;

	if (bpf_capture_open(&c, o, &err) < 0) {
		print_message("no eBPF here: %s\n", err.buf);
		strbuf_release(&err);
		skip();
	}
	strbuf_release(&err);
	return c;
}

/* A child held on a pipe until it is followed, so that its first call is
 * not missed; it then runs BODY. */
static pid_t held_child(int *go, void (*body)(void))
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char b;
		/* A failed assertion must not leave it waiting: it dies with
		 * the test, and on its own after 30 s. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(30);
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(100);
		body();
		_exit(100);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void release(int go)
{
	assert_int_equal(write(go, "x", 1), 1);
	close(go);
}

/* Run BODY in a held child that C follows, to its end: the events it
 * gave, its wait status in *ST. */
static struct seen *follow_child(struct bpf_capture *c, void (*body)(void), int *st)
{
	struct strbuf err = STRBUF_INIT;
	struct seen *s = seen_new(c);
	int go;

	pid_t pid = held_child(&go, body);
	assert_int_equal(bpf_capture_follow(c, pid, &err), 0);
	s->until = pid;
	release(go);
	assert_int_equal(waitpid(pid, st, 0), pid);
	drain(c, s);
	assert_true(s->ended);
	assert_int_equal(bpf_replay_bad_records(s->rp), 0);
	strbuf_release(&err);
	return s;
}

static void finish(struct bpf_capture *c, struct seen *s)
{
	bpf_capture_close(c);
	bpf_replay_free(s->rp);
	capture_free(s->cap);
	arena_release(&s->a);
	free(s);
}

static void child_and_grandchild(void)
{
	open("/nonexistent/rc-bpf-child", O_RDONLY);
	pid_t g = fork();
	if (g == 0) {
		open("/nonexistent/rc-bpf-grandchild", O_RDONLY | O_CLOEXEC);
		_exit(4);
	}
	waitpid(g, NULL, 0);
	_exit(3);
}

static const struct rc_event *find_open(const struct seen *s, const char *path)
{
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].kind == RC_EV_SYSCALL && s->ev[i].nr == SYS_openat && s->ev[i].path &&
		    strcmp(s->ev[i].path, path) == 0)
			return &s->ev[i];
	return NULL;
}

static const struct rc_event *find_exit(const struct seen *s, pid_t pid)
{
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].kind == RC_EV_EXIT && s->ev[i].pid == pid)
			return &s->ev[i];
	return NULL;
}

static void follows_children_from_their_first_call(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	struct seen *s = follow_child(c, child_and_grandchild, &st);
	pid_t pid = s->until;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 3);

	/* The child's first call after the pipe is there, with its path and
	 * errno, and the line that quotes it. */
	const struct rc_event *o = find_open(s, "/nonexistent/rc-bpf-child");
	assert_non_null(o);
	assert_int_equal(o->pid, pid);
	assert_int_equal(o->err, ENOENT);
	assert_int_equal(o->ret, -1);
	assert_int_equal(o->dirfd, RC_AT_FDCWD);
	assert_int_equal(o->flags & O_ACCMODE, O_RDONLY);
	assert_string_equal(o->name, "openat");
	assert_non_null(strstr(o->line, "\"/nonexistent/rc-bpf-child\""));
	assert_non_null(strstr(o->line, "= -1 ENOENT"));
	assert_true(o->dur >= 0);
	/* Epoch seconds, as the tracer's are. */
	assert_true(o->ts > (double)time(NULL) - 60 && o->ts < (double)time(NULL) + 60);
	/* Its fork is followed: the grandchild's call and end. */
	const struct rc_event *g = find_open(s, "/nonexistent/rc-bpf-grandchild");
	assert_non_null(g);
	assert_true(g->pid != pid);
	assert_true(g->flags & O_CLOEXEC);
	const struct rc_event *ge = find_exit(s, g->pid);
	assert_non_null(ge);
	assert_true(ge->exited);
	assert_int_equal(ge->exit_code, 4);
	const struct rc_event *ce = find_exit(s, pid);
	assert_non_null(ce);
	assert_true(ce->exited);
	assert_int_equal(ce->exit_code, 3);
	/* Nothing of this process, which is not followed. */
	for (int i = 0; i < s->n; i++)
		assert_int_not_equal(s->ev[i].pid, getpid());

	struct bpf_capture_losses l;
	bpf_capture_losses(c, &l);
	assert_true(l.reserve == 0 && l.entry == 0 && l.follow == 0);
	finish(c, s);
}

static char long_write[10000];

/* A short error message and a long write, both to a closed-off fd 2. */
static void writes(void)
{
	int fd = open("/dev/null", O_WRONLY);
	dup2(fd, 2);
	static const char msg[] = "error: cannot load model 'm.pt'\n";
	/* /dev/null never reads what it is given, and the capture reads
	 * only pages that are there: a program's message was made, and
	 * so touched, before it was written. */
	(void)*(volatile const char *)msg;
	(void)!write(2, msg, sizeof(msg) - 1);
	(void)!write(2, long_write, sizeof(long_write));
	_exit(0);
}

static const struct rc_event *find_write(const struct seen *s, uint64_t len)
{
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].kind == RC_EV_SYSCALL && s->ev[i].nr == SYS_write && s->ev[i].fd == 2 &&
		    s->ev[i].len == len)
			return &s->ev[i];
	return NULL;
}

/* A write's data: all of a short one; of a long one its head and its
 * tail, with what lies between counted (event.h's data preview). */
static void keeps_the_data_written(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	for (size_t i = 0; i < sizeof(long_write); i++)
		long_write[i] = (char)('a' + i % 26);
	memcpy(long_write, "HEAD", 4);
	memcpy(long_write + sizeof(long_write) - 4, "TAIL", 4);
	struct seen *s = follow_child(c, writes, &st);

	const char msg[] = "error: cannot load model 'm.pt'\n";
	const struct rc_event *w = find_write(s, sizeof(msg) - 1);
	assert_non_null(w);
	assert_int_equal(w->data_len, sizeof(msg) - 1);
	assert_memory_equal(w->data, msg, sizeof(msg) - 1);
	assert_int_equal(w->data_omitted, 0);
	assert_non_null(strstr(w->line, "\"error: cannot load model"));
	const struct rc_event *l = find_write(s, sizeof(long_write));
	assert_non_null(l);
	assert_int_equal(l->data_len, RC_EVENT_DATA_MAX);
	assert_int_equal(l->data_gap, RC_EVENT_DATA_HEAD);
	assert_int_equal(l->data_omitted, sizeof(long_write) - RC_EVENT_DATA_MAX);
	assert_memory_equal(l->data, "HEAD", 4);
	assert_memory_equal(l->data + l->data_len - 4, "TAIL", 4);
	assert_memory_equal(l->data + RC_EVENT_DATA_HEAD, long_write + sizeof(long_write) - RC_EVENT_DATA_HEAD,
			    RC_EVENT_DATA_HEAD);
	finish(c, s);
}

/* A failed exec, then one that works. */
static void execs(void)
{
	char *const bad[] = { "rc-missing", NULL };
	char *const sh[] = { "sh", "-c", "exit 5", NULL };

	execv("/nonexistent/rc-missing", bad);
	execv("/bin/sh", sh);
	_exit(100);
}

/* A successful exec is told by the kernel's exec event (its arguments
 * pointed into memory that is gone at exit); a failed one by its path. */
static void describes_execs(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	struct seen *s = follow_child(c, execs, &st);
	pid_t pid = s->until;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 5);
	const struct rc_event *bad = NULL, *ok = NULL;
	for (int i = 0; i < s->n; i++) {
		const struct rc_event *e = &s->ev[i];
		if (e->kind != RC_EV_SYSCALL || e->nr != SYS_execve)
			continue;
		if (e->err)
			bad = e;
		else
			ok = e;
	}
	assert_non_null(bad);
	assert_int_equal(bad->err, ENOENT);
	assert_string_equal(bad->path, "/nonexistent/rc-missing");
	assert_non_null(ok);
	assert_string_equal(ok->path, "/bin/sh");
	assert_int_equal(ok->argc, 3);
	assert_string_equal(ok->argv[0], "sh");
	assert_string_equal(ok->argv[2], "exit 5");
	assert_false(ok->argv_truncated);
	assert_non_null(strstr(ok->line, "[\"sh\", \"-c\", \"exit 5\"]"));
	const struct rc_event *x = find_exit(s, pid);
	assert_non_null(x);
	assert_int_equal(x->exit_code, 5);
	finish(c, s);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* Where the child faults (a variable: the compiler must not see it). */
static volatile uintptr_t fault_at = 16;

/* SIGUSR1 sent to itself and handled, then a fault at address 16, with
 * SIGSEGV's default action (cmocka's handler is inherited otherwise). */
static void signals(void)
{
	signal(SIGSEGV, SIG_DFL);
	signal(SIGUSR1, on_usr1);
	kill(getpid(), SIGUSR1);
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
	*(volatile int *)fault_at = 1;
	_exit(100);
}

/* Each delivery with its siginfo's facts, and the end by the signal. */
static void tells_signals(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	struct seen *s = follow_child(c, signals, &st);
	pid_t pid = s->until;
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	const struct rc_event *usr1 = NULL, *segv = NULL;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].kind != RC_EV_SIGNAL)
			continue;
		if (s->ev[i].signo == SIGUSR1)
			usr1 = &s->ev[i];
		if (s->ev[i].signo == SIGSEGV)
			segv = &s->ev[i];
	}
	assert_non_null(usr1);
	assert_int_equal(usr1->si_code, SI_USER);
	assert_int_equal(usr1->sender_pid, pid);
	assert_false(usr1->has_fault_addr);
	assert_non_null(segv);
	assert_int_equal(segv->pid, pid);
	assert_int_equal(segv->si_code, SEGV_MAPERR);
	assert_true(segv->has_fault_addr);
	assert_int_equal(segv->fault_addr, 16);
	assert_string_equal(segv->line, "--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---");
	const struct rc_event *x = find_exit(s, pid);
	assert_non_null(x);
	assert_false(x->exited);
	assert_int_equal(x->signo, SIGSEGV);
	assert_false(x->core_dumped);
	finish(c, s);
}

/* A thread blocked on a pipe while its sibling writes to a pipe with no
 * reader: SIGPIPE's default action kills the process at once, which the
 * kernel does with SIGKILL to every thread, no delivery. */
static void *block_on_pipe(void *arg)
{
	int p[2];
	char b;

	(void)arg;
	if (pipe(p) == 0)
		(void)!read(p[0], &b, 1);
	return NULL;
}

static void broken_pipe(void)
{
	int p[2];
	pthread_t t;

	signal(SIGPIPE, SIG_DFL);
	pthread_create(&t, NULL, block_on_pipe, NULL);
	usleep(20000);
	if (pipe(p) == 0) {
		close(p[0]);
		(void)!write(p[1], "x", 1);
	}
	_exit(100);
}

/* A fatal signal the kernel acts on without a delivery is told as a
 * tracer sees it delivered, after the call it came in, once; the
 * SIGKILLs that end the other threads are not told. */
static void tells_fatal_signals_never_delivered(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	struct seen *s = follow_child(c, broken_pipe, &st);
	pid_t pid = s->until;
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
	int pipes = 0, kills = 0, write_at = -1, pipe_at = -1;
	for (int i = 0; i < s->n; i++) {
		const struct rc_event *e = &s->ev[i];
		if (e->kind == RC_EV_SYSCALL && e->nr == SYS_write && e->err == EPIPE)
			write_at = i;
		if (e->kind != RC_EV_SIGNAL)
			continue;
		kills += e->signo == SIGKILL;
		if (e->signo == SIGPIPE) {
			pipes++;
			pipe_at = i;
			assert_int_equal(e->si_code, SI_USER);
			assert_int_equal(e->sender_pid, pid);
			assert_int_equal(e->pid, pid);
		}
	}
	assert_int_equal(pipes, 1);
	assert_int_equal(kills, 0);
	assert_true(write_at >= 0 && write_at < pipe_at);
	finish(c, s);
}

static void ns_target(void)
{
	open("/nonexistent/rc-bpf-ns", O_RDONLY);
	_exit(7);
}

/* As pid 1 of a new pid namespace (a container's init): follow our first
 * child, pid 2 here and another pid in the kernel. Plain checks, no
 * cmocka (this is a forked process): the exit status says which failed. */
static int ns_leader(void)
{
	struct bpf_capture *c;
	struct strbuf err = STRBUF_INIT;

	if (bpf_capture_open(&c, NULL, &err) < 0)
		return 77;
	int p[2];
	if (pipe(p) != 0)
		return 10;
	pid_t pid = fork();
	if (pid == 0) {
		char b;
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(100);
		ns_target();
	}
	close(p[0]);
	if (pid != 2)
		return 11;
	if (bpf_capture_follow(c, pid, &err) < 0)
		return 12;
	if (write(p[1], "x", 1) != 1)
		return 13;
	close(p[1]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
		return 14;
	struct seen *s = seen_new(c);
	s->until = pid;
	double deadline = now() + 10;
	while (!s->ended && now() < deadline)
		if (bpf_capture_poll(c, 50, keep, s, &err) < 0)
			return 16;
	const struct rc_event *o = find_open(s, "/nonexistent/rc-bpf-ns");
	if (!o)
		return 17;
	if (o->pid != 2)
		return 18;
	if (!find_exit(s, 2))
		return 19;
	bpf_capture_close(c);
	return 0;
}

/* Inside a pid namespace the pids the loader sees are not the kernel's:
 * the followed set is seeded through a pidfd, and the events name the
 * threads as the namespace does. */
static void follows_inside_a_pid_namespace(void **state)
{
	(void)state;
	pid_t outer = fork();

	assert_true(outer >= 0);
	if (outer == 0) {
		if (unshare(CLONE_NEWPID) != 0)
			_exit(77);
		pid_t leader = fork();
		if (leader == 0)
			_exit(ns_leader());
		int st;
		if (waitpid(leader, &st, 0) != leader)
			_exit(98);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 99);
	}
	int st;
	assert_int_equal(waitpid(outer, &st, 0), outer);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77) {
		print_message("no pid namespace or no eBPF here\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(st), 0);
}

static int closed_port;

/* A connect refused on loopback, and a select that waits 20 ms (glibc
 * makes it pselect6, with a timespec). */
static void connect_and_wait(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)closed_port) };
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	connect(fd, (struct sockaddr *)&sin, sizeof(sin));
	struct timeval tv = { 0, 20000 };
	select(0, NULL, NULL, NULL, &tv);
	_exit(0);
}

/* A port on loopback that nothing listens on, for as long as the test. */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t n = sizeof(sin);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &n), 0);
	close(fd);
	return ntohs(sin.sin_port);
}

/* A socket address and a timeout, from the kernel's copies, through the
 * same facts as the other sources (event/facts.c). */
static void keeps_addresses_and_timeouts(void **state)
{
	(void)state;
	struct bpf_capture *c = open_or_skip(NULL);
	int st;

	closed_port = free_port();
	struct seen *s = follow_child(c, connect_and_wait, &st);
	const struct rc_event *cn = NULL, *sel = NULL;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].nr == SYS_connect)
			cn = &s->ev[i];
		if (s->ev[i].nr == SYS_select || s->ev[i].nr == SYS_pselect6)
			sel = &s->ev[i];
	}
	assert_non_null(cn);
	assert_int_equal(cn->err, ECONNREFUSED);
	assert_int_equal(cn->sa.family, AF_INET);
	assert_int_equal(cn->sa.port, closed_port);
	assert_string_equal(cn->sa.host, "127.0.0.1");
	assert_non_null(sel);
	assert_int_equal(sel->timeout_ms, 20);
	assert_true(sel->dur >= 0.015);
	finish(c, s);
}

static void many_failed_opens(void)
{
	for (int i = 0; i < 20000; i++)
		open("/nonexistent/rc-bpf-flood", O_RDONLY);
	_exit(0);
}

static void a_full_ring_counts_its_losses(void **state)
{
	(void)state;
	/* One page: a few records, and nobody reads while the child runs. */
	const struct bpf_capture_opts o = { .ring_bytes = 4096, .wakeup_bytes = 4096 };
	struct bpf_capture *c = open_or_skip(&o);
	struct strbuf err = STRBUF_INIT;
	struct seen *s = seen_new(c);
	int go, st;

	pid_t pid = held_child(&go, many_failed_opens);
	assert_int_equal(bpf_capture_follow(c, pid, &err), 0);
	release(go);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(bpf_capture_poll(c, 0, keep, s, &err) >= 0);
	struct bpf_capture_losses l;
	bpf_capture_losses(c, &l);
	int got = 0;
	for (int i = 0; i < s->n; i++)
		got += s->ev[i].kind == RC_EV_SYSCALL && s->ev[i].err == ENOENT;
	/* Every call is either read or counted. */
	assert_true(l.reserve > 0);
	assert_true((uint64_t)got + l.reserve >= 20000);
	finish(c, s);
	strbuf_release(&err);
}

/* The ids of the programs loaded in the kernel named NAME (ours:
 * on_sys_enter), up to MAX, into IDS: how many. */
static int programs_named(const char *name, __u32 *ids, int max)
{
	__u32 id = 0;
	int n = 0;

	while (bpf_prog_get_next_id(id, &id) == 0 && n < max) {
		int fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && strcmp(info.name, name) == 0)
			ids[n++] = id;
		close(fd);
	}
	return n;
}

/* The one id in B (NB of them) that is not in A (NA). */
static __u32 new_id(const __u32 *a, int na, const __u32 *b, int nb)
{
	__u32 found = 0;
	int count = 0;

	for (int i = 0; i < nb; i++) {
		bool old = false;
		for (int k = 0; k < na; k++)
			old |= a[k] == b[i];
		if (!old) {
			found = b[i];
			count++;
		}
	}
	return count == 1 ? found : 0;
}

static bool program_alive(__u32 id)
{
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int loader_ready[2], target_go[2];

/* Calls, then waits to be told to end, then calls again and exits 0. */
static void long_target(void)
{
	char b;

	for (int i = 0; i < 2000; i++)
		open("/nonexistent/rc-bpf-harm", O_RDONLY);
	if (read(target_go[0], &b, 1) != 1)
		_exit(101);
	for (int i = 0; i < 2000; i++)
		open("/nonexistent/rc-bpf-harm", O_RDONLY);
	_exit(0);
}

/* The capture belongs to its loader: killed with SIGKILL mid-trace, it
 * takes its programs with it, and the process it followed runs on to its
 * normal end. */
static void target_survives_a_killed_loader(void **state)
{
	(void)state;
	struct bpf_capture *probe = open_or_skip(NULL);
	bpf_capture_close(probe);
	__u32 before[64], during[64];
	int nbefore = programs_named("on_sys_enter", before, 64);
	int go;

	assert_int_equal(pipe(loader_ready), 0);
	assert_int_equal(pipe(target_go), 0);
	pid_t target = held_child(&go, long_target);
	pid_t loader = fork();
	assert_true(loader >= 0);
	if (loader == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(30);
		struct bpf_capture *c;
		struct strbuf err = STRBUF_INIT;
		if (bpf_capture_open(&c, NULL, &err) < 0 || bpf_capture_follow(c, target, &err) < 0)
			_exit(1);
		(void)!write(loader_ready[1], "r", 1);
		for (;;)
			pause();
	}
	close(loader_ready[1]);
	char b;
	/* The loader's programs, told apart from those of the tests before,
	 * which the kernel may still be freeing. */
	assert_int_equal(read(loader_ready[0], &b, 1), 1);
	__u32 ours = new_id(before, nbefore, during, programs_named("on_sys_enter", during, 64));
	assert_true(ours != 0);
	release(go);
	usleep(20000);
	assert_int_equal(kill(loader, SIGKILL), 0);
	int st;
	assert_int_equal(waitpid(loader, &st, 0), loader);
	/* The kernel frees a dead process's links and programs soon, not at
	 * once. */
	for (int i = 0; i < 500 && program_alive(ours); i++)
		usleep(10000);
	assert_false(program_alive(ours));
	assert_int_equal(write(target_go[1], "x", 1), 1);
	assert_int_equal(waitpid(target, &st, 0), target);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	close(loader_ready[0]);
	close(target_go[0]);
	close(target_go[1]);
}

/* Records are untrusted: short or unknown ones are refused, not read;
 * a call's items become the memory its decoder reads. */
static void malformed_records_are_refused(void **state)
{
	(void)state;
	struct bpf_rec *r = calloc(1, sizeof(*r));
	unsigned char buf[8192] = { 0 };

	assert_non_null(r);
	assert_int_equal(bpf_record_parse(buf, 3, r), -1);
	buf[0] = 99;
	assert_int_equal(bpf_record_parse(buf, sizeof(buf), r), -1);
	buf[0] = 1;	/* a call, cut short */
	assert_int_equal(bpf_record_parse(buf, 40, r), -1);
	/* A call whose item says more than the kernel half ever keeps. */
	struct rcb_call c = { .h = { .kind = RCB_CALL }, .nr = SYS_write, .nitems = 1, .args = { 2, 0x1000, 5 } };
	struct rcb_item it = { .arg = 1, .kind = RCB_I_HEAD, .len = RCB_DATA_END + 8, .total = 9000 };
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &c, sizeof(c));
	memcpy(buf + sizeof(c), &it, sizeof(it));
	assert_int_equal(bpf_record_parse(buf, sizeof(buf), r), -1);
	/* A tail with no head before it. */
	it.kind = RCB_I_TAIL;
	it.len = 5;
	memcpy(buf + sizeof(c), &it, sizeof(it));
	assert_int_equal(bpf_record_parse(buf, sizeof(buf), r), -1);
	it.kind = RCB_I_HEAD;
	it.total = 5;
	memcpy(buf + sizeof(c), &it, sizeof(it));
	memcpy(buf + sizeof(c) + sizeof(it), "hello", 5);
	assert_int_equal(bpf_record_parse(buf, sizeof(buf), r), 0);
	assert_int_equal(r->nregions, 1);
	assert_int_equal(r->region[0].addr, 0x1000);
	assert_int_equal(r->region[0].len, 5);
	assert_memory_equal(r->region[0].p, "hello", 5);
	/* The decoders read it there, and nowhere else. */
	struct mem_copies v;
	char got[6] = { 0 };
	mem_copies_init(&v, r->region, r->nregions);
	assert_int_equal(mem_read(&v.m, 0x1000, got, 5), 5);
	assert_string_equal(got, "hello");
	assert_int_equal(mem_read(&v.m, 0x1001, got, 5), -1);
	assert_int_equal(mem_read(&v.m, (uint64_t)(uintptr_t)got, got, 1), -1);
	/* A sum: of no call, in no direction, or ending before it began,
	 * is none of ours; a whole one is kept as the kernel wrote it. */
	struct rcb_sum s = { .h = { .kind = RCB_SUM, .size = sizeof(s) }, .nr = SYS_read, .fd = 3,
			     .dir = RCB_SUM_READ, .calls = 0, .bytes = 1024, .first_ns = 5, .last_ns = 9 };
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(bpf_record_parse(buf, sizeof(s), r), -1);
	s.calls = 1;
	s.dir = 3;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(bpf_record_parse(buf, sizeof(s), r), -1);
	s.dir = RCB_SUM_WRITE;
	s.last_ns = 4;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(bpf_record_parse(buf, sizeof(s), r), -1);
	s.last_ns = 9;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(bpf_record_parse(buf, sizeof(s) - 1, r), -1);
	assert_int_equal(bpf_record_parse(buf, sizeof(s), r), 0);
	assert_int_equal(r->sum.calls, 1);
	assert_int_equal(r->sum.bytes, 1024);
	free(r);
}

/* Each program's instructions after loading, by program: a map's
 * descriptor (each load has its own) left out. */
static void loaded_insns(struct strbuf *out, const struct kernel_btf *kb, bool sums)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = kb->path[0] ? kb->path : NULL);
	struct capture_bpf *s = capture_bpf__open_opts(&oo);
	struct bpf_program *p;

	assert_non_null(s);
	s->rodata->summing = sums;
	s->rodata->stacks = 1;
	s->rodata->sums_mask = sums ? 4095 : 0;
	s->rodata->sigreturn_nr = SYS_rt_sigreturn;
	s->rodata->task_struct_btf_id = kb->task_struct_id;
	s->rodata->file_btf_id = kb->file_id;
	bpf_program__set_autoload(s->progs.kernel_tgid, false);
	bpf_program__set_autoload(sums ? s->progs.on_sys_enter : s->progs.on_switch, false);
	assert_int_equal(bpf_map__set_max_entries(s->maps.sums, sums ? 4096 : 1), 0);
	int e = capture_bpf__load(s);
	if (e == -EPERM || e == -EACCES) {
		capture_bpf__destroy(s);
		skip();
	}
	assert_int_equal(e, 0);
	bpf_object__for_each_program(p, s->obj) {
		const struct bpf_insn *in = bpf_program__insns(p);
		size_t n = bpf_program__insn_cnt(p);
		if (!bpf_program__autoload(p))
			continue;
		strbuf_addf(out, "%s %zu\n", bpf_program__name(p), n);
		for (size_t i = 0; i < n; i++) {
			bool map = in[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
				   (in[i].src_reg == BPF_PSEUDO_MAP_FD || in[i].src_reg == BPF_PSEUDO_MAP_VALUE);
			strbuf_addf(out, "%02x %x %x %d %d\n", in[i].code, in[i].dst_reg, in[i].src_reg, in[i].off,
				    map ? 0 : in[i].imm);
		}
	}
	capture_bpf__destroy(s);
}

/* The cut of the kernel's types (kernel-btf.h) relocates every program,
 * in both modes, to the instructions the kernel's whole BTF gives; the
 * second run takes it from the cache, and a cache file that is not a
 * BTF is made again. */
static void cut_of_kernel_types_relocates_alike(void **state)
{
	(void)state;
	char dir[] = "/tmp/rc-kernel-btf-XXXXXX";
	size_t size;
	const void *elf = capture_bpf__elf_bytes(&size);
	struct kernel_btf kb, again, whole;

	if (access(KERNEL_BTF_PATH, R_OK) != 0)
		skip();
	assert_non_null(mkdtemp(dir));
	assert_int_equal(kernel_btf_get(&kb, elf, size, dir), 0);
	assert_true(kb.cached);
	assert_true(strncmp(kb.path, dir, strlen(dir)) == 0);
	/* The kernel's whole BTF, with the ids the cut gave. */
	whole = kb;
	whole.path[0] = '\0';
	for (int sums = 0; sums <= 1; sums++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		loaded_insns(&a, &whole, sums);
		loaded_insns(&b, &kb, sums);
		assert_true(a.len > 1000);
		assert_string_equal(a.buf, b.buf);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	assert_int_equal(kernel_btf_get(&again, elf, size, dir), 0);
	assert_true(again.cached);
	assert_string_equal(again.path, kb.path);
	assert_int_equal(again.task_struct_id, kb.task_struct_id);
	assert_int_equal(again.file_id, kb.file_id);
	/* A damaged cache is not used. */
	FILE *f = fopen(kb.path, "w");
	assert_non_null(f);
	fputs("not a btf\n", f);
	fclose(f);
	assert_int_equal(kernel_btf_get(&again, elf, size, dir), 0);
	assert_int_equal(again.task_struct_id, kb.task_struct_id);
	struct stat st;
	assert_int_equal(stat(again.path, &st), 0);
	assert_true(st.st_size > 1000);
	kernel_btf_release(&again);
	/* Making a cut prunes another kernel's, and keeps another build's
	 * for this kernel. */
	char other_kernel[4200], other_build[4200], mine[4200];
	const char *base = strrchr(kb.path, '/') + 1;
	snprintf(mine, sizeof(mine), "%s", kb.path);
	snprintf(other_kernel, sizeof(other_kernel), "%s/kernel-0123456789abcdef-0123456789abcdef.btf", dir);
	snprintf(other_build, sizeof(other_build), "%s/%.23s-0123456789abcdef.btf", dir, base);
	for (int i = 0; i < 2; i++) {
		FILE *o = fopen(i ? other_build : other_kernel, "w");
		assert_non_null(o);
		fclose(o);
	}
	assert_int_equal(unlink(mine), 0);
	assert_int_equal(kernel_btf_get(&again, elf, size, dir), 0);
	assert_string_equal(again.path, mine);
	assert_int_equal(access(other_kernel, F_OK), -1);
	assert_int_equal(access(other_build, F_OK), 0);
	kernel_btf_release(&again);
	kernel_btf_release(&kb);

	/* A cut that parses but does not serve (no types in it) gives way
	 * to the kernel's whole BTF: the capture still loads, and the bad
	 * cut is gone from the cache. */
	struct kernel_btf cached;
	assert_int_equal(kernel_btf_get(&cached, elf, size, NULL), 0);
	if (cached.cached) {
		struct btf *bad = btf__new_empty();
		assert_true(btf__add_enum(bad, "rootcause_kernel_ids", 4) > 0);
		assert_int_equal(btf__add_enum_value(bad, "task_struct", cached.task_struct_id), 0);
		assert_int_equal(btf__add_enum_value(bad, "file", cached.file_id), 0);
		__u32 raw_size;
		const void *raw = btf__raw_data(bad, &raw_size);
		FILE *w = fopen(cached.path, "w");
		assert_non_null(w);
		assert_int_equal(fwrite(raw, 1, raw_size, w), raw_size);
		fclose(w);
		btf__free(bad);
		/* The loads above worked: this one must too. */
		struct bpf_capture *c;
		struct strbuf err = STRBUF_INIT;
		if (bpf_capture_open(&c, NULL, &err) != 0)
			fail_msg("%s", err.buf);
		strbuf_release(&err);
		bpf_capture_close(c);
		assert_int_equal(access(cached.path, F_OK), -1);
	}
	kernel_btf_release(&cached);

	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(malformed_records_are_refused),
		cmocka_unit_test(follows_children_from_their_first_call),
		cmocka_unit_test(keeps_the_data_written),
		cmocka_unit_test(describes_execs),
		cmocka_unit_test(tells_signals),
		cmocka_unit_test(tells_fatal_signals_never_delivered),
		cmocka_unit_test(keeps_addresses_and_timeouts),
		cmocka_unit_test(follows_inside_a_pid_namespace),
		cmocka_unit_test(a_full_ring_counts_its_losses),
		cmocka_unit_test(target_survives_a_killed_loader),
		cmocka_unit_test(cut_of_kernel_types_relocates_alike),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
