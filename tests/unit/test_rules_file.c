/* The file rules (stories 1 and 3, "it won't start"): missing-file,
 * permission-denied, exec-failed, missing-library, gpu-unavailable,
 * error-message and the probing-noise classifier behind them. Each is fed
 * the events a strace log of the situation gives, and the healthy
 * look-alikes (probing, fallbacks, optional files) that must stay quiet.
 * Real logs of the same situations are in tests/fixtures/rules/file-*.log
 * (each with the .cmd that made it), checked at the end. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event/facts.h"
#include "rule_test.h"
#include "rules/noise.h"
#include "rules/proc-view.h"
#include "util/strbuf.h"
#include "util/util.h"

/* A path call NAME(PATH, FLAGS) of PID returning RET or failing with ERR. */
static void path_call(struct rt *t, int pid, const char *name, const char *path, long long flags,
		      long long ret, int err)
{
	struct rc_event e = rt_sys(t, pid, name, ret, err);
	e.path = path;
	e.flags = flags;
	rt_feed(t, &e);
}

static void open_fail(struct rt *t, int pid, const char *path, long long flags, int err)
{
	path_call(t, pid, "openat", path, flags, -1, err);
}

static void open_ok(struct rt *t, int pid, const char *path, long long flags, int fd)
{
	path_call(t, pid, "openat", path, flags, fd, 0);
}

/* A successful execve of PATH with ARGV0 (sets the process's argv). */
static void exec_ok(struct rt *t, int pid, const char *path, const char *argv0)
{
	rt_exec(t, pid, path, argv0, NULL, 0, NULL);
}

/* A failed execve of PATH; argv[0] is its last component. */
static void exec_fail(struct rt *t, int pid, const char *path, int err)
{
	const char *slash = strrchr(path, '/');
	rt_exec(t, pid, path, slash ? slash + 1 : path, NULL, err, NULL);
}

/* Calls of PID that look nothing up, so that the look-ups around them are
 * not one search going down its list. */
static void other_work(struct rt *t, int pid)
{
	for (int i = 0; i < 6; i++) {
		struct rc_event e = rt_sys(t, pid, "clock_gettime", 0, 0);
		rt_feed(t, &e);
	}
}

/* Tells the process model PID's working directory the way -y does. */
static void learn_cwd(struct rt *t, int pid, const char *cwd)
{
	struct rc_event e = rt_sys(t, pid, "newfstatat", 0, 0);
	e.path = cwd;
	e.dir_shown = rt_decoration(t, cwd);
	rt_feed(t, &e);
}

/* A file of CONTENT (N bytes) and MODE in a fresh directory; *dir is set
 * for cleanup. */
static void make_file(char *dir, struct strbuf *path, const char *name, const void *content, size_t n, mode_t mode)
{
	assert_non_null(mkdtemp(dir));
	strbuf_reset(path);
	strbuf_addf(path, "%s/%s", dir, name);
	int fd = open(path->buf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, n), (ssize_t)n);
	close(fd);
	assert_int_equal(chmod(path->buf, mode), 0);
}

static void remove_file(char *dir, struct strbuf *path)
{
	unlink(path->buf);
	rmdir(dir);
	strbuf_release(path);
}

/* ---- the noise classifier ---- */

static void noise_real_paths(void **state)
{
	(void)state;
	/* Every one of these failed in a healthy run traced on Debian 12
	 * (python3 -c 'import torch', pyenv shims, bash -l, git, perl, curl,
	 * make). */
	static const char *const noise[] = {
		"/etc/ld.so.preload",
		"/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v4/libfoo.so.1",
		"/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3",
		"/usr/lib/x86_64-linux-gnu/tls/x86_64/x86_64/libcuda.so.1",
		"/usr/lib/x86_64-linux-gnu/tls/x86_64",
		"/lib/x86_64/libfoo.so.1",
		"/usr/lib/python3/dist-packages/torch/lib/tls/x86_64/libtorch_python.so.1.13",
		"/usr/lib/python3/dist-packages/torch/lib/x86_64",
		"/usr/lib/locale/locale-archive",
		"/usr/lib/locale/C.UTF-8/LC_CTYPE",
		"/usr/share/locale/C.UTF-8/LC_MESSAGES/bash.mo",
		"/var/run/nscd/socket",
		"/usr/pyvenv.cfg",
		"/usr/bin/pyvenv.cfg",
		"/usr/bin/python3._pth",
		"/usr/bin/python3.11._pth",
		"/usr/bin/pybuilddir.txt",
		"/usr/lib/python311.zip",
		"/usr/bin/lib/python311.zip",
		"/usr/bin/lib/python3.11/os.py",
		"/usr/bin/lib/python3.11/lib-dynload",
		"/usr/bin/Modules/Setup.local",
		"/usr/bin/Modules/Setup",
		"/root/.local/lib/python3.11/site-packages",
		"/usr/lib/python3/dist-packages/torch/__init__.abi3.so",
		"/usr/lib/python3/dist-packages/torch/_C/__init__.py",
		"/usr/lib/python3.11/encodings/__init__.cpython-311-x86_64-linux-gnu.so",
		"/opt/app/mypkg/__init__.so",
		"/opt/venv/lib/python3.11/site-packages/foo.cpython-311-x86_64-linux-gnu.so",
		"/opt/venv/lib/python3.11/site-packages/distutils-precedence.pth",
		"/opt/venv/lib/python3.11/site-packages/foo-1.0.dist-info",
		"/root/.pyenv/versions/3.11.7/lib/python311.zip",
		"/root/.pyenv/versions/3.11.7/pyvenv.cfg",
		"/root/.pyenv/libexec/pyenv-realpath.dylib",
		"/usr/local/etc/pyenv.d/version-name/",
		"/tmp/rf/.python-version",
		"/proc/sys/crypto/fips_enabled",
		"/sys/fs/selinux",
		"/sys/fs/cgroup/cpu.max",
		"/selinux",
		"/etc/selinux/config",
		"/etc/gcrypt/fips_enabled",
		"/etc/gcrypt/hwf.deny",
		"/etc/gnutls/config",
		"/etc/libnl/classid",
		"/etc/gai.conf",
		"/root/.bash_profile",
		"/root/.bash_login",
		"/etc/debian_chroot",
		"/root/.ldaprc",
		"/usr/lib/gcc/x86_64-linux-gnu/12/specs",
		"/usr/local/lib/site_perl/5.36.0/x86_64-linux-gnu-thread-multi",
		"/root/.config/pip/pip.conf",
		"/usr/share/terminfo/x/xterm",
		"/usr/share/zoneinfo/UTC",
		/* Python 2 (pyenv's 2.7.18) and make. */
		"/root/.pyenv/versions/2.7.18/lib/python2.7/lib-old",
		"/root/.pyenv/versions/2.7.18/lib/site-python",
		"/work/main/RCS",
		"/work/main/SCCS",
		/* node's global module folders. */
		"/root/.node_modules",
		"/home/u/.node_libraries",
		"/usr/lib/node",
		"/usr/local/lib/node",
		/* sqlite3, the JVM, OpenSSL. */
		"/root/.sqliterc",
		"/srv/app/.hotspotrc",
		"/srv/app/.hotspot_compiler",
		"/usr/lib/ssl/ct_log_list.cnf",
	};
	/* A program's own files, and what other rules own. */
	static const char *const real[] = {
		"/srv/cache_hub/model_v23.pth",
		"/tmp/rcfix/app/cache_hub/model_v23.pth",
		"/home/u/models/weights.pth",
		"/opt/venv/lib/python3.11/site-packages/mypkg/weights/model.pth",
		"/tmp/rf/nosuch_script.py",
		"/etc/myapp/config.ini",
		"/srv/app/config.yaml",
		"cache_hub/model.pth",
		"/usr/lib/x86_64-linux-gnu/libfoo.so.1",
		"/lib/libfoo.so.1",
		"/dev/nvidiactl",
		"/dev/nvidia0",
		"/usr/lib/libcuda.so.1",
		"/opt/app/bin/x86_64",
		"/data/tls/cert.pem",
		"/var/log/app/out.log",
		"/srv/app/site-python",
		"/srv/app/RCS.txt",
		"/srv/app/node_modules/express",
		"/srv/app/lib/node/index.js",
		"",
	};
	for (size_t i = 0; i < ARRAY_SIZE(noise); i++)
		if (!noise_path(noise[i]))
			fail_msg("'%s' should be probing noise", noise[i]);
	for (size_t i = 0; i < ARRAY_SIZE(real); i++)
		if (noise_path(real[i]))
			fail_msg("'%s' should not be probing noise", real[i]);
	assert_false(noise_path(NULL));
}

/* ---- missing-file ---- */

static void mf_story1_model_missing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/python3", "python3");
	learn_cwd(&t, 100, "/srv/app");
	/* The start-up noise a torch run makes, then the weights. */
	path_call(&t, 100, "access", "/etc/ld.so.preload", 0, -1, ENOENT);
	open_fail(&t, 100, "/usr/lib/locale/locale-archive", O_RDONLY | O_CLOEXEC, ENOENT);
	path_call(&t, 100, "newfstatat", "/usr/lib/python3/dist-packages/torch/__init__.abi3.so", 0, -1, ENOENT);
	open_fail(&t, 100, "/etc/libnl/classid", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/srv/app/cache_hub/model_v23.pth", O_RDONLY | O_CLOEXEC, ENOENT);
	rt_write(&t, 100, 2, "model load failed: [Errno 2] No such file or directory: "
		 "'/srv/app/cache_hub/model_v23.pth'\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "missing-file"), 1);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(f->path, "/srv/app/cache_hub/model_v23.pth");
	assert_string_equal(f->syscall, "openat");
	assert_int_equal(f->err, ENOENT);
	assert_int_equal(f->pid, 100);
	assert_int_equal(f->count, 1);
	assert_true(f->unrecovered);
	assert_true(f->echoed);
	assert_string_equal(f->echo_words[0], "model_v23.pth");
	assert_true(contains(f->summary, "'/srv/app/cache_hub/model_v23.pth' does not exist"));
	assert_true(contains(f->advice, "cwd '/srv/app'"));
	assert_int_equal(f->nevidence, 1);
	/* The cause comes first. */
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	rt_release(&t);
}

static void mf_probing_is_quiet(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/opt/a/conf/app.ini", O_RDONLY, ENOENT);
	open_fail(&t, 100, "/opt/b/conf/app.ini", O_RDONLY, ENOENT);
	open_ok(&t, 100, "/etc/app/app.ini", O_RDONLY, 3);
	/* A cache miss the program then filled. */
	open_fail(&t, 100, "/srv/cache/model.bin", O_RDONLY, ENOENT);
	open_ok(&t, 100, "/srv/cache/model.bin", O_WRONLY | O_CREAT | O_TRUNC, 4);
	/* An upward config search, and bash's "command -v". */
	path_call(&t, 100, "newfstatat", "/home/u/proj/sub/pyproject.toml", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/home/u/proj/pyproject.toml", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/home/u/pyproject.toml", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/home/pyproject.toml", 0, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);
}

/* Python 2's import of module NAME tried in directory DIR and not found
 * there, as python2.7 makes it (pyenv 2.7.18, strace -f). */
static void py2_import_miss(struct rt *t, int pid, const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", dir, name);
	path_call(t, pid, "newfstatat", path, 0, -1, ENOENT);
	static const char *const ext[] = { ".so", "module.so", ".py", ".pyc" };
	for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
		snprintf(path, sizeof(path), "%s%s%s", dir, name, ext[i]);
		open_fail(t, pid, path, O_RDONLY, ENOENT);
	}
}

static void mf_python2_import_probing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* import time: the script's directory, the cwd (""), then the stdlib,
	 * found as an extension in lib-dynload. */
	py2_import_miss(&t, 100, "/srv/app/", "time");
	py2_import_miss(&t, 100, "", "time");
	py2_import_miss(&t, 100, "/opt/py/lib/python2.7/", "time");
	open_ok(&t, 100, "/opt/py/lib/python2.7/lib-dynload/time.so", O_RDONLY, 3);
	/* import json: a package, found after two directories. */
	py2_import_miss(&t, 100, "/srv/app/", "json");
	py2_import_miss(&t, 100, "", "json");
	path_call(&t, 100, "newfstatat", "/opt/py/lib/python2.7/json", 0, 0, 0);
	/* Then the program's own file, missing; and a script not found at
	 * all, which no import probing precedes. */
	open_fail(&t, 100, "/srv/app/config.yaml", O_RDONLY, ENOENT);
	open_fail(&t, 101, "missing.py", O_RDONLY, ENOENT);
	/* A stat of a bare name and an open of something else: not Python's. */
	path_call(&t, 102, "newfstatat", "/srv/data/shard7", 0, -1, ENOENT);
	open_fail(&t, 102, "/srv/data/shard7.idx", O_RDONLY, ENOENT);
	rt_exit(&t, 100, 1);
	rt_exit(&t, 101, 2);
	rt_exit(&t, 102, 1);
	rt_finish(&t);
	const char *want[] = { "/srv/app/config.yaml", "missing.py", "/srv/data/shard7", "/srv/data/shard7.idx" };
	assert_int_equal(rt_count(&t, "missing-file"), ARRAY_SIZE(want));
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") != 0)
			continue;
		bool known = false;
		for (size_t j = 0; j < ARRAY_SIZE(want); j++)
			known |= strcmp(f->path, want[j]) == 0;
		if (!known)
			fail_msg("unexpected missing-file '%s'", f->path);
	}
	rt_release(&t);
}

