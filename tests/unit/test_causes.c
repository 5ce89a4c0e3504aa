/* Causes and consequences (diagnose/causes.c) and the report's shape: each
 * failure's echoes, exit statuses and signals go under their cause, in
 * text and in JSON, and are not counted as errors of their own. The logs
 * are strace -f -tt lines as the machine's strace 6.1 prints them. */
#include <errno.h>
#include <signal.h>

#include "rule_test.h"
#include "report/report.h"

/* Parse LOG into T (rt_init()ed) and finish it; EXCERPT as analyze sets
 * it (a log may be an excerpt). */
static void run_log(struct rt *t, const char *log, bool excerpt)
{
	struct strace_parser *p = strace_parser_from_buffer(log, strlen(log));
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	t->eng.may_be_excerpt = excerpt;
	while (strace_parser_next(p, &e, &err) > 0)
		rt_feed(t, &e);
	strace_parser_free(p);
	strbuf_release(&err);
	rt_finish(t);
}

static struct rc_report report_of(struct rt *t)
{
	struct rc_report r = { .kind = "log", .events = t->eng.seq, .procs = &t->eng.procs,
			       .findings = rt_shown(t), .no_outcome = t->eng.no_outcome };
	return r;
}

static void text_of(struct rt *t, struct strbuf *sb)
{
	struct rc_report r = report_of(t);

	report_text(&r, sb, false, false);
}

static size_t causes(struct rt *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->out.count; i++)
		n += !t->out.v[i]->cause && t->out.v[i]->effective == RC_SEV_ERROR;
	return n;
}

/* Every consequence follows its cause and is no cause of its own. */
static void assert_shape(struct rt *t)
{
	for (size_t i = 0; i < t->out.count; i++) {
		const struct rc_finding *f = t->out.v[i];
		if (!f->cause)
			continue;
		assert_null(f->cause->cause);
		assert_true(f->cause->effective >= f->effective);
		bool before = false;
		for (size_t k = 0; k < i; k++)
			before |= t->out.v[k] == f->cause;
		assert_true(before);
	}
}

static const char exec_eacces[] =
	"3741  17:34:30.001000 execve(\"/usr/bin/bash\", [\"bash\", \"launch.sh\"], 0x7ffd /* 20 vars */) = 0\n"
	"3741  17:34:30.002000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f) = 3742\n"
	"3742  17:34:30.003000 execve(\"/tmp/app/start.sh\", [\"./start.sh\"], 0x55 /* 20 vars */) = -1 EACCES "
	"(Permission denied)\n"
	"3742  17:34:30.004000 write(2, \"launch.sh: line 2: ./start.sh: Permission denied\\n\", 49) = 49\n"
	"3742  17:34:30.005000 exit_group(126)  = ?\n"
	"3742  17:34:30.005100 +++ exited with 126 +++\n"
	"3741  17:34:30.006000 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=3742, si_uid=0, "
	"si_status=126, si_utime=0, si_stime=0} ---\n"
	"3741  17:34:30.007000 exit_group(126)  = ?\n"
	"3741  17:34:30.007100 +++ exited with 126 +++\n";

/* The issue's own case: the shell's "Permission denied" and the exit
 * statuses are the exec failure's consequences. */
static void exec_failure_and_its_echoes(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t, exec_eacces, true);
	assert_shape(&t);

	assert_string_equal(t.out.v[0]->rule, "exec-failed");
	assert_null(t.out.v[0]->cause);
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *em = rt_find(&t, "error-message");
	assert_non_null(em);
	assert_ptr_equal(em->cause, t.out.v[0]);
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "nonzero-exit") == 0)
			assert_ptr_equal(t.out.v[i]->cause, t.out.v[0]);
	assert_int_equal(t.out.v[0]->nconsequences, t.out.count - 1);

	struct strbuf sb = STRBUF_INIT;
	text_of(&t, &sb);
	assert_true(contains(sb.buf, "  led to:\n"));
	assert_true(contains(sb.buf, "1 cause (exec-failed), 3 consequences\n"));
	assert_false(contains(sb.buf, "error: 'bash' reported"));
	strbuf_release(&sb);

	strbuf_init(&sb);
	struct rc_report r = report_of(&t);
	report_json(&r, &sb);
	assert_true(contains(sb.buf, "\"id\": \"f1\""));
	assert_true(contains(sb.buf, "\"caused_by\": \"f1\""));
	assert_false(contains(sb.buf, "\"caused_by\": \"f2\""));
	assert_true(report_has_errors(&r));
	strbuf_release(&sb);
	rt_release(&t);
}

/* No system call explains it: the program's last words are the cause, and
 * the exit status goes under them. */
static void last_words_are_the_cause(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"50  10:00:00.001000 execve(\"/usr/bin/python3\", [\"python3\", \"app.py\"], 0x7f /* 9 vars */) = 0\n"
		"50  10:00:00.002000 write(2, \"Traceback (most recent call last):\\n\", 35) = 35\n"
		"50  10:00:00.003000 write(2, \"ModuleNotFoundError: No module named 'voice_codec'\\n\", 51) = 51\n"
		"50  10:00:00.004000 exit_group(1)    = ?\n"
		"50  10:00:00.004100 +++ exited with 1 +++\n",
		true);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "error-message");
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *x = rt_find(&t, "nonzero-exit");
	assert_non_null(x);
	assert_ptr_equal(x->cause, t.out.v[0]);
	rt_release(&t);
}

/* strace -s 32 cut the module's name out of ModuleNotFoundError; the
 * name is whole where the program imports it: the source line its
 * traceback quotes (Debian's 3.11 on a script), or the code on its
 * command line (3.13 with -c, whose whole exception line is one write, cut
 * before the name; the length of the write says how long the name is).
 * Both are real logs of this machine, the calls between trimmed. 3.13
 * also opens "<unknown>" for a source line: a name for code without a
 * file, never a missing file. */
static void module_cut_by_s_is_named(void **state)
{
	(void)state;
	static const char *const logs[] = {
		"14166 execve(\"/usr/bin/python3\", [\"/usr/bin/python3\", \"serve.py\"], 0x7ffc /* 37 vars */) = 0\n"
		"14166 write(2, \"Traceback (most recent call last\"..., 35) = 35\n"
		"14166 write(2, \"  File \\\"/tmp/s3/serve.py\\\", line \"..., 47) = 47\n"
		"14166 write(2, \"    \", 4)               = 4\n"
		"14166 write(2, \"import sonic_tts_engine\", 23) = 23\n"
		"14166 write(2, \"\\n\", 1)                 = 1\n"
		"14166 write(2, \"ModuleNotFoundError\", 19) = 19\n"
		"14166 write(2, \": \", 2)                 = 2\n"
		"14166 write(2, \"No module named 'sonic_tts_engin\"..., 34) = 34\n"
		"14166 write(2, \"\\n\", 1)                 = 1\n"
		"14166 exit_group(1)                     = ?\n"
		"14166 +++ exited with 1 +++\n",
		"16146 execve(\"/root/.pyenv/versions/3.13.0/bin/python\", [\"/root/.pyenv/versions/3.13.0/bin\"..., "
		"\"-c\", \"import sonic_tts_engine\"], 0x7ffc /* 37 vars */) = 0\n"
		"16146 write(2, \"Traceback (most recent call last\"..., 35) = 35\n"
		"16146 openat(AT_FDCWD, \"<unknown>\", O_RDONLY) = -1 ENOENT (No such file or directory)\n"
		"16146 write(2, \"  File \\\"<string>\\\", line 1, in <m\"..., 67) = 67\n"
		"16146 write(2, \"ModuleNotFoundError: No module n\"..., 56) = 56\n"
		"16146 exit_group(1)                     = ?\n"
		"16146 +++ exited with 1 +++\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		struct rt t;
		rt_init(&t);
		run_log(&t, logs[i], true);
		assert_shape(&t);
		assert_string_equal(t.out.v[0]->rule, "error-message");
		assert_true(contains(t.out.v[0]->summary, "python cannot import module 'sonic_tts_engine'"));
		assert_null(rt_find(&t, "missing-file"));
		assert_int_equal(causes(&t), 1);
		rt_release(&t);
	}
	/* Two names that fit are none. */
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"20 execve(\"/usr/bin/python3\", [\"python3\", \"-c\", \"import sonic_tts_engine, sonic_tts_engino\"], "
		"0x7ffc /* 37 vars */) = 0\n"
		"20 write(2, \"Traceback (most recent call last\"..., 35) = 35\n"
		"20 write(2, \"No module named 'sonic_tts_engin\"..., 34) = 34\n"
		"20 exit_group(1)                     = ?\n"
		"20 +++ exited with 1 +++\n",
		true);
	assert_false(contains(t.out.v[0]->summary, "'sonic_tts_engine'"));
	rt_release(&t);
}

