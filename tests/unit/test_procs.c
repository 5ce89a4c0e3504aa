/* The process model: fd table, cwd and path resolution, clone/exec,
 * failure ancestry and the output ring. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "event/facts.h"
#include "rule_test.h"
#include "strace/parser.h"
#include "util/procfs.h"
#include "util/strbuf.h"

static void fds_follow_open_dup_close(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "openat", 3, 0);
	e.path = "/etc/hosts";
	e.flags = O_RDONLY | O_CLOEXEC;
	rt_feed(&t, &e);
	const struct rc_fd *f = procs_fd(m, 10, 3);
	assert_non_null(f);
	assert_int_equal(f->kind, RC_FD_FILE);
	assert_string_equal(f->path, "/etc/hosts");

	e = rt_sys(&t, 10, "dup2", 7, 0);
	e.fd = 3;
	e.fd2 = 7;
	rt_feed(&t, &e);
	assert_string_equal(procs_fd(m, 10, 7)->path, "/etc/hosts");

	e = rt_sys(&t, 10, "close", 0, 0);
	e.fd = 3;
	rt_feed(&t, &e);
	assert_null(procs_fd(m, 10, 3));
	assert_non_null(procs_fd(m, 10, 7));

	/* exec drops close-on-exec fds only: the dup2 copy is not CLOEXEC. */
	e = rt_sys(&t, 10, "openat", 4, 0);
	e.path = "/tmp/x";
	e.flags = O_RDONLY | O_CLOEXEC;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "execve", 0, 0);
	e.path = "/bin/true";
	e.argv[0] = "true";
	e.argc = 1;
	rt_feed(&t, &e);
	assert_null(procs_fd(m, 10, 4));
	assert_non_null(procs_fd(m, 10, 7));
	assert_string_equal(procs_get(m, 10)->argv[0], "true");
	rt_release(&t);
}

static void relative_paths_resolve(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "chdir", 0, 0);
	e.path = "/srv/app";
	rt_feed(&t, &e);
	assert_string_equal(procs_get(m, 10)->cwd, "/srv/app");

	e = rt_sys(&t, 10, "openat", -1, ENOENT);
	e.path = "./cache_hub/model.pth";
	rt_feed(&t, &e);
	assert_string_equal(e.path, "/srv/app/cache_hub/model.pth");

	/* A directory fd resolves *at calls. */
	e = rt_sys(&t, 10, "openat", 5, 0);
	e.path = "/data";
	e.flags = O_RDONLY | O_DIRECTORY;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "openat", -1, ENOENT);
	e.dirfd = 5;
	e.path = "w.bin";
	rt_feed(&t, &e);
	assert_string_equal(e.path, "/data/w.bin");

	/* -y's AT_FDCWD</x> decoration teaches the cwd of a process the model
	 * has not seen chdir. */
	e = rt_sys(&t, 11, "openat", -1, ENOENT);
	e.path = "a.txt";
	e.dir_shown = rt_decoration(&t, "/home/u");
	rt_feed(&t, &e);
	assert_string_equal(e.path, "/home/u/a.txt");
	assert_string_equal(procs_get(m, 11)->cwd, "/home/u");

	/* A directory opened by a relative name with the cwd unknown (cp
	 * into "rodir/"): an *at call below it names the file under it. */
	e = rt_sys(&t, 12, "openat", 3, 0);
	e.path = "rodir/";
	e.flags = O_RDONLY | O_PATH | O_DIRECTORY;
	rt_feed(&t, &e);
	e = rt_sys(&t, 12, "openat", -1, EACCES);
	e.dirfd = 3;
	e.path = "src.txt";
	e.flags = O_WRONLY | O_CREAT | O_EXCL;
	rt_feed(&t, &e);
	assert_string_equal(e.path, "rodir/src.txt");
	rt_release(&t);
}

static void clone_threads_share_fds(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "socket", 3, 0);
	e.sa.family = AF_INET;
	e.flags = SOCK_STREAM | SOCK_NONBLOCK;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "clone", 12, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);

	assert_true(procs_get(m, 11)->is_thread);
	assert_int_equal(procs_get(m, 11)->leader, 10);
	assert_int_equal(procs_get(m, 12)->ppid, 10);
	assert_false(procs_get(m, 12)->is_thread);

	/* The thread's open is seen by the leader; the forked child's is not. */
	e = rt_sys(&t, 11, "openat", 4, 0);
	e.path = "/a";
	rt_feed(&t, &e);
	e = rt_sys(&t, 12, "openat", 5, 0);
	e.path = "/b";
	rt_feed(&t, &e);
	assert_non_null(procs_fd(m, 10, 4));
	assert_null(procs_fd(m, 10, 5));
	assert_non_null(procs_fd(m, 12, 3));
	assert_true(procs_fd(m, 12, 3)->nonblocking);

	/* A (bogus) clone returning the caller's own pid changes nothing. */
	e = rt_sys(&t, 12, "clone", 12, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	assert_non_null(procs_fd(m, 12, 3));

	/* Failure ancestry: the child's failure is not the parent's, but the
	 * parent's failure covers the child. */
	rt_exit(&t, 12, 0);
	rt_exit(&t, 10, 2);
	const struct rc_proc *culprit = NULL;
	assert_true(procs_failed(m, 12, &culprit));
	assert_int_equal(culprit->pid, 10);
	assert_true(procs_any_failed(m));
	rt_release(&t);
}

static void connect_in_progress(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "connect", -1, EINPROGRESS);
	e.fd = 4;
	e.sa.family = AF_INET;
	e.sa.host = "127.0.0.1";
	e.sa.port = 9;
	rt_feed(&t, &e);
	const struct rc_fd *f = procs_fd(m, 10, 4);
	assert_non_null(f);
	assert_true(f->connecting);
	assert_string_equal(f->peer_host, "127.0.0.1");
	assert_int_equal(f->peer_port, 9);
	/* Reading SO_ERROR settles it. */
	e = rt_sys(&t, 10, "getsockopt", 0, 0);
	e.fd = 4;
	e.sockopt_level = SOL_SOCKET;
	e.sockopt_name = SO_ERROR;
	e.sockopt_value = ECONNREFUSED;
	rt_feed(&t, &e);
	assert_false(procs_fd(m, 10, 4)->connecting);

	char buf[64];
	struct rc_sockaddr sa = { AF_INET6, 443, "::1", false };
	assert_string_equal(sockaddr_format(&sa, buf, sizeof(buf)), "[::1]:443");
	rt_release(&t);
}

static void output_ring_lines(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	rt_write(&t, 10, 2, "Traceback (most recent call last):\n  File \"a.py\"");
	rt_write(&t, 10, 2, ", line 1\nModuleNotFoundError: No module named 'x'\n");
	rt_write(&t, 10, 1, "model load failed");
	procs_flush_output(&t.eng.procs);
	assert_int_equal(m->out_count, 4);
	assert_string_equal(m->out[1].text, "  File \"a.py\", line 1");
	assert_string_equal(m->out[2].text, "ModuleNotFoundError: No module named 'x'");
	assert_int_equal(m->out[3].fd, 1);
	for (int i = 0; i < 100; i++)
		rt_write(&t, 10, 2, "x\n");
	assert_int_equal(m->out_count, RC_OUTPUT_KEEP);
	rt_release(&t);
}

/* A long write kept as its head and its tail (event.h): the lines the
 * gap breaks are marked, the rest are whole; a write strace's -s cut marks
 * the line it ends, with how much was shown. */
