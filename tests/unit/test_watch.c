/* watch's parts: an event kept past its dispatch (event/copy.c), the
 * flight recorder (watch/recorder.c), the stall detector (watch/stall.c),
 * the call budget (watch/budget.c),
 * the journal's protocol (watch/journal.c) and the store's incidents
 * (crash/store.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "crash/store.h"
#include "event/event.h"
#include "rules/rule.h"
#include "watch/budget.h"
#include "watch/journal.h"
#include "watch/recorder.h"
#include "watch/stall.h"

/* Pids no process has here (above pid_max's largest): the recorder
 * learns them from the events alone. */
#define P0 0x3ffff000

static struct rc_fdfacts *facts(const char *desc, const char *path)
{
	size_t dl = strlen(desc) + 1, pl = strlen(path) + 1;
	struct rc_fdfacts *f = calloc(1, sizeof(*f) + dl + pl);

	f->kind = RC_FD_FILE;
	f->size = dl + pl;
	memcpy(f->text, desc, dl);
	memcpy(f->text + dl, path, pl);
	f->desc = f->text;
	f->path = f->text + dl;
	return f;
}

static void copy_is_whole(void **state)
{
	(void)state;
	struct rc_event e;
	char *path = strdup("/srv/model.pt"), *line = strdup("openat(AT_FDCWD, \"/srv/model.pt\") = -1 ENOENT");
	char *arg0 = strdup("python3"), *host = strdup("127.0.0.1");
	unsigned char *data = (unsigned char *)strdup("Traceback");
	struct rc_fdfacts *shown = facts("/srv/model.pt", "/srv/model.pt");
	struct rc_live live = { .seccomp_mode = 2, .caps = 7, .has_caps = true };

	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = 12;
	e.name = "openat";
	e.path = path;
	e.line = line;
	e.fd_shown = shown;
	e.data = data;
	e.data_len = 9;
	e.live = &live;
	e.argv[0] = arg0;
	e.argc = 1;
	e.sa.host = host;
	e.err = 2;
	size_t bytes;
	struct rc_event *c = event_copy(&e, &bytes);
	/* The original's memory is gone, as after a dispatch. */
	memset(path, 'x', strlen(path));
	memset(line, 'x', strlen(line));
	memset(arg0, 'x', strlen(arg0));
	memset(host, 'x', strlen(host));
	memset(shown, 0, sizeof(*shown) + shown->size);
	memset(data, 0, 9);
	live.caps = 0;
	assert_true(bytes > sizeof(e));
	assert_string_equal(c->path, "/srv/model.pt");
	assert_string_equal(c->name, "openat");
	assert_string_equal(c->line, "openat(AT_FDCWD, \"/srv/model.pt\") = -1 ENOENT");
	assert_string_equal(c->argv[0], "python3");
	assert_string_equal(c->sa.host, "127.0.0.1");
	assert_memory_equal(c->data, "Traceback", 9);
	assert_int_equal(c->live->caps, 7);
	assert_string_equal(c->fd_shown->path, "/srv/model.pt");
	/* The facts' strings are in the copy's own text. */
	assert_true(c->fd_shown->path >= c->fd_shown->text &&
		    c->fd_shown->path < c->fd_shown->text + c->fd_shown->size);
	assert_int_equal(c->err, 2);
	assert_null(c->quoted);
	event_copy_free(c);
	free(path);
	free(line);
	free(arg0);
	free(host);
	free(data);
	free(shown);
}

static void call(struct recorder *r, int tid, long nr, const char *name, long long ret, double ts)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = tid;
	e.nr = nr;
	e.name = name;
	e.ret = ret;
	e.ret_known = true;
	e.ts = ts;
	e.line = name;
	recorder_add(r, &e, ts);
}

static void fork_of(struct recorder *r, int tid, int child, bool thread, double ts)
{
	struct rc_event e;

	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = tid;
	e.nr = SYS_clone;
	e.name = "clone";
	e.ret = child;
	e.ret_known = true;
	e.flags = thread ? CLONE_VM | CLONE_THREAD : SIGCHLD;
	e.ts = ts;
	recorder_add(r, &e, ts);
}

struct seen {
	int pids[64];
	char names[64][16];	/* the copies handed on are gone after */
	size_t n;
};