/* A model not in the cache, and then its download timing out, is one
 * failure, ranked first: not a connect-timeout cause with a missing file
 * apart (a real log of scenario 65, the calls between trimmed). A missing
 * file outside any cache, then a connect that times out, are two causes:
 * nothing says the one was fetched for the other. */
static void miss_then_fetch_is_one_story(void **state)
{
	(void)state;
	static const char head[] =
		"16854 16:08:13.600000 execve(\"/usr/bin/python3\", [\"python3\", \"fetch_model.py\", \"35841\"], "
		"0x7ffc /* 9 vars */) = 0 <0.000300>\n";
	static const char tail[] =
		"16854 16:08:13.681494 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP) = 3<socket:[1903948]> "
		"<0.000028>\n"
		"16854 16:08:13.681632 connect(3<socket:[1903948]>, {sa_family=AF_INET, sin_port=htons(35841), "
		"sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 EINPROGRESS (Operation now in progress) <0.000055>\n"
		"16854 16:08:13.681735 poll([{fd=3<socket:[1903948]>, events=POLLOUT|POLLERR}], 1, 2500) = 0 "
		"(Timeout) <2.502712>\n"
		"16854 16:08:16.184603 close(3<socket:[1903948]>) = 0 <0.000059>\n"
		"16854 16:08:16.190000 write(2<pipe:[1]>, \"TimeoutError: timed out\\n\", 24) = 24 <0.000010>\n"
		"16854 16:08:16.200000 exit_group(1)                     = ?\n"
		"16854 16:08:16.200100 +++ exited with 1 +++\n";
	static const char *const miss[] = {
		"16854 16:08:13.665344 openat(AT_FDCWD</tmp/w>, \"/tmp/w/cache/voices/narrator-v2.pth\", "
		"O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory) <0.000116>\n",
		"16854 16:08:13.665344 openat(AT_FDCWD</tmp/w>, \"/srv/voices/narrator-v2.pth\", "
		"O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory) <0.000116>\n",
	};
	for (size_t i = 0; i < ARRAY_SIZE(miss); i++) {
		struct strbuf log = STRBUF_INIT;
		struct rt t;
		strbuf_addf(&log, "%s%s%s", head, miss[i], tail);
		rt_init(&t);
		run_log(&t, log.buf, false);
		assert_shape(&t);
		assert_string_equal(t.out.v[0]->rule, "connect-timeout");
		bool cached = i == 0;
		assert_int_equal(contains(t.out.v[0]->summary, "'narrator-v2.pth' is not cached, and fetching it "
					  "failed: connection to '127.0.0.1:35841' timed out after 2.5 s"), cached);
		assert_int_equal(rt_find(&t, "missing-file") == NULL, cached);
		assert_int_equal(causes(&t), cached ? 1 : 2);
		if (cached)
			assert_true(has_evidence(t.out.v[0], "narrator-v2.pth"));
		rt_release(&t);
		strbuf_release(&log);
	}
}

/* A supervisor's SIGTERM to its other worker after one failed is that
 * failure's consequence, and so is the supervisor's own exit. */
static void supervisor_stops_the_rest(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"10  10:00:00.001000 execve(\"/usr/bin/python3\", [\"python3\", \"super.py\"], 0x7f /* 9 vars */) = 0\n"
		"10  10:00:00.002000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		"child_tidptr=0x7f) = 11\n"
		"10  10:00:00.003000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		"child_tidptr=0x7f) = 12\n"
		"11  10:00:00.004000 openat(AT_FDCWD, \"/srv/model/weights.bin\", O_RDONLY|O_CLOEXEC) = -1 ENOENT "
		"(No such file or directory)\n"
		"11  10:00:00.005000 exit_group(3)    = ?\n"
		"11  10:00:00.005100 +++ exited with 3 +++\n"
		"10  10:00:00.006000 kill(12, SIGTERM) = 0\n"
		"12  10:00:00.006100 --- SIGTERM {si_signo=SIGTERM, si_code=SI_USER, si_pid=10, si_uid=0} ---\n"
		"12  10:00:00.006200 +++ killed by SIGTERM +++\n"
		"10  10:00:00.007000 exit_group(1)    = ?\n"
		"10  10:00:00.007100 +++ exited with 1 +++\n",
		true);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *k = rt_find(&t, "crashed");
	assert_non_null(k);
	assert_int_equal(k->signo, SIGTERM);
	assert_int_equal(k->sender_pid, 10);
	assert_ptr_equal(k->cause, t.out.v[0]);
	rt_release(&t);
}

/* An abort after the process's own last words: the words are the cause. */
static void abort_under_its_words(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"70  10:00:00.001000 execve(\"./loader\", [\"./loader\"], 0x7f /* 9 vars */) = 0\n"
		"70  10:00:00.002000 write(2, \"loader: loader.c:12: main: Assertion `n > 0' failed.\\n\", 52) = 52\n"
		"70  10:00:00.003000 rt_sigprocmask(SIG_UNBLOCK, [ABRT], NULL, 8) = 0\n"
		"70  10:00:00.004000 gettid()         = 70\n"
		"70  10:00:00.005000 tgkill(70, 70, SIGABRT) = 0\n"
		"70  10:00:00.006000 --- SIGABRT {si_signo=SIGABRT, si_code=SI_TKILL, si_pid=70, si_uid=0} ---\n"
		"70  10:00:00.007000 +++ killed by SIGABRT (core dumped) +++\n",
		true);
	assert_shape(&t);
	assert_int_equal(causes(&t), 1);
	assert_string_equal(t.out.v[0]->rule, "error-message");
	const struct rc_finding *k = rt_find(&t, "crashed");
	assert_non_null(k);
	assert_ptr_equal(k->cause, t.out.v[0]);
	rt_release(&t);
}

