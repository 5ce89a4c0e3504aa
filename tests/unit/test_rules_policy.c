/* syscall-blocked: calls refused by a policy (a seccomp filter, a
 * container profile, a kernel setting) or for want of a capability, told
 * apart from the refusals an object's permissions make, and from
 * fallbacks (clone3 refused, clone does the job). Real logs from
 * tests/scenarios/lib/seccomp-launch.c (tests/fixtures/rules/proc-clone3-*)
 * are checked at the end. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "rule_test.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "util/util.h"

/* glibc's pthread_create: clone3 with the thread flags, refused with ERR
 * (0: it works, returning TID). */
static void thread_clone3(struct rt *t, int pid, int tid, int err)
{
	struct rc_event e = rt_sys(t, pid, "clone3", err ? -1 : tid, err);

	e.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
	rt_feed_line(t, &e, "clone3({flags=CLONE_VM|...|CLONE_THREAD|...}, 88) = -1");
}

/* A call NAME of PID that fails with ERR, about PATH (may be NULL). */
static void refused(struct rt *t, int pid, const char *name, const char *path, int err)
{
	struct rc_event e = rt_sys(t, pid, name, -1, err);

	e.path = path;
	rt_feed(t, &e);
}

static void ok_call(struct rt *t, int pid, const char *name, const char *path, long long ret)
{
	struct rc_event e = rt_sys(t, pid, name, ret, 0);

	e.path = path;
	rt_feed(t, &e);
}

/* Docker's old profile: clone3 refused with EPERM, and glibc, which falls
 * back only on ENOSYS, cannot start the thread: Python says so and exits. */