static void collect(void *user, struct rc_event *e)
{
	struct seen *s = user;

	if (s->n < 64) {
		s->pids[s->n] = e->pid;
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", e->name ? e->name : "");
		s->n++;
	}
}

static size_t count_of(struct recorder *r, pid_t tgid, bool line, uint64_t upto, struct seen *s)
{
	struct recorder_pick pick = { tgid, line, upto };

	memset(s, 0, sizeof(*s));
	return recorder_each(r, &pick, collect, s);
}

static void recorder_trees(void **state)
{
	(void)state;
	struct recorder_opts o = { .window = 30, .process_bytes = 1 << 20, .total_bytes = 8 << 20 };
	struct recorder *r = recorder_new(&o);
	struct seen s;
	const int sup = P0, a = P0 + 1, b = P0 + 2, a_thread = P0 + 3, a_child = P0 + 4;

	call(r, sup, SYS_read, "read", 0, 100);
	fork_of(r, sup, a, false, 101);
	fork_of(r, sup, b, false, 102);
	fork_of(r, a, a_thread, true, 103);
	fork_of(r, a_thread, a_child, false, 104);
	call(r, a_thread, SYS_openat, "openat", -1, 105);
	call(r, b, SYS_write, "write", 1, 106);
	call(r, a_child, SYS_close, "close", 0, 107);
	uint64_t upto = recorder_seq(r);
	call(r, a, SYS_exit_group, "exit_group", 0, 108);

	assert_int_equal(recorder_process(r, a_thread), a);
	assert_int_equal(recorder_parent(r, a_child), a);
	assert_int_equal(recorder_root(r, a_child), sup);
	assert_true(recorder_within(r, a_child, sup));
	assert_false(recorder_within(r, b, a));
	/* The whole tree: every event. */
	assert_int_equal(count_of(r, a, false, 0, &s), 9);
	/* A's line: its parent's, its own (its thread's), its child's; not
	 * its sibling B's write; and up to the close. */
	assert_int_equal(count_of(r, a, true, upto, &s), 7);
	for (size_t i = 0; i < s.n; i++)
		assert_int_not_equal(s.pids[i], b);
	assert_string_equal(s.names[s.n - 1], "close");
	recorder_free(r);
}

static void recorder_window(void **state)
{
	(void)state;
	/* A ring of 1 MiB: about 2,000 of these events. */
	struct recorder_opts o = { .window = 10, .process_bytes = 1 << 20, .total_bytes = 2 << 20 };
	struct recorder *r = recorder_new(&o);
	struct recorder_stats st;
	struct seen s;
	char big[400];
	struct rc_event e;

	/* Its exec, which names the program, is kept past the window. */
	event_clear(&e);
	e.kind = RC_EV_SYSCALL;
	e.pid = P0;
	e.nr = SYS_execve;
	e.name = "execve";
	e.ret_known = true;
	e.ts = 1;
	recorder_add(r, &e, 1);
	for (int i = 0; i < 100; i++)
		call(r, P0, SYS_read, "read", 0, 2 + i * 0.01);
	recorder_age(r, 5);
	assert_int_equal(recorder_holes(r, P0), 0);
	/* Aged out: what is older than the window is gone, not a hole. */
	recorder_age(r, 20);
	assert_int_equal(count_of(r, P0, false, 0, &s), 1);
	assert_string_equal(s.names[0], "execve");
	assert_int_equal(recorder_holes(r, P0), 0);
	/* Past its memory: the oldest go first, and are counted. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (int i = 0; i < 10000; i++) {
		event_clear(&e);
		e.kind = RC_EV_SYSCALL;
		e.pid = P0;
		e.nr = SYS_write;
		e.name = "write";
		e.line = big;
		e.ts = 21;
		recorder_add(r, &e, 21);
	}
	recorder_stats(r, &st);
	assert_true(st.bytes <= o.process_bytes);
	assert_true(recorder_holes(r, P0) > 5000);
	assert_int_equal(st.dropped, recorder_holes(r, P0));
	recorder_free(r);
}

struct reader {
	int fds[2];
	volatile pid_t tid;
};

static void *blocked_reader(void *arg)
{
	struct reader *rd = arg;
	char c;

	rd->tid = (pid_t)syscall(SYS_gettid);
	/* Blocked in read until the test writes. */
	return read(rd->fds[0], &c, 1) == 1 ? NULL : arg;
}

