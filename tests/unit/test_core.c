/* The core reader (crash/core.c) and the model's helpers (crash/crash.c).
 *
 * Real cores are made here, without touching core_pattern: a kernel core of
 * this program re-run as a crasher (when core_pattern names a file in the
 * crashing process's cwd), a gdb core of the same crasher stopped at its
 * fault, and `gcore -o PREFIX PID` of a live child.  The crasher starts two
 * threads and one of them writes its tid to a file and stores through a
 * NULL struct pointer at offset 0x28.  Hand-made cores check the damaged
 * and hostile cases real ones never show.
 *
 * RC_CORE_SEEDS=DIR writes the hand-made cores to DIR as fuzz seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <elf.h>
#include <gelf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#include "crash/crash.h"
#include "util/util.h"

#define FAULT_OFFSET 0x28
#define CRASHER_ARGV0 "rc-crasher"

/* ---- the crasher: this program re-run with --crash-child/--sleep-child */

struct victim {
	char pad[FAULT_OFFSET];
	int field;
};

static struct victim *volatile no_victim;	/* NULL, opaque to the compiler */

static void write_file(const char *name, const char *text)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		_exit(3);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		_exit(3);
	close(fd);
}

static void *idle_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void *faulting_thread(void *arg)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d\n", gettid());
	write_file("tid", buf);
	/* A store to &no_victim->field, computed without naming a member of
	 * a NULL pointer (UBSan would report that before the fault). */
	volatile int *field = (volatile int *)((uintptr_t)no_victim + offsetof(struct victim, field));
	*field = 1;
	return arg;
}

/* Both extra threads exist before the fault: pthread_create returns once
 * the thread is cloned. */
static int crash_child(void)
{
	struct rlimit rl;
	pthread_t a, b;

	if (getrlimit(RLIMIT_CORE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_CORE, &rl);
	}
	if (pthread_create(&a, NULL, idle_thread, NULL) || pthread_create(&b, NULL, faulting_thread, NULL))
		return 3;
	pthread_join(b, NULL);
	return 3;
}

static int sleep_child(void)
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, idle_thread, NULL) || pthread_create(&b, NULL, idle_thread, NULL))
		return 3;
	write_file("ready", "1\n");
	for (;;)
		pause();
}

/* ---- helpers */

/* gdb dumps ASan's shadow memory (the kernel honours its MADV_DONTDUMP):
 * a gdb core of an ASan build is terabytes, sparse or not. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static char self_exe[PATH_MAX];
static char tmpdir[] = "/tmp/rc-test-core.XXXXXX";

/* ASan (when the tests are built with it) would catch the SIGSEGV and
 * refuse to dump a core; the crasher needs neither. */
static void child_env(void)
{
	const char *old = getenv("ASAN_OPTIONS");
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%shandle_segv=0:disable_coredump=0:detect_leaks=0", old ? old : "",
		 old && *old ? ":" : "");
	setenv("ASAN_OPTIONS", buf, 1);
	unsetenv("DEBUGINFOD_URLS");
}

/* Runs ARGV in DIR with output to DIR/LOG; waits at most SECONDS.
 * Returns the wait status, or -1. */
static int run_in(const char *dir, const char *const argv[], const char *log, int seconds)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || in < 0)
			_exit(127);
		dup2(in, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		child_env();
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	int status;
	for (int i = 0; i < seconds * 20; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

static int read_int_file(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[32] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] ? atoi(buf) : -1;
}

/* A core file, mapped read-only: the reader must not write to it. */
struct image {
	void *p;
	size_t size;
	bool mapped;
};

static bool image_map(struct image *im, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(im, 0, sizeof(*im));
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		return false;
	}
	im->size = (size_t)st.st_size;
	im->p = mmap(NULL, im->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (im->p == MAP_FAILED) {
		im->p = NULL;
		return false;
	}
	im->mapped = true;
	return true;
}

static void image_release(struct image *im)
{
	if (im->mapped)
		munmap(im->p, im->size);
	else
		free(im->p);
	memset(im, 0, sizeof(*im));
}

/* ---- the real cores, made once for the whole group */

enum core_kind { K_KERNEL, K_GDB, K_GCORE_LIVE, K_NKINDS };

struct made_core {
	char path[PATH_MAX];
	bool ok;
	char why[PATH_MAX + 256];			/* why not made: the skip reason */
	pid_t pid;			/* the crasher */
	int tid;			/* its faulting thread */
};

static struct made_core cores[K_NKINDS];

/* core_pattern as a file name in DIR, the crasher's cwd, or false. */
static bool kernel_core_name(const char *dir, pid_t pid, char *out, size_t n, char *why, size_t whyn)
{
	char pat[128] = "";
	FILE *f = fopen("/proc/sys/kernel/core_pattern", "re");

	if (!f || !fgets(pat, sizeof(pat), f)) {
		if (f)
			fclose(f);
		snprintf(why, whyn, "cannot read core_pattern");
		return false;
	}
	fclose(f);
	pat[strcspn(pat, "\n")] = '\0';
	if (!pat[0] || pat[0] == '|' || strchr(pat, '%') || strchr(pat, '/')) {
		snprintf(why, whyn, "core_pattern is '%s', not a plain file name", pat);
		return false;
	}
	int uses_pid = read_int_file("/proc/sys/kernel", "core_uses_pid");
	if (uses_pid > 0)
		snprintf(out, n, "%s/%s.%d", dir, pat, (int)pid);
	else
		snprintf(out, n, "%s/%s", dir, pat);
	return true;
}

static void make_kernel_core(struct made_core *mc)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/kernel", tmpdir);
	mkdir(dir, 0700);
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		child_env();
		execl(self_exe, CRASHER_ARGV0, "--crash-child", "two words", (char *)NULL);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	mc->pid = pid;
	mc->tid = read_int_file(dir, "tid");
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV) {
		snprintf(mc->why, sizeof(mc->why), "the crasher did not crash (status 0x%x)", status);
		return;
	}
	if (!kernel_core_name(dir, pid, mc->path, sizeof(mc->path), mc->why, sizeof(mc->why)))
		return;
	if (!WCOREDUMP(status) || access(mc->path, R_OK) != 0) {
		snprintf(mc->why, sizeof(mc->why), "no core dumped as '%s' (RLIMIT_CORE, suid_dumpable?)",
			 mc->path);
		return;
	}
	mc->ok = mc->tid > 0;
}