static void clone3_eperm_is_the_cause(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	ok_call(&t, 100, "openat", "/srv/app/worker.py", 3);
	thread_clone3(&t, 100, 0, EPERM);
	rt_write(&t, 100, 2, "RuntimeError: can't start new thread\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "syscall-blocked");
	assert_non_null(f);
	assert_ptr_equal(f, t.out.v[0]);
	assert_string_equal(f->summary, "a thread could not be started: 'clone3' was refused (EPERM): a seccomp "
			    "filter or container profile blocks it");
	assert_string_equal(f->syscall, "clone3");
	assert_int_equal(f->err, EPERM);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_true(contains(f->advice, "--security-opt seccomp="));
	assert_true(contains(f->advice, "ENOSYS, not EPERM"));
	/* A log knows no live facts. */
	assert_null(f->message);
	rt_release(&t);

	/* One pasted line, no outcome: unrecovered, whatever the ranking
	 * makes of a trace without an end. */
	rt_init(&t);
	thread_clone3(&t, 100, 0, EPERM);
	rt_finish(&t);
	f = rt_find(&t, "syscall-blocked");
	assert_non_null(f);
	assert_true(f->unrecovered);
	assert_int_equal(f->severity, RC_SEV_ERROR);
	rt_release(&t);
}

/* ENOSYS, then the older call of the same job: a fallback, as meant. The
 * same for a look-up of the same file. Notes, not causes. */
static void fallbacks_are_notes(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	thread_clone3(&t, 100, 0, ENOSYS);
	struct rc_event e = rt_sys(&t, 100, "clone", 101, 0);
	e.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
	rt_feed(&t, &e);
	refused(&t, 102, "statx", "/srv/app/model.bin", ENOSYS);
	ok_call(&t, 102, "newfstatat", "/srv/app/model.bin", 0);
	refused(&t, 102, "faccessat2", "/srv/app/run.sh", ENOSYS);
	ok_call(&t, 102, "faccessat", "/srv/app/run.sh", 0);
	refused(&t, 102, "close_range", NULL, ENOSYS);
	ok_call(&t, 102, "close", NULL, 0);
	rt_exit(&t, 100, 1);
	rt_exit(&t, 102, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 4);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "syscall-blocked") != 0)
			continue;
		assert_int_equal(f->effective, RC_SEV_INFO);
		assert_false(f->unrecovered);
		assert_true(contains(f->advice, "nothing to change"));
	}
	const struct rc_finding *f = rt_match(&t, "syscall-blocked", "'clone3'");
	assert_true(contains(f->summary, "then 'clone' did the job"));
	assert_false(contains(f->summary, "could not be started"));
	f = rt_match(&t, "syscall-blocked", "'statx'");
	assert_true(contains(f->summary, "then 'newfstatat' did the job"));
	rt_release(&t);

	/* Not a fallback: another call, too late, or in another thread. */
	rt_init(&t);
	thread_clone3(&t, 100, 0, EPERM);
	for (int i = 0; i < 40; i++)
		ok_call(&t, 100, "read", NULL, 10);
	e = rt_sys(&t, 100, "clone", 101, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	refused(&t, 103, "statx", "/srv/a", EPERM);
	ok_call(&t, 104, "newfstatat", "/srv/b", 0);
	rt_exit(&t, 100, 1);
	rt_exit(&t, 103, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 2);
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "syscall-blocked") == 0)
			assert_int_equal(t.out.v[i]->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* The live facts (run, attach): a filter of the program's environment was
 * in place, or none was and the capability or the kernel is the reason. */
static void live_seccomp_facts(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	ok_call(&t, 100, "getpid", NULL, 100);
	procs_set_seccomp(&t.eng.procs, 100, 2, 1);
	thread_clone3(&t, 100, 0, EPERM);
	ok_call(&t, 200, "getpid", NULL, 200);
	procs_set_seccomp(&t.eng.procs, 200, 2, 0);
	refused(&t, 200, "mount", NULL, EPERM);
	ok_call(&t, 300, "getpid", NULL, 300);
	procs_set_seccomp(&t.eng.procs, 300, 0, 0);
	refused(&t, 300, "io_uring_setup", NULL, ENOSYS);
	refused(&t, 300, "keyctl", NULL, EPERM);
	for (int pid = 100; pid <= 300; pid += 100)
		rt_exit(&t, pid, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_match(&t, "syscall-blocked", "'clone3'");
	assert_non_null(f);
	assert_true(contains(f->summary, "'clone3' was refused (EPERM) by a seccomp filter"));
	assert_string_equal(f->message, "seccomp filter mode, with 1 filter that is not rootcause's");
	/* Only rootcause's own filter: the capability is the reason. */
	f = rt_match(&t, "syscall-blocked", "'mount'");
	assert_non_null(f);
	assert_string_equal(f->summary, "'mount' was refused (EPERM): the process lacks CAP_SYS_ADMIN");
	assert_true(contains(f->advice, "--cap-add SYS_ADMIN"));
	assert_string_equal(f->message, "seccomp filter mode, with 0 filters that are not rootcause's");
	f = rt_match(&t, "syscall-blocked", "io_uring_setup");
	assert_non_null(f);
	assert_string_equal(f->summary, "this kernel does not have 'io_uring_setup' (ENOSYS)");
	assert_true(contains(f->advice, "uname -r"));
	f = rt_match(&t, "syscall-blocked", "'keyctl'");
	assert_non_null(f);
	assert_true(contains(f->summary, "with no seccomp filter in place"));
	rt_release(&t);
}

/* Issue 27: the capabilities a thread had when it was refused, read
 * live, tell which reason it was: lacking the one the call needs, or
 * having it while a filter or a security module said no. */
static void refused_with_capability(struct rt *t, int pid, const char *name, bool has_admin)
{
	struct rc_live live = { .creds = { .uid = 0, .gid = 0, .ngroups = 0, .live = true },
				.seccomp_mode = -1, .seccomp_filters = -1, .has_caps = true,
				.caps = has_admin ? 1ULL << 21 : 0 };
	struct rc_event e = rt_sys(t, pid, name, -1, EPERM);

	e.live = &live;
	rt_feed(t, &e);
}

static void live_capabilities(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	ok_call(&t, 100, "getpid", NULL, 100);
	procs_set_seccomp(&t.eng.procs, 100, 0, 0);
	refused_with_capability(&t, 100, "mount", true);
	ok_call(&t, 200, "getpid", NULL, 200);
	procs_set_seccomp(&t.eng.procs, 200, 2, 1);
	refused_with_capability(&t, 200, "mount", true);
	ok_call(&t, 300, "getpid", NULL, 300);
	procs_set_seccomp(&t.eng.procs, 300, 2, 1);
	refused_with_capability(&t, 300, "mount", false);
	for (int pid = 100; pid <= 300; pid += 100)
		rt_exit(&t, pid, 1);
	rt_finish(&t);

	const struct rc_finding *f = NULL;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *x = t.out.v[i];
		if (strcmp(x->rule, "syscall-blocked") != 0)
			continue;
		if (x->pid == 100) {
			assert_true(contains(x->summary, "though the process had CAP_SYS_ADMIN and no seccomp filter"));
			assert_true(contains(x->advice, "apparmor"));
		} else if (x->pid == 200) {
			assert_true(contains(x->summary, "by a seccomp filter: the process had CAP_SYS_ADMIN"));
			assert_true(contains(x->advice, "seccomp profile"));
		} else if (x->pid == 300) {
			assert_true(contains(x->summary, "the process lacked CAP_SYS_ADMIN (a seccomp filter was in place"));
			assert_true(contains(x->advice, "--cap-add SYS_ADMIN"));
		}
		f = x;
	}
	assert_non_null(f);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 3);
	rt_release(&t);
}