/* A shell's "Segmentation fault" line is the crash's echo. */
static void shell_reports_the_crash(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"80  10:00:00.001000 execve(\"/usr/bin/bash\", [\"bash\", \"run.sh\"], 0x7f /* 9 vars */) = 0\n"
		"80  10:00:00.002000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		"child_tidptr=0x7f) = 81\n"
		"81  10:00:00.003000 execve(\"./mixer\", [\"./mixer\"], 0x7f /* 9 vars */) = 0\n"
		"81  10:00:00.004000 --- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---\n"
		"81  10:00:00.005000 +++ killed by SIGSEGV (core dumped) +++\n"
		"80  10:00:00.006000 write(2, \"run.sh: line 1:    81 Segmentation fault      (core dumped) ./mixer\\n\", 68)"
		" = 68\n"
		"80  10:00:00.007000 exit_group(139)  = ?\n"
		"80  10:00:00.007100 +++ exited with 139 +++\n",
		true);
	assert_shape(&t);
	assert_int_equal(causes(&t), 1);
	assert_string_equal(t.out.v[0]->rule, "crashed");
	assert_ptr_equal(rt_find(&t, "error-message")->cause, t.out.v[0]);
	assert_ptr_equal(rt_find(&t, "nonzero-exit")->cause, t.out.v[0]);
	rt_release(&t);
}

/* Nine lines pasted around the failing call, no exit: what nothing
 * recovered from is an error, and the report says the outcome is not in
 * the trace. A whole run that ended well stays a healthy one. */
static const char excerpt[] =
	"12345 10:00:01.000100 openat(AT_FDCWD, \"/etc/app/app.conf\", O_RDONLY|O_CLOEXEC) = -1 ENOENT "
	"(No such file or directory)\n"
	"12345 10:00:01.000200 getpid()         = 12345\n";

static void excerpt_without_outcome(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t, excerpt, true);
	assert_true(t.eng.no_outcome);
	assert_int_equal(causes(&t), 1);
	struct strbuf sb = STRBUF_INIT;
	text_of(&t, &sb);
	assert_true(contains(sb.buf, "the outcome is not in the trace"));
	strbuf_release(&sb);
	rt_release(&t);

	/* The same lines from a source that always has the outcome (run). */
	rt_init(&t);
	run_log(&t, excerpt, false);
	assert_false(t.eng.no_outcome);
	assert_int_equal(causes(&t), 0);
	rt_release(&t);

	/* With the exit: a run that went on to succeed. */
	rt_init(&t);
	struct strbuf log = STRBUF_INIT;
	strbuf_addf(&log, "%s12345 10:00:01.000300 exit_group(0) = ?\n12345 10:00:01.000400 +++ exited with 0 +++\n",
		    excerpt);
	run_log(&t, log.buf, true);
	assert_false(t.eng.no_outcome);
	assert_int_equal(causes(&t), 0);
	strbuf_release(&log);
	rt_release(&t);
}

/* The two pastes: nine lines around two fchown calls refused, and
 * one clone3 line a seccomp profile refused. Each failure is an error. */
static void pasted_failures_are_errors(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"12345 10:00:01.000100 openat(AT_FDCWD, \"/var/lib/app/data\", O_RDONLY|O_DIRECTORY|O_CLOEXEC) = 3\n"
		"12345 10:00:01.000200 newfstatat(3, \"\", {st_mode=S_IFDIR|0755, st_size=4096, ...}, AT_EMPTY_PATH) = 0\n"
		"12345 10:00:01.000300 openat(AT_FDCWD, \"/var/lib/app/data/db.sqlite\", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 4\n"
		"12345 10:00:01.000400 fchown(4, 999, 999) = -1 EACCES (Permission denied)\n"
		"12345 10:00:01.000500 close(4) = 0\n"
		"12345 10:00:01.000600 openat(AT_FDCWD, \"/var/lib/app/data/db.sqlite-wal\", O_RDWR|O_CREAT|O_CLOEXEC, 0644) = 4\n"
		"12345 10:00:01.000700 fchown(4, 999, 999) = -1 EACCES (Permission denied)\n"
		"12345 10:00:01.000800 close(4) = 0\n"
		"12345 10:00:01.000900 write(2, \"init failed\\n\", 12) = 12\n",
		true);
	assert_true(t.eng.no_outcome);
	assert_int_equal(rt_count(&t, "permission-denied"), 2);
	assert_int_equal(causes(&t), 2);
	assert_string_equal(t.out.v[0]->path, "/var/lib/app/data/db.sqlite-wal");
	assert_ptr_equal(rt_find(&t, "error-message")->cause, t.out.v[0]);
	rt_release(&t);

	rt_init(&t);
	run_log(&t,
		"clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|"
		"CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f3b2d7fe910, "
		"parent_tid=0x7f3b2d7fe910, exit_signal=0, stack=0x7f3b2cffe000, stack_size=0x7fff00, "
		"tls=0x7f3b2d7fe640} => {parent_tid=[0]}, 88) = -1 EPERM (Operation not permitted)\n",
		true);
	assert_true(t.eng.no_outcome);
	assert_int_equal(causes(&t), 1);
	assert_string_equal(t.out.v[0]->rule, "syscall-blocked");
	rt_release(&t);
}

/* A child's calls logged before its parent's clone() returned, as strace
 * -f (and our tracer) print them when the child runs first: the child
 * still has its parent's cwd, so its relative path names the right file. */
static void child_before_clone_returns(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"20  10:00:00.001000 execve(\"/usr/bin/bash\", [\"bash\", \"run.sh\"], 0x7f /* 9 vars */) = 0\n"
		"20  10:00:00.002000 chdir(\"/srv/voice\") = 0\n"
		"20  10:00:00.003000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD"
		" <unfinished ...>\n"
		"21  10:00:00.003100 execve(\"./start_app.sh\", [\"./start_app.sh\"], 0x55 /* 9 vars */) = -1 ENOENT "
		"(No such file or directory)\n"
		"20  10:00:00.003200 <... clone resumed>, child_tidptr=0x7f) = 21\n"
		"21  10:00:00.004000 exit_group(127)  = ?\n"
		"21  10:00:00.004100 +++ exited with 127 +++\n"
		"20  10:00:00.005000 exit_group(127)  = ?\n"
		"20  10:00:00.005100 +++ exited with 127 +++\n",
		true);
	const struct rc_finding *f = rt_find(&t, "exec-failed");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/voice/start_app.sh");
	const struct rc_proc *child = procs_get(&t.eng.procs, 21);
	assert_non_null(child);
	assert_int_equal(child->ppid, 20);
	assert_false(child->forked_early);
	rt_release(&t);
}

/* A thread's words logged before its clone returned (the eBPF capture
 * gives each call when it ends, and the new thread may write first) are
 * its process's, by the program it runs: an error of that program's
 * death, ranked so before any link raises it. */
static void thread_writes_before_clone_returns(void **state)
{
	(void)state;
	const char *log =
		"40  08:20:12.620250 execve(\"./loader\", [\"./loader\"], 0x7ffe) = 0 <0.002551>\n"
		"40  08:20:12.624887 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|"
		"CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f83a8f3d990, "
		"parent_tid=0x7f83a8f3d990, exit_signal=0, stack=0x7f83a873d000, stack_size=0x7fff80, "
		"tls=0x7f83a8f3d6c0} <unfinished ...>\n"
		"42  08:20:12.625299 write(2, \"terminate called after throwing an instance of '\", 48) = 48 <0.000002>\n"
		"42  08:20:12.625305 write(2, \"std::runtime_error\", 18) = 18 <0.000000>\n"
		"42  08:20:12.625307 write(2, \"'\\n\", 2) = 2 <0.000000>\n"
		"42  08:20:12.625326 write(2, \"  what():  \", 11) = 11 <0.000001>\n"
		"42  08:20:12.625328 write(2, \"cannot parse model header in weights.bin\", 40) = 40 <0.000001>\n"
		"42  08:20:12.625331 write(2, \"\\n\", 1) = 1 <0.000001>\n"
		"42  08:20:12.625343 tgkill(40, 42, SIGABRT) = 0 <0.000011>\n"
		"40  08:20:12.625449 <... clone3 resumed> => {parent_tid=0x7f83a8f3d990}, 88) = 42 <0.000562>\n"
		"42  08:20:12.788121 --- SIGABRT {si_signo=SIGABRT, si_code=SI_TKILL, si_pid=40, si_uid=0} ---\n"
		"42  08:20:12.788718 +++ killed by SIGABRT +++\n"
		"40  08:20:12.788742 +++ killed by SIGABRT +++\n";
	struct strace_parser *p = strace_parser_from_buffer(log, strlen(log));
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;
	struct rt t;
	rt_init(&t);
	while (strace_parser_next(p, &e, &err) > 0)
		rt_feed(&t, &e);
	strace_parser_free(p);
	strbuf_release(&err);
	engine_finish(&t.eng, &t.out);
	rank_findings(&t.out, &t.eng.procs, false);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->message, "cannot parse model header"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(procs_get(&t.eng.procs, 42)->is_thread);
	rt_release(&t);
}

