/* The libdwfl adapter against real programs, built here with cc: cores
 * made with gcore of a child that stopped itself, compared with what gdb
 * shows for the same core; a live process stopped with ptrace; a deep
 * recursion; damaged cores.  Skips when cc, gdb or ptrace is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#include "crash/crash.h"
#include "crash/procmap.h"
#include "crash/python.h"
#include "crash/symindex.h"
#include "crash/unwind.h"
#include "util/strbuf.h"
#include "util/util.h"

/* main -> a -> b -> c, with leaf() always inlined into c; two threads
 * blocked in known functions.  "stop" stops the process in leaf (just
 * before a NULL write), "live" waits in leaf for a byte on stdin and exits
 * 42 on 'x', "segv" makes the NULL write and aborts in a SIGSEGV handler
 * on an alternate stack, "deep N" stops N calls deep in rec(). */
static const char prog_src[] =
	"#define _GNU_SOURCE\n"
	"#include <pthread.h>\n"
	"#include <signal.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <unistd.h>\n"
	"static int fds[2];\n"
	"static int live, segv;\n"
	"volatile int *volatile nullp;\n"
	"__attribute__((noinline, noclone)) void *blocked_in_read(void *arg)\n"
	"{\n"
	"	char ch;\n"
	"	(void)arg;\n"
	"	read(fds[0], &ch, 1);\n"
	"	return NULL;\n"
	"}\n"
	"__attribute__((noinline, noclone)) void *blocked_in_pause(void *arg)\n"
	"{\n"
	"	(void)arg;\n"
	"	for (;;)\n"
	"		pause();\n"
	"	return NULL;\n"
	"}\n"
	"static inline __attribute__((always_inline)) void leaf(int n)\n"
	"{\n"
	"	if (live) {\n"
	"		char ch = 0;\n"
	"		write(1, \"ready\\n\", 6);\n"
	"		_exit(read(0, &ch, 1) == 1 && ch == 'x' ? 42 : 1);\n"
	"	}\n"
	"	if (!segv)\n"
	"		kill(getpid(), SIGSTOP);\n"
	"	*nullp = n;\n"
	"}\n"
	"__attribute__((noinline, noclone)) void c(int n)\n"
	"{\n"
	"	leaf(n);\n"
	"	asm volatile(\"\");\n"
	"}\n"
	"__attribute__((noinline, noclone)) void b(int n)\n"
	"{\n"
	"	c(n + 1);\n"
	"	asm volatile(\"\");\n"
	"}\n"
	"__attribute__((noinline, noclone)) void a(int n)\n"
	"{\n"
	"	b(n + 1);\n"
	"	asm volatile(\"\");\n"
	"}\n"
	"__attribute__((noinline, noclone)) int rec(int n)\n"
	"{\n"
	"	if (n == 0) {\n"
	"		kill(getpid(), SIGSTOP);\n"
	"		return 0;\n"
	"	}\n"
	"	return rec(n - 1) + 1;\n"
	"}\n"
	"static void on_segv(int sig)\n"
	"{\n"
	"	(void)sig;\n"
	"	abort();\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	pthread_t t1, t2;\n"
	"	if (pipe(fds) < 0)\n"
	"		return 2;\n"
	"	pthread_create(&t1, NULL, blocked_in_read, NULL);\n"
	"	pthread_create(&t2, NULL, blocked_in_pause, NULL);\n"
	"	pthread_setname_np(t1, \"reader\");\n"
	"	pthread_setname_np(t2, \"pauser\");\n"
	"	usleep(50000);\n"
	"	if (argc > 2 && strcmp(argv[1], \"deep\") == 0)\n"
	"		return rec(atoi(argv[2]));\n"
	"	live = argc > 1 && strcmp(argv[1], \"live\") == 0;\n"
	"	segv = argc > 1 && strcmp(argv[1], \"segv\") == 0;\n"
	"	if (segv) {\n"
	"		stack_t ss = { .ss_sp = malloc(1 << 16), .ss_size = 1 << 16 };\n"
	"		struct sigaction sa;\n"
	"		memset(&sa, 0, sizeof(sa));\n"
	"		sa.sa_handler = on_segv;\n"
	"		sa.sa_flags = SA_ONSTACK;\n"
	"		sigaltstack(&ss, NULL);\n"
	"		sigaction(SIGSEGV, &sa, NULL);\n"
	"	}\n"
	"	a(1);\n"
	"	return 0;\n"
	"}\n";

static char tmpdir[] = "/tmp/rc-unwind-XXXXXX";
static bool have_cc, have_gdb;
static const char *const variants[] = { "O0", "O2" };
static const char *const variant_flags[] = {
	"-g -O0",
	"-g -O2 -fomit-frame-pointer",	/* no frame pointers: CFI only */
};

static void prog_path(char *buf, size_t n, const char *variant)
{
	snprintf(buf, n, "%s/prog-%s", tmpdir, variant);
}