static void output_ring_gap_and_cut(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	struct strbuf text = STRBUF_INIT;

	strbuf_adds(&text, "Traceback (most recent call last):\n");
	for (int i = 0; i < 200; i++)
		strbuf_addf(&text, "  File \"/srv/app/layer%03d.py\", line %d, in call\n", i, i + 1);
	strbuf_adds(&text, "ModuleNotFoundError: No module named 'voice_codec'\n");
	unsigned char kept[RC_EVENT_DATA_MAX + 1];
	struct rc_event e = rt_sys(&t, 10, "write", (long long)text.len, 0);
	e.fd = 2;
	e.len = text.len;
	event_keep_ends(&e, kept, RC_EVENT_DATA_MAX, (const unsigned char *)text.buf, text.len);
	assert_int_equal(e.data_len, RC_EVENT_DATA_MAX);
	assert_int_equal(e.data_gap, RC_EVENT_DATA_HEAD);
	assert_int_equal(e.data_omitted, text.len - RC_EVENT_DATA_MAX);
	assert_false(e.data_truncated);
	rt_feed(&t, &e);
	procs_flush_output(&t.eng.procs);
	const struct rc_output *last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
	assert_string_equal(last->text, "ModuleNotFoundError: No module named 'voice_codec'");
	assert_false(last->cut);
	size_t head_end = 0, tail_start = 0;
	for (size_t i = 0; i < m->out_count; i++) {
		const char *l = m->out[(m->out_head + i) % RC_OUTPUT_KEEP].text;
		size_t n = strlen(l);
		if (n > 3 && !strcmp(l + n - 3, "..."))
			head_end++;
		if (!strncmp(l, "...", 3))
			tail_start++;
	}
	assert_int_equal(head_end, 1);
	assert_int_equal(tail_start, 1);
	strbuf_release(&text);

	/* strace -s 32 cut a write; and one cut right after a newline */
	rt_write_cut(&t, 10, 2, "error: cannot open '/srv/models", 400);
	last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
	assert_string_equal(last->text, "error: cannot open '/srv/models...");
	assert_true(last->cut);
	assert_int_equal(last->shown, 31);
	rt_write_cut(&t, 10, 2, "fatal: no model\n", 80);
	last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
	assert_string_equal(last->text, "fatal: no model");
	assert_true(last->cut);
	rt_write(&t, 10, 2, "whole\n");
	last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
	assert_false(last->cut);
	rt_release(&t);
}

/* A dup-family call of PID: NAME(FD, ...) = RET. */
static void dup_call(struct rt *t, int pid, const char *name, int fd, int ret)
{
	struct rc_event e = rt_sys(t, pid, name, ret, 0);
	e.fd = fd;
	e.fd2 = ret;
	rt_feed(t, &e);
}

/* The stream of the last line in the ring. */
static int last_stream(const struct rc_procs *m)
{
	procs_flush_output((struct rc_procs *)m);
	assert_true(m->out_count > 0);
	return m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP].fd;
}

static void output_follows_the_streams(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	/* bash's echo msg >&2, as strace -f showed it: save fd 1, make it a
	 * copy of fd 2, write, put it back. */
	dup_call(&t, 10, "fcntl", 1, 11);
	dup_call(&t, 10, "dup2", 2, 1);
	rt_write(&t, 10, 1, "start.sh: MODEL_DIR is not set\n");
	assert_int_equal(last_stream(m), 2);
	dup_call(&t, 10, "dup2", 11, 1);
	rt_close_fd(&t, 10, 11, 0, NULL);
	rt_write(&t, 10, 1, "done\n");
	assert_int_equal(last_stream(m), 1);
	/* A saved copy written to directly is the stream too; a fork keeps
	 * the copies. */
	dup_call(&t, 10, "dup", 2, 12);
	struct rc_event e = rt_sys(&t, 10, "clone", 20, 0);
	rt_feed(&t, &e);
	rt_write(&t, 20, 12, "child: cannot connect\n");
	assert_int_equal(last_stream(m), 2);
	/* A file opened onto fd 1 keeps being stdout, as before; a closed
	 * fd 2 is nothing. */
	rt_open_fd(&t, 10, "/tmp/out.log", 1, O_WRONLY | O_CREAT | O_TRUNC, 0, NULL);
	rt_write(&t, 10, 1, "to the log\n");
	assert_int_equal(last_stream(m), 1);
	size_t n = m->out_count;
	rt_close_fd(&t, 20, 2, 0, NULL);
	rt_write(&t, 20, 2, "lost\n");
	procs_flush_output(&t.eng.procs);
	assert_int_equal(m->out_count, n);
	/* A copy of an fd the trace never saw opened (a log without the
	 * F_DUPFD that saved it) leaves fd 1 what it was: stdout. */
	dup_call(&t, 30, "dup2", 2, 1);
	dup_call(&t, 30, "dup2", 9, 1);
	rt_write(&t, 30, 1, "back\n");
	assert_int_equal(last_stream(m), 1);
	/* With -y both streams name the file they go to, and the first call
	 * that shows fd 2 is the dup2 itself. */
	struct rc_event d = rt_sys(&t, 40, "dup2", 1, 0);
	d.fd = 2;
	d.fd2 = 1;
	d.fd_shown = rt_decoration(&t, "/tmp/run.out");
	rt_feed(&t, &d);
	struct rc_event w = rt_sys(&t, 40, "write", 6, 0);
	w.fd = 1;
	w.fd_shown = rt_decoration(&t, "/tmp/run.out");
	w.data = (const unsigned char *)"oops!\n";
	w.data_len = 6;
	rt_feed(&t, &w);
	assert_int_equal(last_stream(m), 2);
	rt_release(&t);
}

/* Feed strace text LOG to T's engine, as a log would be read. */
static void feed_log(struct rt *t, const char *log)
{
	struct strace_parser *p = strace_parser_from_buffer(log, strlen(log));
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	while (strace_parser_next(p, &e, &err) > 0)
		rt_feed(t, &e);
	strace_parser_free(p);
	strbuf_release(&err);
}

/* bash saves stderr with fcntl(F_DUPFD) before hiding it in /dev/null and
 * puts the copy back with dup2: stderr again, so a later `echo ... >&2`
 * (dup2(2, 1), then write(1)) is on stderr, as strace -y showed pyenv's. */
static void output_stream_saved_by_fcntl(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "4586  fcntl(2</tmp/rcfix/run.out>, F_DUPFD, 10) = 11</tmp/rcfix/run.out>\n"
		 "4586  openat(AT_FDCWD</tmp/rcfix>, \"/dev/null\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>\n"
		 "4586  dup2(3</dev/null>, 2</tmp/rcfix/run.out>) = 2</dev/null>\n"
		 "4586  close(3</dev/null>) = 0\n"
		 "4586  dup2(11</tmp/rcfix/run.out>, 2</dev/null>) = 2</tmp/rcfix/run.out>\n"
		 "4586  close(11</tmp/rcfix/run.out>) = 0\n"
		 "4586  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		 "child_tidptr=0x7f) = 4597\n"
		 "4597  dup2(2</tmp/rcfix/run.out>, 1<pipe:[604886]>) = 1</tmp/rcfix/run.out>\n"
		 "4597  write(1</tmp/rcfix/run.out>, \"pyenv: invalid version `cpython/3.13' ignored\\n\", 46) = 46\n");
	assert_int_equal(last_stream(&t.eng.procs), 2);
	rt_release(&t);
}