/* A vfork returns only after the child exec'd or exited: the child's
 * whole life is logged before it, and it is still the same process. */
static void vfork_child_ends_first(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"30  09:06:19 execve(\"/usr/bin/sh\", [\"sh\", \"launch.sh\"], 0x7f /* 9 vars */) = 0\n"
		"30  09:06:19 chdir(\"/srv/voice\") = 0\n"
		"30  09:06:19 vfork( <unfinished ...>\n"
		"31  09:06:19 execve(\"./start_app.sh\", [\"./start_app.sh\"], 0x55 /* 9 vars */) = -1 EACCES "
		"(Permission denied)\n"
		"31  09:06:19 write(2, \"launch.sh: 6: \", 14) = 14\n"
		"31  09:06:19 write(2, \"./start_app.sh: Permission denie\"..., 33) = 33\n"
		"31  09:06:19 write(2, \"\\n\", 1)        = 1\n"
		"31  09:06:19 exit_group(126)          = ?\n"
		"31  09:06:19 +++ exited with 126 +++\n"
		"30  09:06:19 <... vfork resumed>)     = 31\n"
		"30  09:06:19 exit_group(126)          = ?\n"
		"30  09:06:19 +++ exited with 126 +++\n",
		true);
	const struct rc_proc *child = procs_get(&t.eng.procs, 31);
	assert_non_null(child);
	assert_true(child->ended);
	assert_int_equal(child->exit_code, 126);
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *em = rt_find(&t, "error-message");
	assert_non_null(em);
	assert_ptr_equal(em->cause, rt_find(&t, "exec-failed"));
	rt_release(&t);
}

/* pyenv's shim chain (pid 4100: the shim, then pyenv, then pyenv-exec, each
 * an execve) writes its `enable` complaint to /dev/null and runs a helper
 * that warns and exits 0, then execs the python that fails in words of its
 * own. Those are the only words of the program that failed; strace 6.1's
 * lines as it printed them for the real shim, stderr a file. */
static const char pyenv_shim[] =
	"4100  09:42:44.402955 execve(\"/root/.pyenv/shims/python3\", [\"python3\", \"app.py\"], 0x7ffc /* 41 vars */) = 0\n"
	"4100  09:42:44.438477 execve(\"/usr/bin/bash\", [\"bash\", \"/root/.pyenv/libexec/pyenv\", \"exec\", "
	"\"python3\", \"app.py\"], 0x7ffe /* 40 vars */) = 0\n"
	"4100  09:42:44.456400 fcntl(2</tmp/rcfix/err.log>, F_DUPFD, 10) = 11</tmp/rcfix/err.log>\n"
	"4100  09:42:44.456450 openat(AT_FDCWD</tmp/rcfix>, \"/dev/null\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>\n"
	"4100  09:42:44.456597 dup2(3</dev/null>, 2</tmp/rcfix/err.log>) = 2</dev/null>\n"
	"4100  09:42:44.456679 close(3</dev/null>) = 0\n"
	"4100  09:42:44.457489 write(2</dev/null>, \"/root/.pyenv/libexec/pyenv: line 23: enable: cannot open shared object "
	"/root/.pyenv/libexec/../libexec/pyenv-realpath.dylib: /root/.pyenv/libexec/../libexec/pyenv-realpath.dylib: "
	"cannot open shared object file: No such file or directory\\n\", 237) = 237\n"
	"4100  09:42:44.457569 dup2(11</tmp/rcfix/err.log>, 2</dev/null>) = 2</tmp/rcfix/err.log>\n"
	"4100  09:42:44.457754 close(11</tmp/rcfix/err.log>) = 0\n"
	"4100  09:42:44.491753 execve(\"/usr/bin/bash\", [\"bash\", \"/root/.pyenv/libexec/pyenv-exec\", \"python3\", "
	"\"app.py\"], 0x7fff /* 43 vars */) = 0\n"
	"4100  09:42:44.498000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f) = 4101\n"
	"4101  09:42:44.560443 execve(\"/usr/bin/bash\", [\"bash\", \"/root/.pyenv/libexec/pyenv-version-file-read\", "
	"\"/tmp/rcfix/.python-version\"], 0x7ffd /* 44 vars */) = 0\n"
	"4101  09:42:44.586115 write(2</tmp/rcfix/err.log>, \"pyenv: invalid version `cpython/3.11' ignored in "
	"`/tmp/rcfix/.python-version'\\n\", 78) = 78\n"
	"4101  09:42:44.588160 exit_group(0)     = ?\n"
	"4101  09:42:44.588200 +++ exited with 0 +++\n"
	"4100  09:42:44.850000 execve(\"/root/.pyenv/versions/3.11.7/bin/python3\", [\"python3\", \"app.py\"], "
	"0x5559 /* 44 vars */) = 0\n"
	"4100  09:42:45.073359 write(2</tmp/rcfix/err.log>, \"voice: MODEL_DIR is not set\", 27) = 27\n"
	"4100  09:42:45.073460 write(2</tmp/rcfix/err.log>, \"\\n\", 1) = 1\n"
	"4100  09:42:45.079890 exit_group(1)     = ?\n"
	"4100  09:42:45.080944 +++ exited with 1 +++\n";

static void shim_words_before_exec(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t, pyenv_shim, false);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "error-message");
	assert_string_equal(t.out.v[0]->message, "voice: MODEL_DIR is not set");
	assert_true(contains(t.out.v[0]->summary, "'python3' reported"));
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *x = rt_find(&t, "nonzero-exit");
	assert_non_null(x);
	assert_ptr_equal(x->cause, t.out.v[0]);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		/* Hidden by a program that went on: not the failure's words. */
		assert_false(contains(f->message, "enable: cannot open shared object"));
		/* The helper's note is a warning of a run that went on. */
		if (contains(f->message, "invalid version"))
			assert_int_equal(f->effective, RC_SEV_WARNING);
	}
	rt_release(&t);
}

/* bash warns at start-up (an LC_ALL with no locale behind it), then execs
 * python3, whose own words are the ones that matter; bash's stay a warning,
 * named as bash's. */