static int group_setup(void **state)
{
	(void)state;
	have_cc = test_in_path("cc");
	have_gdb = test_in_path("gdb") && test_in_path("gcore");
	if (!mkdtemp(tmpdir))
		return -1;
	if (!have_cc)
		return 0;

	char src[256], cmd[1024], out[256];
	snprintf(src, sizeof(src), "%s/prog.c", tmpdir);
	FILE *f = fopen(src, "w");
	if (!f)
		return -1;
	fputs(prog_src, f);
	fclose(f);
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		prog_path(out, sizeof(out), variants[i]);
		snprintf(cmd, sizeof(cmd), "cc %s -pthread -o %s %s", variant_flags[i], out, src);
		if (system(cmd) != 0)
			have_cc = false;
	}
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Starts PROG with ARGS; its stdin and stdout are pipes when asked for. */
static pid_t spawn(const char *prog, const char *arg1, const char *arg2, int *in_fd, int *out_fd)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };

	if (in_fd)
		assert_int_equal(pipe(in), 0);
	if (out_fd)
		assert_int_equal(pipe(out), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* A test that fails mid-way must not leave its program behind. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (in_fd) {
			dup2(in[0], 0);
			close(in[0]);
			close(in[1]);
		}
		if (out_fd) {
			dup2(out[1], 1);
			close(out[0]);
			close(out[1]);
		}
		execl(prog, prog, arg1, arg2, (char *)NULL);
		_exit(127);
	}
	if (in_fd) {
		close(in[0]);
		*in_fd = in[1];
	}
	if (out_fd) {
		close(out[1]);
		*out_fd = out[0];
	}
	return pid;
}

static void *read_whole(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		assert_true(n > 0);
		got += (size_t)n;
	}
	close(fd);
	*size = got;
	return buf;
}

/* A core of PROG run with ARG1 ARG2, which stops itself: gcore writes it
 * while the process is stopped.  Returns the child's pid (now gone). */
static pid_t make_core(const char *prog, const char *arg1, const char *arg2, char *core, size_t n)
{
	int status;
	char cmd[1024], made[512];
	pid_t pid = spawn(prog, arg1, arg2, NULL, NULL);

	assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
	assert_true(WIFSTOPPED(status));
	snprintf(cmd, sizeof(cmd), "gcore -o %s/core %d >/dev/null 2>&1", tmpdir, (int)pid);
	int rc = system(cmd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	assert_int_equal(rc, 0);
	snprintf(made, sizeof(made), "%s/core.%d", tmpdir, (int)pid);
	snprintf(core, n, "%s/core-%s-%s", tmpdir, strrchr(prog, '-') + 1, arg1 ? arg1 : "none");
	assert_int_equal(rename(made, core), 0);
	return pid;
}

/* ---- gdb's view of a core ---- */

struct gdb_frame {
	char func[128];
	int line;		/* 0 when gdb names no prog.c line */
};

struct gdb_thread {
	int lwp;
	struct gdb_frame frames[64];
	size_t nframes;
};

struct gdb_bt {
	struct gdb_thread threads[16];
	size_t nthreads;
};

/* gdb names C functions by their asm label when there is one (glibc's
 * "__GI_raise" for raise); we name them as the symbol table does. */
static const char *plain_name(const char *s)
{
	return strncmp(s, "__GI_", 5) == 0 ? s + 5 : s;
}

static void parse_frame(const char *line, struct gdb_frame *f)
{
	const char *p = strchr(line, ' ');

	memset(f, 0, sizeof(*f));
	while (p && *p == ' ')
		p++;
	if (!p)
		return;
	if (strncmp(p, "0x", 2) == 0) {
		const char *in = strstr(p, " in ");
		if (!in)
			return;
		p = in + 4;
	}
	size_t n = strcspn(p, " (");
	snprintf(f->func, sizeof(f->func), "%.*s", (int)n, p);
	const char *at = strstr(p, " at prog.c:");
	if (at)
		f->line = atoi(at + strlen(" at prog.c:"));
}

static void gdb_backtrace(const char *prog, const char *core, struct gdb_bt *bt)
{
	char cmd[1024], line[1024];

	memset(bt, 0, sizeof(*bt));
	snprintf(cmd, sizeof(cmd),
		 "gdb -nx -batch -iex 'set debuginfod enabled off' -ex 'thread apply all bt' %s %s 2>/dev/null",
		 prog, core);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct gdb_thread *cur = NULL;
	while (fgets(line, sizeof(line), p)) {
		const char *lwp = strstr(line, "(LWP ");
		if (strncmp(line, "Thread ", 7) == 0 && lwp && bt->nthreads < ARRAY_SIZE(bt->threads)) {
			cur = &bt->threads[bt->nthreads++];
			cur->lwp = atoi(lwp + 5);
		} else if (cur && line[0] == '#' && cur->nframes < ARRAY_SIZE(cur->frames)) {
			parse_frame(line, &cur->frames[cur->nframes++]);
		}
	}
	pclose(p);
}

static const struct rc_thread *thread_by_tid(const struct rc_crash *c, int tid)
{
	for (size_t i = 0; i < c->nthreads; i++)
		if (c->threads[i].tid == tid)
			return &c->threads[i];
	return NULL;
}

static bool thread_has(const struct rc_thread *t, const char *func)
{
	for (size_t i = 0; i < t->nframes; i++)
		if (t->frames[i].function && strcmp(t->frames[i].function, func) == 0)
			return true;
	return false;
}

static void print_thread(const struct rc_thread *t)
{
	printf("# thread %d%s%s:\n", t->tid, t->unwind_error ? ": " : "",
	       t->unwind_error ? t->unwind_error : "");
	for (size_t i = 0; i < t->nframes && i < 20; i++) {
		const struct rc_frame *f = &t->frames[i];
		printf("#   #%zu 0x%llx %s+%llu %s:%d%s\n", i, (unsigned long long)f->pc,
		       f->function ? f->function : "??", (unsigned long long)f->offset,
		       f->file ? f->file : "-", f->line, f->inlined ? " (inlined)" : "");
	}
}

/* T's frames hold the functions WANT in this order (others between them
 * allowed: inlined frames, the C runtime's); prints T when they do not. */
static void assert_frames_in_order(const struct rc_thread *t, const char *const *want, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < t->nframes && k < n; i++)
		if (t->frames[i].function && strcmp(t->frames[i].function, want[k]) == 0)
			k++;
	if (k != n)
		print_thread(t);
	assert_int_equal(k, n);
}