/* What goes to stdout when stdout is a file the shell opened to write
 * ('cat > app.py <<EOF' in a start script, as strace -f -y showed dash
 * and cat) is the file's contents, not words: a line of the script that
 * reads like an error must not become the program's complaint. A file
 * opened to append to (nohup.out, a service's >> redirect) and a log by
 * its name stay where its words go; stderr stays words anywhere. */
static void output_into_a_file_is_contents(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	feed_log(&t,
		 "10552 openat(AT_FDCWD</tmp/s1>, \"app.py\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/s1/app.py>\n"
		 "10552 dup2(3</tmp/s1/app.py>, 1) = 1</tmp/s1/app.py>\n"
		 "10552 close(3</tmp/s1/app.py>) = 0\n"
		 "10552 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		 "child_tidptr=0x7f) = 10553\n"
		 "10553 write(1</tmp/s1/app.py>, \"        print(\\\"Error: model load failed:\\\", e)\\n\", 50) = 50\n");
	procs_flush_output(&t.eng.procs);
	assert_int_equal(m->out_count, 0);
	/* Its stderr sent to the same file is still its words. */
	feed_log(&t, "10553 write(2</tmp/s1/app.py>, \"cat: write error: No space left on device\\n\", 42) = 42\n");
	assert_int_equal(last_stream(m), 2);
	rt_release(&t);

	static const char *const kept[] = {
		"20 openat(AT_FDCWD, \"nohup.out\", O_WRONLY|O_CREAT|O_APPEND, 0600) = 3\n",
		"20 openat(AT_FDCWD, \"/srv/app/logs/server.txt\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3\n",
		"20 openat(AT_FDCWD, \"/srv/app/server.log\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3\n",
		"20 openat(AT_FDCWD, \"/dev/tty\", O_WRONLY) = 3\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		rt_init(&t);
		feed_log(&t, kept[i]);
		feed_log(&t, "20 dup2(3, 1) = 1\n"
			     "20 write(1, \"Error: model load failed\\n\", 25) = 25\n");
		assert_int_equal(last_stream(&t.eng.procs), 1);
		rt_release(&t);
	}
}

static void socket_peer_from_decoration(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "recvfrom", 5, 0);
	e.fd = 5;
	e.fd_shown = rt_decoration(&t, "TCP:[127.0.0.1:41234->127.0.0.1:5000]");
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "read", 5, 0);
	e.fd = 6;
	e.fd_shown = rt_decoration(&t, "TCPv6:[[::1]:41234->[::1]:443]");
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "read", 5, 0);
	e.fd = 7;
	e.fd_shown = rt_decoration(&t, "UNIX-STREAM:[12358->12359]");
	rt_feed(&t, &e);
	assert_string_equal(procs_fd(m, 10, 5)->peer_host, "127.0.0.1");
	assert_int_equal(procs_fd(m, 10, 5)->peer_port, 5000);
	assert_string_equal(procs_fd(m, 10, 6)->peer_host, "::1");
	assert_int_equal(procs_fd(m, 10, 6)->peer_port, 443);
	assert_int_equal(procs_fd(m, 10, 6)->family, AF_INET6);
	assert_null(procs_fd(m, 10, 7)->peer_host);
	assert_int_equal(procs_fd(m, 10, 7)->family, AF_UNIX);
	rt_release(&t);
}

static void truncated_output_is_marked(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	rt_write_cut(&t, 10, 2, "model load failed: [Errno 2] No", 40);
	assert_int_equal(t.eng.procs.out_count, 1);
	assert_string_equal(t.eng.procs.out[0].text, "model load failed: [Errno 2] No...");
	rt_release(&t);
}

/* A shell loop of short-lived processes: the model keeps the root and the
 * last RC_PROCS_ENDED_KEEP ended ones, and a reused pid is a new process. */
static void ended_processes_are_bounded(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	struct rc_event e = rt_sys(&t, 10, "chdir", 0, 0);
	e.path = "/srv";
	rt_feed(&t, &e);

	for (int i = 0; i < 3 * RC_PROCS_ENDED_KEEP; i++) {
		int child = 1000 + i;
		e = rt_sys(&t, 10, "clone", child, 0);
		e.flags = SIGCHLD;
		rt_feed(&t, &e);
		rt_exit(&t, child, i == 0 ? 3 : 0);
	}
	assert_true(m->procs.count <= RC_PROCS_ENDED_KEEP + 1);
	assert_int_equal(m->nforgotten, 2 * RC_PROCS_ENDED_KEEP);
	assert_non_null(procs_get(m, 10));
	assert_null(procs_get(m, 1000));
	assert_non_null(procs_get(m, 1000 + 3 * RC_PROCS_ENDED_KEEP - 1));

	/* pid 1000 + last comes back: a new, running process. */
	int last = 1000 + 3 * RC_PROCS_ENDED_KEEP - 1;
	e = rt_sys(&t, 10, "clone", last, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	assert_false(procs_get(m, last)->ended);
	assert_string_equal(procs_get(m, last)->cwd, "/srv");
	rt_release(&t);
}

/* Whose permissions apply: set*id calls that worked, geteuid's answer,
 * setgroups; children inherit them, and the seccomp facts a live capture
 * gives, as they inherit the filters. */
static void creds_and_seccomp_follow_the_trace(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;

	struct rc_event e = rt_sys(&t, 10, "getuid", 0, 0);
	rt_feed(&t, &e);
	assert_int_equal(procs_creds(m, 10)->uid, 0);
	assert_int_equal(procs_creds(m, 10)->ngroups, -1);
	e = rt_sys(&t, 10, "setgroups", 0, 0);
	e.nids = 1;
	e.ids[0] = 65534;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "setresgid", 0, 0);
	e.nids = 3;
	e.ids[0] = e.ids[1] = e.ids[2] = 65534;
	rt_feed(&t, &e);
	/* A refused setuid changes nothing. */
	e = rt_sys(&t, 10, "setuid", -1, EPERM);
	e.nids = 1;
	e.ids[0] = 1234;
	rt_feed(&t, &e);
	e = rt_sys(&t, 10, "setresuid", 0, 0);
	e.nids = 3;
	e.ids[0] = -1;
	e.ids[1] = 65534;
	e.ids[2] = -1;
	rt_feed(&t, &e);
	const struct rc_creds *c = procs_creds(m, 10);
	assert_int_equal(c->uid, 65534);
	assert_int_equal(c->gid, 65534);
	assert_int_equal(c->ngroups, 1);
	assert_int_equal(c->groups[0], 65534);
	/* getuid no longer stands in once the effective id is known. */
	e = rt_sys(&t, 10, "getuid", 0, 0);
	rt_feed(&t, &e);
	assert_int_equal(procs_creds(m, 10)->uid, 65534);

	procs_set_seccomp(&t.eng.procs, 10, 2, 1);
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_clone_thread(&t, 10, 12, RT_NO_DUR);
	assert_int_equal(procs_creds(m, 11)->uid, 65534);
	assert_int_equal(procs_creds(m, 12)->uid, 65534);
	assert_int_equal(procs_get(m, 11)->seccomp_filters, 1);
	assert_int_equal(procs_get(m, 12)->seccomp_mode, 2);
	/* Unknown in a process nothing was learnt of. */
	e = rt_sys(&t, 20, "getpid", 20, 0);
	rt_feed(&t, &e);
	assert_int_equal(procs_creds(m, 20)->uid, -1);
	assert_int_equal(procs_get(m, 20)->seccomp_mode, -1);
	rt_release(&t);
}