struct told {
	pid_t tid;
	int n;
};

static void on_stall(void *user, pid_t tgid, pid_t tid, double since)
{
	struct told *t = user;

	(void)tgid;
	(void)since;
	if (tid == t->tid)
		t->n++;
}

static void stall_sees_a_wait(void **state)
{
	(void)state;
	struct reader rd = { .tid = 0 };
	pthread_t th;
	struct told t = { 0, 0 };
	struct stall *s = stall_new(1.0);

	assert_int_equal(pipe(rd.fds), 0);
	assert_int_equal(pthread_create(&th, NULL, blocked_reader, &rd), 0);
	for (int i = 0; i < 100 && !rd.tid; i++)
		usleep(10000);
	/* In its read by then, or soon: looks until one sees it inside. */
	usleep(200000);
	t.tid = rd.tid;
	assert_true(t.tid > 0);
	stall_look(s, getpid(), 100.0, on_stall, &t);
	stall_sweep(s);
	assert_int_equal(t.n, 0);
	stall_look(s, getpid(), 100.5, on_stall, &t);
	stall_sweep(s);
	assert_int_equal(t.n, 0);
	/* Inside one call, not run, for the threshold: told once. */
	stall_look(s, getpid(), 101.2, on_stall, &t);
	stall_sweep(s);
	assert_int_equal(t.n, 1);
	stall_look(s, getpid(), 105.0, on_stall, &t);
	stall_sweep(s);
	assert_int_equal(t.n, 1);
	/* It runs and ends: no wait left to tell. */
	assert_int_equal(write(rd.fds[1], "x", 1), 1);
	void *ret;
	pthread_join(th, &ret);
	assert_null(ret);
	stall_look(s, getpid(), 110.0, on_stall, &t);
	stall_sweep(s);
	assert_int_equal(t.n, 1);
	stall_free(s);
	close(rd.fds[0]);
	close(rd.fds[1]);
}

static void journal_fields(void **state)
{
	(void)state;
	char dir[] = "/tmp/rc-journal.XXXXXX", path[96], buf[1024];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/socket", dir);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	struct journal_field v[] = {
		{ "MESSAGE", "incident 1a2b: pid 12 exited with 1" },
		{ "ROOTCAUSE_SIGNATURE", "1a2b3c4d5e6f7a8b" },
		{ "ROOTCAUSE_ENTRY", NULL },
		{ "ROOTCAUSE_NOTE", "two\nlines" },
	};
	assert_true(journal_send_to(path, v, 4));
	ssize_t n = recv(fd, buf, sizeof(buf), 0);
	const char want[] = "MESSAGE=incident 1a2b: pid 12 exited with 1\n"
			    "ROOTCAUSE_SIGNATURE=1a2b3c4d5e6f7a8b\n"
			    "ROOTCAUSE_NOTE\n\x09\0\0\0\0\0\0\0two\nlines\n";
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(buf, want, sizeof(want) - 1);
	close(fd);
	unlink(path);
	rmdir(dir);
	/* No journald: nothing sent, nothing said. */
	assert_false(journal_send_to("/nonexistent/socket", v, 1));
}

/* READY=1 to the service manager's socket, by path or in the abstract
 * namespace ('@'), as NOTIFY_SOCKET gives it; and stderr known as the
 * journal by JOURNAL_STREAM's device and inode. */