/* Our frames of the main thread, up to main (gdb stops there), must be
 * gdb's: the same functions in order, the same prog.c lines. */
static void compare_main_thread(const struct rc_thread *t, const struct gdb_thread *g)
{
	size_t n = 0;

	while (n < t->nframes && !(t->frames[n].function && strcmp(t->frames[n].function, "main") == 0))
		n++;
	assert_true(n < t->nframes);
	n++;
	if (n != g->nframes)
		print_thread(t);
	assert_int_equal(n, g->nframes);
	for (size_t i = 0; i < n; i++) {
		const struct rc_frame *f = &t->frames[i];
		assert_non_null(f->function);
		assert_string_equal(plain_name(f->function), plain_name(g->frames[i].func));
		if (g->frames[i].line) {
			assert_non_null(f->file);
			assert_non_null(strstr(f->file, "prog.c"));
			assert_int_equal(f->line, g->frames[i].line);
		}
	}
}

static void unwind_file_exe(const char *core, const char *exe, struct rc_crash *c, bool with_notes)
{
	struct strbuf err = STRBUF_INIT;
	size_t size;
	void *image = read_whole(core, &size);

	crash_init(c);
	if (with_notes)
		assert_int_equal(crash_read_core(c, image, size, &err), 0);
	int rc = crash_unwind_core(c, image, size, exe, &err);
	if (rc)
		printf("# %s\n", strbuf_str(&err));
	assert_int_equal(rc, 0);
	free(image);
	strbuf_release(&err);
}

static void unwind_file(const char *core, struct rc_crash *c, bool with_notes)
{
	unwind_file_exe(core, NULL, c, with_notes);
}

static void check_against_gdb(const char *variant)
{
	char prog[256], core[512];
	struct gdb_bt bt;
	struct rc_crash c;

	if (!have_cc || !have_gdb)
		skip();
	prog_path(prog, sizeof(prog), variant);
	pid_t pid = make_core(prog, "stop", NULL, core, sizeof(core));
	gdb_backtrace(prog, core, &bt);
	assert_int_equal(bt.nthreads, 3);

	unwind_file(core, &c, true);
	assert_int_equal(c.nthreads, bt.nthreads);
	assert_true(c.nmodules >= 3);

	const struct rc_thread *t = thread_by_tid(&c, pid);
	const struct gdb_thread *g = NULL;
	for (size_t i = 0; i < bt.nthreads; i++)
		if (bt.threads[i].lwp == pid)
			g = &bt.threads[i];
	assert_non_null(t);
	assert_non_null(g);
	compare_main_thread(t, g);

	/* The inlined leaf: a frame of its own before c, at the pc of c's
	 * frame, and c's line is the call site. */
	size_t i = 0;
	while (i < t->nframes && strcmp(t->frames[i].function ? t->frames[i].function : "", "leaf"))
		i++;
	assert_true(i + 1 < t->nframes);
	assert_true(t->frames[i].inlined);
	assert_string_equal(t->frames[i + 1].function, "c");
	assert_false(t->frames[i + 1].inlined);
	assert_true(t->frames[i].pc == t->frames[i + 1].pc);
	assert_non_null(t->frames[i].module);
	assert_non_null(strstr(t->frames[i].module->name, prog));
	assert_true(t->frames[i].module->has_debuginfo);
	assert_true(t->frames[i].module->has_symbols);
	assert_int_equal(strlen(t->frames[i].module->build_id), 40);

	/* The other two threads, whole to their start. */
	bool reader = false, pauser = false;
	for (size_t k = 0; k < c.nthreads; k++) {
		reader |= thread_has(&c.threads[k], "blocked_in_read");
		pauser |= thread_has(&c.threads[k], "blocked_in_pause");
		assert_false(c.threads[k].truncated);
		assert_null(c.threads[k].unwind_error);
	}
	assert_true(reader);
	assert_true(pauser);
	crash_release(&c);
}