/* EPERM that an object's owner or the credentials model gives is not a
 * policy's: a setuid to another user, a signal to another's process, an
 * unlink in a sticky directory, setsid of a group leader. EACCES is the
 * permission bits' (permission-denied). */
static void object_refusals_are_not_policy(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	refused(&t, 100, "setuid", NULL, EPERM);
	refused(&t, 100, "kill", NULL, EPERM);
	refused(&t, 100, "setsid", NULL, EPERM);
	refused(&t, 100, "unlinkat", "/tmp/other.lock", EPERM);
	refused(&t, 100, "chmod", "/etc/hosts", EPERM);
	refused(&t, 100, "newfstatat", "/root/x", EACCES);
	refused(&t, 100, "openat", "/etc/shadow", EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 0);
	rt_release(&t);

	/* A look-up refused with EPERM is a policy's, not the file's: it is
	 * not permission-denied's either. */
	rt_init(&t);
	refused(&t, 100, "statx", "/srv/app/model.bin", EPERM);
	rt_write(&t, 100, 2, "ls: cannot access '/srv/app/model.bin': Operation not permitted\n");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	assert_non_null(rt_find(&t, "syscall-blocked"));
	assert_null(rt_find(&t, "permission-denied"));
	assert_string_equal(t.out.v[0]->rule, "syscall-blocked");
	assert_string_equal(t.out.v[0]->path, "/srv/app/model.bin");
	rt_release(&t);
}

/* New namespaces need CAP_SYS_ADMIN (or user namespaces); chroot needs
 * CAP_SYS_CHROOT: named, with the sysctl that also decides. */
static void capabilities_named(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "clone", -1, EPERM);
	e.flags = CLONE_NEWUSER | CLONE_NEWNS | SIGCHLD;
	rt_feed(&t, &e);
	refused(&t, 101, "chroot", "/srv/jail", EPERM);
	refused(&t, 102, "perf_event_open", NULL, EPERM);
	rt_exit(&t, 100, 1);
	rt_exit(&t, 101, 1);
	rt_exit(&t, 102, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "syscall-blocked", "'clone'");
	assert_non_null(f);
	assert_true(contains(f->summary, "a process could not be started"));
	assert_true(contains(f->summary, "lacks CAP_SYS_ADMIN"));
	assert_true(contains(f->advice, "user.max_user_namespaces"));
	f = rt_match(&t, "syscall-blocked", "'chroot'");
	assert_non_null(f);
	assert_true(contains(f->summary, "CAP_SYS_CHROOT"));
	assert_null(rt_find(&t, "permission-denied"));
	f = rt_match(&t, "syscall-blocked", "perf_event_open");
	assert_true(contains(f->advice, "kernel.perf_event_paranoid"));
	rt_release(&t);
}

/* A call that names no file, refused with EACCES: no permission bits can
 * be the reason, a setting or a security module is (an ICMP echo socket
 * outside net.ipv4.ping_group_range, as nobody; a perf event above
 * kernel.perf_event_paranoid). Before, only the program's "Permission
 * denied" was reported, with advice pointing at a finding that was not
 * there. A socket's EACCES from a call with a path stays the path's. */