static void mf_output_names_whole_words(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* Looked up only: warnings, unless the program's own words name them.
	 * A traceback's "most recent call last" names neither "re" nor "os". */
	path_call(&t, 100, "newfstatat", "/srv/app/re", 0, -1, ENOENT);
	other_work(&t, 100);
	path_call(&t, 100, "newfstatat", "/srv/app/os", 0, -1, ENOENT);
	other_work(&t, 100);
	path_call(&t, 100, "newfstatat", "/srv/app/model.bin", 0, -1, ENOENT);
	other_work(&t, 100);
	path_call(&t, 100, "newfstatat", "/srv/app/conf", 0, -1, ENOENT);
	rt_write(&t, 100, 2, "Traceback (most recent call last):\n");
	rt_write(&t, 100, 2, "IOError: cannot load model.bin.\n");
	rt_write(&t, 100, 2, "see /etc/app.conf\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") != 0)
			continue;
		if (strcmp(f->path, "/srv/app/model.bin") == 0)
			assert_int_equal(f->effective, RC_SEV_ERROR);
		else
			assert_int_equal(f->effective, RC_SEV_WARNING);
	}
	assert_int_equal(rt_count(&t, "missing-file"), 4);
	rt_release(&t);
}

static void mf_echo_is_a_whole_name(void **state)
{
	struct rt t;
	(void)state;
	/* dpkg -l looks for /var/lib/dpkg/arch, does without, and prints a
	 * table headed "Architecture": a healthy run, not an echo. */
	rt_init(&t);
	open_fail(&t, 100, "/var/lib/dpkg/arch", O_RDONLY, ENOENT);
	rt_write(&t, 100, 1, "||/ Name           Version      Architecture Description\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_false(f->echoed);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
	/* Named as a file, it is the program's complaint. */
	rt_init(&t);
	open_fail(&t, 100, "/var/lib/dpkg/arch", O_RDONLY, ENOENT);
	rt_write(&t, 100, 2, "dpkg: error: cannot read '/var/lib/dpkg/arch': No such file\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* A failure an ancestor survived was handled, even through a subshell
 * that passed the status on: ldd runs each loader in $(...), bash -c
 * 'x=$(cat f 2>&1)' keeps cat's complaint. */
static void mf_handled_by_a_grandparent(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/bin/bash", "bash");
	struct rc_event e = rt_sys(&t, 100, "clone", 101, 0);
	rt_feed(&t, &e);
	e = rt_sys(&t, 101, "clone", 102, 0);
	rt_feed(&t, &e);
	exec_ok(&t, 102, "/usr/bin/cat", "cat");
	open_fail(&t, 102, "/srv/nonexist", O_RDONLY, ENOENT);
	rt_write(&t, 102, 2, "cat: /srv/nonexist: No such file or directory\n");
	rt_exit(&t, 102, 1);
	rt_exit(&t, 101, 1);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(f->echoed);
	assert_false(f->failed);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
	/* The same with the outer shell failing too: an error. */
	rt_init(&t);
	exec_ok(&t, 100, "/bin/bash", "bash");
	e = rt_sys(&t, 100, "clone", 101, 0);
	rt_feed(&t, &e);
	e = rt_sys(&t, 101, "clone", 102, 0);
	rt_feed(&t, &e);
	exec_ok(&t, 102, "/usr/bin/cat", "cat");
	open_fail(&t, 102, "/srv/nonexist", O_RDONLY, ENOENT);
	rt_exit(&t, 102, 1);
	rt_exit(&t, 101, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(f->failed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* A process that exited 0 and only mentions what it looked for ("Home:
 * /root/.gnupg", gpg --version) did without it. */
static void mf_healthy_mention_is_no_error(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/gpg", "gpg");
	path_call(&t, 100, "newfstatat", "/root/.gnupg", 0, -1, ENOENT);
	rt_write(&t, 100, 1, "Home: /root/.gnupg\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(f->echoed);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

static void mf_healthy_run_is_a_note(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/srv/app/optional.yaml", O_RDONLY, ENOENT);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

static void mf_handled_failures_are_warnings(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* An optional config the program read, did without, and then worked
	 * on for a long while before failing for another reason. */
	open_fail(&t, 100, "/etc/tool/settings.toml", O_RDONLY | O_CLOEXEC, ENOENT);
	for (int i = 0; i < 1500; i++) {
		struct rc_event e = rt_sys(&t, 100, "read", 10, 0);
		e.fd = 3;
		rt_feed(&t, &e);
	}
	/* A search up the tree, with opens. */
	open_fail(&t, 100, "/home/u/proj/src/rust-toolchain.toml", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/home/u/proj/rust-toolchain.toml", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/home/u/rust-toolchain.toml", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/srv/app/model.bin", O_RDONLY, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 2);
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") != 0)
			continue;
		if (contains(f->path, "settings.toml"))
			assert_int_equal(f->effective, RC_SEV_WARNING);
		else
			assert_string_equal(f->path, "/srv/app/model.bin");
	}
	/* The one it gave up on comes first. */
	assert_string_equal(rt_find(&t, "missing-file")->path, "/srv/app/model.bin");
	rt_release(&t);
}

static void mf_other_rules_paths_left_alone(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/usr/lib/x86_64-linux-gnu/libfoo.so.1", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/dev/nvidiactl", O_RDWR, ENOENT);
	path_call(&t, 100, "unlink", "/tmp/app.pid", 0, -1, ENOENT);
	path_call(&t, 100, "statfs", "/sys/fs/selinux", 0, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);
}

static void mf_create_in_missing_directory(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/var/log/myapp/out.log", O_WRONLY | O_CREAT | O_TRUNC, ENOENT);
	path_call(&t, 101, "mkdir", "/data/jobs/42", 0, -1, ENOENT);
	path_call(&t, 100, "chdir", "/srv/missing", 0, -1, ENOENT);
	rt_exit(&t, 101, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 3);
	bool create = false, mkdir_ = false, chdir_ = false;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") != 0)
			continue;
		if (contains(f->summary, "cannot create '/var/log/myapp/out.log': directory '/var/log/myapp' does not exist")) {
			create = true;
			assert_true(contains(f->advice, "mkdir -p '/var/log/myapp'"));
		}
		if (contains(f->summary, "parent '/data/jobs' does not exist"))
			mkdir_ = true;
		if (contains(f->summary, "directory '/srv/missing' does not exist"))
			chdir_ = true;
		assert_int_equal(f->effective, RC_SEV_ERROR);
	}
	assert_true(create && mkdir_ && chdir_);
	rt_release(&t);
}

/* symlink and mknod make a name as link does (the table's CL_NEW_NAME):
 * ENOENT is a missing parent, missing-file's. */
static void mf_symlink_parent_missing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "symlink", "/srv/app/current/model.pth", 0, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/app/current/model.pth");
	rt_release(&t);
}

/* mknod makes a name as mkdir does (a FIFO, a device node): refused, it
 * is a create, as the table's CL_NEW_NAME says. */
static void pd_mknod_creates(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "mknod", "/srv/app/run/ctl.fifo", 0, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/app/run/ctl.fifo");
	assert_true(contains(f->summary, "create"));
	rt_release(&t);
}

/* A live capture's view of the thread whose open was refused (an attach
 * to a process the trace never saw change ids) is the model's before
 * the rule sees the call: the advice names whose permissions applied. */
static void pd_live_creds_before_the_call(void **state)
{
	struct rt t;
	char path[] = "/tmp/rc-pd-live-XXXXXX";
	int fd = mkstemp(path);
	struct rc_live live = { .creds = { .uid = 65534, .gid = 65534, .ngroups = 0, .live = true },
				.seccomp_mode = 0, .seccomp_filters = 0 };
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(path, 0600), 0);
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "openat", -1, EACCES);
	e.path = path;
	e.flags = O_RDONLY;
	e.live = &live;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	if (!contains(f->advice, "uid 65534"))
		fail_msg("advice: %s", f->advice);
	rt_release(&t);
	unlink(path);
}

/* initdb stats its data directory, finds none and makes it: the look-up
 * was the check before creating, whether the mkdir then worked or was
 * refused (permission-denied's, the one cause). A mkdir that fails for a
 * missing parent is this rule's own. A path the program only looked up,
 * or created elsewhere, stays a finding. */
static void mf_checked_before_creating(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv/pgdata", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/srv/pgdata", 0, -1, ENOENT);
	path_call(&t, 100, "mkdir", "/srv/pgdata", 0700, -1, EACCES);
	rt_write(&t, 100, 2, "initdb: error: could not create directory \"/srv/pgdata\": Permission denied\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	assert_non_null(rt_find(&t, "permission-denied"));
	rt_release(&t);

	/* The same for a file: read, not there, created (refused). */
	rt_init(&t);
	open_fail(&t, 100, "/srv/app/state.json", O_RDONLY, ENOENT);
	open_fail(&t, 100, "/srv/app/state.json", O_WRONLY | O_CREAT | O_TRUNC, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);

	/* git init tries to enter its repository, then makes it. */
	rt_init(&t);
	path_call(&t, 100, "chdir", "/srv/git/repo", 0, -1, ENOENT);
	path_call(&t, 100, "mkdir", "/srv/git/repo", 0777, -1, EACCES);
	rt_write(&t, 100, 2, "fatal: cannot mkdir /srv/git/repo: Permission denied\n");
	rt_exit(&t, 100, 128);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);

	/* The parent missing: the mkdir's own ENOENT is the finding. */
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv/pg/15/main", 0, -1, ENOENT);
	path_call(&t, 100, "mkdir", "/srv/pg/15/main", 0700, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(contains(f->summary, "parent '/srv/pg/15' does not exist"));
	rt_release(&t);

	/* Another path created: the one looked up is still missing. */
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/etc/app/app.conf", 0, -1, ENOENT);
	rt_write(&t, 100, 2, "app: cannot stat '/etc/app/app.conf'\n");
	path_call(&t, 100, "mkdir", "/etc/app/app.conf.d", 0755, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_string_equal(f->path, "/etc/app/app.conf");
	rt_release(&t);
}

/* haproxy's `crt site.pem`: site.pem, then its forms site.pem.dsa,
 * .ecdsa and .rsa, none there, then "[ALERT] ... unable to stat SSL
 * certificate ..." cut by strace's -s 32. One file in four forms is one
 * look-up, and the thread's last failure before words cut short is what
 * they report: an error, first. A search across places stays the
 * program's to name, and a failure with another after it is not what the
 * words follow. */
static void mf_forms_and_cut_words(void **state)
{
	struct rt t;
	(void)state;
	static const char *const forms[] = { "/etc/haproxy/certs/site.pem", "/etc/haproxy/certs/site.pem.dsa",
					     "/etc/haproxy/certs/site.pem.ecdsa", "/etc/haproxy/certs/site.pem.rsa" };

	rt_init(&t);
	for (size_t i = 0; i < 4; i++)
		path_call(&t, 100, "newfstatat", forms[i], 0, -1, ENOENT);
	/* Its complaint's translation looked up first: probing, not a failure. */
	open_fail(&t, 100, "/usr/share/locale/C.UTF-8/LC_MESSAGES/libc.mo", O_RDONLY, ENOENT);
	rt_write_cut(&t, 100, 2, "[ALERT]    (100) : config : pars", 180);
	rt_write_cut(&t, 100, 2, "[ALERT]    (100) : config : Fata", 60);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_string_equal(t.out.v[0]->rule, "missing-file");
	assert_string_equal(t.out.v[0]->path, forms[0]);
	assert_int_equal(t.out.v[0]->effective, RC_SEV_ERROR);
	assert_true(contains(t.out.v[0]->message, "3 other forms ('site.pem.*')"));
	assert_true(contains(t.out.v[0]->advice, "cut short"));
	assert_int_equal(rt_count(&t, "missing-file"), 1);
	assert_ptr_equal(rt_find(&t, "error-message")->cause, t.out.v[0]);
	rt_release(&t);

	/* One name in several places (the name service's userdb search). */
	rt_init(&t);
	open_fail(&t, 100, "/etc/userdb/nginx.user", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/run/userdb/nginx.user", O_RDONLY | O_CLOEXEC, ENOENT);
	open_fail(&t, 100, "/usr/lib/userdb/nginx.user", O_RDONLY | O_CLOEXEC, ENOENT);
	rt_write_cut(&t, 100, 2, "2026/12/01 09:58:13 [emerg] 4153", 112);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_true(!f || f->effective == RC_SEV_INFO);
	rt_release(&t);

	/* Another call failed after it, before the words. */
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/etc/app/optional.conf", 0, -1, ENOENT);
	open_fail(&t, 100, "/srv/app/data.db", O_RDWR, EACCES);
	rt_write_cut(&t, 100, 2, "app: fatal: cannot open database", 80);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(t.out.v[0]->rule, "permission-denied");
	rt_release(&t);
}

/* chroot and pivot_root need a directory as chdir does: their failures are
 * missing-file's too, with advice for a directory (a root, a working
 * directory) rather than for a file. */
static void mf_enter_directories(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "chroot", "/srv/jail", 0, -1, ENOENT);
	struct rc_event e = rt_sys(&t, 101, "pivot_root", -1, ENOENT);
	e.path = "/nonexistent-rc-test/new";
	e.path2 = "/nonexistent-rc-test/new/old";
	rt_feed(&t, &e);
	path_call(&t, 102, "chdir", "/srv/work", 0, -1, ENOENT);
	path_call(&t, 103, "chdir", "/etc/passwd", 0, -1, ENOTDIR);
	for (int pid = 100; pid <= 103; pid++)
		rt_exit(&t, pid, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 4);
	const struct rc_finding *f = rt_match(&t, "missing-file", "jail");
	assert_non_null(f);
	assert_string_equal(f->summary, "cannot chroot to '/srv/jail': the directory does not exist");
	assert_string_equal(f->syscall, "chroot");
	assert_true(contains(f->advice, "the new root must exist"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	f = rt_match(&t, "missing-file", "pivot_root");
	assert_non_null(f);
	assert_true(contains(f->summary, "cannot pivot_root to '/nonexistent-rc-test/new'"));
	assert_true(contains(f->summary, "'/nonexistent-rc-test/new/old'"));
	assert_true(contains(f->advice, "create '/nonexistent-rc-test/new/old' (mkdir -p)"));
	f = rt_match(&t, "missing-file", "/srv/work");
	assert_non_null(f);
	assert_string_equal(f->summary, "directory '/srv/work' does not exist");
	assert_true(contains(f->advice, "mkdir -p '/srv/work'"));
	assert_true(contains(f->advice, "WorkingDirectory="));
	f = rt_match(&t, "missing-file", "passwd");
	assert_non_null(f);
	assert_string_equal(f->summary, "cannot chdir to '/etc/passwd': it is a regular file, not a directory");
	rt_release(&t);
}

/* A move into a directory that fails, followed by a move of the same
 * process into another one, was a probe (bash's cd over candidates, a
 * program trying its configured directory, then a default). */
static void mf_enter_probing(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "chdir", "/srv/a", 0, -1, ENOENT);
	path_call(&t, 100, "chdir", "/srv/b", 0, -1, ENOENT);
	path_call(&t, 100, "chdir", "/tmp", 0, 0, 0);
	path_call(&t, 100, "chroot", "/srv/jail1", 0, -1, ENOENT);
	struct rc_event e = rt_sys(&t, 100, "fchdir", 0, 0);
	e.fd = 3;
	rt_feed(&t, &e);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);

	/* Another process moving elsewhere does not make this one's failure a
	 * probe. */
	rt_init(&t);
	path_call(&t, 100, "chdir", "/srv/d", 0, -1, ENOENT);
	path_call(&t, 101, "chdir", "/tmp", 0, 0, 0);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_non_null(rt_match(&t, "missing-file", "'/srv/d'"));
	rt_release(&t);
}

/* bash's `cd /srv/app/data` stats /srv/app first: that failed look-up is
 * the same missing directory, and the chdir carries it. */
static void mf_lookup_on_the_way_folded(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv", 0, 0, 0);
	path_call(&t, 100, "newfstatat", "/srv/app", 0, -1, ENOENT);
	path_call(&t, 100, "chdir", "/srv/app/data", 0, -1, ENOENT);
	path_call(&t, 100, "chdir", "/srv/app/data", 0, -1, ENOENT);
	rt_write(&t, 100, 2, "start.sh: line 2: cd: /srv/app/d...\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 1);
	const struct rc_finding *f = t.out.v[0];
	assert_string_equal(f->rule, "missing-file");
	assert_string_equal(f->summary, "directory '/srv/app/data' does not exist");
	/* The cut message names the directory above: the chdir's echo. */
	assert_true(f->echoed);
	rt_release(&t);
}

static void mf_duplicates_grouped(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	for (int i = 0; i < 5; i++)
		open_fail(&t, 100, "/srv/app/config.yaml", O_RDONLY, ENOENT);
	path_call(&t, 100, "newfstatat", "/srv/app/config.yaml", 0, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 1);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_int_equal(f->count, 6);
	/* The open is the decisive call, not the later stat. */
	assert_string_equal(f->syscall, "openat");
	rt_release(&t);
}

static void mf_lookups_are_weaker(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv/app/plugins.d", 0, -1, ENOENT);
	other_work(&t, 100);
	path_call(&t, 100, "access", "/srv/app/feature.flag", 0, -1, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 2);
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "missing-file") == 0) {
			assert_int_equal(t.out.v[i]->effective, RC_SEV_WARNING);
			assert_true(contains(t.out.v[i]->summary, "looked up with"));
		}
	rt_release(&t);

	/* The same look-up named by the program afterwards is the cause. */
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv/app/settings.toml", 0, -1, ENOENT);
	rt_write(&t, 100, 2, "error: settings.toml not found\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);

	/* Carried on long after (os.path.isfile on an optional file, then
	 * the service's start-up): an open is a warning, a look-up a note. */
	for (int open = 0; open < 2; open++) {
		rt_init(&t);
		if (open)
			open_fail(&t, 100, "/etc/app/optional.conf", O_RDONLY, ENOENT);
		else
			path_call(&t, 100, "newfstatat", "/etc/app/optional.conf", 0, -1, ENOENT);
		for (int i = 0; i < RULE_KEPT_GOING / 6 + 1; i++)
			other_work(&t, 100);
		rt_exit(&t, 100, 1);
		rt_finish(&t);
		f = rt_find(&t, "missing-file");
		assert_non_null(f);
		assert_int_equal(f->effective, open ? RC_SEV_WARNING : RC_SEV_INFO);
		rt_release(&t);
	}
}

/* A look-up across a list of sources, none of them required, is probing:
 * the candidates a search goes through one after another. */
static void mf_search_across_sources(void **state)
{
	struct rt t;
	(void)state;

	/* c-ares reads nsswitch.conf, then tries netsvc.conf and svc.conf
	 * for its look-up order; the program then fails for its own reason. */
	rt_init(&t);
	open_ok(&t, 100, "/etc/resolv.conf", O_RDONLY, 18);
	open_ok(&t, 100, "/etc/nsswitch.conf", O_RDONLY, 18);
	open_fail(&t, 100, "/etc/netsvc.conf", O_RDONLY, ENOENT);
	open_fail(&t, 100, "/etc/svc.conf", O_RDONLY, ENOENT);
	other_work(&t, 100);
	rt_write(&t, 100, 2, "giving up\n");
	rt_exit(&t, 100, 3);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 2);
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "missing-file") == 0)
			assert_int_equal(t.out.v[i]->effective, RC_SEV_INFO);
	rt_release(&t);

	/* Flask's --app discovery: 'hello' as a file, the directory as a
	 * package, then hello.py found. The program's "While importing
	 * 'hello'" is about the module it found, not the candidate that
	 * failed. */
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/srv/app/hello", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/srv/app/__init__.py", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/srv/app", 0, 0, 0);
	path_call(&t, 100, "newfstatat", "/srv/app/hello.py", 0, 0, 0);
	other_work(&t, 100);
	rt_write(&t, 100, 2, "Error: While importing 'hello', an ImportError was raised:\n");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "missing-file", "/srv/app/hello'");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_true(contains(f->advice, "found another one"));
	rt_release(&t);

	/* One name in several places, found in none, the program naming
	 * something else: a search whose failure it reports its own way. */
	rt_init(&t);
	static const char *const dirs[] = { "/etc/userdb", "/run/userdb", "/run/host/userdb", "/usr/lib/userdb" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct strbuf p = STRBUF_INIT;
		strbuf_addf(&p, "%s/nginx.user", dirs[i]);
		open_fail(&t, 100, p.buf, O_RDONLY | O_CLOEXEC, ENOENT);
		strbuf_release(&p);
	}
	rt_write(&t, 100, 2, "nginx: [emerg] getpwnam(\"nginx\") failed\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_true(contains(f->summary, "places searched"));
	assert_false(contains(f->advice, "put 'nginx.user'"));
	rt_release(&t);

	/* The same search that the program names is the cause. */
	rt_init(&t);
	open_fail(&t, 100, "/etc/app/app.conf", O_RDONLY, ENOENT);
	open_fail(&t, 100, "/root/.config-app/app.conf", O_RDONLY, ENOENT);
	rt_write(&t, 100, 2, "error: no app.conf found\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(contains(f->advice, "put 'app.conf'"));
	rt_release(&t);

	/* A path walk (systemd's chase): O_PATH opens one component at a
	 * time; the step that fails is a look-up, part of the walk. */
	rt_init(&t);
	path_call(&t, 100, "openat", "/", O_PATH | O_DIRECTORY, 4, 0);
	path_call(&t, 100, "openat", "/run", O_PATH | O_NOFOLLOW, 5, 0);
	path_call(&t, 100, "openat", "/run/host", O_PATH | O_NOFOLLOW, -1, ENOENT);
	other_work(&t, 100);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);

	/* Not a search: a config found, then the model needed, missing, in
	 * the same directory, and the program gives up without naming it. */
	rt_init(&t);
	open_ok(&t, 100, "/srv/app/config.json", O_RDONLY, 3);
	open_fail(&t, 100, "/srv/app/model.bin", O_RDONLY, ENOENT);
	other_work(&t, 100);
	rt_write(&t, 100, 2, "failed to start\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_string_equal(f->path, "/srv/app/model.bin");
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* What a program did without before it ran another in its place (setpriv
 * dropping root, then the server) did not stop it. */
static void mf_before_exec(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/setpriv", "setpriv");
	open_fail(&t, 100, "/etc/setpriv.conf", O_RDONLY, ENOENT);
	other_work(&t, 100);
	exec_ok(&t, 100, "/usr/sbin/server", "server");
	other_work(&t, 100);
	open_fail(&t, 100, "/etc/server/server.conf", O_RDONLY, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_match(&t, "missing-file", "setpriv.conf");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	assert_true(contains(f->advice, "execve"));
	f = rt_match(&t, "missing-file", "server.conf");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);

	/* runuser's parent: its own optional file before it starts the
	 * command, whose failure it then passes on as its exit status. */
	rt_init(&t);
	exec_ok(&t, 100, "/usr/sbin/runuser", "runuser");
	open_fail(&t, 100, "/etc/runuser.conf", O_RDONLY, ENOENT);
	other_work(&t, 100);
	struct rc_event e = rt_sys(&t, 100, "clone", 101, 0);
	e.flags = SIGCHLD;
	rt_feed(&t, &e);
	open_fail(&t, 101, "/srv/app/app.conf", O_RDONLY, ENOENT);
	rt_exit(&t, 101, 1);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_match(&t, "missing-file", "runuser.conf");
	assert_non_null(f);
	assert_int_not_equal(f->effective, RC_SEV_ERROR);
	f = rt_match(&t, "missing-file", "app.conf");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* DB (/etc/passwd, /etc/group) opened and read to its end by PID, as
 * glibc's files source does for a name it does not find. */
static void scan_to_end(struct rt *t, int pid, const char *db)
{
	open_ok(t, pid, db, O_RDONLY | O_CLOEXEC, 4);
	rt_io(t, pid, "read", 4, 4096, 1325, 0, RT_NO_DUR, NULL);
	rt_io(t, pid, "read", 4, 4096, 0, 0, RT_NO_DUR, "read(4</etc/x>, \"\", 4096) = 0");
	rt_close_fd(t, pid, 4, RT_NO_DUR, NULL);
}

static void unknown_user_words(void **state)
{
	struct rt t;
	(void)state;

	/* chgrp's complaint after the group database was read through. */
	rt_init(&t);
	scan_to_end(&t, 100, "/etc/group");
	rt_write(&t, 100, 2, "chgrp: invalid group: 'webdev'\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "unknown-user");
	assert_non_null(f);
	assert_true(contains(f->summary, "group 'webdev' does not exist: not in /etc/group"));
	assert_true(contains(f->advice, "addgroup --system webdev"));
	assert_string_equal(f->path, "/etc/group");
	assert_true(f->echoed);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	/* It ranks before the program's own words. */
	assert_string_equal(t.out.v[0]->rule, "unknown-user");
	rt_release(&t);

	/* The database read through (an enumeration), then a complaint about
	 * a file: no user is named. */
	rt_init(&t);
	scan_to_end(&t, 100, "/etc/passwd");
	rt_write(&t, 100, 2, "error: cannot open 'config.json'\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_null(rt_find(&t, "unknown-user"));
	rt_release(&t);

	/* A complaint about a user, but the database was not read to its end
	 * (the user was found): no finding. */
	rt_init(&t);
	open_ok(&t, 100, "/etc/passwd", O_RDONLY | O_CLOEXEC, 4);
	rt_io(&t, 100, "read", 4, 4096, 1325, 0, RT_NO_DUR, NULL);
	rt_close_fd(&t, 100, 4, RT_NO_DUR, NULL);
	rt_write(&t, 100, 2, "error: user 'www-data' may not write '/srv/www'\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_null(rt_find(&t, "unknown-user"));
	rt_release(&t);
}

static void mf_command_not_found(void **state)
{
	static const char *const dirs[] = { "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin" };
	struct rt t;
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/bash", "bash");
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/nosuchcmd", dirs[i]);
		path_call(&t, 100, "newfstatat", sb.buf, 0, -1, ENOENT);
	}
	rt_write(&t, 100, 2, "bash: line 1: nosuchcmd: command not found\n");
	rt_exit(&t, 100, 127);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_true(contains(f->summary, "command 'nosuchcmd' not found in PATH (6 directories searched)"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);

	/* The same walk without a complaint is "command -v": a note. */
	rt_init(&t);
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/greadlink", dirs[i]);
		path_call(&t, 100, "newfstatat", sb.buf, 0, -1, ENOENT);
	}
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-file");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
	strbuf_release(&sb);
}

static void mf_capped_most_causal_first(void **state)
{
	struct rt t;
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	rt_init(&t);
	for (int i = 0; i < 30; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "/srv/data/part-%02d.bin", i);
		if (i < 25)
			path_call(&t, 100, "newfstatat", sb.buf, 0, -1, ENOENT);
		else
			open_fail(&t, 100, sb.buf, O_RDONLY, ENOENT);
	}
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-file"), 10);
	/* The five opens outrank the twenty-five stats. */
	size_t seen = 0;
	const struct rc_finding *last = NULL;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "missing-file") != 0)
			continue;
		if (seen < 5)
			assert_string_equal(f->syscall, "openat");
		seen++;
		if (f->message)
			last = f;
	}
	assert_non_null(last);
	assert_true(contains(last->message, "20 more missing files"));
	rt_release(&t);
	strbuf_release(&sb);
}

static void mf_bounded(void **state)
{
	struct rt t;
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* More names than the rule keeps: it stays bounded and still reports
	 * the failure that came last. */
	rt_init(&t);
	for (int i = 0; i < 20000; i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "/srv/probe/n%05d.dat", i);
		path_call(&t, 100, "newfstatat", sb.buf, 0, -1, ENOENT);
	}
	open_fail(&t, 100, "/srv/app/model_final.pth", O_RDONLY, ENOENT);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_true(rt_count(&t, "missing-file") <= 10);
	bool found = false;
	for (size_t i = 0; i < t.out.count; i++)
		if (contains(t.out.v[i]->summary, "model_final.pth"))
			found = true;
	assert_true(found);
	rt_release(&t);
	strbuf_release(&sb);
}

/* ---- permission-denied ---- */

static void pd_story1_cache_owned_by_other(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/python3", "python3");
	learn_cwd(&t, 100, "/srv/app");
	/* Relative, resolved against the cwd by the engine. */
	struct rc_event e = rt_sys(&t, 100, "openat", -1, EACCES);
	e.path = "cache_hub/model.pth";
	e.flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
	rt_feed(&t, &e);
	rt_write(&t, 100, 2, "model save failed: [Errno 13] Permission denied: 'cache_hub/model.pth'\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);

	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(f->path, "/srv/app/cache_hub/model.pth");
	assert_int_equal(f->err, EACCES);
	assert_string_equal(f->syscall, "openat");
	assert_true(contains(f->summary, "cannot create 'model.pth' in '/srv/app/cache_hub': permission denied"));
	assert_true(contains(f->advice, "chown"));
	assert_true(f->echoed);
	rt_release(&t);
}

static void pd_reports_owner_and_mode(void **state)
{
	char dir[] = "/tmp/rc-test-pd-XXXXXX";
	struct strbuf file = STRBUF_INIT;
	struct rt t;
	(void)state;

	make_file(dir, &file, "secret.bin", "", 0, 0600);
	/* The way there open to all: the file's own mode refuses. */
	assert_int_equal(chmod(dir, 0755), 0);

	rt_init(&t);
	open_fail(&t, 100, file.buf, O_RDONLY, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	assert_true(contains(f->summary, "cannot read"));
	assert_true(contains(f->advice, "mode 0600"));
	assert_true(contains(f->advice, "owned by uid"));
	rt_release(&t);

	remove_file(dir, &file);
}

/* A file whose own mode allows the read, in a directory of mode 0700 that
 * belongs to another user: the directory blocks, and is named with its
 * owner and mode; the file's mode is not the advice. Whose permissions
 * apply comes from the trace (setresuid, as setpriv and runuser make it)
 * or, unknown, is taken to be nobody's in particular. */
static void pd_directory_on_the_way(void **state)
{
	char dir[] = "/tmp/rc-test-pd-XXXXXX";
	struct strbuf file = STRBUF_INIT, sub = STRBUF_INIT;
	struct rt t;
	(void)state;

	make_file(dir, &file, "app.json", "{}", 2, 0644);
	assert_int_equal(chmod(dir, 0700), 0);
	struct stat st;
	assert_int_equal(stat(dir, &st), 0);
	uid_t other = st.st_uid == 65534 ? 65533 : 65534;

	/* Known: the process became another user before the open. */
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "setresuid", 0, 0);
	e.ids[0] = e.ids[1] = e.ids[2] = other;
	e.nids = 3;
	rt_feed(&t, &e);
	open_fail(&t, 100, file.buf, O_RDONLY | O_CLOEXEC, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	strbuf_addf(&sub, "cannot read '%s': permission denied: directory '%s' on the way (mode 0700", file.buf, dir);
	assert_true(contains(f->summary, sub.buf));
	strbuf_reset(&sub);
	strbuf_addf(&sub, "denies search (x) to uid %u", (unsigned)other);
	assert_true(contains(f->summary, sub.buf));
	strbuf_reset(&sub);
	strbuf_addf(&sub, "chmod o+x '%s'", dir);
	assert_true(contains(f->advice, sub.buf));
	assert_true(contains(f->advice, "mode 0700"));
	assert_false(contains(f->advice, "read access"));
	rt_release(&t);

	/* Unknown credentials: taken as neither owner nor group. */
	rt_init(&t);
	open_fail(&t, 100, file.buf, O_RDONLY, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	strbuf_reset(&sub);
	strbuf_addf(&sub, "directory '%s' on the way", dir);
	assert_true(contains(f->summary, sub.buf));
	assert_true(contains(f->advice, "the user the program runs as no search (x) permission"));
	rt_release(&t);

	/* The directory's owner is not blocked by it: then the file is looked
	 * at, and its mode allows the read, so something else refused. */
	rt_init(&t);
	e = rt_sys(&t, 100, "geteuid", st.st_uid, 0);
	rt_feed(&t, &e);
	open_fail(&t, 100, file.buf, O_RDONLY, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	assert_false(contains(f->summary, "on the way"));
	if (st.st_uid == 0)
		assert_true(contains(f->advice, "runs as root"));
	else
		assert_true(contains(f->advice, "ACL"));
	rt_release(&t);

	/* Root refused by a directory of another user's: root without its DAC
	 * capabilities (a container that drops them). */
	if (geteuid() == 0 && chown(dir, 65533, 65533) == 0) {
		rt_init(&t);
		e = rt_sys(&t, 100, "geteuid", 0, 0);
		rt_feed(&t, &e);
		open_fail(&t, 100, file.buf, O_RDONLY, EACCES);
		rt_exit(&t, 100, 1);
		rt_finish(&t);
		f = rt_find(&t, "permission-denied");
		assert_non_null(f);
		assert_true(contains(f->summary, "denies search (x) to uid 0"));
		assert_true(contains(f->advice, "CAP_DAC_OVERRIDE"));
		rt_release(&t);
	}

	strbuf_release(&sub);
	remove_file(dir, &file);
}

/* A cluster's pg_wal that links to a root-owned directory on a volume of
 * its own: the mkdir in it is refused there, and that directory is named
 * where it really is, since `chown -R` of the link would change only the
 * link. */
static void pd_directory_through_a_link(void **state)
{
	char top[] = "/tmp/rc-test-pdl-XXXXXX";
	struct strbuf data = STRBUF_INIT, vol = STRBUF_INIT, wal = STRBUF_INIT, link = STRBUF_INIT,
		      sub = STRBUF_INIT, target = STRBUF_INIT;
	struct rt t;
	(void)state;

	assert_non_null(mkdtemp(top));
	assert_int_equal(chmod(top, 0755), 0);
	strbuf_addf(&data, "%s/data", top);
	strbuf_addf(&vol, "%s/vol", top);
	strbuf_addf(&wal, "%s/vol/pg_wal", top);
	strbuf_addf(&link, "%s/data/pg_wal", top);
	strbuf_addf(&target, "%s/data/pg_wal/archive_status", top);
	assert_int_equal(mkdir(data.buf, 0755), 0);
	assert_int_equal(mkdir(vol.buf, 0755), 0);
	assert_int_equal(mkdir(wal.buf, 0700), 0);
	assert_int_equal(symlink(wal.buf, link.buf), 0);
	struct stat st;
	assert_int_equal(stat(wal.buf, &st), 0);
	uid_t other = st.st_uid == 65534 ? 65533 : 65534;

	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "setresuid", 0, 0);
	e.ids[0] = e.ids[1] = e.ids[2] = other;
	e.nids = 3;
	rt_feed(&t, &e);
	path_call(&t, 100, "mkdir", target.buf, 0700, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	strbuf_addf(&sub, "may not write in it (is '%s', mode 0700", wal.buf);
	assert_true(contains(f->summary, sub.buf));
	strbuf_reset(&sub);
	strbuf_addf(&sub, "chown -R <user> '%s'", wal.buf);
	assert_true(contains(f->advice, sub.buf));
	strbuf_reset(&sub);
	strbuf_addf(&sub, "chown -R <user> '%s'", link.buf);
	assert_false(contains(f->advice, sub.buf));
	rt_release(&t);

	unlink(link.buf);
	rmdir(wal.buf);
	rmdir(vol.buf);
	rmdir(data.buf);
	rmdir(top);
	strbuf_release(&data);
	strbuf_release(&vol);
	strbuf_release(&wal);
	strbuf_release(&link);
	strbuf_release(&sub);
	strbuf_release(&target);
}

/* Whose ids a process has is unknown (a log of file calls only): a
 * directory is then taken to refuse what it gives neither owner nor
 * group. But a directory the process was seen getting through (a stat
 * beneath it worked, with the same ids) let it search: the block is
 * further down, where the process was stopped. */
static void pd_reached_directory_is_not_the_block(void **state)
{
	char top[] = "/tmp/rc-test-pdr-XXXXXX";
	struct strbuf data = STRBUF_INIT, wal = STRBUF_INIT, conf = STRBUF_INIT, target = STRBUF_INIT,
		      sub = STRBUF_INIT;
	struct rt t;
	(void)state;

	assert_non_null(mkdtemp(top));
	assert_int_equal(chmod(top, 0755), 0);
	strbuf_addf(&data, "%s/data", top);
	strbuf_addf(&wal, "%s/data/pg_wal", top);
	strbuf_addf(&conf, "%s/data/postgresql.conf", top);
	strbuf_addf(&target, "%s/data/pg_wal/archive_status", top);
	assert_int_equal(mkdir(data.buf, 0700), 0);
	assert_int_equal(mkdir(wal.buf, 0700), 0);

	/* Nothing seen beneath data: data is the guess. */
	rt_init(&t);
	path_call(&t, 100, "mkdir", target.buf, 0700, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	strbuf_addf(&sub, "directory '%s' on the way", data.buf);
	assert_true(contains(f->summary, sub.buf));
	rt_release(&t);

	/* The process opened its config in data: data let it through, and
	 * pg_wal is what refused the write. */
	rt_init(&t);
	open_ok(&t, 100, conf.buf, O_RDONLY, 3);
	path_call(&t, 100, "mkdir", target.buf, 0700, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	assert_false(contains(f->summary, "on the way"));
	assert_true(contains(f->summary, "may not write in it (mode 0700"));
	strbuf_reset(&sub);
	strbuf_addf(&sub, "chown -R <user> '%s'", wal.buf);
	assert_true(contains(f->advice, sub.buf));
	rt_release(&t);

	/* Seen with other ids (before a setuid): no proof for the new ones. */
	rt_init(&t);
	struct rc_event e = rt_sys(&t, 100, "geteuid", 0, 0);
	rt_feed(&t, &e);
	open_ok(&t, 100, conf.buf, O_RDONLY, 3);
	e = rt_sys(&t, 100, "setresuid", 0, 0);
	e.ids[0] = e.ids[1] = e.ids[2] = 65534;
	e.nids = 3;
	rt_feed(&t, &e);
	path_call(&t, 100, "mkdir", target.buf, 0700, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "permission-denied");
	assert_non_null(f);
	strbuf_reset(&sub);
	strbuf_addf(&sub, "directory '%s' on the way", data.buf);
	assert_true(contains(f->summary, sub.buf));
	rt_release(&t);

	rmdir(wal.buf);
	rmdir(data.buf);
	rmdir(top);
	strbuf_release(&data);
	strbuf_release(&wal);
	strbuf_release(&conf);
	strbuf_release(&target);
	strbuf_release(&sub);
}

/* A shell run as another user with root's PATH looks tar up in /root's
 * directories first (EACCES: /root is 0700), then finds /usr/bin/tar: a
 * search going down its list, not a refusal that mattered. A name found
 * by another process, or another name found, proves nothing. */
static void pd_refused_then_found_elsewhere(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/root/.local/bin/tar", 0, -1, EACCES);
	path_call(&t, 100, "newfstatat", "/root/.cargo/bin/tar", 0, -1, EACCES);
	path_call(&t, 100, "newfstatat", "/usr/local/bin/tar", 0, -1, ENOENT);
	path_call(&t, 100, "newfstatat", "/usr/bin/tar", 0, 0, 0);
	rt_exit(&t, 100, 3);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "permission-denied"), 0);
	rt_release(&t);

	rt_init(&t);
	path_call(&t, 100, "newfstatat", "/root/.local/bin/tar", 0, -1, EACCES);
	path_call(&t, 101, "newfstatat", "/usr/bin/tar", 0, 0, 0);
	path_call(&t, 100, "newfstatat", "/usr/bin/gzip", 0, 0, 0);
	rt_exit(&t, 100, 3);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "permission-denied"), 1);
	rt_release(&t);
}

static void pd_quiet_cases(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* Falling back from read-write to read-only is fine. */
	open_fail(&t, 100, "/srv/app/data.db", O_RDWR, EACCES);
	open_ok(&t, 100, "/srv/app/data.db", O_RDONLY, 3);
	/* Not path calls, or another rule's. */
	struct rc_event e = rt_sys(&t, 100, "prctl", -1, EPERM);
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "setrlimit", -1, EPERM);
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "ioctl", -1, EPERM);
	e.fd = 0;
	rt_feed(&t, &e);
	exec_fail(&t, 100, "/srv/app/start.sh", EACCES);
	path_call(&t, 100, "access", "/srv/app/run.sh", 0, -1, EACCES);
	open_fail(&t, 100, "/dev/nvidia0", O_RDWR, EACCES);
	/* Probing paths. */
	path_call(&t, 100, "newfstatat", "/root/.local/lib/python3.11/site-packages", 0, -1, EACCES);
	open_fail(&t, 100, "/usr/lib/python3/dist-packages/foo/__pycache__/bar.cpython-311.pyc.12345",
		  O_WRONLY | O_CREAT | O_EXCL, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "permission-denied"), 0);
	rt_release(&t);
}

static void pd_stat_does_not_recover_a_write(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/srv/out/result.json", O_WRONLY | O_TRUNC, EACCES);
	path_call(&t, 100, "newfstatat", "/srv/out/result.json", 0, 0, 0);
	path_call(&t, 100, "chmod", "/srv/out/shared.sock", 0, -1, EPERM);
	open_fail(&t, 100, "/mnt/ro/cache.bin", O_WRONLY | O_CREAT, EROFS);
	path_call(&t, 100, "newfstatat", "/home/alice/private/data.csv", 0, -1, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "permission-denied"), 4);
	bool write = false, chmod_ = false, rofs = false, search = false;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (contains(f->summary, "cannot write '/srv/out/result.json'"))
			write = true;
		if (contains(f->summary, "change the mode of '/srv/out/shared.sock': operation not permitted"))
			chmod_ = true;
		if (contains(f->summary, "read-only file system"))
			rofs = contains(f->advice, "read-only");
		if (contains(f->summary, "cannot reach '/home/alice/private/data.csv': a directory on the way"))
			search = contains(f->advice, "chmod +x");
	}
	assert_true(write && chmod_ && rofs && search);
	rt_release(&t);
}