/* What a live capture read of a thread whose call failed (rc_event.live)
 * is the model's before any rule sees that call, and the next event
 * (seq) is numbered as if it had come alone. */
static void live_facts_come_before_the_call(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	struct rc_live live = { .creds = { .uid = 65534, .gid = 65534, .ngroups = 1, .live = true },
				.seccomp_mode = 2, .seccomp_filters = 1 };

	live.creds.groups[0] = 65534;
	struct rc_event e = rt_sys(&t, 10, "openat", -1, EACCES);
	e.live = &live;
	rt_feed(&t, &e);
	assert_int_equal(e.seq, 1);
	const struct rc_creds *c = procs_creds(m, 10);
	assert_int_equal(c->uid, 65534);
	assert_int_equal(c->ngroups, 1);
	assert_true(c->live);
	assert_int_equal(procs_get(m, 10)->seccomp_mode, 2);
	assert_int_equal(procs_get(m, 10)->seccomp_filters, 1);
	/* What was not read stays as the trace had it. */
	live.creds.uid = -1;
	live.seccomp_mode = -1;
	procs_set_seccomp(&t.eng.procs, 10, 0, 0);
	e = rt_sys(&t, 10, "mkdir", -1, EPERM);
	e.live = &live;
	rt_feed(&t, &e);
	assert_int_equal(procs_creds(m, 10)->uid, 65534);
	assert_int_equal(procs_get(m, 10)->seccomp_mode, 0);
	rt_release(&t);
}

/* The processes an attach finds running come as RC_EV_FOUND events: the
 * model takes their argv, exe, cwd and fds, and their threads; they are
 * not numbered, and a process the trace showed first keeps what it
 * showed. */
static void found_running_processes(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	const char *argv[] = { "/usr/bin/python3", "app.py" };
	const struct rc_found_fd fds[] = { { 3, rt_decoration(&t, "/var/log/app.log") },
					   { 4, rt_decoration(&t, "TCP:[10.0.0.1:40000->10.0.0.2:5432]") } };
	struct rc_found f = { .leader = 20, .process = true, .argv = argv, .argc = 2, .exe = "/usr/bin/python3.11",
			      .cwd = "/srv/app", .fds = fds, .nfds = 2 };
	struct rc_event e = rt_event(&t, RC_EV_FOUND, 21, "");

	e.found = &f;
	rt_feed(&t, &e);
	assert_int_equal(e.seq, 0);
	assert_int_equal(t.eng.seq, 0);
	const struct rc_proc *p = procs_get(m, 20);
	assert_non_null(p);
	assert_int_equal(p->argc, 2);
	assert_string_equal(p->argv[1], "app.py");
	assert_string_equal(p->exe, "/usr/bin/python3.11");
	assert_string_equal(p->cwd, "/srv/app");
	assert_string_equal(procs_fd(m, 20, 3)->path, "/var/log/app.log");
	assert_int_equal(procs_fd(m, 20, 4)->peer_port, 5432);
	/* Its thread shares its fds. */
	assert_true(procs_get(m, 21)->is_thread);
	assert_int_equal(procs_leader(m, 21)->pid, 20);
	assert_string_equal(procs_fd(m, 21, 3)->path, "/var/log/app.log");
	/* A process the trace showed first: only its thread is taken. */
	e = rt_sys(&t, 30, "getpid", 30, 0);
	rt_feed(&t, &e);
	assert_int_equal(e.seq, 1);
	f.leader = 30;
	e = rt_event(&t, RC_EV_FOUND, 31, "");
	e.found = &f;
	rt_feed(&t, &e);
	assert_null(procs_get(m, 30)->argv);
	assert_null(procs_fd(m, 30, 3));
	assert_int_equal(procs_leader(m, 31)->pid, 30);
	e = rt_sys(&t, 30, "getpid", 30, 0);
	rt_feed(&t, &e);
	assert_int_equal(e.seq, 2);
	rt_release(&t);
}

/* A wrapper (runuser, a shell) that exits with the status of the child it
 * started passed that failure on: what it did before starting the child
 * was not its failure; what it did after may be (a shell's failed `cd`
 * after a failed command, exiting 1 like the command). */
static void wrapper_passes_failure_on(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	struct rc_event e = rt_sys(&t, 10, "openat", -1, ENOENT);
	e.path = "/etc/default/wrapper";
	rt_feed(&t, &e);
	uint64_t before = e.seq;
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	e = rt_sys(&t, 11, "openat", -1, ENOENT);
	e.path = "/srv/x";
	rt_feed(&t, &e);
	uint64_t in_child = e.seq;
	rt_exit(&t, 11, 1);
	e = rt_sys(&t, 10, "chdir", -1, ENOENT);
	e.path = "/nodir";
	rt_feed(&t, &e);
	uint64_t after = e.seq;
	rt_exit(&t, 10, 1);

	assert_true(procs_passed_on(m, 10, before));
	assert_false(procs_passed_on(m, 10, after));
	assert_false(procs_passed_on(m, 11, in_child));
	rt_release(&t);

	/* Its own status, not the child's: its own failure. So is a child
	 * that succeeded, and a shell's 128+N for a child killed by N. */
	rt_init(&t);
	m = &t.eng.procs;
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_exit(&t, 11, 1);
	rt_exit(&t, 10, 2);
	assert_false(procs_passed_on(m, 10, 1));
	rt_release(&t);

	rt_init(&t);
	m = &t.eng.procs;
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_exit(&t, 11, 0);
	rt_exit(&t, 10, 1);
	assert_false(procs_passed_on(m, 10, 1));
	rt_release(&t);

	rt_init(&t);
	m = &t.eng.procs;
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_killed(&t, 11, SIGSEGV, false, NULL);
	rt_exit(&t, 10, 128 + SIGSEGV);
	assert_true(procs_passed_on(m, 10, 1));
	rt_release(&t);
}

/* PID's execve of PATH, successful or failing with ERR. */
static void exec_call(struct rt *t, int pid, const char *path, int err)
{
	rt_exec(t, pid, path, path, NULL, err, NULL);
}

/* Each successful execve starts another program image: the lines a process
 * wrote, and the children it forked, before one belong to the program it
 * was then, which handed over and did not fail. */