static void test_core_O0(void **state)
{
	(void)state;
	check_against_gdb("O0");
}

static void test_core_O2(void **state)
{
	(void)state;
	check_against_gdb("O2");
}

/* Without core.c's threads, the notes' threads are found all the same,
 * with their registers, and the same frames come out. */
static void test_core_without_notes(void **state)
{
	char prog[256], core[512];
	struct rc_crash with, without;

	(void)state;
	if (!have_cc || !have_gdb)
		skip();
	prog_path(prog, sizeof(prog), "O2");
	make_core(prog, "stop", NULL, core, sizeof(core));
	unwind_file(core, &with, true);
	unwind_file(core, &without, false);
	assert_int_equal(with.nthreads, without.nthreads);
	for (size_t i = 0; i < with.nthreads; i++) {
		const struct rc_thread *a = &with.threads[i];
		const struct rc_thread *b = thread_by_tid(&without, a->tid);
		assert_non_null(b);
		assert_memory_equal(a->regs, b->regs, sizeof(a->regs));
		assert_int_equal(a->nframes, b->nframes);
		for (size_t k = 0; k < a->nframes; k++) {
			assert_true(a->frames[k].pc == b->frames[k].pc);
			if (a->frames[k].function)
				assert_string_equal(a->frames[k].function, b->frames[k].function);
		}
	}
	crash_release(&with);
	crash_release(&without);
}