static void words_of_the_program_before_exec(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"60  10:00:00.001000 execve(\"/usr/bin/bash\", [\"bash\", \"start.sh\"], 0x7f /* 9 vars */) = 0\n"
		"60  10:00:00.002000 write(2, \"bash: warning: setlocale: LC_ALL: cannot change locale (de_AT.UTF-8)\\n\", "
		"70) = 70\n"
		"60  10:00:00.003000 execve(\"/usr/bin/python3\", [\"/usr/bin/python3\", \"app.py\"], 0x55 /* 9 vars */) = 0\n"
		"60  10:00:00.004000 write(2, \"voice: MODEL_DIR is not set\\n\", 28) = 28\n"
		"60  10:00:00.005000 exit_group(1)    = ?\n"
		"60  10:00:00.005100 +++ exited with 1 +++\n",
		false);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "error-message");
	assert_string_equal(t.out.v[0]->message, "voice: MODEL_DIR is not set");
	assert_int_equal(causes(&t), 1);
	assert_int_equal(rt_count(&t, "error-message"), 2);
	const struct rc_finding *w = NULL;
	for (size_t i = 0; i < t.out.count; i++)
		if (contains(t.out.v[i]->message, "setlocale"))
			w = t.out.v[i];
	assert_non_null(w);
	assert_int_equal(w->effective, RC_SEV_WARNING);
	assert_true(contains(w->summary, "'bash' reported before the process ran 'python3'"));
	assert_true(contains(w->advice, "before the process exec'd 'python3'"));
	rt_release(&t);
}

/* A start script's own failure, then the program it execs fails its own way
 * and says so in words that name nothing: those words, and the exit, are
 * about the program's failure, not the script's. */
static void exit_follows_the_last_program(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"70  10:00:00.001000 execve(\"/usr/bin/bash\", [\"bash\", \"start.sh\"], 0x7f /* 9 vars */) = 0\n"
		"70  10:00:00.002000 openat(AT_FDCWD, \"/etc/voice/defaults\", O_RDONLY) = -1 ENOENT "
		"(No such file or directory)\n"
		"70  10:00:00.003000 write(2, \"start.sh: line 2: /etc/voice/defaults: No such file or directory\\n\", 65) = 65\n"
		"70  10:00:00.004000 execve(\"/usr/bin/python3\", [\"/usr/bin/python3\", \"app.py\"], 0x55 /* 9 vars */) = 0\n"
		"70  10:00:00.005000 socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_TCP) = 3\n"
		"70  10:00:00.006000 connect(3, {sa_family=AF_INET, sin_port=htons(5432), sin_addr=inet_addr(\"127.0.0.1\")}, "
		"16) = -1 ECONNREFUSED (Connection refused)\n"
		"70  10:00:00.007000 close(3)                = 0\n"
		"70  10:00:00.008000 write(2, \"voice: database unavailable, giving up\\n\", 39) = 39\n"
		"70  10:00:00.009000 exit_group(1)    = ?\n"
		"70  10:00:00.009100 +++ exited with 1 +++\n",
		false);
	assert_shape(&t);
	const struct rc_finding *c = rt_find(&t, "connect-failed");
	assert_non_null(c);
	const struct rc_finding *e = NULL;
	for (size_t i = 0; i < t.out.count; i++)
		if (contains(t.out.v[i]->message, "database unavailable"))
			e = t.out.v[i];
	assert_non_null(e);
	assert_ptr_equal(e->cause, c);
	const struct rc_finding *x = rt_find(&t, "nonzero-exit");
	assert_non_null(x);
	assert_ptr_equal(x->cause, c);
	rt_release(&t);
}

/* A postmaster's children: the startup process fails, and the postmaster
 * sends SIGQUIT to the others, whose handler exits 2. Those exits answer
 * the request, so they go under the startup process's failure, with the
 * postmaster's words and exit: one cause. */
static const char stopped_children[] =
	"40  10:00:00.001000 execve(\"/usr/lib/postgresql/15/bin/postgres\", [\"postgres\", \"-D\", \"/srv/pg\"], "
	"0x7f /* 9 vars */) = 0\n"
	"40  10:00:00.002000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f) = 41\n"
	"40  10:00:00.003000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f) = 42\n"
	"40  10:00:00.004000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
	"child_tidptr=0x7f) = 43\n"
	"41  10:00:00.005000 epoll_wait(8, 0x55, 1, 300000) = -1 EINTR (Interrupted system call)\n"
	"43  10:00:00.006000 mkdir(\"/srv/wal/pg_wal/archive_status\", 0700) = -1 EACCES (Permission denied)\n"
	"43  10:00:00.007000 exit_group(1)    = ?\n"
	"43  10:00:00.007100 +++ exited with 1 +++\n"
	"40  10:00:00.008000 kill(41, SIGQUIT) = 0\n"
	"40  10:00:00.008100 kill(42, SIGQUIT) = 0\n"
	"41  10:00:00.008200 --- SIGQUIT {si_signo=SIGQUIT, si_code=SI_USER, si_pid=40, si_uid=101} ---\n"
	"41  10:00:00.008300 exit_group(2)    = ?\n"
	"41  10:00:00.008400 +++ exited with 2 +++\n"
	"42  10:00:00.008500 --- SIGQUIT {si_signo=SIGQUIT, si_code=SI_USER, si_pid=40, si_uid=101} ---\n"
	"42  10:00:00.008600 exit_group(2)    = ?\n"
	"42  10:00:00.008700 +++ exited with 2 +++\n"
	"40  10:00:00.009000 write(2, \"LOG:  shutting down due to startup process failure\\n\", 51) = 51\n"
	"40  10:00:00.010000 exit_group(1)    = ?\n"
	"40  10:00:00.010100 +++ exited with 1 +++\n";

static void handler_exits_on_supervisors_signal(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t, stopped_children, true);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "permission-denied");
	assert_int_equal(t.out.v[0]->pid, 43);
	assert_int_equal(causes(&t), 1);
	size_t told = 0;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "nonzero-exit") != 0)
			continue;
		assert_ptr_equal(f->cause, t.out.v[0]);
		if (f->pid == 41 || f->pid == 42) {
			assert_int_equal(f->sender_pid, 40);
			assert_true(contains(f->summary, "told to stop by SIGQUIT from 'postgres -D /srv/pg' (pid 40)"));
			told++;
		}
	}
	assert_int_equal(told, 2);
	assert_ptr_equal(rt_find(&t, "error-message")->cause, t.out.v[0]);
	rt_release(&t);
}

/* A process that took a signal and went on working for long after did
 * not end because of it: its own failure later is a cause of its own. */
static void signal_long_before_exit(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	strbuf_adds(&log,
		    "50  10:00:00.001000 execve(\"/usr/sbin/haproxy\", [\"haproxy\"], 0x7f /* 9 vars */) = 0\n"
		    "50  10:00:00.002000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		    "child_tidptr=0x7f) = 51\n"
		    "51  10:00:00.003000 write(2, \"worker: bad frame\\n\", 18) = 18\n"
		    "51  10:00:00.004000 exit_group(1)    = ?\n"
		    "51  10:00:00.004100 +++ exited with 1 +++\n"
		    "50  10:00:00.005000 kill(52, SIGHUP) = 0\n"
		    "52  10:00:00.005100 --- SIGHUP {si_signo=SIGHUP, si_code=SI_USER, si_pid=50, si_uid=0} ---\n");
	for (int i = 0; i < 600; i++)
		strbuf_addf(&log, "52  10:00:01.%06d getpid()         = 52\n", i);
	strbuf_adds(&log,
		    "52  10:00:02.000000 openat(AT_FDCWD, \"/etc/app/keys.pem\", O_RDONLY) = -1 ENOENT "
		    "(No such file or directory)\n"
		    "52  10:00:02.000100 exit_group(1)    = ?\n"
		    "52  10:00:02.000200 +++ exited with 1 +++\n");
	rt_init(&t);
	run_log(&t, log.buf, true);
	assert_shape(&t);
	const struct rc_finding *mf = rt_find(&t, "missing-file");
	assert_non_null(mf);
	assert_null(mf->cause);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "nonzero-exit") == 0 && f->pid == 52) {
			assert_int_equal(f->sender_pid, 0);
			assert_ptr_equal(f->cause, mf);
		}
	}
	strbuf_release(&log);
	rt_release(&t);
}