static void exec_starts_another_program(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	exec_call(&t, 10, "/usr/bin/bash", 0);
	rt_write(&t, 10, 2, "pyenv: no pyenv-realpath.dylib");
	struct rc_event e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_write(&t, 11, 2, "pyenv: invalid version `x/y' ignored\n");
	rt_exit(&t, 11, 0);
	exec_call(&t, 10, "/nonexistent/python3", ENOENT);
	exec_call(&t, 10, "/root/.pyenv/versions/3.11.7/bin/python3", 0);
	rt_write(&t, 10, 2, "voice: MODEL_DIR is not set\n");
	rt_exit(&t, 10, 1);

	assert_int_equal(procs_image(m, 10), 2);
	assert_int_equal(procs_get(m, 11)->parent_image, 1);
	assert_int_equal(m->out_count, 3);
	/* The unterminated line ended with the program that wrote it. */
	const struct rc_output *shim = &m->out[0], *helper = &m->out[1], *py = &m->out[2];
	assert_string_equal(shim->text, "pyenv: no pyenv-realpath.dylib");
	assert_int_equal(shim->image, 1);
	assert_string_equal(shim->exe, "/usr/bin/bash");
	assert_int_equal(py->image, 2);
	assert_string_equal(py->exe, "/root/.pyenv/versions/3.11.7/bin/python3");
	/* The failed program is python; the shim and its helper went on. */
	assert_true(procs_image_failed(m, 10, py->image, NULL));
	assert_false(procs_image_failed(m, 10, shim->image, NULL));
	assert_false(procs_image_failed(m, 11, helper->image, NULL));
	assert_true(procs_failed(m, 11, NULL));
	assert_true(procs_before_image(m, 10, shim->seq));
	assert_false(procs_before_image(m, 10, py->seq));
	rt_release(&t);

	/* A helper that failed, of a program that went on to exec: survived. */
	rt_init(&t);
	m = &t.eng.procs;
	exec_call(&t, 10, "/usr/bin/bash", 0);
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	rt_write(&t, 11, 2, "readlink: missing operand\n");
	rt_exit(&t, 11, 1);
	exec_call(&t, 10, "/usr/bin/python3", 0);
	rt_exit(&t, 10, 1);
	assert_false(procs_image_failed(m, 11, m->out[0].image, NULL));
	rt_release(&t);
}

/* What an event's decoration says of its fd is what the rules see of an
 * fd the model has not seen opened; the model learns such an fd from it,
 * and forgets it with the fd. */