/* An executable that moved since the crash is found only when named. */
static void test_core_exe_moved(void **state)
{
	char prog[256], copy[300], moved[300], core[512], cmd[1024];
	struct rc_crash c;

	(void)state;
	if (!have_cc || !have_gdb)
		skip();
	prog_path(prog, sizeof(prog), "O2");
	snprintf(copy, sizeof(copy), "%s/prog-copy", tmpdir);
	snprintf(moved, sizeof(moved), "%s/prog-moved", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp %s %s", prog, copy);
	assert_int_equal(system(cmd), 0);
	pid_t pid = make_core(copy, "stop", NULL, core, sizeof(core));
	assert_int_equal(rename(copy, moved), 0);

	unwind_file(core, &c, true);
	const struct rc_thread *t = thread_by_tid(&c, pid);
	assert_non_null(t);
	assert_false(thread_has(t, "b"));
	crash_release(&c);

	unwind_file_exe(core, moved, &c, true);
	t = thread_by_tid(&c, pid);
	assert_non_null(t);
	assert_true(thread_has(t, "b"));
	assert_true(thread_has(t, "leaf"));
	crash_release(&c);
}

/* C++: names demangled, an inlined static function named by its
 * namespace as gdb names it. */
static void test_core_cplusplus(void **state)
{
	static const char src[] =
		"#include <csignal>\n"
		"#include <unistd.h>\n"
		"#include <vector>\n"
		"namespace ns {\n"
		"static inline __attribute__((always_inline)) void helper(int n)\n"
		"{\n"
		"	kill(getpid(), SIGSTOP);\n"
		"	*(volatile int *)nullptr = n;\n"
		"}\n"
		"__attribute__((noinline)) void run(std::vector<int> &v)\n"
		"{\n"
		"	helper(v.size());\n"
		"	asm volatile(\"\");\n"
		"}\n"
		"}\n"
		"int main()\n"
		"{\n"
		"	std::vector<int> v{1, 2};\n"
		"	ns::run(v);\n"
		"}\n";
	char path[256], prog[256], core[512], cmd[1024];
	struct rc_crash c;

	(void)state;
	if (!test_in_path("c++") || !have_gdb)
		skip();
	snprintf(path, sizeof(path), "%s/cxx.cc", tmpdir);
	snprintf(prog, sizeof(prog), "%s/prog-cxx", tmpdir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "c++ -g -O2 -o %s %s", prog, path);
	if (system(cmd) != 0)
		skip();
	pid_t pid = make_core(prog, "stop", NULL, core, sizeof(core));
	unwind_file(core, &c, true);
	const struct rc_thread *t = thread_by_tid(&c, pid);
	assert_non_null(t);
	size_t i;
	for (i = 0; i + 1 < t->nframes; i++)
		if (t->frames[i].function && strcmp(t->frames[i].function, "ns::helper") == 0)
			break;
	if (i + 1 >= t->nframes)
		print_thread(t);
	assert_true(i + 1 < t->nframes);
	assert_true(t->frames[i].inlined);
	assert_string_equal(t->frames[i + 1].function, "ns::run(std::vector<int, std::allocator<int> >&)");
	crash_release(&c);
}

/* A deep recursion unwinds whole, and quickly: libdwfl's own core
 * reader is quadratic here (minutes for 100,000 frames). */
static void test_deep_recursion(void **state)
{
	char prog[256], core[512];
	const int depth = 50000;
	struct rc_crash c;
	struct timespec t0, t1;

	(void)state;
	if (!have_cc || !have_gdb)
		skip();
	prog_path(prog, sizeof(prog), "O0");
	pid_t pid = make_core(prog, "deep", "50000", core, sizeof(core));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	unwind_file(core, &c, true);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %d-frame stack read and unwound in %.3f s\n", depth,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);

	const struct rc_thread *t = thread_by_tid(&c, pid);
	assert_non_null(t);
	assert_false(t->truncated);
	size_t recs = 0;
	for (size_t i = 0; i < t->nframes; i++)
		recs += t->frames[i].function && strcmp(t->frames[i].function, "rec") == 0;
	assert_int_equal(recs, depth + 1);
	assert_string_equal(t->frames[t->nframes - 1].function, "_start");
	crash_release(&c);
}

/* A core the kernel wrote (core_pattern is "core" here) of a crash
 * handled on an alternate signal stack: the walk goes from the handler
 * through the signal frame back to the faulting leaf, and on to main. */
static void test_kernel_core_signal_frame(void **state)
{
	char prog[256], dir[512], core[600];
	int status;
	struct rc_crash c;

	(void)state;
	if (!have_cc)
		skip();
	prog_path(prog, sizeof(prog), "O2");
	snprintf(dir, sizeof(dir), "%s/segv", tmpdir);
	assert_int_equal(mkdir(dir, 0700), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
		if (chdir(dir) < 0 || setrlimit(RLIMIT_CORE, &rl) < 0)
			_exit(127);
		execl(prog, prog, "segv", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	snprintf(core, sizeof(core), "%s/core", dir);
	if (access(core, R_OK) != 0)
		snprintf(core, sizeof(core), "%s/core.%d", dir, (int)pid);
	if (access(core, R_OK) != 0 || !WCOREDUMP(status)) {
		printf("# no core written (core_pattern?): skipping\n");
		skip();
	}

	unwind_file(core, &c, true);
	const struct rc_thread *t = crash_thread(&c);
	assert_non_null(t);
	assert_int_equal(t->tid, pid);
	const char *const want[] = { "abort", "on_segv", "__restore_rt", "leaf", "c", "b", "a", "main" };
	assert_frames_in_order(t, want, ARRAY_SIZE(want));
	assert_false(t->truncated);
	assert_null(t->unwind_error);
	crash_release(&c);
}

/* ---- live ---- */

static void read_line(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got + 1 < n) {
		ssize_t r = read(fd, buf + got, 1);
		assert_true(r == 1);
		if (buf[got++] == '\n')
			break;
	}
	buf[got] = 0;
}

static size_t task_ids(pid_t pid, int *tids, size_t max)
{
	char cmd[128], line[64];
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "ls /proc/%d/task", (int)pid);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (n < max && fgets(line, sizeof(line), p))
		tids[n++] = atoi(line);
	pclose(p);
	return n;
}

static void test_live(void **state)
{
	char prog[256], line[64];
	int in_fd, out_fd, status, tids[16];
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	if (!have_cc)
		skip();
	prog_path(prog, sizeof(prog), "O2");
	pid_t pid = spawn(prog, "live", NULL, &in_fd, &out_fd);
	read_line(out_fd, line, sizeof(line));
	assert_string_equal(line, "ready\n");

	/* Stop every thread as rootcause's attach does. */
	size_t n = task_ids(pid, tids, ARRAY_SIZE(tids));
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ptrace(PTRACE_SEIZE, tids[i], 0L, 0L), 0);
		assert_int_equal(ptrace(PTRACE_INTERRUPT, tids[i], 0L, 0L), 0);
	}
	for (size_t i = 0; i < n; i++)
		assert_int_equal(waitpid(tids[i], &status, __WALL), tids[i]);

	crash_init(&c);
	int rc = crash_unwind_pid(&c, pid, &err);
	if (rc)
		printf("# %s\n", strbuf_str(&err));
	assert_int_equal(rc, 0);
	assert_int_equal(c.nthreads, 3);
	assert_int_equal(c.pid, pid);
	assert_true(c.nmodules >= 3);

	const struct rc_thread *t = thread_by_tid(&c, pid);
	assert_non_null(t);
	const char *const want[] = { "leaf", "c", "b", "a", "main" };
	assert_frames_in_order(t, want, ARRAY_SIZE(want));
	assert_true(t->regs[RC_REG_RIP] == t->frames[0].pc);
	assert_true(t->regs[RC_REG_RSP] != 0);

	bool reader = false, pauser = false;
	for (size_t i = 0; i < c.nthreads; i++) {
		const struct rc_thread *th = &c.threads[i];
		assert_non_null(th->name);
		if (strcmp(th->name, "reader") == 0)
			reader = thread_has(th, "blocked_in_read");
		if (strcmp(th->name, "pauser") == 0)
			pauser = thread_has(th, "blocked_in_pause");
	}
	assert_true(reader);
	assert_true(pauser);
	crash_release(&c);
	strbuf_release(&err);

	/* Detached, it runs on: it reads its byte and exits 42. */
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ptrace(PTRACE_DETACH, tids[i], 0L, 0L), 0);
	assert_int_equal(write(in_fd, "x", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	close(in_fd);
	close(out_fd);
}

/* ---- a Python's walk read from its files, before it runs ---- */

/* Where PID's program file P is placed: its code's start for an
 * executable (/proc/PID/stat's startcode), else the start of its mapping
 * from offset 0 (/proc/PID/maps). 0: not found. */
static uint64_t placed_at(pid_t pid, const struct rc_py_program *p)
{
	char path[64], line[1024];
	uint64_t at = 0;

	if (p->base == RC_PY_BASE_CODE) {
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		const char *s = strrchr(line, ')');
		/* startcode is the 26th field; the 3rd follows the ')'. */
		for (int field = 2; s && field < 26; field++)
			s = strchr(s + 1, ' ');
		return s ? strtoull(s + 1, NULL, 10) : 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (!at && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &start, &end, &off, &maj, &min, &ino) == 6 &&
		    off == 0 && ino == p->ino && makedev(maj, min) == p->dev)
			at = start;
	}
	fclose(f);
	return at;
}