/* ---- exec-failed ---- */

/* Makes a file as make_file() does and runs it, which fails with ERR, the
 * process exiting CODE: T is finished, the exec-failed finding returned. */
static const struct rc_finding *exec_new_file(struct rt *t, char *dir, struct strbuf *path, const char *name,
					       const void *content, size_t n, mode_t mode, int err, int code)
{
	make_file(dir, path, name, content, n, mode);
	rt_init(t);
	exec_fail(t, 100, path->buf, err);
	rt_exit(t, 100, code);
	rt_finish(t);
	return rt_find(t, "exec-failed");
}

static void ef_lost_exec_bit(void **state)
{
	char dir[] = "/tmp/rc-test-ef-XXXXXX";
	struct strbuf path = STRBUF_INIT;
	struct rt t;
	(void)state;

	make_file(dir, &path, "start_app.sh", "#!/bin/sh\necho hi\n", 18, 0644);
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/bash", "bash");
	exec_fail(&t, 100, path.buf, EACCES);
	rt_write(&t, 100, 2, "bash: line 1: ./start_app.sh: Permission denied\n");
	rt_exit(&t, 100, 126);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "exec-failed");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_int_equal(f->err, EACCES);
	assert_string_equal(f->syscall, "execve");
	assert_true(contains(f->summary, "is not executable (mode 0644)"));
	assert_true(contains(f->advice, "chmod +x"));
	assert_int_equal(rt_count(&t, "permission-denied"), 0);
	rt_release(&t);
	remove_file(dir, &path);
}