static void fd_shown_by_the_event(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	struct rc_fdinfo fi;
	const struct rc_fdfacts *tcp = rt_decoration(&t, "TCP:[127.0.0.1:41234->127.0.0.1:5000]");

	struct rc_event e = rt_sys(&t, 10, "read", 5, 0);
	e.fd = 4;
	e.fd_shown = tcp;
	/* Before the model has it: what the event shows. */
	assert_true(procs_fd_info(m, &e, 4, &fi));
	assert_int_equal(fi.kind, RC_FD_SOCKET);
	assert_null(fi.f);
	assert_false(procs_fd_info(m, &e, 5, &fi));
	assert_ptr_equal(procs_fd_shown(m, &e, 4), tcp);
	assert_null(procs_fd_shown(m, &e, 5));
	rt_feed(&t, &e);
	/* Learnt. */
	assert_true(procs_fd_info(m, &e, 4, &fi));
	assert_non_null(fi.f);
	assert_string_equal(fi.f->peer_host, "127.0.0.1");

	/* A child has its parent's; a close forgets them. */
	e = rt_sys(&t, 10, "clone", 11, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	assert_non_null(procs_fd(m, 11, 4));
	e = rt_sys(&t, 10, "close", 0, 0);
	e.fd = 4;
	e.fd_shown = tcp;
	rt_feed(&t, &e);
	assert_null(procs_fd(m, 10, 4));
	assert_non_null(procs_fd(m, 11, 4));

	/* An fd the model keeps no entry for (an eventfd) is known from its
	 * decoration alone. */
	e = rt_sys(&t, 10, "read", 8, 0);
	e.fd = 6;
	e.fd_shown = rt_decoration(&t, "anon_inode:[eventfd]");
	assert_true(procs_fd_info(m, &e, 6, &fi));
	assert_int_equal(fi.kind, RC_FD_OTHER);
	rt_feed(&t, &e);
	assert_null(procs_fd(m, 10, 6));
	assert_true(procs_fd_info(m, &e, 6, &fi));
	rt_release(&t);
}

/* The fds an attach finds, as the tracer describes them from /proc (its
 * own -yy forms), become model entries as they always have: a socket that
 * is not unix or IPv6 is taken for IPv4, one that is not UDP for a stream. */
static void fds_learnt_at_attach(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	struct rc_procs *m = &t.eng.procs;

	procs_learn_fd(m, 20, 3, rt_decoration(&t, "TCP:[10.0.0.1:40000->10.0.0.2:5432]"));
	procs_learn_fd(m, 20, 4, rt_decoration(&t, "UNIX-DGRAM:[77]"));
	procs_learn_fd(m, 20, 5, rt_decoration(&t, "UNIX-STREAM:[78,\"@sd-notify\"]"));
	procs_learn_fd(m, 20, 6, rt_decoration(&t, "socket:[79]"));
	procs_learn_fd(m, 20, 7, rt_decoration(&t, "/var/log/app.log (deleted)"));
	procs_learn_fd(m, 20, 8, rt_decoration(&t, "UDP:[0.0.0.0:5353]"));
	procs_learn_fd(m, 20, 9, rt_decoration(&t, "anon_inode:[eventfd]"));
	procs_learn_fd(m, 20, 10, rt_decoration(&t, "pipe:[80]"));
	const struct rc_fd *f = procs_fd(m, 20, 3);
	assert_int_equal(f->kind, RC_FD_SOCKET);
	assert_int_equal(f->family, AF_INET);
	assert_int_equal(f->sock_type, SOCK_STREAM);
	assert_string_equal(f->peer_host, "10.0.0.2");
	assert_int_equal(f->peer_port, 5432);
	f = procs_fd(m, 20, 4);
	assert_int_equal(f->family, AF_UNIX);
	assert_int_equal(f->sock_type, SOCK_STREAM);
	assert_null(f->peer_host);
	assert_int_equal(procs_fd(m, 20, 5)->family, AF_UNIX);
	assert_null(procs_fd(m, 20, 5)->peer_host);
	assert_int_equal(procs_fd(m, 20, 6)->kind, RC_FD_SOCKET);
	assert_int_equal(procs_fd(m, 20, 6)->family, AF_INET);
	assert_string_equal(procs_fd(m, 20, 7)->path, "/var/log/app.log (deleted)");
	assert_int_equal(procs_fd(m, 20, 8)->sock_type, SOCK_DGRAM);
	assert_int_equal(procs_fd(m, 20, 8)->peer_port, -1);
	assert_null(procs_fd(m, 20, 9));
	assert_int_equal(procs_fd(m, 20, 10)->kind, RC_FD_PIPE);
	rt_release(&t);
}

/* attach learns each fd from /proc: an unlinked file is its path, as
 * strace's decoration gives it, not "PATH (deleted)". */
static void procfs_unlinked_file(void **state)
{
	(void)state;
	char path[] = "/tmp/rc-procfs-XXXXXX";
	int fd = mkstemp(path);
	struct strbuf sb = STRBUF_INIT;

	assert_true(fd >= 0);
	assert_true(procfs_fd_desc(getpid(), fd, NULL, &sb));
	assert_string_equal(sb.buf, path);
	unlink(path);
	assert_true(procfs_fd_desc(getpid(), fd, NULL, &sb));
	assert_string_equal(sb.buf, path);
	close(fd);
	assert_false(procfs_fd_desc(getpid(), fd, NULL, &sb));
	strbuf_release(&sb);
}

/* Issue 27: in a pid namespace a fork returns the child's pid there,
 * while strace prefixes the child's lines with its pid here. Whether the
 * fork's line ends before the child's first (the pid then unseen), or is
 * resumed after it (the child taken early), the child is the fork's, no
 * process is made of the namespace's number, and that number is its
 * ns_pid. A fork whose child shows up under its own pid is no alias, nor
 * is one whose child was guessed among several forks waiting. */
static const char ns_fork_first[] =
	"500 unshare(CLONE_NEWNS|CLONE_NEWPID) = 0\n"
	"500 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 501\n"
	"501 vfork()                           = 2\n"
	"502 execve(\"/usr/bin/mount\", [\"mount\", \"--bind\", \"/a\", \"/b\"], 0x55 /* 9 vars */) = 0\n"
	"502 exit_group(0)                     = ?\n"
	"502 +++ exited with 0 +++\n"
	"501 exit_group(1)                     = ?\n"
	"501 +++ exited with 1 +++\n"
	"500 +++ exited with 1 +++\n";
static const char ns_fork_resumed[] =
	"500 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 501\n"
	"501 vfork( <unfinished ...>\n"
	"502 execve(\"/usr/bin/mount\", [\"mount\"], 0x55 /* 9 vars */) = 0\n"
	"502 exit_group(0)                     = ?\n"
	"502 +++ exited with 0 +++\n"
	"501 <... vfork resumed>)              = 2\n"
	"501 exit_group(1)                     = ?\n"
	"501 +++ exited with 1 +++\n"
	"500 +++ exited with 1 +++\n";
static const char plain_forks[] =
	"600 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 601\n"
	"601 exit_group(0)                     = ?\n"
	"601 +++ exited with 0 +++\n"
	"600 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 602\n"
	"602 exit_group(0)                     = ?\n"
	"602 +++ exited with 0 +++\n"
	"600 +++ exited with 0 +++\n";

/* Two forks waiting at once (a podman run, from a real trace): podman's
 * thread 335 starts a thread, conmon (380) forks crun. The new thread's
 * first line comes while both wait, and is taken for the child of the
 * latest, conmon's: a guess. conmon's fork then returns 382, which no
 * line has shown yet: crun, not the guessed child under another number.
 * crun's first line follows; then podman's fork returns the thread. */
static const char two_forks_waiting[] =
	"333 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 380\n"
	"335 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS"
	"|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, "
	"stack_size=0x7ff, tls=0x7f} <unfinished ...>\n"
	"380 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>\n"
	"381 mmap(NULL, 134217728, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, -1, 0) = 0x7f3963600000\n"
	"380 <... clone resumed>, child_tidptr=0x7f) = 382\n"
	"382 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\"], 0x7f /* 7 vars */) = 0\n"
	"335 <... clone3 resumed> => {parent_tid=[381]}, 88) = 381\n"
	"382 exit_group(1)                     = ?\n"
	"382 +++ exited with 1 +++\n";

static void namespace_fork_numbers(void **state)
{
	(void)state;
	const char *logs[] = { ns_fork_first, ns_fork_resumed };
	for (size_t i = 0; i < 2; i++) {
		struct rt t;
		rt_init(&t);
		feed_log(&t, logs[i]);
		const struct rc_proc *child = procs_get(&t.eng.procs, 502);
		assert_non_null(child);
		assert_true(child->has_parent);
		assert_int_equal(child->ppid, 501);
		assert_int_equal(child->ns_pid, 2);
		assert_null(procs_get(&t.eng.procs, 2));
		rt_release(&t);
	}
	struct rt t;
	rt_init(&t);
	feed_log(&t, plain_forks);
	assert_int_equal(procs_get(&t.eng.procs, 601)->ns_pid, 0);
	assert_int_equal(procs_get(&t.eng.procs, 602)->ppid, 600);
	assert_int_equal(procs_get(&t.eng.procs, 602)->ns_pid, 0);
	rt_release(&t);

	rt_init(&t);
	feed_log(&t, two_forks_waiting);
	const struct rc_proc *crun = procs_get(&t.eng.procs, 382);
	assert_non_null(crun);
	assert_int_equal(crun->ppid, 380);
	assert_int_equal(crun->ns_pid, 0);
	const struct rc_proc *thread = procs_get(&t.eng.procs, 381);
	assert_non_null(thread);
	assert_true(thread->is_thread);
	assert_int_equal(thread->ns_pid, 0);
	assert_ptr_equal(procs_leader(&t.eng.procs, 381), procs_leader(&t.eng.procs, 335));
	rt_release(&t);
}

/* A live capture's child whose first event comes before any of its
 * parent's (the parent's first call was the fork, and has not returned
 * yet), or after its parent ended: it is its parent's child, under its
 * parent's name, as the capture saw it forked (start-stop-daemon's first
 * child forks the daemon and exits). */
static void live_child_before_its_parent(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	const struct rc_procs *m = &t.eng.procs;
	rt_exec(&t, 10, "/usr/sbin/start-stop-daemon", "start-stop-daemon", "--start", 0, NULL);
	struct rc_event e = rt_sys(&t, 12, "close", -1, EBADF);
	e.fd = 19999;
	e.forked_by = 11;
	e.forked_sure = true;
	e.parent_forked_by = 10;
	rt_feed(&t, &e);
	const struct rc_proc *daemon = procs_get(m, 12), *first = procs_get(m, 11);
	assert_non_null(first);
	assert_int_equal(first->ppid, 10);
	assert_int_equal(daemon->ppid, 11);
	assert_non_null(daemon->argv);
	assert_string_equal(daemon->argv[0], "start-stop-daemon");
	/* Then the parent's own first event, its fork's return, and its
	 * exit: the tree stays as it was. */
	e = rt_sys(&t, 11, "clone", 12, 0);
	e.flags = SIGCHLD;
	e.forked_by = 10;
	e.forked_sure = true;
	rt_feed(&t, &e);
	rt_exit(&t, 11, 0);
	assert_int_equal(procs_get(m, 11)->ppid, 10);
	assert_int_equal(procs_get(m, 12)->ppid, 11);
	assert_false(procs_get(m, 12)->forked_early);
	/* A child whose parent ended before the child's first call did. */
	rt_exec(&t, 20, "/usr/bin/bash", "bash", "start.sh", 0, NULL);
	rt_exit(&t, 20, 0);
	e = rt_sys(&t, 21, "setsid", 21, 0);
	e.forked_by = 20;
	e.forked_sure = true;
	rt_feed(&t, &e);
	assert_int_equal(procs_get(m, 21)->ppid, 20);
	assert_string_equal(procs_get(m, 21)->argv[1], "start.sh");
	rt_release(&t);
}

/* A thread whose clone had not returned when its process exited: podman's
 * thread 20307 began a clone3 of a thread, the new thread ran, and the
 * process's exit_group ended both before the clone returned (strace -f
 * showed "<... clone3 resumed>) = ?"). The new thread is the process's,
 * not a process of its own that exited 126. */
static void thread_ended_before_its_clone_returned(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "20303 22:06:37.686886 execve(\"/usr/bin/podman\", [\"podman\", \"run\", \"--rm\"], "
		 "0x7fff07f565f8 /* 45 vars */) = 0 <0.000357>\n"
		 "20303 22:06:37.700000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f6672ffc990, "
		 "parent_tid=0x7f6672ffc990, exit_signal=0, stack=0x7f66727fc000, stack_size=0x7ffe40, "
		 "tls=0x7f6672ffc6c0} => {parent_tid=[20307]}, 88) = 20307 <0.000090>\n"
		 "20307 22:06:37.965945 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f66717fa990, "
		 "parent_tid=0x7f66717fa990, exit_signal=0, stack=0x7f6670ffa000, stack_size=0x7ffe40, "
		 "tls=0x7f66717fa6c0} <unfinished ...>\n"
		 "20321 22:06:37.966077 mmap(NULL, 134217728, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE, "
		 "-1, 0) = 0x7f664c000000 <0.000049>\n"
		 "20303 22:06:37.966100 exit_group(126) = ?\n"
		 "20321 22:06:37.967099 +++ exited with 126 +++\n"
		 "20307 22:06:37.969040 <... clone3 resumed>) = ?\n"
		 "20307 22:06:37.969040 +++ exited with 126 +++\n"
		 "20303 22:06:37.969075 +++ exited with 126 +++\n");
	const struct rc_proc *th = procs_get(&t.eng.procs, 20321);
	assert_non_null(th);
	assert_true(th->is_thread);
	assert_int_equal(th->leader, 20303);
	rt_release(&t);
}