static void make_gdb_core(struct made_core *mc)
{
	char dir[256], cmd[PATH_MAX + 16];

	if (!test_in_path("gdb") || UNDER_ASAN) {
		snprintf(mc->why, sizeof(mc->why), UNDER_ASAN ? "gdb would dump ASan's shadow memory" :
			 "gdb is not installed");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/gdb", tmpdir);
	mkdir(dir, 0700);
	snprintf(mc->path, sizeof(mc->path), "%s/gdb.core", dir);
	snprintf(cmd, sizeof(cmd), "gcore %s", mc->path);
	const char *const argv[] = {
		"gdb", "-nx", "-batch", "-iex", "set debuginfod enabled off", "-ex", "run", "-ex", cmd,
		"-ex", "info inferiors", "-ex", "kill", "--args", self_exe, "--crash-child", "two words", NULL,
	};
	int status = run_in(dir, argv, "gdb.log", 120);
	mc->tid = read_int_file(dir, "tid");
	/* The inferior's pid, from "info inferiors": "* 1    process 1234 ...". */
	char log[512];
	snprintf(log, sizeof(log), "%s/gdb.log", dir);
	FILE *f = fopen(log, "re");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "process ");
		if (p && line[0] == '*')
			mc->pid = atoi(p + 8);
	}
	if (f)
		fclose(f);
	if (status < 0 || access(mc->path, R_OK) != 0 || mc->tid <= 0) {
		snprintf(mc->why, sizeof(mc->why), "gdb made no core (status %d, see %s)", status, log);
		return;
	}
	mc->ok = true;
}

static void make_gcore_live(struct made_core *mc)
{
	char dir[256], prefix[512], pidstr[16];

	if (!test_in_path("gcore") || UNDER_ASAN) {
		snprintf(mc->why, sizeof(mc->why), UNDER_ASAN ? "gdb would dump ASan's shadow memory" :
			 "gcore (gdb) is not installed");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/gcore", tmpdir);
	mkdir(dir, 0700);
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		execl(self_exe, CRASHER_ARGV0, "--sleep-child", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200 && read_int_file(dir, "ready") != 1; i++)
		usleep(20000);
	snprintf(prefix, sizeof(prefix), "%s/live", dir);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	const char *const argv[] = { "gcore", "-o", prefix, pidstr, NULL };
	int status = run_in(dir, argv, "gcore.log", 120);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	mc->pid = pid;
	snprintf(mc->path, sizeof(mc->path), "%s.%d", prefix, (int)pid);
	if (status < 0 || access(mc->path, R_OK) != 0) {
		snprintf(mc->why, sizeof(mc->why), "gcore made no core (status %d, see %s/gcore.log)", status,
			 dir);
		return;
	}
	mc->ok = true;
}

static void rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char sub[PATH_MAX];
			snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
			rm_tree(sub);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static int group_setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	make_kernel_core(&cores[K_KERNEL]);
	make_gdb_core(&cores[K_GDB]);
	make_gcore_live(&cores[K_GCORE_LIVE]);
	for (int i = 0; i < K_NKINDS; i++)
		if (!cores[i].ok)
			printf("# core %d not made: %s\n", i, cores[i].why);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	if (!getenv("RC_KEEP_CORES"))
		rm_tree(tmpdir);
	else
		printf("# cores kept in %s\n", tmpdir);
	return 0;
}

/* ---- checks shared by the real cores */

static void check_sorted(const struct rc_crash *c)
{
	for (size_t i = 0; i < c->nmaps; i++) {
		assert_true(c->maps[i].start < c->maps[i].end);
		if (i)
			assert_true(c->maps[i - 1].end <= c->maps[i].start);
		assert_ptr_equal(crash_mapping_at(c, c->maps[i].start), &c->maps[i]);
		assert_ptr_equal(crash_mapping_at(c, c->maps[i].end - 1), &c->maps[i]);
	}
}

static const struct rc_mapping *find_map(const struct rc_crash *c, const char *path_part, bool exec)
{
	for (size_t i = 0; i < c->nmaps; i++) {
		const struct rc_mapping *m = &c->maps[i];
		if (m->path && strstr(m->path, path_part) && (!exec || m->exec))
			return m;
	}
	return NULL;
}

static const struct rc_thread *find_thread(const struct rc_crash *c, int tid)
{
	for (size_t i = 0; i < c->nthreads; i++)
		if (c->threads[i].tid == tid)
			return &c->threads[i];
	return NULL;
}