static void ef_crlf_interpreter(void **state)
{
	char dir[] = "/tmp/rc-test-ef-XXXXXX";
	struct strbuf path = STRBUF_INIT;
	struct rt t;
	(void)state;

	const struct rc_finding *f = exec_new_file(&t, dir, &path, "crlf.sh", "#!/bin/bash\r\necho hi\r\n", 22,
						   0755, ENOENT, 127);
	assert_non_null(f);
	assert_true(contains(f->summary, "interpreter '/bin/bash\\r' does not exist (CRLF line endings)"));
	assert_true(contains(f->advice, "dos2unix"));
	rt_release(&t);
	remove_file(dir, &path);
}

static void ef_missing_interpreter(void **state)
{
	char dir[] = "/tmp/rc-test-ef-XXXXXX";
	struct strbuf path = STRBUF_INIT;
	struct rt t;
	(void)state;

	const struct rc_finding *f = exec_new_file(&t, dir, &path, "tool", "#!/nonexistent/python9 -u\nprint(1)\n",
						   35, 0755, ENOENT, 127);
	assert_non_null(f);
	assert_true(contains(f->summary, "#! interpreter '/nonexistent/python9' does not exist"));
	assert_false(contains(f->summary, "CRLF"));
	rt_release(&t);
	remove_file(dir, &path);
}