static void systemd_protocols(void **state)
{
	(void)state;
	char name[64], buf[64];
	snprintf(name, sizeof(name), "@rc-notify-%d", (int)getpid());
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	memcpy(sa.sun_path + 1, name + 1, strlen(name) - 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name))), 0);
	unsetenv("NOTIFY_SOCKET");
	assert_false(systemd_notify("READY=1"));
	setenv("NOTIFY_SOCKET", name, 1);
	assert_true(systemd_notify("READY=1"));
	ssize_t n = recv(fd, buf, sizeof(buf), 0);
	assert_int_equal(n, 7);
	assert_memory_equal(buf, "READY=1", 7);
	unsetenv("NOTIFY_SOCKET");
	close(fd);

	struct stat st;
	assert_int_equal(fstat(2, &st), 0);
	unsetenv("JOURNAL_STREAM");
	assert_false(journal_is_stderr());
	snprintf(buf, sizeof(buf), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", buf, 1);
	assert_true(journal_is_stderr());
	snprintf(buf, sizeof(buf), "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino + 1);
	setenv("JOURNAL_STREAM", buf, 1);
	assert_false(journal_is_stderr());
	setenv("JOURNAL_STREAM", "12", 1);
	assert_false(journal_is_stderr());
	unsetenv("JOURNAL_STREAM");
}

static void store_counts(void **state)
{
	(void)state;
	char dir[] = "/tmp/rc-store.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct store_config cfg;
	store_config_default(&cfg);
	cfg.keep = 2;
	struct strbuf err = STRBUF_INIT;
	struct store_seen seen;
	struct store_incident in = { .signature = 0x1a2b3c4d5e6f7a8bULL, .pid = 12,
				     .json = "{\"findings\": []}\n", .text = "no problems found\n" };
	/* Now: --max-age would drop what is dated long ago. */
	long long t0 = (long long)time(NULL);

	for (int i = 0; i < 5; i++) {
		in.time = t0 + i;
		assert_int_equal(store_incident(dir, &cfg, &in, &seen, &err), 0);
	}
	assert_string_equal(seen.id, "incident.1a2b3c4d5e6f7a8b");
	assert_int_equal(seen.count, 5);
	assert_int_equal(seen.first, t0);
	assert_int_equal(seen.last, t0 + 4);
	assert_false(seen.stored);	/* the first report stays */
	/* Two more signatures: --keep 2 leaves the two last seen. */
	in.signature = 2;
	in.time = t0 + 10;
	assert_int_equal(store_incident(dir, &cfg, &in, &seen, &err), 0);
	assert_true(seen.stored);
	in.signature = 3;
	cfg.max_size = 4;	/* too small for its report: counted only */
	assert_int_equal(store_incident(dir, &cfg, &in, &seen, &err), 0);
	assert_false(seen.stored);
	size_t n;
	char **ids = store_list(dir, &n, &err);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0], "incident.0000000000000002");
	assert_string_equal(ids[1], "incident.0000000000000003");
	store_list_free(ids, n);
	assert_true(store_incident_seen(dir, "incident.0000000000000003", &seen));
	assert_int_equal(seen.count, 1);
	char path[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/incident.0000000000000002.json", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(path, sizeof(path), "%s/incident.0000000000000003.json", dir);
	assert_int_not_equal(stat(path, &st), 0);
	/* Nothing new while the disk is short of keep_free. */
	cfg.keep_free = UINT64_MAX / 2;
	in.signature = 4;
	assert_int_equal(store_incident(dir, &cfg, &in, &seen, &err), -1);
	assert_non_null(strstr(err.buf, "keep_free"));
	strbuf_release(&err);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* What watch reads of /proc and of its own count files, from text: a
 * file that says anything else is no answer, not a wrong one. */
static void parsers(void **state)
{
	(void)state;
	uint64_t call = 0, call2 = 0;
	unsigned long long cpu = 0;
	pid_t tgid = 0, ppid = -1;
	struct store_seen seen;

	assert_true(stall_parse("202 0x7f 0x80 0x0 0x0 0x0 0x0 0x7ffd 0x7f00\n", "1234 56 7\n", &call, &cpu));
	assert_int_equal(cpu, 1234);
	assert_true(stall_parse("202 0x7f 0x81 0x0 0x0 0x0 0x0 0x7ffd 0x7f00\n", "1234 56 7\n", &call2, &cpu));
	assert_true(call != call2);
	assert_false(stall_parse("running\n", "1234 56 7\n", &call, &cpu));
	assert_false(stall_parse("-1 0x7ffd 0x7f00\n", "1234 56 7\n", &call, &cpu));
	assert_false(stall_parse("202 0x7f\n", "99999999999999999999999 1 1\n", &call, &cpu));
	assert_false(stall_parse("202 0x7f\n", "12x 1 1\n", &call, &cpu));

	assert_true(recorder_parse_status("Name:\tpython3\nUmask:\t0022\nState:\tS\nTgid:\t4123\nNgid:\t0\n"
					  "Pid:\t4125\nPPid:\t4100\n", &tgid, &ppid));
	assert_int_equal(tgid, 4123);
	assert_int_equal(ppid, 4100);
	assert_false(recorder_parse_status("Tgid:\t-5\nPPid:\t1\n", &tgid, &ppid));
	assert_false(recorder_parse_status("Tgid:\t99999999999\n", &tgid, &ppid));
	assert_false(recorder_parse_status("Name:\tTgid: 5\n", &tgid, &ppid));
	assert_true(recorder_parse_status("Tgid:\t7\n", &tgid, &ppid));
	assert_int_equal(ppid, 0);

	assert_true(store_parse_seen("# rootcause watch: one incident's repeats\ncount=100\nfirst=1796473979\n"
				     "last=1796473999\n", &seen));
	assert_int_equal(seen.count, 100);
	assert_int_equal(seen.first, 1796473979);
	assert_int_equal(seen.last, 1796473999);
	assert_false(store_parse_seen("count=0\n", &seen));
	assert_false(store_parse_seen("count=-3\n", &seen));
	assert_false(store_parse_seen("count=184467440737095516160\n", &seen));
	assert_false(store_parse_seen("first=1\n", &seen));
	assert_true(store_parse_seen("count=2\nfirst=5\n", &seen));
	assert_int_equal(seen.last, 5);
}

/* --max-call-rate: a pause only after BUDGET_OVER_S above the rate, and
 * calls recorded again at a start, an end, or the minute's look. */
static void budget_paces(void **state)
{
	(void)state;
	struct budget b;
	double t = 100;
	uint64_t calls = 0;

	budget_init(&b, 1000);
	/* Below the rate: recorded throughout. */
	for (int i = 0; i < 20; i++, t += 0.5, calls += 400)
		assert_int_equal(budget_tick(&b, t, calls, 0), BUDGET_KEEP);
	/* Above it: a pause once two seconds were, not before. */
	enum budget_do d = BUDGET_KEEP;
	double over = t;
	while (d == BUDGET_KEEP && t < over + 10) {
		t += 0.25;
		calls += 5000;
		d = budget_tick(&b, t, calls, 0);
	}
	assert_int_equal(d, BUDGET_PAUSE);
	assert_true(t - over >= BUDGET_OVER_S - 1 && t - over <= BUDGET_OVER_S + 1.5);
	assert_true(b.rate > 15000 && b.rate < 25000);
	/* Not told done: nothing changed; told, it is paused. */
	budget_done(&b, BUDGET_PAUSE, t, true);
	double paused = t;
	for (int i = 0; i < 10; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls, 0), BUDGET_KEEP);
	/* A process started: recorded again. */
	assert_int_equal(budget_tick(&b, t += 0.5, calls, 1), BUDGET_RESUME);
	budget_done(&b, BUDGET_RESUME, t, true);
	assert_true(fabs(budget_unrecorded(&b, 0, 1e9) - (t - paused)) < 1e-9);
	/* Half of the pause in a window that begins midway. */
	assert_true(fabs(budget_unrecorded(&b, paused + (t - paused) / 2, 1e9) - (t - paused) / 2) < 1e-9);
	assert_true(budget_unrecorded(&b, t + 1, t + 30) == 0);
	/* A burst shorter than BUDGET_OVER_S: no pause. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls += 5000, 1), BUDGET_KEEP);
	for (int i = 0; i < 10; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls += 100, 1), BUDGET_KEEP);
	/* Above again: paused; an end (budget_wake) takes it up again. */
	while (budget_tick(&b, t += 0.5, calls += 5000, 1) == BUDGET_KEEP)
		assert_true(t < paused + 100);
	budget_done(&b, BUDGET_PAUSE, t, true);
	assert_int_equal(budget_tick(&b, t += 0.5, calls, 1), BUDGET_KEEP);
	budget_wake(&b);
	assert_int_equal(budget_tick(&b, t += 0.5, calls, 1), BUDGET_RESUME);
	budget_done(&b, BUDGET_RESUME, t, true);
	/* Paused with nothing starting or ending: a look after a minute. */
	while (budget_tick(&b, t += 0.5, calls += 5000, 1) == BUDGET_KEEP)
		assert_true(t < paused + 200);
	budget_done(&b, BUDGET_PAUSE, t, true);
	double third = t;
	while (budget_tick(&b, t += 0.5, calls, 1) == BUDGET_KEEP)
		assert_true(t < third + 2 * BUDGET_PROBE_EVERY_S);
	assert_true(t - third >= BUDGET_PROBE_EVERY_S);
	/* A resume that failed stays paused, and is asked again. */
	budget_done(&b, BUDGET_RESUME, t, false);
	assert_int_equal(budget_tick(&b, t += 0.5, calls, 1), BUDGET_RESUME);
	budget_done(&b, BUDGET_RESUME, t, true);
	assert_int_equal(b.pauses, 3);
	/* A pause that could not be made is not tried again. */
	while (budget_tick(&b, t += 0.5, calls += 5000, 1) == BUDGET_KEEP)
		assert_true(t < third + 400);
	budget_done(&b, BUDGET_PAUSE, t, false);
	for (int i = 0; i < 20; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls += 5000, 1), BUDGET_KEEP);
	/* 0: always recorded. */
	budget_init(&b, 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls += 1000000, 1), BUDGET_KEEP);
	/* Above the rate while processes start, one a second (a start-up's
	 * burst): no pause; once they stop starting, a pause. */
	budget_init(&b, 1000);
	for (int i = 0; i < 12; i++)
		assert_int_equal(budget_tick(&b, t += 0.5, calls += 5000, 10 + (uint64_t)((i + 1) / 2)), BUDGET_KEEP);
	int more = 0;
	while (budget_tick(&b, t += 0.5, calls += 5000, 16) == BUDGET_KEEP)
		assert_true(++more < 10);
	assert_true(more >= 2);
	/* More pauses than are kept: the newest BUDGET_SPANS count. */
	budget_init(&b, 1000);
	for (int i = 0; i < BUDGET_SPANS + 10; i++) {
		budget_done(&b, BUDGET_PAUSE, 10.0 * i, true);
		budget_done(&b, BUDGET_RESUME, 10.0 * i + 1, true);
	}
	assert_true(fabs(budget_unrecorded(&b, 0, 1e9) - BUDGET_SPANS) < 1e-9);
}