/* PY's walk read from its files is the one read from a process that runs
 * it, and _PyRuntime is where the kernel will place it. */
static void check_program(const char *py)
{
	struct rc_py_program p;
	struct strbuf err = STRBUF_INIT;
	int in_fd, out_fd, status;
	char line[64];

	printf("# %s\n", py);
	int r = crash_python_program(py, &p, &err);
	if (r != 1)
		printf("# %d: %s\n", r, strbuf_str(&err));
	assert_int_equal(r, 1);
	pid_t pid = spawn(py, "-c", "import sys; print('ready', flush=True); sys.stdin.read(1)", &in_fd, &out_fd);
	read_line(out_fd, line, sizeof(line));
	assert_string_equal(line, "ready\n");

	struct crash_thread_unwind *u = crash_thread_unwind_new(pid, &err);
	assert_non_null(u);
	struct rc_crash *c = crash_thread_unwind_model(u);
	if (!c->sym_py_runtime)
		assert_int_equal(crash_thread_unwind_refresh(u, &err), 0);
	uint64_t base = placed_at(pid, &p);
	assert_true(base != 0);
	assert_true(base + p.walk.runtime == c->sym_py_runtime);
	struct rc_py_walk live;
	c->live_pid = pid;
	assert_int_equal(crash_python_walk(c, &live, &err), 1);
	c->live_pid = 0;
	live.runtime = p.walk.runtime;
	assert_memory_equal(&live, &p.walk, sizeof(live));
	crash_thread_unwind_free(u);

	assert_int_equal(write(in_fd, "x", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(in_fd);
	close(out_fd);
	strbuf_release(&err);
}

static void test_python_program(void **state)
{
	char path[512];
	int checked = 0;

	(void)state;
	/* Debian's, whose executable holds the interpreter; pyenv's, built
	 * with a libpython found through its RUNPATH. */
	if (access("/usr/bin/python3.11", X_OK) == 0) {
		check_program("/usr/bin/python3.11");
		checked++;
	}
	const char *root = getenv("PYENV_ROOT"), *home = getenv("HOME");
	/* pyenv names its directories by the whole version; a free-threaded
	 * build's has a t (3.14.7t/bin/python3.14t). */
	for (int minor = 8; minor <= 14; minor++) {
		for (const char *t = ""; t; t = *t ? NULL : "t") {
			glob_t g;
			if (root)
				snprintf(path, sizeof(path), "%s/versions/3.%d.*%s/bin/python3.%d%s", root, minor, t,
					 minor, t);
			else
				snprintf(path, sizeof(path), "%s/.pyenv/versions/3.%d.*%s/bin/python3.%d%s",
					 home ? home : "/root", minor, t, minor, t);
			if (glob(path, 0, NULL, &g) == 0 && g.gl_pathc) {
				check_program(g.gl_pathv[0]);
				checked++;
			}
			globfree(&g);
		}
	}
	if (!checked)
		skip();

	/* No Python, and not a program at all: no walk, one line, no crash. */
	struct rc_py_program p;
	struct strbuf err = STRBUF_INIT;
	assert_int_equal(crash_python_program("/bin/true", &p, &err), 0);
	static const char *const bad[] = { "/dev/null", "/", "/proc/self/status", "/nonexistent/python3" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&err);
		assert_int_equal(crash_python_program(bad[i], &p, &err), -1);
		assert_true(err.len > 0 && !strchr(strbuf_str(&err), '\n'));
	}
	strbuf_release(&err);
}

/* ---- bad input ---- */

static void unwind_bytes(const void *image, size_t size, bool with_notes)
{
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;

	crash_init(&c);
	if (with_notes)
		crash_read_core(&c, image, size, &err);
	strbuf_reset(&err);
	if (crash_unwind_core(&c, image, size, NULL, &err) != 0) {
		assert_true(err.len > 0);
		assert_null(strchr(strbuf_str(&err), '\n'));
	}
	crash_release(&c);
	strbuf_release(&err);
}

static void test_bad_input(void **state)
{
	char prog[256], core[512];
	static const char junk[] = "this is not an ELF file at all";
	size_t size;

	(void)state;
	unwind_bytes(junk, sizeof(junk), false);
	unwind_bytes(junk, 0, false);
	if (!have_cc)
		return;

	/* An ELF file that is no core. */
	prog_path(prog, sizeof(prog), "O0");
	unsigned char *exe = read_whole(prog, &size);
	struct rc_crash c;
	struct strbuf err = STRBUF_INIT;
	crash_init(&c);
	assert_int_equal(crash_unwind_core(&c, exe, size, NULL, &err), -1);
	assert_string_equal(strbuf_str(&err), "cannot unwind core: not a core file");
	crash_release(&c);
	strbuf_release(&err);
	free(exe);

	if (!have_gdb)
		return;
	make_core(prog, "stop", NULL, core, sizeof(core));
	unsigned char *image = read_whole(core, &size);

	/* Cut short anywhere: in the headers, the notes, the stacks. */
	static const size_t cuts[] = { 16, 64, 100, 1000, 4096, 10000, 70000 };
	for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
		unwind_bytes(image, MIN(cuts[i], size), false);
		unwind_bytes(image, MIN(cuts[i], size), true);
	}
	unwind_bytes(image, size / 2, false);
	unwind_bytes(image, size - 1, true);

	/* Random damage to the headers and notes (the first pages). */
	unsigned char *bad = xmalloc(size);
	srand(1);
	for (int round = 0; round < 40; round++) {
		memcpy(bad, image, size);
		size_t span = MIN(size, (size_t)16384);
		for (int k = 0; k < 1 + round % 8; k++)
			bad[(size_t)rand() % span] = (unsigned char)rand();
		unwind_bytes(bad, size, round % 2);
	}
	free(bad);
	free(image);
}