static void ef_not_a_binary(void **state)
{
	char dir[] = "/tmp/rc-test-ef-XXXXXX";
	struct strbuf path = STRBUF_INIT;
	struct rt t;
	(void)state;

	const struct rc_finding *f = exec_new_file(&t, dir, &path, "data.txt", "hello world\n", 12, 0755, ENOEXEC, 126);
	assert_non_null(f);
	assert_true(contains(f->summary, "not a binary and no #! line"));
	rt_release(&t);
	remove_file(dir, &path);
}

static void ef_path_search(void **state)
{
	struct rt t;
	(void)state;

	/* execvp: nothing anywhere. */
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/env", "env");
	exec_fail(&t, 100, "/nonexistent-a/bin/nosuchcmd", ENOENT);
	exec_fail(&t, 100, "/nonexistent-b/bin/nosuchcmd", ENOENT);
	exec_fail(&t, 100, "/nonexistent-c/bin/nosuchcmd", ENOENT);
	rt_exit(&t, 100, 127);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "exec-failed"), 1);
	const struct rc_finding *f = rt_find(&t, "exec-failed");
	assert_true(contains(f->summary, "command 'nosuchcmd' not found in PATH (3 directories tried)"));
	assert_int_equal(f->count, 3);
	assert_int_equal(f->nevidence, 3);
	assert_true(contains(f->evidence[0], "execve"));
	rt_release(&t);

	/* Many programs missing: the latest ten, the rest counted. */
	rt_init(&t);
	for (int i = 0; i < 12; i++) {
		char name[64];
		snprintf(name, sizeof(name), "/nonexistent/bin/tool%02d", i);
		exec_fail(&t, 100 + i, name, ENOENT);
		rt_exit(&t, 100 + i, 127);
	}
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "exec-failed"), 10);
	bool counted = false;
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "exec-failed") == 0 && contains(t.out.v[i]->message, "2 more failed execs"))
			counted = true;
	assert_true(counted);
	rt_release(&t);

	/* ... and found in the third directory: probing. */
	rt_init(&t);
	exec_fail(&t, 100, "/root/.cargo/bin/bash", ENOENT);
	exec_fail(&t, 100, "/usr/local/bin/bash", ENOENT);
	exec_ok(&t, 100, "/usr/bin/bash", "bash");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "exec-failed"), 0);
	rt_release(&t);
}

static void ef_program_missing_or_seen(void **state)
{
	struct rt t;
	(void)state;

	rt_init(&t);
	exec_fail(&t, 100, "/nonexistent/bin/server", ENOENT);
	rt_exit(&t, 100, 127);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "exec-failed");
	assert_non_null(f);
	assert_true(contains(f->summary, "cannot run '/nonexistent/bin/server': it does not exist"));
	rt_release(&t);

	/* Not on this disk, but the trace shows it there (a log analysed on
	 * another machine): the interpreter is what is missing. */
	rt_init(&t);
	exec_fail(&t, 100, "/nonexistent/ex/run.sh", ENOENT);
	path_call(&t, 100, "newfstatat", "/nonexistent/ex/run.sh", 0, 0, 0);
	rt_exit(&t, 100, 127);
	rt_finish(&t);
	f = rt_find(&t, "exec-failed");
	assert_non_null(f);
	assert_true(contains(f->summary, "exists but cannot run"));
	rt_release(&t);

	/* So does any look-up of it that worked: bash's `test -x` asks
	 * faccessat2, and openat2 and readlink look it up too (the table's
	 * CL_PATH_EXISTS). */
	static const char *const witnesses[] = { "faccessat2", "openat2", "readlink" };
	for (size_t i = 0; i < sizeof(witnesses) / sizeof(witnesses[0]); i++) {
		rt_init(&t);
		exec_fail(&t, 100, "/nonexistent/ex/run.sh", ENOENT);
		path_call(&t, 100, witnesses[i], "/nonexistent/ex/run.sh", 0, 0, 0);
		rt_exit(&t, 100, 127);
		rt_finish(&t);
		f = rt_find(&t, "exec-failed");
		assert_non_null(f);
		if (!contains(f->summary, "exists but cannot run"))
			fail_msg("%s does not show the path exists", witnesses[i]);
		rt_release(&t);
	}
}

/* ---- missing-library ---- */

static const char *const search_dirs[] = {
	"/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3",
	"/lib/x86_64-linux-gnu/tls/x86_64",
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3",
	"/usr/lib/x86_64-linux-gnu",
	"/lib",
	"/usr/lib",
};

static void loader_search(struct rt *t, int pid, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(search_dirs); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", search_dirs[i], name);
		open_fail(t, pid, sb.buf, O_RDONLY | O_CLOEXEC, ENOENT);
	}
	strbuf_release(&sb);
}

static void ml_not_found_anywhere(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/srv/app/app", "./app");
	path_call(&t, 100, "access", "/etc/ld.so.preload", 0, -1, ENOENT);
	loader_search(&t, 100, "libfoo.so.1");
	rt_write(&t, 100, 2, "./app: error while loading shared libraries: libfoo.so.1: cannot open shared "
		 "object file: No such file or directory\n");
	rt_exit(&t, 100, 127);
	rt_finish(&t);

	assert_int_equal(rt_count(&t, "missing-library"), 1);
	const struct rc_finding *f = rt_find(&t, "missing-library");
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(contains(f->summary, "'libfoo.so.1' not found in any of 4 directories searched"));
	assert_string_equal(f->path, "libfoo.so.1");
	assert_int_equal(f->count, 7);
	assert_true(contains(f->message, "error while loading shared libraries"));
	assert_true(contains(f->advice, "LD_LIBRARY_PATH"));
	assert_true(contains(f->advice, "'/usr/lib/x86_64-linux-gnu'"));
	/* Evidence names the search directories, not their hwcaps subdirectories. */
	for (int i = 0; i < f->nevidence; i++)
		assert_false(contains(f->evidence[i], "glibc-hwcaps"));
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);
}

static void ml_probing_and_versions_are_quiet(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* RPATH miss, then found in the default directory. */
	open_fail(&t, 100, "/usr/lib/python3/dist-packages/torch/lib/libtorch_python.so.1.13", O_RDONLY | O_CLOEXEC, ENOENT);
	open_ok(&t, 100, "/lib/x86_64-linux-gnu/libtorch_python.so.1.13", O_RDONLY | O_CLOEXEC, 3);
	/* The unversioned name nowhere, the versioned one found. */
	loader_search(&t, 100, "libbar.so");
	open_ok(&t, 100, "/usr/lib/x86_64-linux-gnu/libbar.so.2", O_RDONLY | O_CLOEXEC, 4);
	/* An RPATH miss the trace does not show the end of (strace -Z, grep):
	 * the loader found it in ld.so.cache. */
	open_fail(&t, 100, "/opt/app/lib/libbaz.so.3", O_RDONLY | O_CLOEXEC, ENOENT);
	/* The GPU's libraries are gpu-unavailable's. */
	loader_search(&t, 100, "libcuda.so.1");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "missing-library"), 0);
	rt_release(&t);
}