/* Add PID's write of TEXT (a line) to stderr at TS to LOG, quoted as
 * strace quotes it. */
static void wr(struct strbuf *log, int pid, const char *ts, const char *text)
{
	strbuf_addf(log, "%d  %s write(2, \"", pid, ts);
	for (const char *c = text; *c; c++)
		if (*c == '"')
			strbuf_adds(log, "\\\"");
		else
			strbuf_addc(log, *c);
	strbuf_addf(log, "\\n\", %zu) = %zu\n", strlen(text) + 1, strlen(text) + 1);
}

/* podman as it fails here, up to conmon's start of podman's cleanup
 * (113): podman's thread looks for optional files; conmon (double-forked)
 * runs crun, whose raise of RLIMIT_NOFILE is refused; podman says so and
 * exits 126; conmon then runs the cleanup. */
static void podman_refused_limit(struct strbuf *log)
{
	strbuf_adds(log,
		    "100  10:00:00.001000 execve(\"/usr/bin/podman\", [\"podman\", \"run\", \"--rootfs\", \"/r\", "
		    "\"/bin/true\"], 0x7f /* 9 vars */) = 0\n"
		    "100  10:00:00.002000 clone(child_stack=0xc000, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|"
		    "CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS, tls=0xc0) = 101\n"
		    "101  10:00:00.003000 openat(AT_FDCWD, \"/usr/share/containers/oci/hooks.d\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n"
		    "101  10:00:00.004000 openat(AT_FDCWD, \"/etc/containers/podman-machine\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n"
		    "101  10:00:00.004500 openat(AT_FDCWD, \"/var/lib/containers/storage/overlay-images/images.json\", "
		    "O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n"
		    "100  10:00:00.005000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 110\n"
		    "110  10:00:00.006000 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\", \"-c\", \"abc\"], "
		    "0x7f /* 9 vars */) = 0\n"
		    "110  10:00:00.007000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		    "child_tidptr=0x7f) = 111\n"
		    "110  10:00:00.008000 exit_group(0)    = ?\n"
		    "110  10:00:00.008100 +++ exited with 0 +++\n"
		    "111  10:00:00.009000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		    "child_tidptr=0x7f) = 112\n"
		    "112  10:00:00.010000 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\", \"abc\"], "
		    "0x7f /* 9 vars */) = 0\n"
		    "112  10:00:00.011000 prlimit64(0, RLIMIT_NOFILE, {rlim_cur=1024*1024, rlim_max=1024*1024}, NULL) "
		    "= -1 EPERM (Operation not permitted)\n");
	wr(log, 112, "10:00:00.012000", "setrlimit `RLIMIT_NOFILE`: Operation not permitted");
	strbuf_adds(log,
		    "112  10:00:00.013000 exit_group(1)    = ?\n"
		    "112  10:00:00.013100 +++ exited with 1 +++\n");
	wr(log, 100, "10:00:00.014000",
	   "Error: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied");
	strbuf_adds(log,
		    "100  10:00:00.015000 exit_group(126)    = ?\n"
		    "101  10:00:00.015100 +++ exited with 126 +++\n"
		    "100  10:00:00.015200 +++ exited with 126 +++\n"
		    "111  10:00:00.016000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		    "child_tidptr=0x7f) = 113\n"
		    "113  10:00:00.017000 execve(\"/usr/bin/podman\", [\"/usr/bin/podman\", \"container\", \"cleanup\", "
		    "\"abc\"], 0x7f /* 9 vars */) = 0\n");
}

/* podman as it fails here (podman_refused_limit), to the end: the
 * cleanup looks for images.json and finds the container gone, and conmon
 * exits with crun's status. podman named what failed it: its optional
 * files are notes; the cleanup ran as conmon's handling of crun's
 * failure, and is its aftermath, not a cause of its own. */
static void runtime_failure_settles_the_rest(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	podman_refused_limit(&log);
	strbuf_adds(&log,
		    "113  10:00:00.018000 openat(AT_FDCWD, \"/var/lib/containers/storage/overlay-images/images.json\", "
		    "O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)\n");
	wr(&log, 113, "10:00:00.019000", "Error: no container with name or ID \"abc\" found: no such container");
	strbuf_adds(&log,
		    "113  10:00:00.020000 exit_group(125)    = ?\n"
		    "113  10:00:00.020100 +++ exited with 125 +++\n"
		    "111  10:00:00.021000 exit_group(1)    = ?\n"
		    "111  10:00:00.021100 +++ exited with 1 +++\n");
	rt_init(&t);
	run_log(&t, log.buf, false);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "syscall-blocked");
	assert_int_equal(causes(&t), 1);
	size_t files = 0;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") == 0) {
			assert_int_equal(f->effective, RC_SEV_INFO);
			files++;
		}
		if (f->is_output && contains(f->message, "no container"))
			assert_ptr_equal(f->cause, t.out.v[0]);
		if (strcmp(f->rule, "nonzero-exit") == 0 && f->effective == RC_SEV_ERROR)
			assert_ptr_equal(f->cause, t.out.v[0]);
	}
	/* hooks.d, podman-machine, and images.json (podman's and the
	 * cleanup's, one name). */
	assert_int_equal(files, 3);
	strbuf_release(&log);
	rt_release(&t);
}

/* The same, with the trace ended while podman's cleanup still ran: it
 * had looked for podman-machine too, so the file's finding names the
 * cleanup, with podman among its other processes. podman's failure is
 * explained by its words and the cleanup has not failed: the file is a
 * note still (CI saw it an error once the finding named both). */
static void explained_process_among_others(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	podman_refused_limit(&log);
	strbuf_adds(&log,
		    "113  10:00:00.018000 openat(AT_FDCWD, \"/etc/containers/podman-machine\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n");
	rt_init(&t);
	run_log(&t, log.buf, false);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "syscall-blocked");
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *f = NULL;
	for (size_t i = 0; i < t.out.count; i++)
		if (t.out.v[i]->path && strcmp(t.out.v[i]->path, "/etc/containers/podman-machine") == 0)
			f = t.out.v[i];
	assert_non_null(f);
	assert_int_equal(f->pid, 113);
	assert_int_equal(f->also.n, 1);
	assert_int_equal(f->also.v[0].pid, 100);
	assert_int_equal(f->effective, RC_SEV_INFO);
	strbuf_release(&log);
	rt_release(&t);
}

/* `cat f 2>/dev/null; exit 1`: cat's words still say why it failed, and
 * are its failure's consequence, but nobody saw them: the report says
 * where they went. */
static void words_to_dev_null_say_so(void **state)
{
	(void)state;
	struct rt t;
	rt_init(&t);
	run_log(&t,
		"3545  10:00:00.001000 execve(\"/usr/bin/cat\", [\"cat\", \"/srv/model.pt\"], 0x7f /* 9 vars */) = 0\n"
		"3545  10:00:00.002000 openat(AT_FDCWD</tmp>, \"/dev/null\", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>\n"
		"3545  10:00:00.003000 dup2(3</dev/null>, 2</dev/pts/0>) = 2</dev/null>\n"
		"3545  10:00:00.004000 openat(AT_FDCWD</tmp>, \"/srv/model.pt\", O_RDONLY) = -1 ENOENT (No such file or "
		"directory)\n"
		"3545  10:00:00.005000 write(2</dev/null>, \"cat: /srv/model.pt: No such file or directory\\n\", 46) = 46\n"
		"3545  10:00:00.006000 exit_group(1)     = ?\n"
		"3545  10:00:00.006100 +++ exited with 1 +++\n", false);
	assert_shape(&t);
	assert_int_equal(causes(&t), 1);
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	const struct rc_finding *w = rt_find(&t, "error-message");
	assert_non_null(w);
	assert_ptr_equal(w->cause, t.out.v[0]);
	assert_true(contains(w->summary, "'cat' reported (to /dev/null): cat: /srv/model.pt"));
	rt_release(&t);
}