/* What every core of the crasher (or the sleeper) shows. */
static void check_process(const struct rc_crash *c, const struct made_core *mc, const char *fname,
			  const char *argv0, const char *argv1)
{
	struct stat st;

	assert_int_equal(c->pid, mc->pid);
	assert_int_equal(c->nthreads, 3);
	assert_non_null(find_thread(c, mc->pid));	/* the main thread */
	assert_non_null(c->exe);
	assert_string_equal(c->exe, self_exe);
	assert_non_null(c->fname);
	assert_string_equal(c->fname, fname);
	assert_true(c->argc >= (argv1 ? 2 : 1));
	assert_non_null(c->argv);
	assert_null(c->argv[c->argc]);
	/* pr_psargs keeps 79 characters of the command line. */
	assert_int_equal(strncmp(c->argv[0], argv0, 79), 0);
	if (argv1 && strlen(argv0) < 60)
		assert_string_equal(c->argv[1], argv1);
	assert_true(c->auxv_phdr != 0 && c->auxv_entry != 0 && c->auxv_execfn != 0);

	const struct rc_mapping *exe = find_map(c, self_exe, false);
	assert_non_null(exe);
	assert_int_equal(exe->offset, 0);
	assert_int_equal(stat(self_exe, &st), 0);
	assert_int_equal(exe->file_size, st.st_size);
	assert_non_null(find_map(c, self_exe, true));
	const struct rc_mapping *libc = find_map(c, "/libc.so.6", true);
	assert_non_null(libc);
	assert_true(libc->file_size > 0);

	/* Every thread's stack is anonymous and writable, and every pc is
	 * in executable memory. */
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct rc_thread *t = &c->threads[i];
		const struct rc_mapping *stack = crash_mapping_at(c, t->regs[RC_REG_RSP]);
		assert_non_null(stack);
		assert_null(stack->path);
		assert_true(stack->write && stack->read);
		assert_true(stack->in_core);
		const struct rc_mapping *text = crash_mapping_at(c, t->regs[RC_REG_RIP]);
		assert_non_null(text);
		assert_true(text->exec);
		uint64_t word;
		assert_int_equal(crash_read_mem(c, t->regs[RC_REG_RSP], &word, sizeof(word)), sizeof(word));
	}
	check_sorted(c);
}

/* The crasher's fault, as the kernel and gdb both record it. */
static void check_crash(const struct rc_crash *c, const struct made_core *mc)
{
	assert_true(c->has_siginfo);
	assert_int_equal(c->signo, SIGSEGV);
	assert_int_equal(c->si_code, SEGV_MAPERR);
	assert_int_equal(c->fault_addr, FAULT_OFFSET);
	assert_int_equal(c->crashed_tid, mc->tid);
	assert_int_equal(c->threads[0].tid, mc->tid);
	assert_true(c->threads[0].crashed);
	assert_ptr_equal(crash_thread(c), &c->threads[0]);
	for (size_t i = 1; i < c->nthreads; i++)
		assert_false(c->threads[i].crashed);
	assert_int_equal(c->threads[0].cursig, SIGSEGV);
	/* The fault is in our code: the exe's text. */
	const struct rc_mapping *text = crash_mapping_at(c, c->threads[0].regs[RC_REG_RIP]);
	assert_non_null(text);
	assert_non_null(text->path);
	assert_string_equal(text->path, self_exe);
	assert_true(text->exec);
	assert_null(crash_mapping_at(c, c->fault_addr));
}

static void read_made(const struct made_core *mc, struct image *im, struct rc_crash *c)
{
	struct strbuf err = STRBUF_INIT;

	if (!mc->ok) {
		printf("# skipped: %s\n", mc->why);
		skip();
	}
	assert_true(image_map(im, mc->path));
	crash_init(c);
	int rc = crash_read_core(c, im->p, im->size, &err);
	if (rc)
		fail_msg("%s: %s", mc->path, strbuf_str(&err));
	assert_ptr_equal(c->image, im->p);
	assert_int_equal(c->image_size, im->size);
	strbuf_release(&err);
}

/* (a) a kernel core */
static void test_kernel_core(void **state)
{
	struct image im;
	struct rc_crash c;

	(void)state;
	read_made(&cores[K_KERNEL], &im, &c);
	check_process(&c, &cores[K_KERNEL], "test_core", CRASHER_ARGV0, "--crash-child");
	check_crash(&c, &cores[K_KERNEL]);
	/* "two words" arrives as two arguments: pr_psargs has spaces only. */
	assert_int_equal(c.argc, 4);
	assert_string_equal(c.argv[2], "two");
	assert_string_equal(c.argv[3], "words");
	assert_string_equal(strbuf_str(&c.problems), "");
	crash_release(&c);
	assert_null(c.threads);
	assert_int_equal(c.nmaps, 0);
	image_release(&im);
}

/* (b) gdb's gcore of the crasher stopped at its fault */
static void test_gdb_core(void **state)
{
	struct image im;
	struct rc_crash c;

	(void)state;
	read_made(&cores[K_GDB], &im, &c);
	check_process(&c, &cores[K_GDB], "test_core", self_exe, "--crash-child");
	check_crash(&c, &cores[K_GDB]);
	assert_string_equal(strbuf_str(&c.problems), "");
	crash_release(&c);
	image_release(&im);
}

/* (b) `gcore -o PREFIX PID` of a live process: no signal, three threads */
static void test_gcore_live(void **state)
{
	struct image im;
	struct rc_crash c;

	(void)state;
	read_made(&cores[K_GCORE_LIVE], &im, &c);
	/* gdb names the process after argv[0], the kernel after the exe;
	 * and gdb 13 keeps only argv[0] of a process it attached to (it
	 * reads /proc/PID/cmdline up to the first NUL). */
	check_process(&c, &cores[K_GCORE_LIVE], CRASHER_ARGV0, CRASHER_ARGV0, NULL);
	/* gdb records the SIGSTOP it attached with: that is no crash. */
	assert_int_equal(c.signo, 0);
	assert_false(c.has_siginfo);
	assert_int_equal(c.fault_addr, 0);
	assert_int_equal(c.crashed_tid, c.threads[0].tid);
	assert_string_equal(strbuf_str(&c.problems), "");
	crash_release(&c);
	image_release(&im);
}