static void ml_optional_dlopen_is_a_warning(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* A plugin the program tried, did without, and then worked on. */
	loader_search(&t, 100, "libplugin_extra.so");
	for (int i = 0; i < 1500; i++) {
		struct rc_event e = rt_sys(&t, 100, "read", 10, 0);
		e.fd = 3;
		rt_feed(&t, &e);
	}
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-library");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	rt_release(&t);
}

static void ml_per_process(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_ok(&t, 100, "/opt/app/lib/libfoo.so.1", O_RDONLY | O_CLOEXEC, 3);
	struct rc_event e = rt_sys(&t, 100, "clone", 200, 0);
	rt_feed(&t, &e);
	exec_ok(&t, 200, "/usr/bin/helper", "helper");
	loader_search(&t, 200, "libfoo.so.1");
	rt_exit(&t, 200, 127);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "missing-library");
	assert_non_null(f);
	assert_int_equal(f->pid, 200);
	/* The parent coped (it exited 0): the helper's failure was handled,
	 * a note as nonzero-exit's for its status 127. */
	assert_int_equal(f->effective, RC_SEV_INFO);
	rt_release(&t);
	/* A parent that failed with it leaves it an error. */
	rt_init(&t);
	open_ok(&t, 100, "/opt/app/lib/libfoo.so.1", O_RDONLY | O_CLOEXEC, 3);
	e = rt_sys(&t, 100, "clone", 200, 0);
	rt_feed(&t, &e);
	exec_ok(&t, 200, "/usr/bin/helper", "helper");
	loader_search(&t, 200, "libfoo.so.1");
	rt_exit(&t, 200, 127);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "missing-library");
	assert_non_null(f);
	assert_int_equal(f->pid, 200);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
}

/* ---- gpu-unavailable ---- */

/* glibc 2.33+ answers access(2) with faccessat2: a device looked for so
 * is looked for as with access (the table's CL_LOOK). */
static void gpu_faccessat2_lookup(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	path_call(&t, 100, "faccessat2", "/dev/nvidiactl", 0, -1, ENOENT);
	rt_write(&t, 100, 2, "RuntimeError: No CUDA GPUs are available\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "gpu-unavailable");
	assert_non_null(f);
	assert_string_equal(f->path, "/dev/nvidiactl");
	rt_release(&t);
}

static void gpu_machine_without_gpu(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_fail(&t, 100, "/dev/nvidiactl", O_RDWR, ENOENT);
	open_fail(&t, 100, "/dev/nvidia0", O_RDWR, ENOENT);
	loader_search(&t, 100, "libcuda.so.1");
	loader_search(&t, 100, "libnvidia-ml.so.1");
	rt_write(&t, 100, 2, "RuntimeError: No CUDA GPUs are available\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "gpu-unavailable"), 1);
	const struct rc_finding *f = rt_find(&t, "gpu-unavailable");
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(f->path, "/dev/nvidiactl");
	assert_int_equal(f->err, ENOENT);
	assert_true(contains(f->summary, "no NVIDIA GPU: '/dev/nvidiactl' does not exist"));
	assert_int_equal(f->nevidence, 4);
	assert_true(contains(f->advice, "--gpus"));
	assert_true(f->echoed);
	assert_int_equal(rt_count(&t, "missing-library"), 0);
	assert_int_equal(rt_count(&t, "missing-file"), 0);
	rt_release(&t);

	/* A program that falls back to the CPU and succeeds: a warning. */
	rt_init(&t);
	loader_search(&t, 100, "libcuda.so.1");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	f = rt_find(&t, "gpu-unavailable");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_true(contains(f->summary, "NVIDIA driver library 'libcuda.so.1' not found"));
	rt_release(&t);
}

static void gpu_permission(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	open_ok(&t, 100, "/dev/nvidiactl", O_RDWR, 3);
	open_fail(&t, 100, "/dev/nvidia0", O_RDWR, EACCES);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "gpu-unavailable");
	assert_non_null(f);
	assert_true(contains(f->summary, "'/dev/nvidia0' may not be opened (permission denied)"));
	assert_true(contains(f->advice, "group"));
	rt_release(&t);
}

static void gpu_quiet_without_gpu_use(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	/* A CPU-only run touches none of it; a found library is fine. */
	open_fail(&t, 100, "/usr/lib/x86_64-linux-gnu/tls/libcudart.so.12", O_RDONLY | O_CLOEXEC, ENOENT);
	open_ok(&t, 100, "/usr/lib/x86_64-linux-gnu/libcudart.so.12", O_RDONLY | O_CLOEXEC, 3);
	rt_write(&t, 100, 1, "tensor([2., 2.])\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "gpu-unavailable"), 0);
	rt_release(&t);
}

/* ---- error-message ---- */

static void em_python_traceback(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/python3", "/usr/bin/python3");
	/* Python writes a traceback in pieces. */
	rt_write(&t, 100, 2, "Traceback (most recent call last):\n");
	rt_write(&t, 100, 2, "  File \"/srv/app/main.py\", line 3, in <module>\n");
	rt_write(&t, 100, 2, "    import nosuchmod\n");
	rt_write(&t, 100, 2, "ModuleNotFoundError");
	rt_write(&t, 100, 2, ": ");
	rt_write(&t, 100, 2, "No module named 'nosuchmod'");
	rt_write(&t, 100, 2, "\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 1);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_true(f->is_output);
	assert_string_equal(f->summary, "python cannot import module 'nosuchmod'");
	assert_string_equal(f->message, "ModuleNotFoundError: No module named 'nosuchmod'");
	assert_int_equal(f->nevidence, 4);
	assert_string_equal(f->evidence[0], "Traceback (most recent call last):");
	assert_string_equal(f->evidence[3], "ModuleNotFoundError: No module named 'nosuchmod'");
	assert_true(contains(f->advice, "pip install"));
	assert_string_equal(t.out.v[0]->rule, "error-message");
	rt_release(&t);
}

/* A logger's record: a traceback in one write, the line that matters at
 * its end (gunicorn's "Exception in worker process", logging.exception). */
static void traceback_record(struct strbuf *sb, int frames)
{
	strbuf_adds(sb, "[2026-01-01 09:00:00 +0000] [7] [ERROR] Exception in worker process\n"
		    "Traceback (most recent call last):\n");
	for (int i = 0; i < frames; i++)
		strbuf_addf(sb, "  File \"/usr/lib/python3/dist-packages/gunicorn/app/layers/wsgi_loader_layer%d.py\", "
			    "line %d, in load_wsgi_application\n    return self.load_next_layer(environ, name)\n",
			    i, 100 + i);
	strbuf_adds(sb, "ModuleNotFoundError: No module named 'voice_codec'\n");
}

/* Longer than the preview: its head and its tail are kept, and the tail
 * has the exception line (run kept 1,024 bytes of a write, and lost it). */
static void em_traceback_in_one_long_write(void **state)
{
	struct rt t;
	struct strbuf rec = STRBUF_INIT;
	unsigned char kept[RC_EVENT_DATA_MAX];
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/python3", "/usr/bin/python3");
	traceback_record(&rec, 30);
	assert_true(rec.len > RC_EVENT_DATA_MAX);
	struct rc_event e = rt_sys(&t, 100, "write", (long long)rec.len, 0);
	e.fd = 2;
	e.len = rec.len;
	event_keep_ends(&e, kept, sizeof(kept), (const unsigned char *)rec.buf, rec.len);
	rt_feed(&t, &e);
	rt_exit(&t, 100, 3);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->summary, "python cannot import module 'voice_codec'");
	assert_string_equal(f->message, "ModuleNotFoundError: No module named 'voice_codec'");
	assert_true(has_evidence(f, "Traceback (most recent call last):"));
	rt_release(&t);
	strbuf_release(&rec);
}

/* strace's -s cut the write before the line that decides: the finding
 * says so, and how to see it, rather than quote a frame as the cause. */
static void em_decisive_line_cut_by_s(void **state)
{
	struct rt t;
	struct strbuf rec = STRBUF_INIT;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/gunicorn", "/usr/bin/gunicorn");
	traceback_record(&rec, 12);
	rec.buf[256] = '\0';
	rt_write_cut(&t, 100, 2, rec.buf, 2149);
	rt_exit(&t, 100, 3);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_ERROR);
	assert_string_equal(f->summary, "'gunicorn' printed a Python traceback whose last line is not in the trace: "
			    "strace -s 256 cut this write; record with a larger -s");
	assert_true(contains(f->advice, "record again with a larger -s"));
	assert_false(contains(f->summary, "import module"));
	rt_release(&t);
	strbuf_release(&rec);

	/* Not a traceback: the line picked is itself cut. */
	rt_init(&t);
	exec_ok(&t, 100, "/srv/loader", "/srv/loader");
	rt_write_cut(&t, 100, 2, "error: cannot load '/srv/models/en", 300);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->summary, "reported: error: cannot load '/srv/models/en..."));
	assert_true(contains(f->summary, "(strace -s 34 cut this write; record with a larger -s)"));
	rt_release(&t);

	/* A whole line, and a later write cut that is not its end: no note. */
	rt_init(&t);
	exec_ok(&t, 100, "/srv/loader", "/srv/loader");
	rt_write(&t, 100, 2, "error: cannot load model\n");
	rt_write_cut(&t, 100, 1, "progress: 10%", 300);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_false(contains(f->summary, "strace -s"));
	rt_release(&t);
}

static void em_last_words(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/srv/app/server", "server");
	rt_write(&t, 100, 1, "loading model\n");
	rt_write(&t, 100, 2, "\x1b[33mwarning: cache is cold\x1b[0m\n");
	rt_write(&t, 100, 2, "Error: model load failed\n");
	rt_write(&t, 100, 1, "bye\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 1);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_string_equal(f->message, "Error: model load failed");
	assert_true(contains(f->summary, "'server' reported: Error: model load failed"));
	assert_int_equal(f->nevidence, 2);
	assert_string_equal(f->evidence[0], "warning: cache is cold");
	rt_release(&t);

	/* stdout counts only for plain errors; a progress bar's \r goes. */
	rt_init(&t);
	rt_write(&t, 100, 1, "epoch 1: loss 0.31, 2 errors corrected\n");
	rt_write(&t, 100, 2, "  3%|#         | 1/30\r 50%|#####     | 15/30\rERROR: disk quota exceeded\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message, "ERROR: disk quota exceeded");
	rt_release(&t);
}

/* perl closes a failed `use` with trailers; the line before is the cause. */
static void em_perl_trailers(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/perl", "perl");
	rt_write(&t, 100, 2, "Can't locate Missing/Module.pm in @INC (you may need to install the "
			     "Missing::Module module) (@INC contains: /etc/perl) at missmod.pl line 1.\n");
	rt_write(&t, 100, 2, "BEGIN failed--compilation aborted at missmod.pl line 1.\n");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->message, "Can't locate Missing/Module.pm"));
	rt_release(&t);
	/* A trailer alone is still what the program said. */
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/perl", "perl");
	rt_write(&t, 100, 2, "BEGIN failed--compilation aborted at missmod.pl line 1.\n");
	rt_exit(&t, 100, 2);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->message, "BEGIN failed"));
	rt_release(&t);
}

/* PID forks CHILD. */
static void em_fork(struct rt *t, int pid, int child)
{
	struct rc_event e = rt_sys(t, pid, "clone", child, 0);
	rt_feed(t, &e);
}

static void em_dev_null(void **state)
{
	struct rt t;
	(void)state;

	/* sh -c 'ls /nonexistent 2>/dev/null; true': hidden, and handled. */
	rt_init(&t);
	em_fork(&t, 100, 101);
	rt_open_fd(&t, 101, "/dev/null", 2, O_WRONLY | O_CREAT | O_TRUNC, 0, NULL);
	rt_write(&t, 101, 2, "ls: cannot access '/nonexistent': No such file or directory\n");
	rt_exit(&t, 101, 2);
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 0);
	rt_release(&t);

	/* A helper whose hidden failure its script got over, in a run that
	 * failed for another reason: still not the program's words. */
	rt_init(&t);
	em_fork(&t, 300, 301);
	rt_open_fd(&t, 301, "/dev/null", 2, O_WRONLY | O_CREAT | O_TRUNC, 0, NULL);
	rt_write(&t, 301, 2, "enable: cannot open shared object realpath.dylib\n");
	rt_exit(&t, 301, 0);
	rt_write(&t, 300, 2, "fatal: no model configured\n");
	rt_exit(&t, 300, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 1);
	assert_true(contains(rt_find(&t, "error-message")->summary, "no model configured"));
	rt_release(&t);

	/* A service started with 2>/dev/null that died: its last words are
	 * the cause, and only the trace saw them. */
	rt_init(&t);
	rt_open_fd(&t, 200, "/dev/null", 2, O_WRONLY | O_CREAT | O_TRUNC, 0, NULL);
	rt_write(&t, 200, 2, "FileNotFoundError: [Errno 2] No such file or directory: '/srv/none.yaml'\n");
	rt_exit(&t, 200, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 1);
	assert_true(contains(rt_find(&t, "error-message")->summary, "none.yaml"));
	rt_release(&t);
}