/* ---- the symbol index ---- */

/* No separate debuginfo is looked for (nor asked of a debuginfod). */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The index says what libdwfl says, at and around every symbol's start
 * and end of real libraries (sized, sizeless, aliases, hidden code
 * between exported symbols), asked in another order than libdwfl is.
 * Returns the addresses compared. */
static size_t symindex_agrees(const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	size_t compared = 0;

	assert_non_null(dwfl);
	dwfl_report_begin(dwfl);
	mod = dwfl_report_offline(dwfl, path, path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	struct crash_symindex *x = mod ? crash_symindex_new(mod) : NULL;
	if (!x) {
		dwfl_end(dwfl);
		return 0;
	}
	int n = dwfl_module_getsymtab(mod);
	/* libdwfl reads every symbol at each look-up: some 800 of them. */
	int stride = n / 800 + 1;
	/* Far into each symbol first, so that the pieces are first asked
	 * for elsewhere than where they are checked. */
	static const int64_t deltas[] = { 1 << 30, -1, 0, 1, 7, 1 << 29 };
	for (size_t d = 0; d < sizeof(deltas) / sizeof(deltas[0]); d++) {
		for (int i = 1; i < n; i += stride) {
			GElf_Sym sym;
			GElf_Addr a;
			if (!dwfl_module_getsym_info(mod, i, &sym, &a, NULL, NULL, NULL))
				continue;
			/* 1 << 30: the middle; 1 << 29: the last byte, and one past. */
			uint64_t at[2] = { a + (uint64_t)deltas[d], 0 };
			size_t nat = 1;
			if (deltas[d] == 1 << 30)
				at[0] = a + sym.st_size / 2;
			else if (deltas[d] == 1 << 29) {
				at[0] = a + sym.st_size - 1;
				at[1] = a + sym.st_size;
				nat = 2;
			}
			for (size_t k = 0; k < nat; k++) {
				GElf_Off off_x = 0, off_d = 0;
				GElf_Sym esym;
				const char *nx = crash_symindex_name(x, mod, at[k], &off_x);
				const char *nd = dwfl_module_addrinfo(mod, at[k], &off_d, &esym, NULL, NULL, NULL);
				if ((nx == NULL) != (nd == NULL) || (nx && (strcmp(nx, nd) != 0 || off_x != off_d)))
					fail_msg("%s at 0x%llx: the index says %s+%llu, libdwfl %s+%llu", path,
						 (unsigned long long)at[k], nx ? nx : "nothing",
						 (unsigned long long)off_x, nd ? nd : "nothing",
						 (unsigned long long)off_d);
				compared++;
			}
		}
	}
	crash_symindex_free(x);
	dwfl_end(dwfl);
	return compared;
}

static void test_symindex(void **state)
{
	static const char *const patterns[] = {
		"/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
		"/usr/bin/python3.11",
		"/usr/lib/x86_64-linux-gnu/libtorch_cpu.so.*",
		/* With their local symbols (.symtab): libdwfl's second pass. */
		"/usr/lib/x86_64-linux-gnu/libasan.so.*",
		"/proc/self/exe",
	};
	size_t compared = 0, libraries = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		glob_t g;
		if (glob(patterns[i], 0, NULL, &g) != 0)
			continue;
		size_t c = symindex_agrees(g.gl_pathv[0]);
		compared += c;
		libraries += c > 0;
		globfree(&g);
	}
	if (!libraries)
		skip();	/* none of them here */
	assert_true(compared > 4000);
}

/* ---- a file's mappings by PROCMAP_QUERY ---- */