/* (c) the kernel core cut in half still reads (its notes come first);
 * the gdb core cut in half has lost its notes (gdb writes them last). */
static void test_truncated(void **state)
{
	struct image im;
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	read_made(&cores[K_KERNEL], &im, &c);
	crash_release(&c);
	size_t full = im.size;
	assert_int_equal(crash_read_core(&c, im.p, full / 2, &err), 0);
	const char *pr = strbuf_str(&c.problems);
	if (!strstr(pr, "core truncated: ") || !strstr(pr, " segments are cut off (the core file is "))
		fail_msg("problems: '%s'", pr);
	assert_int_equal(c.nthreads, 3);
	assert_int_equal(c.signo, SIGSEGV);
	assert_int_equal(c.crashed_tid, cores[K_KERNEL].tid);
	/* Segments past the cut are no longer in the core. */
	bool cut = false;
	for (size_t i = 0; i < c.nmaps; i++) {
		const struct rc_mapping *m = &c.maps[i];
		if (m->core_size && m->core_offset + m->core_size > full / 2) {
			assert_false(m->in_core);
			cut = true;
		}
	}
	assert_true(cut);
	check_sorted(&c);
	crash_release(&c);

	/* A cut inside the notes: what is left still reads, or fails with
	 * the reason; never more. */
	for (size_t n = 0; n < 16384 && n < full; n += 97) {
		int rc = crash_read_core(&c, im.p, n, &err);
		if (rc)
			assert_true(err.len > 0);
		crash_release(&c);
		strbuf_reset(&err);
	}
	image_release(&im);

	if (cores[K_GDB].ok) {
		assert_true(image_map(&im, cores[K_GDB].path));
		assert_int_equal(crash_read_core(&c, im.p, im.size / 2, &err), -1);
		if (!strstr(err.buf, "core truncated: its notes are cut off"))
			fail_msg("error: '%s'", err.buf);
		assert_int_equal(c.nthreads, 0);
		image_release(&im);
	}
	strbuf_release(&err);
}

/* ---- hand-made cores */

struct seg {
	uint64_t vaddr, memsz, filesz;
	uint32_t flags;
	uint32_t type;			/* 0: PT_LOAD */
	uint64_t offset;		/* 0: after the notes */
};

struct mk {
	struct strbuf notes;
	struct seg segs[16];
	int nsegs;
	uint16_t machine, type;
};

static void mk_init(struct mk *m)
{
	memset(m, 0, sizeof(*m));
	m->machine = EM_X86_64;
	m->type = ET_CORE;
}

static void put(struct strbuf *sb, const void *p, size_t n)
{
	strbuf_add(sb, p, n);
}

static void pad4(struct strbuf *sb)
{
	while (sb->len % 4)
		strbuf_addc(sb, 0);
}

static void add_note(struct mk *m, const char *name, uint32_t type, const void *desc, size_t len)
{
	uint32_t h[3] = { (uint32_t)strlen(name) + 1, (uint32_t)len, type };

	put(&m->notes, h, sizeof(h));
	put(&m->notes, name, strlen(name) + 1);
	pad4(&m->notes);
	put(&m->notes, desc, len);
	pad4(&m->notes);
}

static void add_prstatus(struct mk *m, int tid, int cursig, uint64_t regbase, size_t len)
{
	unsigned char d[336] = { 0 };
	int16_t sig = (int16_t)cursig;

	memcpy(d + 12, &sig, 2);
	memcpy(d + 32, &tid, 4);
	for (int i = 0; i < RC_CRASH_NREGS; i++) {
		uint64_t v = regbase + (uint64_t)i;
		memcpy(d + 112 + 8 * i, &v, 8);
	}
	add_note(m, "CORE", NT_PRSTATUS, d, len ? len : sizeof(d));
}

static void add_siginfo(struct mk *m, int signo, int code, uint64_t addr)
{
	unsigned char d[128] = { 0 };

	memcpy(d, &signo, 4);
	memcpy(d + 8, &code, 4);
	memcpy(d + 16, &addr, 8);
	add_note(m, "CORE", NT_SIGINFO, d, sizeof(d));
}

static void add_psinfo(struct mk *m, int pid, const char *fname, const char *psargs, size_t psargs_len)
{
	unsigned char d[136] = { 0 };

	memcpy(d + 24, &pid, 4);
	memcpy(d + 40, fname, strnlen(fname, 16));
	memcpy(d + 56, psargs, psargs_len > 80 ? 80 : psargs_len);
	add_note(m, "CORE", NT_PRPSINFO, d, sizeof(d));
}

static void add_auxv(struct mk *m, uint64_t phdr, uint64_t entry, uint64_t execfn)
{
	uint64_t d[] = { AT_PHDR, phdr, AT_ENTRY, entry, AT_EXECFN, execfn, AT_NULL, 0 };

	add_note(m, "CORE", NT_AUXV, d, sizeof(d));
}

struct fent {
	uint64_t start, end, pgoff;
	const char *path;
};

static void add_files(struct mk *m, const struct fent *f, size_t n, uint64_t claimed)
{
	struct strbuf d = STRBUF_INIT;
	uint64_t count = claimed ? claimed : n, page = 4096;

	put(&d, &count, 8);
	put(&d, &page, 8);
	for (size_t i = 0; i < n; i++) {
		put(&d, &f[i].start, 8);
		put(&d, &f[i].end, 8);
		put(&d, &f[i].pgoff, 8);
	}
	for (size_t i = 0; i < n; i++)
		put(&d, f[i].path, strlen(f[i].path) + 1);
	add_note(m, "CORE", NT_FILE, d.buf, d.len);
	strbuf_release(&d);
}