static void em_last_words_of_a_script(void **state)
{
	struct rt t;
	(void)state;
	/* A start script that gives up in its own words: no error word. */
	rt_init(&t);
	rt_write(&t, 100, 2, "start.sh: MODEL_DIR is not set\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->summary, "MODEL_DIR is not set"));
	assert_int_equal(f->effective, RC_SEV_ERROR);
	rt_release(&t);
	/* Killed by a signal: its last line is what it was doing, not why. */
	rt_init(&t);
	rt_write(&t, 100, 2, "loading shard 3 of 8\n");
	rt_killed(&t, 100, SIGSEGV, false, NULL);
	rt_finish(&t);
	assert_null(rt_find(&t, "error-message"));
	rt_release(&t);
	/* A healthy run's chatter on stderr is nothing. */
	rt_init(&t);
	rt_write(&t, 100, 2, "loading shard 3 of 8\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_null(rt_find(&t, "error-message"));
	rt_release(&t);
}

static void em_uncaught_cxx_exception(void **state)
{
	struct rt t;
	(void)state;
	/* What libstdc++ 12 wrote for a std::runtime_error thrown in a
	 * std::thread and never caught (g++ -pthread, strace -f -s 256). */
	rt_init(&t);
	rt_write(&t, 100, 2, "terminate called after throwing an instance of 'std::runtime_error'\n");
	rt_write(&t, 100, 2, "  what():  ");
	rt_write(&t, 100, 2, "cannot parse model header in weights.bin");
	rt_write(&t, 100, 2, "\n");
	rt_killed(&t, 100, SIGABRT, false, NULL);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message,
			    "uncaught C++ exception std::runtime_error: cannot parse model header in weights.bin");
	assert_true(contains(f->advice, "catch std::runtime_error"));
	assert_true(has_evidence(f, "terminate called after throwing"));
	rt_release(&t);
	/* The same under strace's default -s 32: the first write is cut, and
	 * the type comes as a line of its own. */
	rt_init(&t);
	rt_write_cut(&t, 100, 2, "terminate called after throwing ", 48);
	rt_write(&t, 100, 2, "std::runtime_error");
	rt_write(&t, 100, 2, "'\n");
	rt_write(&t, 100, 2, "  what():  ");
	rt_write_cut(&t, 100, 2, "cannot parse model header in wei", 40);
	rt_write(&t, 100, 2, "\n");
	rt_killed(&t, 100, SIGABRT, false, NULL);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->message, "uncaught C++ exception std::runtime_error: cannot parse model header"));
	rt_release(&t);
	/* A joinable std::thread destroyed: no what() line. */
	rt_init(&t);
	rt_write(&t, 100, 2, "terminate called without an active exception\n");
	rt_killed(&t, 100, SIGABRT, false, NULL);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->summary, "terminate called without an active exception"));
	rt_release(&t);
}

static void em_healthy_output(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_write(&t, 100, 1, "tensor([2., 2.])\n");
	rt_write(&t, 100, 2, "downloading 3 files\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 0);
	rt_release(&t);

	/* A healthy program's warning is a warning, not an error. */
	rt_init(&t);
	rt_write(&t, 100, 2, "UserWarning: TypedStorage is deprecated\n");
	rt_exit(&t, 100, 0);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_int_equal(f->effective, RC_SEV_WARNING);
	assert_int_equal(rt_errors(&t), 0);
	rt_release(&t);
}

static void em_one_per_process(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/bash", "bash");
	struct rc_event e = rt_sys(&t, 100, "clone", 101, 0);
	rt_feed(&t, &e);
	exec_ok(&t, 101, "/usr/bin/mkdir", "mkdir");
	rt_write(&t, 101, 2, "mkdir: ");
	/* A piece strace cut at -s 32: the model makes it a line of its own. */
	rt_write_cut(&t, 101, 2, "cannot create directory \xe2\x80\x98/tmp/", 48);
	rt_write(&t, 101, 2, ": No such file or directory\n");
	rt_exit(&t, 101, 1);
	rt_write(&t, 100, 2, "bash: line 1: nosuchcmd: command not found\n");
	rt_write(&t, 100, 2, "bash: line 2: other: command not found\n");
	rt_exit(&t, 100, 127);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "error-message"), 2);
	bool mkdir_ = false, bash = false;
	for (size_t i = 0; i < t.out.count; i++) {
		const struct rc_finding *f = t.out.v[i];
		if (strcmp(f->rule, "error-message") != 0)
			continue;
		if (f->pid == 101)
			mkdir_ = contains(f->message, "mkdir: cannot create directory") &&
				 contains(f->message, "...: No such file or directory");
		if (f->pid == 100)
			bash = strcmp(f->message, "bash: line 2: other: command not found") == 0;
	}
	assert_true(mkdir_ && bash);
	rt_release(&t);
}

/* node 20's dump of an uncaught 'error' event, as one write: the location,
 * the headline, the stack, then the error's fields. */
static const char node_eaddrinuse[] =
	"node:events:502\n"
	"      throw er; // Unhandled 'error' event\n"
	"      ^\n"
	"\n"
	"Error: listen EADDRINUSE: address already in use 127.0.0.1:8080\n"
	"    at Server.setupListenHandle [as _listen2] (node:net:1908:16)\n"
	"    at listenInCluster (node:net:1965:12)\n"
	"    at doListen (node:net:2139:7)\n"
	"    at process.processTicksAndRejections (node:internal/process/task_queues:83:21)\n"
	"Emitted 'error' event on Server instance at:\n"
	"    at emitErrorNT (node:net:1944:8)\n"
	"    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {\n"
	"  code: 'EADDRINUSE',\n"
	"  errno: -98,\n"
	"  syscall: 'listen',\n"
	"  address: '127.0.0.1',\n"
	"  port: 8080\n"
	"}\n";

/* A multi-line error report has a headline; the frames and fields after it
 * are detail ("errno: -98," is not what went wrong). */
static void em_report_headline(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/node", "node");
	rt_write(&t, 100, 2, node_eaddrinuse);
	rt_write(&t, 100, 2, "\nNode.js v20.20.2\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message, "Error: listen EADDRINUSE: address already in use 127.0.0.1:8080");
	assert_string_equal(f->summary, "'node' reported: Error: listen EADDRINUSE: address already in use 127.0.0.1:8080");
	assert_string_equal(f->evidence[0], "Error: listen EADDRINUSE: address already in use 127.0.0.1:8080");
	assert_true(has_evidence(f, "at Server.setupListenHandle"));
	assert_false(has_evidence(f, "errno: -98"));
	rt_release(&t);

	/* Java, a line per write: the exception, its frames, the cause it
	 * wraps and that cause's frames, whose class names say "Exception". */
	static const char *const java[] = {
		"Exception in thread \"main\" ", "java.lang.IllegalStateException: cannot load voice config\n",
		"\tat Voice.load(Voice.java:5)\n", "\tat Voice.main(Voice.java:7)\n",
		"Caused by: java.nio.file.NoSuchFileException: /srv/conf/voice.json\n",
		"\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)\n",
		"\tat java.base/sun.nio.fs.UnixException.rethrowAsIOException(UnixException.java:111)\n",
		"\tat java.base/java.nio.file.Files.readString(Files.java:3325)\n",
		"\tat Voice.load(Voice.java:4)\n", "\t... 1 more\n",
	};
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/java", "java");
	rt_write(&t, 100, 1, "voice service starting\n");
	for (size_t i = 0; i < ARRAY_SIZE(java); i++)
		rt_write(&t, 100, 2, java[i]);
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message,
			    "Exception in thread \"main\" java.lang.IllegalStateException: cannot load voice config");
	assert_true(has_evidence(f, "Caused by: java.nio.file.NoSuchFileException: /srv/conf/voice.json"));
	rt_release(&t);

	/* Rust: the panic's heading goes on in the message written with it;
	 * RUST_BACKTRACE's frames below say "panicking" and "failed". */
	rt_init(&t);
	exec_ok(&t, 100, "/srv/bin/voiced", "voiced");
	rt_write(&t, 100, 2, "\nthread 'main' (3821) panicked at src/main.rs:2:87:\ncalled `Result::unwrap()` on an "
			     "`Err` value: Os { code: 98, kind: AddrInUse, message: \"Address already in use\" }\n");
	rt_write(&t, 100, 2, "stack backtrace:\n");
	rt_write(&t, 100, 2, "   0: __rustc::rust_begin_unwind\n");
	rt_write(&t, 100, 2, "             at /rustc/5980/library/std/src/panicking.rs:689:5\n");
	rt_write(&t, 100, 2, "   1: core::panicking::panic_fmt\n");
	rt_write(&t, 100, 2, "   2: core::result::unwrap_failed\n");
	rt_write(&t, 100, 2, "   3: voiced::main\n");
	rt_write(&t, 100, 2, "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n");
	rt_exit(&t, 100, 101);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message, "thread 'main' (3821) panicked at src/main.rs:2:87: called `Result::unwrap()` "
			    "on an `Err` value: Os { code: 98, kind: AddrInUse, message: \"Address already in use\" }");
	rt_release(&t);

	/* An earlier complaint of its own is not the report's headline. */
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/node", "node");
	rt_write(&t, 100, 2, "error: cannot read /srv/cache/index.json, starting cold\n");
	rt_write(&t, 100, 2, node_eaddrinuse + strlen("node:events:502\n      throw er; // Unhandled 'error' "
						      "event\n      ^\n\n"));
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message, "Error: listen EADDRINUSE: address already in use 127.0.0.1:8080");
	rt_release(&t);

	/* Detail under a line that is not an error keeps its own words. */
	rt_init(&t);
	exec_ok(&t, 100, "/srv/bin/voiced", "voiced");
	rt_write(&t, 100, 2, "starting voice service\n  loading /srv/models/en.bin\n  fatal: model header corrupt\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->message, "fatal: model header corrupt"));
	rt_release(&t);
}

/* strace's -s cut node's dump: after a whole frame, only detail is lost;
 * before the headline, the line that decides is. */
static void em_report_cut_by_s(void **state)
{
	struct rt t;
	char buf[sizeof(node_eaddrinuse)];
	(void)state;
	const char *frame = strstr(node_eaddrinuse, "    at listenInCluster");
	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/node", "node");
	snprintf(buf, sizeof(buf), "%.*s", (int)(frame - node_eaddrinuse + 20), node_eaddrinuse);
	rt_write_cut(&t, 100, 2, buf, (long long)strlen(node_eaddrinuse));
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->summary, "'node' reported: Error: listen EADDRINUSE: address already in use 127.0.0.1:8080");
	rt_release(&t);

	rt_init(&t);
	exec_ok(&t, 100, "/usr/bin/node", "node");
	rt_write_cut(&t, 100, 2, "node:events:502\n      throw er; ", (long long)strlen(node_eaddrinuse));
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_true(contains(f->summary, "strace -s 32 cut this write"));
	rt_release(&t);
}

/* The real logs: node's headline, under the bind that failed; Java's
 * exception, with the missing file it wraps in its evidence. */
static void real_report_headlines(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	assert_true(analyze_log("file-node-eaddrinuse.log", &t));
	const struct rc_finding *f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message, "Error: listen EADDRINUSE: address already in use 127.0.0.1:56465");
	assert_non_null(f->cause);
	assert_string_equal(f->cause->rule, "bind-failed");
	assert_string_equal(t.out.v[0]->rule, "bind-failed");
	rt_release(&t);

	rt_init(&t);
	assert_true(analyze_log("file-java-caused-by.log", &t));
	f = rt_find(&t, "error-message");
	assert_non_null(f);
	assert_string_equal(f->message,
			    "Exception in thread \"main\" java.lang.IllegalStateException: cannot load voice config");
	assert_true(has_evidence(f, "Caused by: java.nio.file.NoSuchFileException: /tmp/rcfix/conf/voice.json"));
	assert_non_null(f->cause);
	assert_string_equal(f->cause->rule, "missing-file");
	assert_true(contains(f->cause->path, "/tmp/rcfix/conf/voice.json"));
	rt_release(&t);
}

/* ---- real logs (tests/fixtures/rules/file-*.log) ---- */

/* struct rt_expect's columns, and the severity the first match has. */
struct expect {
	const char *log;
	const char *rule;
	const char *word;	/* in the summary; NULL: any */
	bool present;
	enum rc_severity effective;	/* when present */
};