/* Every run of one file's mappings in this process's /proc/self/maps,
 * grouped as dwfl_linux_proc_report groups them (consecutive file-backed
 * lines of one inode, the anonymous ones between skipped), is what
 * crash_procmap_file_run finds from its first address, from an address in
 * its last mapping, and from one byte before its end; an address in
 * anonymous memory is in no file's mapping. Runs whose file does not map
 * from offset 0 at their start (a data file mapped at an offset) are ones
 * it may leave to the maps, never answer wrongly. */
static void test_procmap(void **state)
{
	(void)state;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	uint64_t low, high;
	char *name = NULL;
	void *anon = malloc(1 << 20);	/* an mmap of its own: anonymous */
	int r = crash_procmap_file_run(fd, (uint64_t)(uintptr_t)anon + 4096, &low, &high, &name);
	free(anon);
	if (r < 0) {
		close(fd);
		skip();	/* a kernel before 6.11 */
	}
	assert_int_equal(r, 0);

	FILE *f = fopen("/proc/self/maps", "re");
	assert_non_null(f);
	char line[4096 + 256], run_name[4096] = "";
	uint64_t run_low = 0, run_high = 0, run_last = 0, run_ino = 0;
	unsigned run_maj = 0, run_min = 0;
	size_t checked = 0;
	bool more = true;
	while (more) {
		uint64_t start = 0, end = 0, off = 0, ino = 0;
		unsigned maj = 0, min = 0;
		int at = 0;
		more = fgets(line, sizeof(line), f) != NULL;
		line[strcspn(line, "\n")] = '\0';
		bool file = more &&
			    sscanf(line, "%lx-%lx %*s %lx %x:%x %lu %n", &start, &end, &off, &maj, &min, &ino, &at) >= 6 &&
			    at > 0 && line[at] == '/' && (ino || maj || min);
		if (more && !file)
			continue;
		if (file && run_name[0] && ino == run_ino && maj == run_maj && min == run_min) {
			run_last = start;
			run_high = end;
			continue;
		}
		/* The run before this line is complete: ask for it. */
		if (run_name[0] && !strstr(run_name, " (deleted)")) {
			uint64_t probes[] = { run_low, run_last, run_high - 1 };
			for (size_t i = 0; i < ARRAY_SIZE(probes); i++) {
				r = crash_procmap_file_run(fd, probes[i], &low, &high, &name);
				assert_true(r == 1 || r == CRASH_PROCMAP_UNSURE);
				if (r != 1)
					continue;
				assert_int_equal(low, run_low);
				assert_int_equal(high, run_high);
				assert_string_equal(name, run_name);
				free(name);
				checked++;
			}
		}
		if (file) {
			snprintf(run_name, sizeof(run_name), "%s", line + at);
			run_low = run_last = start;
			run_high = end;
			run_ino = ino;
			run_maj = maj;
			run_min = min;
		}
	}
	fclose(f);
	close(fd);
	/* The test binary, libc, libdw, libelf, cmocka, the loader at least. */
	assert_true(checked >= 3 * 6);
}

/* ---- demangling ---- */

static void test_demangle(void **state)
{
	char *s;

	(void)state;
	assert_null(crash_demangle("main"));
	assert_null(crash_demangle(NULL));
	assert_null(crash_demangle("_Z"));
	assert_null(crash_demangle("_Zjunk!"));
	s = crash_demangle("_ZN3foo3barEi");
	if (!s)
		skip();	/* no libstdc++ on this machine */
	assert_string_equal(s, "foo::bar(int)");
	free(s);
	s = crash_demangle("_ZNSt6vectorIiSaIiEE9push_backERKi");
	assert_non_null(s);
	assert_string_equal(s, "std::vector<int, std::allocator<int> >::push_back(int const&)");
	free(s);
	/* Rust's legacy names: the hash goes, the escapes are decoded. */
	s = crash_demangle("_ZN4core9panicking5panic17h0123456789abcdefE");
	assert_non_null(s);
	assert_string_equal(s, "core::panicking::panic");
	free(s);
	s = crash_demangle("_ZN60_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..Drop$GT$4drop17h1234567890abcdefE");
	assert_non_null(s);
	assert_string_equal(s, "<alloc::vec::Vec<T> as core::ops::Drop>::drop");
	free(s);
	s = crash_demangle("_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$"
			   "closure$u7d$$u7d$$GT$17h0d5ba2d5e0b5e0e5E");
	assert_non_null(s);
	assert_string_equal(s, "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>");
	free(s);

	/* Absurdly long input is left alone rather than recursed into. */
	char *big = xmalloc(100000);
	memset(big, 'N', 99999);
	memcpy(big, "_Z", 2);
	big[99999] = 0;
	assert_null(crash_demangle(big));
	free(big);
}

int main(void)
{
	/* ptrace may be refused here (a container, Yama): skip, don't fail. */
	if (!test_ptrace_permitted())
		return 77;

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_symindex),
		cmocka_unit_test(test_core_O0),
		cmocka_unit_test(test_core_O2),
		cmocka_unit_test(test_core_without_notes),
		cmocka_unit_test(test_core_exe_moved),
		cmocka_unit_test(test_core_cplusplus),
		cmocka_unit_test(test_deep_recursion),
		cmocka_unit_test(test_kernel_core_signal_frame),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_python_program),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_procmap),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