static void add_seg(struct mk *m, uint64_t vaddr, uint64_t memsz, uint64_t filesz, uint32_t flags)
{
	m->segs[m->nsegs++] = (struct seg){ .vaddr = vaddr, .memsz = memsz, .filesz = filesz, .flags = flags };
}

/* The image: header, program headers (the notes first), the notes, then
 * each segment's bytes, filled with its index + 1. */
static unsigned char *mk_image(struct mk *m, size_t *size)
{
	struct strbuf out = STRBUF_INIT;
	Elf64_Ehdr eh = { 0 };
	size_t phnum = (size_t)m->nsegs + 1;
	uint64_t notes_off = sizeof(eh) + phnum * sizeof(Elf64_Phdr);
	uint64_t data_off = notes_off + m->notes.len;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = m->type;
	eh.e_machine = m->machine;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (uint16_t)phnum;
	put(&out, &eh, sizeof(eh));

	Elf64_Phdr note = { .p_type = PT_NOTE, .p_offset = notes_off, .p_filesz = m->notes.len, .p_align = 4 };
	put(&out, &note, sizeof(note));
	uint64_t off = data_off;
	for (int i = 0; i < m->nsegs; i++) {
		const struct seg *s = &m->segs[i];
		Elf64_Phdr ph = {
			.p_type = s->type ? s->type : PT_LOAD,
			.p_flags = s->flags,
			.p_offset = s->offset ? s->offset : off,
			.p_vaddr = s->vaddr,
			.p_filesz = s->filesz,
			.p_memsz = s->memsz,
			.p_align = 4096,
		};
		put(&out, &ph, sizeof(ph));
		if (!s->offset)
			off += s->filesz;
	}
	put(&out, m->notes.buf, m->notes.len);
	for (int i = 0; i < m->nsegs; i++) {
		if (m->segs[i].offset)
			continue;
		for (uint64_t j = 0; j < m->segs[i].filesz; j++)
			strbuf_addc(&out, (char)(i + 1));
	}
	strbuf_release(&m->notes);
	*size = out.len;
	return (unsigned char *)strbuf_detach(&out);
}

/* The page-aligned file offset of PATH's first executable segment. */
static uint64_t exec_offset(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t off = 0;
	size_t n;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getphdrnum(elf, &n), 0);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			off = ph.p_offset & ~(uint64_t)4095;
			break;
		}
	}
	elf_end(elf);
	close(fd);
	assert_true(off > 0);
	return off;
}