/* The same, when the clone ended ("= ?") before the new thread showed
 * anything but its end: podman's cleanup, whose thread 26897 showed only
 * "+++ exited with 125 +++", after its parent thread's clone3 resumed. */
static void thread_shown_only_by_its_end(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "26886 23:31:45.170000 execve(\"/usr/bin/podman\", [\"/usr/bin/podman\", \"container\", \"cleanup\"], "
		 "0x7f /* 9 vars */) = 0 <0.000200>\n"
		 "26886 23:31:45.173570 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f3bbd7fa990, "
		 "parent_tid=0x7f3bbd7fa990, exit_signal=0, stack=0x7f3bbcffa000, stack_size=0x7ffe40, "
		 "tls=0x7f3bbd7fa6c0} => {parent_tid=[26893]}, 88) = 26893 <0.000160>\n"
		 "26893 23:31:45.208311 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f3bb7ffe990, "
		 "parent_tid=0x7f3bb7ffe990, exit_signal=0, stack=0x7f3bb77fe000, stack_size=0x7ffe40, "
		 "tls=0x7f3bb7ffe6c0} <unfinished ...>\n"
		 "26886 23:31:45.210355 exit_group(125)   = ?\n"
		 "26893 23:31:45.210482 <... clone3 resumed>) = ?\n"
		 "26893 23:31:45.210482 +++ exited with 125 +++\n"
		 "26897 23:31:45.210543 +++ exited with 125 +++\n"
		 "26886 23:31:45.211553 +++ exited with 125 +++\n");
	const struct rc_proc *th = procs_get(&t.eng.procs, 26897);
	assert_non_null(th);
	assert_true(th->is_thread);
	assert_int_equal(th->leader, 26886);
	rt_finish(&t);
	/* Its end is its process's: one nonzero-exit, of 26886. */
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "nonzero-exit") == 0)
			assert_int_equal(t.out.v[i]->pid, 26886);
	rt_release(&t);
}

/* Two forks unfinished when a new pid shows up: a thread's clone3 whose
 * child has shown up already, and podman's vfork of conmon (the eBPF log
 * of scenario 68). The new pid is the vfork's child: a fork has one
 * child. Taken for the thread clone's, it was a thread of podman, and
 * its exec and exit were lost when the vfork returned it. */
static void fork_with_its_child_seen_is_not_guessed_again(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "14421 22:12:00.853277 execve(\"/usr/bin/podman\", [\"/usr/bin/podman\", \"container\", "
		 "\"cleanup\"], 0x7f /* 9 vars */) = 0 <0.000200>\n"
		 "14421 22:12:00.860000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7fdd867fc990, "
		 "parent_tid=0x7fdd867fc990, exit_signal=0, stack=0x7fdd85ffc000, stack_size=0x7ffe40, "
		 "tls=0x7fdd867fc6c0} => {parent_tid=[14424]}, 88) = 14424 <0.000090>\n"
		 "14421 22:12:00.861000 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7fdd867fb990, "
		 "parent_tid=0x7fdd867fb990, exit_signal=0, stack=0x7fdd85ffb000, stack_size=0x7ffe40, "
		 "tls=0x7fdd867fb6c0} => {parent_tid=[14427]}, 88) = 14427 <0.000090>\n"
		 "14424 22:12:00.891489 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD <unfinished ...>\n"
		 "14427 22:12:00.891821 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7fdd85f7b990, "
		 "parent_tid=0x7fdd85f7b990, exit_signal=0, stack=0x7fdd8577b000, stack_size=0x7ffe40, "
		 "tls=0x7fdd85f7b6c0} <unfinished ...>\n"
		 "14431 22:12:00.891881 rseq(0x7fdd85f7bfe0, 0x20, 0, 0x53053053) = 0 <0.000000>\n"
		 "14430 22:12:00.891997 rt_sigaction(SIGHUP, 0xc0004984d8, NULL, 8) = 0 <0.000000>\n"
		 "14430 22:12:00.892018 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\", \"--version\"], "
		 "0xc00042a190) = 0 <0.000112>\n"
		 "14430 22:12:00.893450 openat(AT_FDCWD, \"/usr/lib/x86_64-linux-gnu/charset.alias\", O_RDONLY) "
		 "= -1 ENOENT (No such file or directory) <0.000001>\n"
		 "14430 22:12:00.893470 exit_group(0) = ?\n"
		 "14430 22:12:00.893492 +++ exited with 0 +++\n"
		 "14427 22:12:00.893648 <... clone3 resumed> => {parent_tid=0x7fdd85f7b990}, 88) = 14431 <0.001827>\n"
		 "14424 22:12:00.893682 <... clone resumed>) = 14430 <0.002193>\n");
	const struct rc_procs *m = &t.eng.procs;
	const struct rc_proc *conmon = procs_get(m, 14430), *th = procs_get(m, 14431);
	assert_non_null(conmon);
	assert_false(conmon->is_thread);
	assert_int_equal(conmon->ppid, 14421);
	assert_true(conmon->ended);
	assert_non_null(conmon->argv);
	assert_string_equal(conmon->argv[0], "/usr/bin/conmon");
	assert_non_null(th);
	assert_true(th->is_thread);
	assert_int_equal(th->leader, 14421);
	/* The rules saw conmon's calls as conmon's all along. */
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->pid, 14430);
	assert_int_equal(f->also.n, 0);
	rt_release(&t);
}

/* The other order, from scenario 73 under eBPF: podman's thread clone3
 * began first, conmon's fork of crun after it, and the thread showed up
 * first. The latest fork was conmon's; the thread's first call, rseq,
 * says it is the clone3's child, and crun is conmon's. */
static void thread_child_known_by_its_first_call(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "18580 23:30:06.700000 execve(\"/usr/bin/podman\", [\"podman\", \"run\"], 0x7f /* 9 vars */) = 0\n"
		 "18580 23:30:06.700100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f8d6bfff990, "
		 "parent_tid=0x7f8d6bfff990, exit_signal=0, stack=0x7f8d6b7ff000, stack_size=0x7ffe40, "
		 "tls=0x7f8d6bfff6c0} => {parent_tid=[18582]}, 88) = 18582 <0.000090>\n"
		 "18591 23:30:06.740000 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\"], 0x7f /* 9 vars */) = 0\n"
		 "18582 23:30:06.751275 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		 "CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f8d6b7fe990, "
		 "parent_tid=0x7f8d6b7fe990, exit_signal=0, stack=0x7f8d6affe000, stack_size=0x7ffe40, "
		 "tls=0x7f8d6b7fe6c0} <unfinished ...>\n"
		 "18591 23:30:06.751616 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD "
		 "<unfinished ...>\n"
		 "18592 23:30:06.751791 rseq(0x7f8d6b7fefe0, 0x20, 0, 0x53053053) = 0 <0.000001>\n"
		 "18593 23:30:06.751816 set_robust_list(0x7fdd703d9ee0, 24) = 0 <0.000000>\n");
	const struct rc_procs *m = &t.eng.procs;
	const struct rc_proc *th = procs_get(m, 18592), *crun = procs_get(m, 18593);
	assert_non_null(th);
	assert_true(th->is_thread);
	assert_int_equal(th->leader, 18580);
	assert_non_null(crun);
	assert_false(crun->is_thread);
	assert_int_equal(crun->ppid, 18591);
	rt_release(&t);
}