/* An incident's report says what its window lacks: events the recorder
 * dropped, and time the calls were not recorded, together. */
static void window_holes_said(void **state)
{
	(void)state;
	struct rc_findings l;
	struct capture_counts n = { .unrecorded = 12.4, .max_call_rate = 100000 };

	findings_init(&l);
	capture_incomplete_finding(&l, &n);
	assert_int_equal(l.count, 1);
	assert_string_equal(l.v[0]->summary, "the window has holes: watch did not record calls for 12 s of it, so a "
			    "finding may be missing or rest on part of what happened");
	assert_non_null(strstr(l.v[0]->evidence[0], "made more than 100000 calls a second"));
	assert_non_null(strstr(l.v[0]->advice, "--max-call-rate"));
	findings_release(&l);

	n.window = 7;
	findings_init(&l);
	capture_incomplete_finding(&l, &n);
	assert_non_null(strstr(l.v[0]->summary, "dropped 7 events of it to stay within its memory, and watch did not "
					       "record calls for 12 s of it"));
	findings_release(&l);

	n.window = 0;
	n.unrecorded = 0.04;
	findings_init(&l);
	capture_incomplete_finding(&l, &n);
	assert_non_null(strstr(l.v[0]->summary, "did not record calls for less than a second of it"));
	findings_release(&l);

	struct capture_counts none = { 0 };
	findings_init(&l);
	capture_incomplete_finding(&l, &none);
	assert_int_equal(l.count, 0);
	findings_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_is_whole),
		cmocka_unit_test(recorder_trees),
		cmocka_unit_test(recorder_window),
		cmocka_unit_test(stall_sees_a_wait),
		cmocka_unit_test(journal_fields),
		cmocka_unit_test(systemd_protocols),
		cmocka_unit_test(store_counts),
		cmocka_unit_test(parsers),
		cmocka_unit_test(budget_paces),
		cmocka_unit_test(window_holes_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