static void save_seed(const char *name, const void *p, size_t n)
{
	const char *dir = getenv("RC_CORE_SEEDS");
	char path[PATH_MAX];

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static int read_image(struct rc_crash *c, const unsigned char *p, size_t n, struct strbuf *err)
{
	crash_init(c);
	strbuf_reset(err);
	return crash_read_core(c, p, n, err);
}

/* A two-thread process whose second thread took a SIGBUS in a file
 * mapping; every note present and well formed. */
static void test_handmade(void **state)
{
	struct mk m;
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	char psargs[80];
	size_t size;
	struct stat st;
	const struct rc_mapping *mp;

	(void)state;
	mk_init(&m);
	/* 80 characters and no NUL: the note's field is full. */
	memset(psargs, 'x', sizeof(psargs));
	memcpy(psargs, "svc  --model /m.bin ", 20);
	add_prstatus(&m, 101, SIGBUS, 0x1000, 0);
	add_psinfo(&m, 100, "svc-with-a-long-name", psargs, sizeof(psargs));
	add_siginfo(&m, SIGBUS, BUS_ADRERR, 0x70002010);
	add_auxv(&m, 0x400040, 0x401000, 0x7ffd0ff0);
	uint64_t text_off = exec_offset(self_exe);
	const struct fent files[] = {
		{ 0x400000, 0x401000, 0, "/nonexistent/rc-gone" },
		{ 0x401000, 0x403000, 1, "/nonexistent/rc-gone" },
		{ 0x70000000, 0x70004000, 2, SOURCE_ROOT "/meson.build" },
		{ 0x60000000, 0x60001000, 0, "/dev/null" },
		/* gdb's way with unmodified text: no segment, the file says. */
		{ 0x50000000, 0x50001000, text_off / 4096, self_exe },
		{ 0x50001000, 0x50002000, 0, self_exe },
	};
	add_files(&m, files, ARRAY_SIZE(files), 0);
	add_prstatus(&m, 100, SIGBUS, 0x2000, 0);
	add_seg(&m, 0x400000, 0x1000, 0x40, PF_R);	/* the kernel's first page only: less */
	add_seg(&m, 0x401000, 0x2000, 0, PF_R | PF_X);
	add_seg(&m, 0x7ffd0000, 0x1000, 0x100, PF_R | PF_W);
	add_seg(&m, 0x60000000, 0x1000, 0, PF_R | PF_W);
	unsigned char *img = mk_image(&m, &size);
	save_seed("handmade", img, size);

	assert_int_equal(read_image(&c, img, size, &err), 0);
	assert_string_equal(strbuf_str(&c.problems), "");
	assert_int_equal(c.nthreads, 2);
	assert_int_equal(c.crashed_tid, 101);
	assert_true(c.threads[0].crashed);
	assert_false(c.threads[1].crashed);
	assert_int_equal(c.threads[0].regs[RC_REG_RIP], 0x1000 + RC_REG_RIP);
	assert_int_equal(c.threads[1].regs[RC_REG_RSP], 0x2000 + RC_REG_RSP);
	assert_int_equal(c.threads[1].regs[RC_CRASH_NREGS - 1], 0x2000 + RC_CRASH_NREGS - 1);
	assert_int_equal(c.signo, SIGBUS);
	assert_int_equal(c.si_code, BUS_ADRERR);
	assert_int_equal(c.fault_addr, 0x70002010);
	assert_int_equal(c.pid, 100);
	assert_string_equal(c.fname, "svc-with-a-long-");	/* all 16 bytes, no NUL */
	assert_int_equal(c.argc, 4);
	assert_string_equal(c.argv[0], "svc");
	assert_string_equal(c.argv[1], "--model");
	assert_string_equal(c.argv[2], "/m.bin");
	assert_int_equal(strlen(c.argv[3]), 60);
	assert_null(c.argv[4]);
	assert_string_equal(c.exe, "/nonexistent/rc-gone");
	assert_int_equal(c.auxv_execfn, 0x7ffd0ff0);

	/* The segments, and the NT_FILE entries without one. */
	assert_int_equal(c.nmaps, 7);
	mp = crash_mapping_at(&c, 0x50000000);
	assert_non_null(mp);
	assert_string_equal(mp->path, self_exe);
	assert_int_equal(mp->offset, text_off);
	assert_true(mp->read && mp->exec && !mp->write);
	mp = crash_mapping_at(&c, 0x50001000);
	assert_non_null(mp);
	assert_true(mp->read && !mp->exec && !mp->write);
	check_sorted(&c);
	mp = crash_mapping_at(&c, 0x401800);
	assert_non_null(mp);
	assert_string_equal(mp->path, "/nonexistent/rc-gone");
	assert_int_equal(mp->offset, 0x1000);
	assert_true(mp->exec && !mp->write && !mp->in_core);
	assert_int_equal(mp->file_size, -1);
	mp = crash_mapping_at(&c, 0x70002010);
	assert_non_null(mp);
	assert_string_equal(mp->path, SOURCE_ROOT "/meson.build");
	assert_int_equal(mp->offset, 0x2000);
	assert_true(mp->read && !mp->exec && !mp->in_core);	/* not an ELF file: readable */
	assert_int_equal(stat(SOURCE_ROOT "/meson.build", &st), 0);
	assert_int_equal(mp->file_size, st.st_size);
	mp = crash_mapping_at(&c, 0x60000000);
	assert_non_null(mp);
	assert_string_equal(mp->path, "/dev/null");
	assert_int_equal(mp->file_size, -1);	/* a device has no size */
	mp = crash_mapping_at(&c, 0x7ffd0000);
	assert_non_null(mp);
	assert_null(mp->path);
	assert_true(mp->in_core && mp->write);
	assert_null(crash_mapping_at(&c, 0x7ffd1000));
	assert_null(crash_mapping_at(&c, 0x3fffff));
	assert_null(crash_mapping_at(&c, 0));
	assert_null(crash_mapping_at(&c, UINT64_MAX));

	/* The stack's bytes are the third segment's (filled with 3); the
	 * core holds its first 0x100 bytes. */
	unsigned char buf[8];
	assert_int_equal(crash_read_mem(&c, 0x7ffd00f8, buf, 8), 8);
	assert_int_equal(buf[0], 3);
	assert_int_equal(crash_read_mem(&c, 0x7ffd00fc, buf, 8), 4);
	assert_int_equal(crash_read_mem(&c, 0x400000, buf, 8), 8);
	assert_int_equal(buf[7], 1);
	crash_release(&c);

	/* Without NT_SIGINFO: the first thread's pr_cursig, no address. */
	free(img);
	mk_init(&m);
	add_prstatus(&m, 7, SIGABRT, 0, 0);
	img = mk_image(&m, &size);
	save_seed("minimal", img, size);
	assert_int_equal(read_image(&c, img, size, &err), 0);
	assert_int_equal(c.signo, SIGABRT);
	assert_false(c.has_siginfo);
	assert_int_equal(c.crashed_tid, 7);
	assert_null(c.exe);
	assert_null(c.argv);
	assert_int_equal(c.argc, 0);
	assert_int_equal(c.nmaps, 0);
	assert_null(crash_mapping_at(&c, 0));
	crash_release(&c);
	free(img);
	strbuf_release(&err);
}

/* Notes that lie: short, inconsistent, overlapping, cut. */
static void test_handmade_damaged(void **state)
{
	struct mk m;
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	size_t size;

	(void)state;
	mk_init(&m);
	add_prstatus(&m, 6, SIGSEGV, 0x100, 40);	/* a pid, no registers */
	/* SIGSEGV from kill(): the bytes at 16 are a pid and a uid. */
	add_siginfo(&m, SIGSEGV, SI_USER, 0x0000000700001234ULL);
	add_prstatus(&m, 5, SIGSEGV, 0x100, 20);	/* too short for a pid */
	const struct fent files[] = { { 0x1000, 0x2000, 0, "/a" }, { 0x2000, 0x3000, 0, "/b" } };
	add_files(&m, files, ARRAY_SIZE(files), 1000000);	/* a count it cannot hold */
	add_note(&m, "LINUX", NT_PRSTATUS, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 50);
	add_seg(&m, 0x10000, 0x3000, 0x100, PF_R);
	add_seg(&m, 0x11000, 0x1000, 0x100, PF_R | PF_W);	/* overlaps the first */
	add_seg(&m, UINT64_MAX - 0xfff, 0x2000, 0, PF_R);	/* wraps around */
	add_seg(&m, 0x20000, 0x1000, 0, PF_R);
	m.segs[m.nsegs - 1].type = PT_GNU_STACK;	/* not a mapping */
	unsigned char *img = mk_image(&m, &size);
	/* A segment claiming bytes past the end. */
	Elf64_Phdr ph;
	memcpy(&ph, img + sizeof(Elf64_Ehdr) + 2 * sizeof(ph), sizeof(ph));
	ph.p_filesz = 1 << 20;
	memcpy(img + sizeof(Elf64_Ehdr) + 2 * sizeof(ph), &ph, sizeof(ph));
	save_seed("damaged", img, size);

	assert_int_equal(read_image(&c, img, size, &err), 0);
	const char *pr = strbuf_str(&c.problems);
	printf("# problems:\n%s", pr);
	assert_non_null(strstr(pr, "NT_PRSTATUS note is too short (20 bytes)"));
	assert_non_null(strstr(pr, "thread 6's NT_PRSTATUS note is too short for its registers"));
	assert_non_null(strstr(pr, "NT_FILE note claims 1000000 files"));
	assert_non_null(strstr(pr, "overlapping segments at 0x11000"));
	assert_non_null(strstr(pr, "wraps around"));
	assert_non_null(strstr(pr, "core truncated: 1 of 2 segments are cut off"));
	assert_int_equal(c.nthreads, 1);
	assert_int_equal(c.threads[0].tid, 6);
	assert_int_equal(c.threads[0].regs[RC_REG_RIP], 0);
	assert_true(c.has_siginfo);
	assert_int_equal(c.signo, SIGSEGV);
	assert_int_equal(c.si_code, SI_USER);
	assert_int_equal(c.fault_addr, 0);
	assert_int_equal(c.nmaps, 1);
	assert_int_equal(c.maps[0].start, 0x10000);
	assert_null(c.maps[0].path);
	assert_true(c.maps[0].in_core);
	crash_release(&c);
	free(img);

	/* NT_FILE with fewer names than entries; gdb's SIGSTOP. */
	mk_init(&m);
	add_prstatus(&m, 9, 0, 0, 0);
	add_siginfo(&m, SIGSTOP, SI_KERNEL, 0);
	struct strbuf d = STRBUF_INIT;
	uint64_t v[] = { 3, 4096, 0x1000, 0x2000, 0, 0x2000, 0x3000, 1, 0x5000, 0x4000, 0 };
	put(&d, v, sizeof(v));
	put(&d, "/x\0/y", 5);		/* the second name has no NUL */
	add_note(&m, "CORE", NT_FILE, d.buf, d.len);
	strbuf_release(&d);
	img = mk_image(&m, &size);
	save_seed("names", img, size);
	assert_int_equal(read_image(&c, img, size, &err), 0);
	assert_non_null(strstr(strbuf_str(&c.problems), "the NT_FILE note names 1 of its 3 files"));
	assert_int_equal(c.signo, 0);
	assert_false(c.has_siginfo);
	assert_int_equal(c.nmaps, 1);
	assert_string_equal(c.maps[0].path, "/x");
	assert_string_equal(c.exe, "/x");
	crash_release(&c);
	free(img);

	/* No thread at all. */
	mk_init(&m);
	add_psinfo(&m, 1, "x", "x", 1);
	img = mk_image(&m, &size);
	assert_int_equal(read_image(&c, img, size, &err), -1);
	assert_string_equal(err.buf, "no thread (NT_PRSTATUS note) in the core");
	assert_int_equal(c.nthreads, 0);
	assert_null(c.fname);
	crash_release(&c);
	free(img);
	strbuf_release(&err);
}

/* The thread cap: the rest are counted out, not read. */
static void test_thread_cap(void **state)
{
	struct mk m;
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	size_t size;

	(void)state;
	mk_init(&m);
	for (int i = 0; i < RC_CRASH_MAX_THREADS + 10; i++)
		add_prstatus(&m, 1000 + i, SIGSEGV, 0, 0);
	unsigned char *img = mk_image(&m, &size);
	assert_int_equal(read_image(&c, img, size, &err), 0);
	assert_int_equal(c.nthreads, RC_CRASH_MAX_THREADS);
	assert_int_equal(c.threads[RC_CRASH_MAX_THREADS - 1].tid, 1000 + RC_CRASH_MAX_THREADS - 1);
	assert_non_null(strstr(strbuf_str(&c.problems), "more than 4096 threads"));
	crash_release(&c);
	free(img);
	strbuf_release(&err);
}

/* (d) what is no core says what it is */
static void test_not_cores(void **state)
{
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	struct image im;
	unsigned char junk[4096];

	(void)state;
	assert_int_equal(read_image(&c, (const unsigned char *)"", 0, &err), -1);
	assert_string_equal(err.buf, "the file is empty");

	srand(7);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)rand();
	assert_int_equal(read_image(&c, junk, sizeof(junk), &err), -1);
	assert_string_equal(err.buf, "not an ELF file");
	assert_int_equal(read_image(&c, (const unsigned char *)"\177ELF", 4, &err), -1);
	assert_true(err.len > 0);
	/* An ELF header with random bytes after the magic. */
	memcpy(junk, ELFMAG, SELFMAG);
	assert_int_equal(read_image(&c, junk, sizeof(junk), &err), -1);
	assert_true(err.len > 0);

	if (image_map(&im, "/bin/true")) {
		assert_int_equal(read_image(&c, im.p, im.size, &err), -1);
		assert_string_equal(err.buf, "an ELF executable, not a core");
		image_release(&im);
	}

	struct mk m;
	size_t size;
	mk_init(&m);
	m.machine = EM_AARCH64;
	add_prstatus(&m, 1, SIGSEGV, 0, 0);
	unsigned char *img = mk_image(&m, &size);
	assert_int_equal(read_image(&c, img, size, &err), -1);
	assert_string_equal(err.buf, "a core for aarch64, not x86_64");
	free(img);

	mk_init(&m);
	m.type = ET_REL;
	img = mk_image(&m, &size);
	assert_int_equal(read_image(&c, img, size, &err), -1);
	assert_string_equal(err.buf, "an ELF object file, not a core");
	assert_int_equal(c.nthreads, 0);
	free(img);

	/* A core cut inside its program headers. */
	mk_init(&m);
	add_prstatus(&m, 1, SIGSEGV, 0, 0);
	add_seg(&m, 0x1000, 0x1000, 0x10, PF_R);
	img = mk_image(&m, &size);
	assert_int_equal(read_image(&c, img, sizeof(Elf64_Ehdr) + 60, &err), -1);
	assert_string_equal(err.buf, "core truncated: its program headers are cut off (the core file is "
				     "124 bytes): no thread to read");
	free(img);
	crash_release(&c);
	strbuf_release(&err);
}