static void eacces_without_a_file(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "socket", -1, EACCES);
	rt_feed_line(&t, &e, "socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC, IPPROTO_ICMP) = -1 EACCES (Permission denied)");
	rt_write(&t, 100, 2, "PermissionError: [Errno 13] Permission denied\n");
	rt_exit(&t, 100, 1);
	refused(&t, 101, "perf_event_open", NULL, EACCES);
	rt_exit(&t, 101, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "syscall-blocked", "'socket'");
	assert_non_null(f);
	assert_int_equal(f->severity, RC_SEV_ERROR);
	assert_true(contains(f->summary, "EACCES"));
	assert_true(contains(f->summary, "net.ipv4.ping_group_range"));
	assert_true(contains(f->advice, "ping_group_range"));
	f = rt_match(&t, "syscall-blocked", "perf_event_open");
	assert_non_null(f);
	assert_true(contains(f->summary, "kernel.perf_event_paranoid"));
	rt_release(&t);

	/* EACCES where a file's bits answer: not this rule's. */
	rt_init(&t);
	refused(&t, 100, "connect", NULL, EACCES);
	refused(&t, 100, "openat", "/etc/shadow", EACCES);
	refused(&t, 100, "execve", "/srv/run.sh", EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 0);
	rt_release(&t);
}

/* A run that succeeded coped: a note. A thread that went on for many
 * calls coped too: a warning. */
static void coped_with(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	refused(&t, 100, "membarrier", NULL, EPERM);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "syscall-blocked");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);

	rt_init(&t);
	refused(&t, 100, "membarrier", NULL, EPERM);
	for (int i = 0; i < RULE_KEPT_GOING + 10; i++)
		ok_call(&t, 100, "read", NULL, 10);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "syscall-blocked");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	rt_release(&t);
}

/* The state is capped; what does not fit is counted. */
static void bounded(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int pid = 1000; pid < 1070; pid++)
		refused(&t, pid, "keyctl", NULL, EPERM);
	refused(&t, 1000, "keyctl", NULL, EPERM);
	rt_exit(&t, 1000, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 65);
	const struct rc_finding *f = rt_match(&t, "syscall-blocked", "6 more calls");
	assert_non_null(f);
	f = rt_match(&t, "syscall-blocked", "(2 times)");
	assert_non_null(f);
	rt_release(&t);
}

/* Issue 27: podman's runtime raises the container's open-files limit
 * from a process that conmon's double fork left behind (its first half
 * exited 0 at once: it did not deal with the failure), after running
 * itself again from a memfd. The refusal is the cause, named with the
 * limit asked for; the runtime's words (named by its argv[0], not by
 * /dev/fd/3), its exit and podman's 126 follow from it. */
static const char runtime_limit[] =
	"100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 101\n"
	"101 execve(\"/usr/bin/conmon\", [\"/usr/bin/conmon\", \"-r\", \"/usr/bin/crun\"], 0x7ffd /* 9 vars */) = 0\n"
	"101 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 102\n"
	"101 exit_group(0)                     = ?\n"
	"101 +++ exited with 0 +++\n"
	"102 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f) = 103\n"
	"103 execve(\"/usr/bin/crun\", [\"/usr/bin/crun\", \"create\", \"c0ffee\"], 0x7ffd /* 9 vars */) = 0\n"
	"103 execveat(3, \"/dev/fd/3\", [\"/usr/bin/crun\", \"create\", \"c0ffee\"], 0x55fb /* 9 vars */, AT_EMPTY_PATH) = 0\n"
	"103 prlimit64(0, RLIMIT_NOFILE, {rlim_cur=1024*1024, rlim_max=1024*1024}, NULL) = -1 EPERM (Operation not permitted)\n"
	"103 write(2, \"setrlimit `RLIMIT_NOFILE`: Operation not permitted\\n\", 51) = 51\n"
	"103 exit_group(1)                     = ?\n"
	"103 +++ exited with 1 +++\n"
	"102 write(2, \"[conmon:e]: Failed to create container: exit status 1\\n\", 54) = 54\n"
	"100 write(2, \"Error: crun: setrlimit `RLIMIT_N\"..., 85) = 85\n"
	"100 exit_group(126)                   = ?\n"
	"100 +++ exited with 126 +++\n"
	"102 exit_group(1)                     = ?\n"
	"102 +++ exited with 1 +++\n";