static const struct expect real_logs[] = {
	{ "file-missing-model-torch.log", "missing-file", "model_v23.pth", true, RC_SEV_ERROR },
	{ "file-missing-model-torch.log", "missing-library", NULL, false, 0 },
	{ "file-missing-model-torch.log", "error-message", "model load failed", true, RC_SEV_ERROR },
	{ "file-healthy-torch.log", "missing-file", NULL, false, 0 },
	{ "file-healthy-torch.log", "missing-library", NULL, false, 0 },
	{ "file-healthy-torch.log", "permission-denied", NULL, false, 0 },
	{ "file-healthy-torch.log", "error-message", NULL, false, 0 },
	{ "file-healthy-torch.log", "gpu-unavailable", NULL, false, 0 },
	{ "file-torch-cuda-check.log", "gpu-unavailable", NULL, false, 0 },
	{ "file-perm-cache.log", "permission-denied", "cannot create 'model.pth'", true, RC_SEV_ERROR },
	{ "file-perm-cache.log", "permission-denied", "locked.bin", true, RC_SEV_ERROR },
	{ "file-perm-cache.log", "permission-denied", "site-packages", false, 0 },
	{ "file-exec-eacces.log", "exec-failed", "start_app.sh", true, RC_SEV_ERROR },
	{ "file-exec-eacces.log", "permission-denied", NULL, false, 0 },
	{ "file-exec-crlf.log", "exec-failed", "crlf.sh", true, RC_SEV_ERROR },
	{ "file-exec-not-in-path.log", "exec-failed", "command 'nosuchcmd_xyz' not found in PATH", true, RC_SEV_ERROR },
	{ "file-exec-enoexec.log", "exec-failed", "bad.bin", true, RC_SEV_ERROR },
	{ "file-exec-enoexec.log", "missing-file", NULL, false, 0 },
	{ "file-bash-command-not-found.log", "missing-file", "command 'nosuchcmd_xyz' not found", true, RC_SEV_ERROR },
	{ "file-missing-lib.log", "missing-library", "'libfoo.so.1' not found", true, RC_SEV_ERROR },
	{ "file-missing-lib.log", "missing-file", NULL, false, 0 },
	{ "file-no-gpu.log", "gpu-unavailable", "/dev/nvidiactl", true, RC_SEV_ERROR },
	{ "file-no-gpu.log", "missing-library", NULL, false, 0 },
	{ "file-no-gpu.log", "missing-file", NULL, false, 0 },
	{ "file-py-no-module.log", "error-message", "python cannot import module 'nosuchmod'", true, RC_SEV_ERROR },
	{ "file-py-no-module.log", "missing-file", NULL, false, 0 },
	{ "file-missing-dirs.log", "missing-file", "directory '/tmp/rcfix/nodir' does not exist", true, RC_SEV_ERROR },
	{ "file-missing-dirs.log", "missing-file", "parent '/tmp/rcfix/nodir2' does not exist", true, RC_SEV_ERROR },
	{ "file-missing-dirs.log", "missing-file", "'/tmp/rcfix/nodir3' does not exist", true, RC_SEV_ERROR },
	{ "file-git-no-repo.log", "missing-file", NULL, false, 0 },
	/* Name-service searches and optional sources are notes; the unknown
	 * user is the cause. */
	{ "file-nginx-no-user.log", "unknown-user", "user 'nginx' does not exist", true, RC_SEV_ERROR },
	{ "file-nginx-no-user.log", "missing-file", "nginx.user", true, RC_SEV_INFO },
	/* The walk that hit /run/host is folded into the look-ups it was on the
	 * way to (one missing directory, one finding). */
	{ "file-nginx-no-user.log", "missing-file", "/run/host", false, 0 },
	{ "file-runuser-no-user.log", "unknown-user", "user 'nosuchuser' does not exist", true, RC_SEV_ERROR },
	{ "file-runuser-no-user.log", "missing-file", "nosuchuser.user", true, RC_SEV_INFO },
	{ "file-py-getpwnam.log", "unknown-user", "user 'nosuchuser' does not exist", true, RC_SEV_ERROR },
	{ "file-runuser-user-exists.log", "unknown-user", NULL, false, 0 },
	{ "file-runuser-user-exists.log", "missing-file", "/etc/default/runuser", true, RC_SEV_INFO },
	{ "file-runuser-user-exists.log", "error-message", "may not write", true, RC_SEV_ERROR },
	{ "file-node-resolver.log", "missing-file", "/etc/svc.conf", true, RC_SEV_INFO },
	{ "file-node-resolver.log", "missing-file", "/etc/netsvc.conf", true, RC_SEV_INFO },
	{ "file-perm-parent.log", "permission-denied", "cannot read '/tmp/rcfix/private/conf/app.json'", true,
	  RC_SEV_ERROR },
	{ "file-enter-dirs.log", "missing-file", "directory '/tmp/rcfix/releases/current' does not exist", true,
	  RC_SEV_ERROR },
	{ "file-enter-dirs.log", "missing-file", "nothere", false, 0 },
	{ "file-chroot-missing.log", "missing-file", "cannot chroot to '/tmp/rcfix/jail'", true, RC_SEV_ERROR },
	{ "file-enter-calls.log", "missing-file", "cannot pivot_root to '/tmp/rcfix/newroot'", true, RC_SEV_ERROR },
	/* The traceback's open of the script it quotes, in the config's
	 * directory, is no other candidate: the program had spoken. */
	{ "file-py-config-then-traceback.log", "missing-file", "'/tmp/rcfix/server.json' does not exist", true,
	  RC_SEV_ERROR },
	/* nss-mymachines' file named after the host, before the dns source
	 * asks for it (the query cut by -s 32): one source of the look-up. */
	{ "file-nss-mymachines-then-dns.log", "missing-file", "/run/systemd/machines/models.cdn.voice-service.test",
	  true, RC_SEV_INFO },
};

static const char *const file_rules[] = {
	"missing-file", "permission-denied", "exec-failed", "missing-library", "gpu-unavailable", "error-message",
};

static void real_logs_checked(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(real_logs); i++) {
		const struct expect *x = &real_logs[i];
		struct rt t;
		const struct rc_finding *hit = rt_expect_log(&t, x->log, x->rule, x->word, x->present);
		if (hit && hit->effective != x->effective)
			fail_msg("%s: %s is %s", x->log, hit->summary, severity_name(hit->effective));
		rt_release(&t);
	}
}

/* setpriv --reuid=nobody --regid=nogroup --clear-groups: the process model
 * knows whose permissions apply from the trace's own calls. */
static void real_creds_from_trace(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	assert_true(analyze_log("file-perm-parent.log", &t));
	const struct rc_creds *cr = procs_creds(&t.eng.procs, 28838);
	assert_non_null(cr);
	assert_int_equal(cr->uid, 65534);
	assert_int_equal(cr->gid, 65534);
	assert_int_equal(cr->ngroups, 0);
	assert_false(cr->live);
	rt_release(&t);
}

/* Story 1: among the hundreds of ENOENTs of a torch start-up, the missing
 * weights are the one file finding, ranked with the program's own words. */
static void real_story1_ranked(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	assert_true(analyze_log("file-missing-model-torch.log", &t));
	assert_int_equal(rt_count(&t, "missing-file"), 1);
	size_t rank = 0;
	for (size_t i = 0; i < t.out.count; i++)
		if (strcmp(t.out.v[i]->rule, "missing-file") == 0)
			rank = i;
	assert_true(rank <= 1);
	rt_release(&t);
}

/* A healthy torch run: nothing at all from the file rules, not even notes. */
static void real_healthy_torch_silent(void **state)
{
	static const char *const healthy[] = { "file-healthy-torch.log", "file-torch-cuda-check.log" };
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(healthy); i++) {
		struct rt t;
		rt_init(&t);
		assert_true(analyze_log(healthy[i], &t));
		for (size_t r = 0; r < ARRAY_SIZE(file_rules); r++)
			if (rt_count(&t, file_rules[r]))
				fail_msg("%s: %s reported: %s", healthy[i], file_rules[r], rt_find(&t, file_rules[r])->summary);
		assert_int_equal(rt_errors(&t), 0);
		rt_release(&t);
	}
}

/* Code mapped from a file on a noexec mount: dlopen's mmap(PROT_EXEC) of
 * the fd fails with EPERM though the file's mode allows it. The file is
 * the fd's, and a library's name is no probe here; a mapping of data of
 * the same file, or an anonymous executable one, is not this. Before,
 * nothing was reported but "failed to map segment from shared object". */
static void pd_code_on_noexec_mount(void **state)
{
	struct rt t;
	(void)state;
	rt_init(&t);
	rt_open_fd(&t, 100, "/srv/plugins/libresample.so", 3, O_RDONLY | O_CLOEXEC, RT_NO_DUR, NULL);
	struct rc_event e = rt_sys(&t, 100, "mmap", 0x7f0000000000LL, 0);
	e.fd = 3;
	e.mode = PROT_READ;
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "mmap", -1, EPERM);
	e.fd = 3;
	e.mode = PROT_READ | PROT_EXEC;
	rt_feed(&t, &e);
	e = rt_sys(&t, 100, "mmap", -1, EPERM);
	e.fd = -1;
	e.mode = PROT_READ | PROT_WRITE | PROT_EXEC;
	rt_feed(&t, &e);
	rt_close_fd(&t, 100, 3, RT_NO_DUR, NULL);
	rt_write(&t, 100, 2, "OSError: /srv/plugins/libresample.so: failed to map segment from shared object\n");
	rt_exit(&t, 100, 1);
	rt_finish(&t);
	assert_int_equal(rt_count(&t, "permission-denied"), 1);
	const struct rc_finding *f = rt_find(&t, "permission-denied");
	assert_string_equal(f->path, "/srv/plugins/libresample.so");
	assert_int_equal(f->err, EPERM);
	assert_true(contains(f->summary, "noexec"));
	assert_true(contains(f->advice, "findmnt -T"));
	assert_string_equal(t.out.v[0]->rule, "permission-denied");
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noise_real_paths),
		cmocka_unit_test(pd_code_on_noexec_mount),
		cmocka_unit_test(mf_story1_model_missing),
		cmocka_unit_test(mf_probing_is_quiet),
		cmocka_unit_test(mf_python2_import_probing),
		cmocka_unit_test(mf_output_names_whole_words),
		cmocka_unit_test(mf_echo_is_a_whole_name),
		cmocka_unit_test(mf_handled_by_a_grandparent),
		cmocka_unit_test(mf_healthy_mention_is_no_error),
		cmocka_unit_test(mf_healthy_run_is_a_note),
		cmocka_unit_test(mf_handled_failures_are_warnings),
		cmocka_unit_test(mf_other_rules_paths_left_alone),
		cmocka_unit_test(mf_create_in_missing_directory),
		cmocka_unit_test(mf_checked_before_creating),
		cmocka_unit_test(pd_mknod_creates),
		cmocka_unit_test(pd_live_creds_before_the_call),
		cmocka_unit_test(mf_symlink_parent_missing),
		cmocka_unit_test(mf_forms_and_cut_words),
		cmocka_unit_test(mf_duplicates_grouped),
		cmocka_unit_test(mf_lookups_are_weaker),
		cmocka_unit_test(mf_search_across_sources),
		cmocka_unit_test(mf_before_exec),
		cmocka_unit_test(unknown_user_words),
		cmocka_unit_test(mf_command_not_found),
		cmocka_unit_test(mf_capped_most_causal_first),
		cmocka_unit_test(mf_bounded),
		cmocka_unit_test(pd_story1_cache_owned_by_other),
		cmocka_unit_test(pd_reports_owner_and_mode),
		cmocka_unit_test(pd_quiet_cases),
		cmocka_unit_test(pd_stat_does_not_recover_a_write),
		cmocka_unit_test(ef_lost_exec_bit),
		cmocka_unit_test(ef_crlf_interpreter),
		cmocka_unit_test(ef_missing_interpreter),
		cmocka_unit_test(ef_not_a_binary),
		cmocka_unit_test(ef_path_search),
		cmocka_unit_test(ef_program_missing_or_seen),
		cmocka_unit_test(ml_not_found_anywhere),
		cmocka_unit_test(ml_probing_and_versions_are_quiet),
		cmocka_unit_test(ml_optional_dlopen_is_a_warning),
		cmocka_unit_test(ml_per_process),
		cmocka_unit_test(gpu_machine_without_gpu),
		cmocka_unit_test(gpu_faccessat2_lookup),
		cmocka_unit_test(gpu_permission),
		cmocka_unit_test(gpu_quiet_without_gpu_use),
		cmocka_unit_test(em_python_traceback),
		cmocka_unit_test(em_last_words),
		cmocka_unit_test(em_perl_trailers),
		cmocka_unit_test(em_healthy_output),
		cmocka_unit_test(em_uncaught_cxx_exception),
		cmocka_unit_test(em_last_words_of_a_script),
		cmocka_unit_test(em_dev_null),
		cmocka_unit_test(em_traceback_in_one_long_write),
		cmocka_unit_test(em_decisive_line_cut_by_s),
		cmocka_unit_test(em_one_per_process),
		cmocka_unit_test(em_report_headline),
		cmocka_unit_test(em_report_cut_by_s),
		cmocka_unit_test(real_report_headlines),
		cmocka_unit_test(mf_enter_directories),
		cmocka_unit_test(mf_enter_probing),
		cmocka_unit_test(mf_lookup_on_the_way_folded),
		cmocka_unit_test(pd_directory_on_the_way),
		cmocka_unit_test(pd_directory_through_a_link),
		cmocka_unit_test(pd_reached_directory_is_not_the_block),
		cmocka_unit_test(pd_refused_then_found_elsewhere),
		cmocka_unit_test(real_logs_checked),
		cmocka_unit_test(real_creds_from_trace),
		cmocka_unit_test(real_story1_ranked),
		cmocka_unit_test(real_healthy_torch_silent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