/* crash_release frees what unwind.c adds too (ASan checks the leaks). */
static void test_release(void **state)
{
	struct rc_crash c;

	(void)state;
	crash_init(&c);
	c.modules = xcalloc(2, sizeof(*c.modules));
	c.nmodules = 2;
	c.modules[0].name = xstrdup("/lib/a.so");
	c.modules[1].name = xstrdup("/lib/b.so");
	c.threads = xcalloc(1, sizeof(*c.threads));
	c.nthreads = 1;
	c.threads[0].name = xstrdup("worker");
	c.threads[0].unwind_error = xstrdup("no stack");
	c.threads[0].frames = xcalloc(2, sizeof(struct rc_frame));
	c.threads[0].nframes = 2;
	c.threads[0].frames[0].function = xstrdup("f");
	c.threads[0].frames[0].file = xstrdup("f.c");
	c.threads[0].frames[0].module = &c.modules[0];
	c.maps = xcalloc(1, sizeof(*c.maps));
	c.nmaps = 1;
	c.maps[0].path = xstrdup("/lib/a.so");
	c.argv = xcalloc(2, sizeof(char *));
	c.argv[0] = xstrdup("prog");
	c.argc = 1;
	c.exe = xstrdup("/bin/prog");
	c.fname = xstrdup("prog");
	crash_problem(&c, "thread %d: %s", 3, "x");
	crash_problem(&c, "two");
	assert_string_equal(c.problems.buf, "thread 3: x\ntwo\n");
	assert_null(crash_thread(&c));		/* nothing crashed */
	c.threads[0].crashed = true;
	assert_ptr_equal(crash_thread(&c), &c.threads[0]);
	crash_release(&c);
	assert_int_equal(c.nthreads, 0);
	assert_null(c.threads);
	assert_null(c.problems.buf);
	crash_release(&c);	/* twice is fine */

	assert_string_equal(rc_crash_reg_names[RC_REG_RIP], "rip");
	assert_string_equal(rc_crash_reg_names[RC_REG_RSP], "rsp");
	assert_string_equal(rc_crash_reg_names[RC_REG_RBP], "rbp");
	assert_string_equal(rc_crash_reg_names[RC_REG_RAX], "rax");
	assert_string_equal(rc_crash_reg_names[0], "r15");
	assert_string_equal(rc_crash_reg_names[RC_CRASH_NREGS - 1], "gs");
}