/* The same process, had its words named nothing: they go under its last
 * failure (a guess among its failures), and its other failures stay
 * causes of their own. */
static void vague_words_settle_nothing(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	strbuf_adds(&log,
		    "200  10:00:00.001000 execve(\"/usr/bin/voice\", [\"voice\"], 0x7f /* 9 vars */) = 0\n"
		    "200  10:00:00.002000 openat(AT_FDCWD, \"/etc/voice/voices.toml\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n"
		    "200  10:00:00.003000 openat(AT_FDCWD, \"/srv/voice/model.bin\", O_RDONLY|O_CLOEXEC) "
		    "= -1 EACCES (Permission denied)\n");
	wr(&log, 200, "10:00:00.004000", "Error: initialisation failed");
	strbuf_adds(&log,
		    "200  10:00:00.005000 exit_group(1)    = ?\n"
		    "200  10:00:00.005100 +++ exited with 1 +++\n");
	rt_init(&t);
	run_log(&t, log.buf, false);
	assert_shape(&t);
	assert_int_equal(causes(&t), 2);
	assert_int_equal(rt_find(&t, "missing-file")->effective, RC_SEV_ERROR);
	strbuf_release(&log);
	rt_release(&t);
}

/* `iptables -C` looks for a rule before netavark adds it: exit 1 and
 * "Bad rule" when it is not there yet. netavark goes on and exits 0: the
 * check's words are a note, as its exit is; and netavark's look for the
 * system bus (no socket here), in a process that exited 0, is one too. */
static void handled_check_is_a_note(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	strbuf_adds(&log,
		    "300  10:00:00.001000 execve(\"/usr/bin/podman\", [\"podman\", \"run\", \"x\"], 0x7f /* 9 vars */) "
		    "= 0\n"
		    "300  10:00:00.002000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 310\n"
		    "310  10:00:00.003000 execve(\"/usr/lib/podman/netavark\", [\"/usr/lib/podman/netavark\", \"setup\", "
		    "\"/run/netns/n\"], 0x7f /* 9 vars */) = 0\n"
		    "310  10:00:00.004000 socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0) = 7\n"
		    "310  10:00:00.005000 connect(7, {sa_family=AF_UNIX, sun_path=\"/var/run/dbus/system_bus_socket\"}, 34) "
		    "= -1 ENOENT (No such file or directory)\n"
		    "310  10:00:00.006000 close(7)    = 0\n"
		    "310  10:00:00.007000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 311\n"
		    "311  10:00:00.008000 execve(\"/usr/sbin/iptables\", [\"iptables\", \"-t\", \"nat\", \"-C\", "
		    "\"NETAVARK-1D8721804F16F\", \"-j\", \"ACCEPT\"], 0x7f /* 9 vars */) = 0\n");
	wr(&log, 311, "10:00:00.009000", "iptables: Bad rule (does a matching rule exist in that chain?).");
	strbuf_adds(&log,
		    "311  10:00:00.010000 exit_group(1)    = ?\n"
		    "311  10:00:00.010100 +++ exited with 1 +++\n"
		    "310  10:00:00.011000 exit_group(0)    = ?\n"
		    "310  10:00:00.011100 +++ exited with 0 +++\n"
		    "300  10:00:00.012000 openat(AT_FDCWD, \"/srv/app/config.json\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n");
	wr(&log, 300, "10:00:00.013000", "Error: cannot read /srv/app/config.json");
	strbuf_adds(&log,
		    "300  10:00:00.014000 exit_group(125)    = ?\n"
		    "300  10:00:00.014100 +++ exited with 125 +++\n");
	rt_init(&t);
	run_log(&t, log.buf, false);
	assert_shape(&t);
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	assert_int_equal(causes(&t), 1);
	const struct rc_finding *bus = rt_find(&t, "connect-failed");
	assert_non_null(bus);
	assert_int_equal(bus->effective, RC_SEV_INFO);
	size_t words = 0;
	for (size_t i = 0; i < t.out.count; i++)
		if (t.out.v[i]->is_output && contains(t.out.v[i]->message, "Bad rule")) {
			assert_int_equal(t.out.v[i]->effective, RC_SEV_INFO);
			words++;
		}
	assert_int_equal(words, 1);
	strbuf_release(&log);
	rt_release(&t);
}

/* A runtime that gives up in its own words, with no failed call: crun
 * kills the container's process it had begun, says why, exits 1; podman
 * quotes crun's words whole and exits 126. crun's words are the cause,
 * and the killed process, podman's quote and both exits are under them;
 * podman's optional file is a note. */
static void runtime_words_are_the_cause(void **state)
{
	(void)state;
	struct rt t;
	struct strbuf log = STRBUF_INIT;
	strbuf_adds(&log,
		    "400  10:00:00.001000 execve(\"/usr/bin/podman\", [\"podman\", \"run\", \"--rootfs\", \"/r\", "
		    "\"/bin/true\"], 0x7f /* 9 vars */) = 0\n"
		    "400  10:00:00.002000 openat(AT_FDCWD, \"/usr/share/containers/oci/hooks.d\", O_RDONLY|O_CLOEXEC) "
		    "= -1 ENOENT (No such file or directory)\n"
		    "400  10:00:00.003000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_VFORK|SIGCHLD) = 410\n"
		    "410  10:00:00.004000 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\", \"abc\"], "
		    "0x7f /* 9 vars */) = 0\n"
		    "410  10:00:00.005000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, "
		    "child_tidptr=0x7f) = 411\n"
		    "411  10:00:00.006000 read(3, \"\", 1) = 0\n"
		    "410  10:00:00.007000 kill(411, SIGKILL) = 0\n"
		    "411  10:00:00.007100 +++ killed by SIGKILL +++\n");
	wr(&log, 410, "10:00:00.008000", "cgroups in hybrid mode not supported, drop all controllers from cgroupv2");
	strbuf_adds(&log,
		    "410  10:00:00.009000 exit_group(1)    = ?\n"
		    "410  10:00:00.009100 +++ exited with 1 +++\n");
	wr(&log, 400, "10:00:00.010000",
	   "Error: OCI runtime error: crun: cgroups in hybrid mode not supported, drop all controllers from cgroupv2");
	strbuf_adds(&log,
		    "400  10:00:00.011000 exit_group(126)    = ?\n"
		    "400  10:00:00.011100 +++ exited with 126 +++\n");
	rt_init(&t);
	run_log(&t, log.buf, false);
	assert_shape(&t);
	const struct rc_finding *c = t.out.v[0];
	assert_string_equal(c->rule, "error-message");
	assert_int_equal(c->pid, 410);
	assert_int_equal(causes(&t), 1);
	size_t under = 0;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") == 0)
			assert_int_equal(f->effective, RC_SEV_INFO);
		else if (f != c && f->effective == RC_SEV_ERROR) {
			assert_ptr_equal(f->cause, c);
			under++;
		}
	}
	/* The killed process, crun's exit, podman's words, podman's exit. */
	assert_int_equal(under, 4);
	strbuf_release(&log);
	rt_release(&t);
}