/* conmon's double fork as the eBPF capture showed it: the first half
 * called exit_group(0) before crun failed, but its end was reported just
 * after crun's. It left crun, it did not deal with its failure: crun and
 * its words failed. Without timestamps the order of the calls decides.
 * Under load the first half's fork returned only after crun had failed,
 * and it exited 0 after crun did: its child, the second half, still ran,
 * so it had left the line, not waited for it. */
static void daemon_parent_left_before_the_failure(void **state)
{
	(void)state;
	for (int timed = 0; timed < 3; timed++) {
		struct rt t;
		rt_init(&t);
		const char *log = timed == 2 ?
			"5444  23:14:25.851286 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\"], 0x7f /* 9 vars */) = 0\n"
			"5444  23:14:25.874244 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD "
			"<unfinished ...>\n"
			"5445  23:14:25.874487 setsid()          = 5445 <0.000009>\n"
			"5445  23:14:25.874708 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
			"child_tidptr=0x7f) = 5446\n"
			"5446  23:14:25.876100 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\"], 0x7f /* 9 vars */) = 0\n"
			"5446  23:14:25.877564 write(2, \"setrlimit `RLIMIT_NOFILE`: Operation not permitted\\n\", 51) = 51\n"
			"5446  23:14:25.877621 exit_group(1)     = ?\n"
			"5446  23:14:25.877627 +++ exited with 1 +++\n"
			"5444  23:14:25.877780 <... clone resumed>, child_tidptr=0x7f5e7fc03ed0) = 5445 <0.003536>\n"
			"5444  23:14:25.877918 exit_group(0)     = ?\n"
			"5444  23:14:25.877923 +++ exited with 0 +++\n"
			"5445  23:14:25.918124 exit_group(1)     = ?\n"
			"5445  23:14:25.918129 +++ exited with 1 +++\n" :
			timed ?
			"5338  22:27:53.090000 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\"], 0x7f /* 9 vars */) = 0\n"
			"5338  22:27:53.091000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
			"child_tidptr=0x7f) = 5339\n"
			"5339  22:27:53.091900 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
			"child_tidptr=0x7f) = 5340\n"
			"5340  22:27:53.092093 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\"], 0x7f /* 9 vars */) = 0\n"
			"5340  22:27:53.097296 write(2, \"setrlimit `RLIMIT_NOFILE`: Operation not permitted\\n\", 51) = 51\n"
			"5338  22:27:53.094167 exit_group(0)     = ?\n"
			"5340  22:27:53.097383 exit_group(1)     = ?\n"
			"5340  22:27:53.099892 +++ exited with 1 +++\n"
			"5338  22:27:53.099897 +++ exited with 0 +++\n"
			"5339  22:27:53.100300 exit_group(1)     = ?\n"
			"5339  22:27:53.100400 +++ exited with 1 +++\n" :
			"5338  execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\"], 0x7f /* 9 vars */) = 0\n"
			"5338  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
			"child_tidptr=0x7f) = 5339\n"
			"5339  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
			"child_tidptr=0x7f) = 5340\n"
			"5340  execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\"], 0x7f /* 9 vars */) = 0\n"
			"5338  exit_group(0)     = ?\n"
			"5340  write(2, \"setrlimit `RLIMIT_NOFILE`: Operation not permitted\\n\", 51) = 51\n"
			"5340  exit_group(1)     = ?\n"
			"5340  +++ exited with 1 +++\n"
			"5338  +++ exited with 0 +++\n"
			"5339  exit_group(1)     = ?\n"
			"5339  +++ exited with 1 +++\n";
		feed_log(&t, log);
		const struct rc_procs *m = &t.eng.procs;
		const struct rc_proc *culprit = NULL;
		int crun = timed == 2 ? 5446 : 5340;
		assert_true(procs_failed(m, crun, &culprit));
		assert_int_equal(culprit->pid, crun);
		assert_true(procs_image_failed(m, crun, procs_get(m, crun)->image, NULL));
		rt_release(&t);
	}
}

/* postmaster forks its children one after another, as the eBPF capture
 * of scenario 57 showed it: the second child's first line came after its
 * fork had returned, and after the third fork had begun. That unfinished
 * fork is the third child's, not the second's: the third child, whose
 * mkdir of "pg_wal/archive_status" fails, runs in its parent's directory
 * from its first call. */
static void child_of_a_returned_fork_claims_no_other(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	feed_log(&t,
		 "29770 22:43:43.430000 chdir(\"/srv/pg/data\") = 0 <0.000003>\n"
		 "29770 22:43:43.437620 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD "
		 "<unfinished ...>\n"
		 "29770 22:43:43.437981 <... clone resumed>, child_tidptr=0x7f968d85fd50) = 29772 <0.000361>\n"
		 "29770 22:43:43.437999 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD "
		 "<unfinished ...>\n"
		 "29772 22:43:43.438311 set_robust_list(0x7f968d85fd60, 24) = 0 <0.000001>\n"
		 "29773 22:43:43.438633 set_robust_list(0x7f968d85fd60, 24) = 0 <0.000000>\n");
	const struct rc_proc *third = procs_get(&t.eng.procs, 29773);
	assert_non_null(third);
	assert_true(third->has_parent);
	assert_int_equal(third->ppid, 29770);
	assert_non_null(third->cwd);
	assert_string_equal(third->cwd, "/srv/pg/data");
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(procfs_unlinked_file),
		cmocka_unit_test(fds_follow_open_dup_close),
		cmocka_unit_test(relative_paths_resolve),
		cmocka_unit_test(clone_threads_share_fds),
		cmocka_unit_test(connect_in_progress),
		cmocka_unit_test(output_ring_lines),
		cmocka_unit_test(output_ring_gap_and_cut),
		cmocka_unit_test(output_follows_the_streams),
		cmocka_unit_test(output_stream_saved_by_fcntl),
		cmocka_unit_test(output_into_a_file_is_contents),
		cmocka_unit_test(socket_peer_from_decoration),
		cmocka_unit_test(truncated_output_is_marked),
		cmocka_unit_test(wrapper_passes_failure_on),
		cmocka_unit_test(namespace_fork_numbers),
		cmocka_unit_test(exec_starts_another_program),
		cmocka_unit_test(ended_processes_are_bounded),
		cmocka_unit_test(creds_and_seccomp_follow_the_trace),
		cmocka_unit_test(live_facts_come_before_the_call),
		cmocka_unit_test(found_running_processes),
		cmocka_unit_test(fd_shown_by_the_event),
		cmocka_unit_test(fds_learnt_at_attach),
		cmocka_unit_test(live_child_before_its_parent),
		cmocka_unit_test(thread_ended_before_its_clone_returned),
		cmocka_unit_test(thread_shown_only_by_its_end),
		cmocka_unit_test(fork_with_its_child_seen_is_not_guessed_again),
		cmocka_unit_test(thread_child_known_by_its_first_call),
		cmocka_unit_test(daemon_parent_left_before_the_failure),
		cmocka_unit_test(child_of_a_returned_fork_claims_no_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