static void test_mapping_at(void **state)
{
	struct rc_crash c;
	struct rc_mapping maps[] = {
		{ .start = 0x1000, .end = 0x2000 },
		{ .start = 0x2000, .end = 0x3000 },
		{ .start = 0x5000, .end = 0x6000 },
		{ .start = UINT64_MAX - 0x1000, .end = UINT64_MAX },
	};

	(void)state;
	crash_init(&c);
	assert_null(crash_mapping_at(&c, 0x1000));
	c.maps = maps;
	c.nmaps = ARRAY_SIZE(maps);
	assert_null(crash_mapping_at(&c, 0));
	assert_null(crash_mapping_at(&c, 0xfff));
	assert_ptr_equal(crash_mapping_at(&c, 0x1000), &maps[0]);
	assert_ptr_equal(crash_mapping_at(&c, 0x1fff), &maps[0]);
	assert_ptr_equal(crash_mapping_at(&c, 0x2000), &maps[1]);
	assert_null(crash_mapping_at(&c, 0x3000));
	assert_null(crash_mapping_at(&c, 0x4fff));
	assert_ptr_equal(crash_mapping_at(&c, 0x5800), &maps[2]);
	assert_null(crash_mapping_at(&c, 0x6000));
	assert_ptr_equal(crash_mapping_at(&c, UINT64_MAX - 1), &maps[3]);
	assert_null(crash_mapping_at(&c, UINT64_MAX));
	c.nmaps = 1;
	assert_ptr_equal(crash_mapping_at(&c, 0x1800), &maps[0]);
	assert_null(crash_mapping_at(&c, 0x2000));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--crash-child"))
		return crash_child();
	if (argc > 1 && !strcmp(argv[1], "--sleep-child"))
		return sleep_child();
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (n <= 0)
		return 1;
	self_exe[n] = '\0';

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping_at),
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_handmade_damaged),
		cmocka_unit_test(test_thread_cap),
		cmocka_unit_test(test_not_cores),
		cmocka_unit_test(test_kernel_core),
		cmocka_unit_test(test_gdb_core),
		cmocka_unit_test(test_gcore_live),
		cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