/* The signature of a cause (report/signature.c) is the same for one
 * failure on every run and machine: the temporary directory's random
 * name, the pids, a container's id do not enter it; the rule, the file
 * and the code location do. */
static const char *signature_of(struct rt *t, const char *log, struct strbuf *material)
{
	static char hex[17];
	run_log(t, log, false);
	const struct rc_report_findings *shown = rt_shown(t);
	assert_true(shown->count > 0);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)report_signature(shown->v[0], material));
	return hex;
}

/* A shell's loop runs cat on a missing file again and again, and the
 * trace ends while the last cat, which failed the same open, still runs
 * (an attach's end, a crash loop's next try): the missing file is why
 * each of the cats before it exited 1, an error, not a note about the
 * one that had not failed yet. A real log. */
static void loop_last_try_unended(void **state)
{
	static const struct {
		const char *log, *rule;
	} logs[] = {
		{ "file-loop-last-unended.log", "missing-file" },
		/* The same as nobody, refused a key in a 0700 directory. */
		{ "file-perm-loop-last-unended.log", "permission-denied" },
	};
	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(logs); k++) {
		struct rt t;
		rt_init(&t);
		assert_true(analyze_log(logs[k].log, &t));
		const struct rc_finding *c = rt_find(&t, logs[k].rule);
		assert_non_null(c);
		assert_int_equal(c->effective, RC_SEV_ERROR);
		assert_null(c->cause);
		assert_int_equal(c->also.n, 3);
		size_t exits = 0;
		for (size_t i = 0; i < t.out.count; i++) {
			const struct rc_finding *f = t.out.v[i];
			if (strcmp(f->rule, "nonzero-exit") == 0 && strstr(f->summary, "'cat ")) {
				assert_ptr_equal(f->cause, c);
				exits++;
			}
		}
		assert_int_equal(exits, 3);
		assert_int_equal(causes(&t), 1);
		assert_shape(&t);
		rt_release(&t);
	}
}

/* A loop longer than the list keeps its first processes, whose exits
 * nonzero-exit reports (its first 32), each at its latest meeting. */
static void occurrences_keep_the_first(void **state)
{
	struct rc_occurrences o = { .n = 0 };
	(void)state;
	for (int i = 0; i < RC_ALSO_MAX + 10; i++)
		occurrences_add(&o, 100 + i, 10 * (uint64_t)i);
	occurrences_add(&o, 100, 999);
	assert_int_equal(o.n, RC_ALSO_MAX);
	assert_int_equal(o.v[0].pid, 100);
	assert_int_equal(o.v[0].seq, 999);
	assert_int_equal(o.v[RC_ALSO_MAX - 1].pid, 100 + RC_ALSO_MAX - 1);
}

static void signature_is_stable(void **state)
{
	(void)state;
	static const char *const fmt =
		"%d  10:00:00.001000 execve(\"/usr/bin/python3\", [\"python3\", \"serve.py\"], 0x7f /* 9 vars */) = 0\n"
		"%d  10:00:00.002000 openat(AT_FDCWD, \"/tmp/%s/models/%s.pt\", O_RDONLY|O_CLOEXEC) = -1 ENOENT "
		"(No such file or directory)\n"
		"%d  10:00:00.003000 exit_group(1)    = ?\n"
		"%d  10:00:00.003100 +++ exited with 1 +++\n";
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT, m = STRBUF_INIT;
	strbuf_addf(&a, fmt, 700, 700, "rc-scenarios.S4PZyM", "narrator", 700, 700);
	strbuf_addf(&b, fmt, 4123, 4123, "rc-scenarios.Ab3xQz", "narrator", 4123, 4123);
	strbuf_addf(&c, fmt, 700, 700, "rc-scenarios.S4PZyM", "singer", 700, 700);
	struct rt t;
	char sa[17], sb[17], sc[17];
	rt_init(&t);
	snprintf(sa, sizeof(sa), "%s", signature_of(&t, a.buf, &m));
	assert_string_equal(m.buf, "missing-file||/tmp/rc-scenarios.*/models/narrator.pt|ENOENT");
	rt_release(&t);
	rt_init(&t);
	snprintf(sb, sizeof(sb), "%s", signature_of(&t, b.buf, NULL));
	rt_release(&t);
	rt_init(&t);
	snprintf(sc, sizeof(sc), "%s", signature_of(&t, c.buf, NULL));
	rt_release(&t);
	assert_string_equal(sa, sb);
	assert_string_not_equal(sa, sc);

	/* What a run changes goes; what names the thing stays. */
	strbuf_reset(&m);
	signature_object("Error: no container with name or ID \"0ec14a88f491be3f2ac4290fc7e2af4f12f2b846e18\" "
			 "found (pid 4123, /usr/bin/python3.11, utf8)", &m);
	assert_string_equal(m.buf, "Error: no container with name or ID \"*\" found (pid N, /usr/bin/pythonN.N, utfN)");
	/* tempfile.mkdtemp(prefix="rc-watch.") and mktemp -d's, under it. */
	strbuf_reset(&m);
	signature_object("/tmp/rc-watch._t1l_v_d/app.Q7PU6epX9Q/serve.py", &m);
	assert_string_equal(m.buf, "/tmp/rc-watch.*/app.*/serve.py");

	/* Where in the code: the program's own innermost frame, by file name
	 * and function, not the standard library's under it, no line. */
	struct stack_builder *sbld = stack_builder_new(700);
	stack_builder_py(sbld, "open", "/usr/lib/python3.11/gzip.py", 58);
	stack_builder_py(sbld, "load_model", "/srv/voice/serve.py", 12);
	stack_builder_py(sbld, "<module>", "/srv/voice/serve.py", 40);
	const struct rc_stack *st = stack_build(sbld);
	strbuf_reset(&m);
	signature_location(st, &m);
	assert_string_equal(m.buf, "serve.py:load_model");
	stack_unref(st);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exec_failure_and_its_echoes),
		cmocka_unit_test(last_words_are_the_cause),
		cmocka_unit_test(module_cut_by_s_is_named),
		cmocka_unit_test(miss_then_fetch_is_one_story),
		cmocka_unit_test(supervisor_stops_the_rest),
		cmocka_unit_test(abort_under_its_words),
		cmocka_unit_test(shell_reports_the_crash),
		cmocka_unit_test(excerpt_without_outcome),
		cmocka_unit_test(pasted_failures_are_errors),
		cmocka_unit_test(child_before_clone_returns),
		cmocka_unit_test(thread_writes_before_clone_returns),
		cmocka_unit_test(handler_exits_on_supervisors_signal),
		cmocka_unit_test(signal_long_before_exit),
		cmocka_unit_test(vfork_child_ends_first),
		cmocka_unit_test(shim_words_before_exec),
		cmocka_unit_test(words_of_the_program_before_exec),
		cmocka_unit_test(exit_follows_the_last_program),
		cmocka_unit_test(runtime_failure_settles_the_rest),
		cmocka_unit_test(explained_process_among_others),
		cmocka_unit_test(words_to_dev_null_say_so),
		cmocka_unit_test(vague_words_settle_nothing),
		cmocka_unit_test(handled_check_is_a_note),
		cmocka_unit_test(runtime_words_are_the_cause),
		cmocka_unit_test(loop_last_try_unended),
		cmocka_unit_test(occurrences_keep_the_first),
		cmocka_unit_test(signature_is_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