static void runtime_limit_refused(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, runtime_limit);
	const struct rc_finding *f = rt_find(&t, "syscall-blocked");
	assert_non_null(f);
	assert_ptr_equal(f, t.out.v[0]);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_int_equal(f->pid, 103);
	assert_true(contains(f->summary, "its RLIMIT_NOFILE limit to 1048576 (prlimit64 -> EPERM)"));
	assert_true(contains(f->summary, "CAP_SYS_RESOURCE"));
	assert_true(contains(f->advice, "--ulimit nofile="));
	size_t led = 0;
	bool named = false, podman = false;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *c = t.out.v[i];
		led += c->cause == f;
		named |= c->cause == f && strcmp(c->rule, "error-message") == 0 && contains(c->summary, "'crun' reported");
		podman |= c->cause == f && strcmp(c->rule, "nonzero-exit") == 0 && c->pid == 100;
	}
	assert_true(named);
	assert_true(podman);
	assert_true(led >= 4);
	rt_release(&t);
}

/* Limits that are no refusal of privilege: a fallback to the hard limit
 * in force after the raise was refused (podman's own), and another
 * process's limits, which only its owner may set (credentials). */
static const char limit_fallback[] =
	"200 setrlimit(RLIMIT_NOFILE, {rlim_cur=1024*1024, rlim_max=1024*1024}) = -1 EPERM (Operation not permitted)\n"
	"200 getrlimit(RLIMIT_NOFILE, {rlim_cur=20000, rlim_max=20000}) = 0\n"
	"200 setrlimit(RLIMIT_NOFILE, {rlim_cur=20000, rlim_max=20000}) = 0\n"
	"200 prlimit64(4242, RLIMIT_CORE, {rlim_cur=RLIM64_INFINITY, rlim_max=RLIM64_INFINITY}, NULL) = -1 EPERM (Operation not permitted)\n"
	"200 exit_group(1)                     = ?\n"
	"200 +++ exited with 1 +++\n";

static void limit_fallbacks_and_others(void **state)
{
	(void)state;
	struct rt t;
	analyze_text(&t, limit_fallback);
	assert_int_equal(rt_count(&t, "syscall-blocked"), 1);
	const struct rc_finding *f = rt_find(&t, "syscall-blocked");
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_string_equal(f->syscall, "setrlimit");
	assert_true(contains(f->summary, "later it worked"));
	rt_release(&t);
}

static const struct rt_expect real_logs[] = {
	{ "proc-clone3-eperm.log", "syscall-blocked", "a thread could not be started: 'clone3' was refused (EPERM)",
	  true },
	{ "proc-clone3-eperm.log", "permission-denied", NULL, false },
	{ "proc-clone3-enosys.log", "syscall-blocked", "then 'clone' did the job", true },
	{ "proc-rlimit-eperm.log", "syscall-blocked", "its RLIMIT_NOFILE limit to 2000000 (prlimit64 -> EPERM)", true },
};

static void real_logs_checked(void **state)
{
	(void)state;
	rt_check_logs(real_logs, ARRAY_SIZE(real_logs));

	struct rt t;
	const struct rc_finding *f = rt_expect_log(&t, "proc-clone3-eperm.log", "syscall-blocked", NULL, true);
	assert_ptr_equal(f, t.out.v[0]);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
	f = rt_expect_log(&t, "proc-clone3-enosys.log", "syscall-blocked", NULL, true);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
	/* prlimit's own words ("failed to set the NOFILE resource limit")
	 * follow from it. */
	f = rt_expect_log(&t, "proc-rlimit-eperm.log", "syscall-blocked", NULL, true);
	assert_ptr_equal(f, t.out.v[0]);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	const struct rc_finding *w = rt_find(&t, "error-message");
	assert_non_null(w);
	assert_ptr_equal(w->cause, f);
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clone3_eperm_is_the_cause),
		cmocka_unit_test(fallbacks_are_notes),
		cmocka_unit_test(live_seccomp_facts),
		cmocka_unit_test(live_capabilities),
		cmocka_unit_test(object_refusals_are_not_policy),
		cmocka_unit_test(capabilities_named),
		cmocka_unit_test(eacces_without_a_file),
		cmocka_unit_test(coped_with),
		cmocka_unit_test(bounded),
		cmocka_unit_test(runtime_limit_refused),
		cmocka_unit_test(limit_fallbacks_and_others),
		cmocka_unit_test(real_logs_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
