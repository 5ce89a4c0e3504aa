/* The memory, futex and misc families (capture/decode/memory.c, futex.c,
 * misc.c).
 *
 * Expected texts are what strace 6.1 printed on this machine for the same
 * calls (`strace -f -o LOG ./prog` on small C programs doing them); the
 * strace line each case mirrors is quoted above it, with its addresses
 * replaced by the test's own. Where a decoder fills event facts, the
 * strace parser reads the printed line back and must find the same facts
 * (dt_check_same_facts). */
#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "decode_test.h"

static struct dt t;

static int setup(void **state)
{
	(void)state;
	dt_init(&t);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_release(&t);
	return 0;
}

static const char *hex(const void *p)
{
	static char buf[4][32];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%#llx", (unsigned long long)(uintptr_t)p);
	return buf[i];
}

static void expect(const char *got, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void expect(const char *got, const char *fmt, ...)
{
	char want[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	assert_string_equal(got, want);
}

/*
 * mmap and friends.
 */

/* mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f457c93d000
 * mmap(0x7f457c772000, 1400832, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3,
 *      0x26000) = 0x7f457c772000 */
static void test_mmap(void **state)
{
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0),
		      0x7f457c93d000, 0);
	assert_string_equal(s, "NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0");
	assert_string_equal(strbuf_str(&t.line), "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = "
				    "0x7f457c93d000");
	assert_int_equal(t.ev.addr, 0x7f457c93d000);
	assert_int_equal(t.ev.len, 8192);
	assert_int_equal(t.ev.fd, -1);
	assert_int_equal(t.ev.mode, PROT_READ | PROT_WRITE);
	assert_int_equal(t.ev.flags, MAP_PRIVATE | MAP_ANONYMOUS);
	assert_int_equal(t.ev.offset, 0);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0x7f457c772000, 1400832, PROT_READ | PROT_EXEC,
			      MAP_PRIVATE | MAP_FIXED | MAP_DENYWRITE, 3, 0x26000),
		      0x7f457c772000, 0);
	assert_string_equal(s, "0x7f457c772000, 1400832, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, "
			       "3, 0x26000");
	assert_int_equal(t.ev.fd, 3);
	assert_int_equal(t.ev.offset, 0x26000);
	dt_check_same_facts(&t);

	/* Failed: the address asked for stays the event's address. */
	s = dt_decode(&t, SYS_mmap, DT_ARGS(0, 1ull << 50, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0),
		      -1, ENOMEM);
	assert_string_equal(s, "NULL, 1125899906842624, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0");
	assert_int_equal(t.ev.addr, 0);
	dt_check_same_facts(&t);
	assert_int_equal(t.parsed.err, ENOMEM);
}

/* strace's table order, not the bit order, and the odd cases:
 * mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_GROWSDOWN, -1, 0)
 * mmap(NULL, 4096, PROT_READ|PROT_WRITE|PROT_EXEC|0x100000,
 *      MAP_SHARED|MAP_ANONYMOUS|MAP_POPULATE|MAP_LOCKED|2<<MAP_HUGE_SHIFT, -1, 0)
 * mmap(NULL, 2097152, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|21<<MAP_HUGE_SHIFT, -1, 0)
 * mmap(0x10000, 4096, PROT_NONE, MAP_SHARED_VALIDATE|MAP_ANONYMOUS|MAP_SYNC|MAP_FIXED_NOREPLACE, -1, 0)
 * mmap(NULL, 4096, PROT_READ, 0xf /\* MAP_??? *\/, 5, 0x1000) = -1 EBADF (Bad file descriptor)
 * mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_32BIT|MAP_NONBLOCK|MAP_DENYWRITE|MAP_EXECUTABLE|MAP_STACK,
 *      0, 0) = -1 ENODEV */
static void test_mmap_flags(void **state)
{
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0, 8192, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_GROWSDOWN, (uint64_t)-1, 0),
		      0x7f88dcb03000, 0);
	assert_string_equal(s, "NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|"
			       "MAP_GROWSDOWN, -1, 0");
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC | 0x100000,
			      MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE | MAP_LOCKED | 0x8000000, (uint64_t)-1, 0),
		      0x7f88dc910000, 0);
	assert_string_equal(s, "NULL, 4096, PROT_READ|PROT_WRITE|PROT_EXEC|0x100000, "
			       "MAP_SHARED|MAP_ANONYMOUS|MAP_POPULATE|MAP_LOCKED|2<<MAP_HUGE_SHIFT, -1, 0");
	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0, 2 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21u << 26),
			      (uint64_t)-1, 0),
		      -1, ENOMEM);
	assert_string_equal(s, "NULL, 2097152, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|21<<MAP_HUGE_SHIFT, "
			       "-1, 0");
	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0x10000, 4096, PROT_NONE,
			      MAP_SHARED_VALIDATE | MAP_FIXED_NOREPLACE | MAP_ANONYMOUS | MAP_SYNC, (uint64_t)-1, 0),
		      -1, EINVAL);
	assert_string_equal(s, "0x10000, 4096, PROT_NONE, MAP_SHARED_VALIDATE|MAP_ANONYMOUS|MAP_SYNC|"
			       "MAP_FIXED_NOREPLACE, -1, 0");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_mmap, DT_ARGS(0, 4096, PROT_READ, 0xf, 5, 4096), -1, EBADF);
	assert_string_equal(s, "NULL, 4096, PROT_READ, 0xf /* MAP_??? */, 5, 0x1000");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_mmap,
		      DT_ARGS(0, 4096, PROT_READ,
			      MAP_PRIVATE | MAP_FILE | MAP_STACK | MAP_32BIT | MAP_EXECUTABLE | MAP_DENYWRITE |
				      MAP_NONBLOCK,
			      0, 0),
		      -1, ENODEV);
	assert_string_equal(s, "NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_32BIT|MAP_NONBLOCK|MAP_DENYWRITE|"
			       "MAP_EXECUTABLE|MAP_STACK, 0, 0");
	dt_check_same_facts(&t);
	/* A type of 0 is MAP_FILE, strace's name for it. */
	s = dt_decode(&t, SYS_mmap, DT_ARGS(0, 4096, PROT_READ, 0, 3, 0), -1, EINVAL);
	assert_string_equal(s, "NULL, 4096, PROT_READ, MAP_FILE, 3, 0");
}

/* With -y the fd carries its path, which becomes the event's fd_shown:
 * mmap(NULL, 59283, PROT_READ, MAP_PRIVATE, 3</etc/ld.so.cache>, 0) = 0x7f51956d0000 */
static void test_mmap_decode_fds(void **state)
{
	char path[] = "/tmp/rc-decode-mmap-XXXXXX";
	char want[256];
	int fd = mkstemp(path);
	const char *s;

	(void)state;
	assert_true(fd >= 0);
	t.opts.decode_fds = true;
	s = dt_decode(&t, SYS_mmap, DT_ARGS(0, 59283, PROT_READ, MAP_PRIVATE, (uint64_t)fd, 0), 0x7f51956d0000, 0);
	snprintf(want, sizeof(want), "NULL, 59283, PROT_READ, MAP_PRIVATE, %d<%s>, 0", fd, path);
	assert_string_equal(s, want);
	assert_string_equal(dt_shown(t.ev.fd_shown), path);
	dt_check_same_facts(&t);
	assert_string_equal(dt_shown(t.parsed.fd_shown), path);
	t.opts.decode_fds = false;
	close(fd);
	unlink(path);
}

/* munmap(0x7f457c92e000, 59283) = 0, brk(NULL) = 0x561948658000,
 * brk(0x561948679000) = 0x561948679000,
 * mremap(0x7f88dcb03000, 8192, 16384, MREMAP_MAYMOVE) = 0x7f88dc90c000,
 * mremap(0x7f88dc90c000, 16384, 4096, MREMAP_MAYMOVE|MREMAP_FIXED, 0x20000) = 0x20000,
 * mremap(0x7f88dc90c000, 16384, 4096, 0) = -1 EFAULT (Bad address) */
static void test_munmap_brk_mremap(void **state)
{
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_munmap, DT_ARGS(0x7f457c92e000, 59283), 0, 0);
	assert_string_equal(s, "0x7f457c92e000, 59283");
	assert_int_equal(t.ev.addr, 0x7f457c92e000);
	assert_int_equal(t.ev.len, 59283);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_brk, DT_ARGS(0), 0x561948658000, 0);
	assert_string_equal(strbuf_str(&t.line), "brk(NULL) = 0x561948658000");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_brk, DT_ARGS(0x561948679000), 0x561948679000, 0);
	assert_string_equal(s, "0x561948679000");
	assert_int_equal(t.ev.addr, 0x561948679000);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_mremap, DT_ARGS(0x7f88dcb03000, 8192, 16384, MREMAP_MAYMOVE), 0x7f88dc90c000, 0);
	assert_string_equal(strbuf_str(&t.line), "mremap(0x7f88dcb03000, 8192, 16384, MREMAP_MAYMOVE) = 0x7f88dc90c000");
	assert_int_equal(t.ev.len, 16384);
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_mremap, DT_ARGS(0x7f88dc90c000, 16384, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, 0x20000),
		      0x20000, 0);
	assert_string_equal(s, "0x7f88dc90c000, 16384, 4096, MREMAP_MAYMOVE|MREMAP_FIXED, 0x20000");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_mremap, DT_ARGS(0x7f88dc90c000, 16384, 4096, 0), -1, EFAULT);
	assert_string_equal(s, "0x7f88dc90c000, 16384, 4096, 0");
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_mremap, DT_ARGS(0x7f88dc90c000, 16384, 4096, 8), -1, EINVAL);
	assert_string_equal(s, "0x7f88dc90c000, 16384, 4096, 0x8 /* MREMAP_??? */");
	dt_check_same_facts(&t);
}

/* mprotect(0x7f88dc90c000, 4096, PROT_READ|PROT_GROWSDOWN), madvise(..., MADV_DONTNEED),
 * madvise(..., 0x3e7 /\* MADV_??? *\/), msync(..., MS_SYNC|MS_INVALIDATE), mlock(..., 4096),
 * mlockall(MCL_CURRENT|MCL_FUTURE), munlockall(), mlock2(..., MLOCK_ONFAULT),
 * mincore(0x7f88dc90c000, 12288, 0x7ffd91464b44) = -1 ENOMEM,
 * membarrier(MEMBARRIER_CMD_QUERY, 0) = 0x3ff (MEMBARRIER_CMD_GLOBAL|...|0x200),
 * shmat(0, NULL, 0) = 0x7f88dcb04000 */
static void test_memory_misc(void **state)
{
	static unsigned char vec[3] = { 1, 0, 0x81 };
	const char *s;
	uint64_t a = 0x7f88dc90c000;

	(void)state;
	assert_string_equal(dt_decode(&t, SYS_mprotect, DT_ARGS(a, 4096, PROT_READ | PROT_GROWSDOWN), -1, ENOMEM),
			    "0x7f88dc90c000, 4096, PROT_READ|PROT_GROWSDOWN");
	assert_string_equal(dt_decode(&t, SYS_madvise, DT_ARGS(a, 4096, MADV_DONTNEED), 0, 0),
			    "0x7f88dc90c000, 4096, MADV_DONTNEED");
	assert_string_equal(dt_decode(&t, SYS_madvise, DT_ARGS(a, 4096, 999), -1, EINVAL),
			    "0x7f88dc90c000, 4096, 0x3e7 /* MADV_??? */");
	assert_string_equal(dt_decode(&t, SYS_msync, DT_ARGS(a, 4096, MS_SYNC | MS_INVALIDATE), 0, 0),
			    "0x7f88dc90c000, 4096, MS_SYNC|MS_INVALIDATE");
	assert_string_equal(dt_decode(&t, SYS_mlock, DT_ARGS(a, 4096), 0, 0), "0x7f88dc90c000, 4096");
	assert_string_equal(dt_decode(&t, SYS_mlockall, DT_ARGS(MCL_CURRENT | MCL_FUTURE), 0, 0),
			    "MCL_CURRENT|MCL_FUTURE");
	assert_string_equal(dt_decode(&t, SYS_munlockall, DT_ARGS(0), 0, 0), "");
	assert_string_equal(dt_decode(&t, SYS_mlock2, DT_ARGS(a, 4096, MLOCK_ONFAULT), 0, 0),
			    "0x7f88dc90c000, 4096, MLOCK_ONFAULT");
	s = dt_decode(&t, SYS_mincore, DT_ARGS(a, 12288, DT_PTR(vec)), -1, ENOMEM);
	expect(s, "0x7f88dc90c000, 12288, %s", hex(vec));
	s = dt_decode(&t, SYS_mincore, DT_ARGS(a, 12288, DT_PTR(vec)), 0, 0);
	assert_string_equal(s, "0x7f88dc90c000, 12288, [1, 0, 1]");

	s = dt_decode(&t, SYS_membarrier, DT_ARGS(MEMBARRIER_CMD_QUERY, 0, 0), 0x3ff, 0);
	assert_string_equal(strbuf_str(&t.line),
			    "membarrier(MEMBARRIER_CMD_QUERY, 0) = 0x3ff (MEMBARRIER_CMD_GLOBAL|"
			    "MEMBARRIER_CMD_GLOBAL_EXPEDITED|MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED|"
			    "MEMBARRIER_CMD_PRIVATE_EXPEDITED|MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED|"
			    "MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE|"
			    "MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE|"
			    "MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ|MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ|"
			    "0x200)");
	s = dt_decode(&t, SYS_membarrier, DT_ARGS(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0), 0, 0);
	assert_string_equal(strbuf_str(&t.line), "membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0) = 0");

	s = dt_decode(&t, SYS_shmat, DT_ARGS(0, 0, 0), 0x7f88dcb04000, 0);
	assert_string_equal(strbuf_str(&t.line), "shmat(0, 0, 0) = 0x7f88dcb04000");
}

/*
 * futex.
 */

/* futex(0x559f2890b0ac, FUTEX_WAIT_PRIVATE, 1, {tv_sec=1, tv_nsec=500}) = -1 EAGAIN
 * futex(0x559f2890b0ac, FUTEX_WAIT, 0, {tv_sec=0, tv_nsec=1000000}) = -1 ETIMEDOUT
 * futex(0x7f457c748990, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME, 31029, NULL,
 *       FUTEX_BITSET_MATCH_ANY) = 0
 * futex(0x559f2890b0ac, FUTEX_WAKE_PRIVATE, 1) = 0 */
static void test_futex_wait_wake(void **state)
{
	static uint32_t f;
	static struct timespec ts = { 1, 500 }, ms = { 0, 1000000 };
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_futex, DT_ARGS(DT_PTR(&f), FUTEX_WAIT_PRIVATE, 1, DT_PTR(&ts), 0, 0), -1, EAGAIN);
	expect(s, "%s, FUTEX_WAIT_PRIVATE, 1, {tv_sec=1, tv_nsec=500}", hex(&f));
	assert_int_equal(t.ev.futex_op, FUTEX_WAIT);
	assert_int_equal(t.ev.addr, DT_PTR(&f));
	assert_int_equal(t.ev.timeout_ms, 1000);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_futex, DT_ARGS(DT_PTR(&f), FUTEX_WAIT, 0, DT_PTR(&ms), 0, 0), -1, ETIMEDOUT);
	expect(s, "%s, FUTEX_WAIT, 0, {tv_sec=0, tv_nsec=1000000}", hex(&f));
	assert_int_equal(t.ev.timeout_ms, 1);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_futex,
		      DT_ARGS(DT_PTR(&f), FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 31029, 0, 0,
			      FUTEX_BITSET_MATCH_ANY),
		      0, 0);
	expect(s, "%s, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME, 31029, NULL, FUTEX_BITSET_MATCH_ANY", hex(&f));
	assert_int_equal(t.ev.futex_op, FUTEX_WAIT_BITSET);
	assert_int_equal(t.ev.timeout_ms, -1);
	dt_check_same_facts(&t);

	s = dt_decode(&t, SYS_futex, DT_ARGS(DT_PTR(&f), FUTEX_WAKE_PRIVATE, 1), 0, 0);
	expect(s, "%s, FUTEX_WAKE_PRIVATE, 1", hex(&f));
	assert_int_equal(t.ev.futex_op, FUTEX_WAKE);
	assert_int_equal(t.ev.timeout_ms, -1);
	dt_check_same_facts(&t);

	/* An unreadable timeout prints as its address and gives no timeout. */
	s = dt_decode(&t, SYS_futex, DT_ARGS(DT_PTR(&f), FUTEX_WAIT, 0, 8), -1, EFAULT);
	expect(s, "%s, FUTEX_WAIT, 0, 0x8", hex(&f));
	assert_int_equal(t.ev.timeout_ms, -1);
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(0, FUTEX_WAIT, 0, 0), -1, EFAULT);
	assert_string_equal(s, "NULL, FUTEX_WAIT, 0, NULL");
	dt_check_same_facts(&t);
}

/* The absolute deadline of FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME against
 * the event's timestamp, as the parser reads it from a -ttt log:
 * futex(0x559f2890b0ac, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0,
 *       {tv_sec=1795975791, tv_nsec=0}, FUTEX_BITSET_MATCH_ANY) = -1 ETIMEDOUT */
static void test_futex_abs_timeout(void **state)
{
	static uint32_t f;
	static struct timespec dl = { 1795975791, 0 };
	const char *s;
	struct strbuf err = STRBUF_INIT;
	struct rc_event pe;

	(void)state;
	s = dt_decode(&t, SYS_futex,
		      DT_ARGS(DT_PTR(&f), FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, DT_PTR(&dl), 0,
			      FUTEX_BITSET_MATCH_ANY),
		      -1, ETIMEDOUT);
	expect(s, "%s, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, {tv_sec=1795975791, tv_nsec=0}, "
		  "FUTEX_BITSET_MATCH_ANY",
	       hex(&f));
	/* No timestamp: like a log without -t, no timeout can be derived. */
	assert_int_equal(t.ev.timeout_ms, -1);
	dt_check_same_facts(&t);

	/* With the call's time, 2.5 s before the deadline. */
	struct dec d;
	struct rc_event ev;
	struct strbuf out = STRBUF_INIT, rv = STRBUF_INIT;
	memset(&d, 0, sizeof(d));
	event_clear(&ev);
	ev.ts = 1795975788.5;
	d.tid = getpid();
	d.call.mem = dt_self_mem();
	d.call.nr = SYS_futex;
	memcpy(d.call.args, DT_ARGS(DT_PTR(&f), FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, DT_PTR(&dl), 0,
			       FUTEX_BITSET_MATCH_ANY),
	       sizeof(d.call.args));
	d.e = &ev;
	d.out = &out;
	d.rv_extra = &rv;
	d.arena = &t.arena;
	d.opts = &t.opts;
	dec_call(&d);
	assert_int_equal(ev.timeout_ms, 2500);

	/* The parser reads the same from the -ttt line. */
	char line[512];
	snprintf(line, sizeof(line), "1795975788.500000 futex(%s) = -1 ETIMEDOUT (Connection timed out)\n",
		 strbuf_str(&out));
	struct strace_parser *p = strace_parser_from_buffer(line, strlen(line));
	assert_int_equal(strace_parser_next(p, &pe, &err), 1);
	assert_int_equal(pe.timeout_ms, 2500);
	strace_parser_free(p);

	/* A tracer that stamps the event only by the exit half. */
	strbuf_reset(&out);
	event_clear(&ev);
	dec_call(&d);
	assert_int_equal(ev.timeout_ms, -1);
	ev.ts = 1795975790.0;
	d.exiting = true;
	d.call.rval = -1;
	d.call.err = ETIMEDOUT;
	dec_call(&d);
	assert_int_equal(ev.timeout_ms, 1000);

	/* A monotonic deadline says nothing against a wall-clock stamp. */
	d.call.args[1] = FUTEX_WAIT_BITSET_PRIVATE;
	d.exiting = false;
	strbuf_reset(&out);
	event_clear(&ev);
	ev.ts = 1795975788.5;
	dec_call(&d);
	assert_int_equal(ev.timeout_ms, -1);
	strbuf_release(&out);
	strbuf_release(&rv);
	strbuf_release(&err);
}

/* futex(0x559f2890b0ac, FUTEX_WAIT_BITSET, 1, NULL, 0x5) = -1 EAGAIN
 * futex(0x559f2890b0ac, FUTEX_WAKE_BITSET, 1, FUTEX_BITSET_MATCH_ANY) = 0
 * futex(0x559f2890b0ac, FUTEX_REQUEUE_PRIVATE, 1, 2, 0x559f2890b0ac) = 0
 * futex(0x559f2890b0ac, FUTEX_CMP_REQUEUE, 1, 2, 0x559f2890b0ac, 0) = 0
 * futex(0x559f2890b0ac, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x559f2890b0ac,
 *       FUTEX_OP_ADD<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0x1) = 0
 * futex(0x559f2890b0ac, FUTEX_WAKE_OP, 1, 1, 0x559f2890b0ac,
 *       FUTEX_OP_OPARG_SHIFT<<28|FUTEX_OP_SET<<28|0x1<<12|FUTEX_OP_CMP_EQ<<24|0) = 0
 * futex(0x559f2890b0ac, FUTEX_LOCK_PI_PRIVATE, {tv_sec=1, tv_nsec=500}) = -1 EPERM
 * futex(0x559f2890b0ac, FUTEX_UNLOCK_PI) = -1 EPERM
 * futex(0x559f2890b0ac, 0x106 /\* FUTEX_??? *\/, {tv_sec=1, tv_nsec=500}) = -1 ENOSYS
 * futex(0x559f2890b0ac, 0x63 /\* FUTEX_??? *\/, 1, 0x2, 0x3, 0x4) = -1 ENOSYS
 * futex(0x559f2890b0ac, FUTEX_WAIT_REQUEUE_PI_PRIVATE|FUTEX_CLOCK_REALTIME, 0,
 *       {tv_sec=1795975791, tv_nsec=0}, 0x559f2890b0ac) = -1 EINVAL */
static void test_futex_ops(void **state)
{
	static uint32_t f;
	static struct timespec ts = { 1, 500 }, dl = { 1795975791, 0 };
	uint64_t a = DT_PTR(&f);
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_WAIT_BITSET, 1, 0, 0, 5), -1, EAGAIN);
	expect(s, "%s, FUTEX_WAIT_BITSET, 1, NULL, 0x5", hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_WAKE_BITSET, 1, 0, 0, FUTEX_BITSET_MATCH_ANY), 0, 0);
	expect(s, "%s, FUTEX_WAKE_BITSET, 1, FUTEX_BITSET_MATCH_ANY", hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_REQUEUE_PRIVATE, 1, 2, a), 0, 0);
	expect(s, "%s, FUTEX_REQUEUE_PRIVATE, 1, 2, %s", hex(&f), hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_CMP_REQUEUE, 1, 2, a, 0), 0, 0);
	expect(s, "%s, FUTEX_CMP_REQUEUE, 1, 2, %s, 0", hex(&f), hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex,
		      DT_ARGS(a, FUTEX_WAKE_OP_PRIVATE, 1, 1, a, FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 1)), 0, 0);
	expect(s, "%s, FUTEX_WAKE_OP_PRIVATE, 1, 1, %s, FUTEX_OP_ADD<<28|0x1<<12|FUTEX_OP_CMP_GT<<24|0x1",
	       hex(&f), hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex,
		      DT_ARGS(a, FUTEX_WAKE_OP, 1, 1, a, (8u << 28) | FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_EQ, 0)),
		      0, 0);
	expect(s, "%s, FUTEX_WAKE_OP, 1, 1, %s, FUTEX_OP_OPARG_SHIFT<<28|FUTEX_OP_SET<<28|0x1<<12|"
		  "FUTEX_OP_CMP_EQ<<24|0",
	       hex(&f), hex(&f));
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_WAKE_OP, 1, 1, a, (7u << 28) | (9u << 24)), 0, 0);
	expect(s, "%s, FUTEX_WAKE_OP, 1, 1, %s, 0x7<<28 /* FUTEX_OP_??? */|0<<12|0x9<<24 /* FUTEX_OP_CMP_??? */|0",
	       hex(&f), hex(&f));
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_LOCK_PI_PRIVATE, 0, DT_PTR(&ts)), -1, EPERM);
	expect(s, "%s, FUTEX_LOCK_PI_PRIVATE, {tv_sec=1, tv_nsec=500}", hex(&f));
	assert_int_equal(t.ev.futex_op, FUTEX_LOCK_PI);
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_UNLOCK_PI, 0), -1, EPERM);
	expect(s, "%s, FUTEX_UNLOCK_PI", hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME, 0, DT_PTR(&ts)), -1, ENOSYS);
	expect(s, "%s, 0x106 /* FUTEX_??? */, {tv_sec=1, tv_nsec=500}", hex(&f));
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex, DT_ARGS(a, 99, 1, 2, 3, 4), -1, ENOSYS);
	expect(s, "%s, 0x63 /* FUTEX_??? */, 1, 0x2, 0x3, 0x4", hex(&f));
	assert_int_equal(t.ev.futex_op, 99);
	dt_check_same_facts(&t);
	s = dt_decode(&t, SYS_futex,
		      DT_ARGS(a, FUTEX_WAIT_REQUEUE_PI_PRIVATE | FUTEX_CLOCK_REALTIME, 0, DT_PTR(&dl), a), -1, EINVAL);
	expect(s, "%s, FUTEX_WAIT_REQUEUE_PI_PRIVATE|FUTEX_CLOCK_REALTIME, 0, {tv_sec=1795975791, tv_nsec=0}, %s",
	       hex(&f), hex(&f));
	dt_check_same_facts(&t);
}

/* get_robust_list(0, [0x7f64e0006a20], [24]) = 0 */
static void test_robust_list(void **state)
{
	static uint64_t head = 0x7f64e0006a20, len = 24;
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_get_robust_list, DT_ARGS(0, DT_PTR(&head), DT_PTR(&len)), 0, 0);
	assert_string_equal(s, "0, [0x7f64e0006a20], [24]");
	s = dt_decode(&t, SYS_get_robust_list, DT_ARGS(1, DT_PTR(&head), DT_PTR(&len)), -1, ESRCH);
	expect(s, "1, %s, %s", hex(&head), hex(&len));
}

static void test_futex_waitv(void **state)
{
	static uint32_t f1, f2;
	static struct futex_waitv w[2];
	static struct timespec ts = { 1, 0 };
	const char *s;

	(void)state;
	w[0].val = 1;
	w[0].uaddr = DT_PTR(&f1);
	w[0].flags = FUTEX_32;
	w[1].val = 0;
	w[1].uaddr = DT_PTR(&f2);
	w[1].flags = FUTEX_32 | FUTEX_PRIVATE_FLAG;
	s = dt_decode(&t, SYS_futex_waitv, DT_ARGS(DT_PTR(w), 2, 0, DT_PTR(&ts), CLOCK_MONOTONIC), -1, ETIMEDOUT);
	expect(s, "[{val=0x1, uaddr=%s, flags=FUTEX_32}, {val=0, uaddr=%s, flags=FUTEX_32|FUTEX_PRIVATE_FLAG}], "
		  "2, 0, {tv_sec=1, tv_nsec=0}, CLOCK_MONOTONIC",
	       hex(&f1), hex(&f2));
}

/*
 * misc: clocks and sleeping.
 */

/* clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1000}, NULL) = 0
 * clock_nanosleep(CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000}, 0x7ffe422ea5e0) = 0
 * clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, {tv_sec=1795975791, tv_nsec=0}, NULL) = 0
 * clock_gettime(CLOCK_MONOTONIC, {tv_sec=8911, tv_nsec=879251816}) = 0
 * clock_gettime(0x63 /\* CLOCK_??? *\/, 0x7ffe422ea580) = -1 EINVAL (Invalid argument)
 * clock_getres(0xffffe7d2 /\* CLOCK_??? *\/, NULL) = 0
 * nanosleep({tv_sec=1, tv_nsec=0}, 0x7ffc...) = 0 */
static void test_clocks(void **state)
{
	static struct timespec req = { 0, 1000 }, rem = { 0, 500 }, now = { 8911, 879251816 };
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_clock_nanosleep, DT_ARGS(CLOCK_REALTIME, 0, DT_PTR(&req), 0), 0, 0);
	assert_string_equal(s, "CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1000}, NULL");
	s = dt_decode(&t, SYS_clock_nanosleep, DT_ARGS(CLOCK_MONOTONIC, 0, DT_PTR(&req), DT_PTR(&rem)), 0, 0);
	expect(s, "CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000}, %s", hex(&rem));
	/* Interrupted: the remaining time is what the kernel wrote. */
	s = dt_decode(&t, SYS_clock_nanosleep, DT_ARGS(CLOCK_MONOTONIC, 0, DT_PTR(&req), DT_PTR(&rem)), -1, 516);
	assert_string_equal(s, "CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000}, {tv_sec=0, tv_nsec=500}");
	s = dt_decode(&t, SYS_clock_nanosleep, DT_ARGS(CLOCK_REALTIME, TIMER_ABSTIME, DT_PTR(&req), 0), 0, 0);
	assert_string_equal(s, "CLOCK_REALTIME, TIMER_ABSTIME, {tv_sec=0, tv_nsec=1000}, NULL");

	s = dt_decode(&t, SYS_clock_gettime, DT_ARGS(CLOCK_MONOTONIC, DT_PTR(&now)), 0, 0);
	assert_string_equal(s, "CLOCK_MONOTONIC, {tv_sec=8911, tv_nsec=879251816}");
	s = dt_decode(&t, SYS_clock_gettime, DT_ARGS(99, DT_PTR(&now)), -1, EINVAL);
	expect(s, "0x63 /* CLOCK_??? */, %s", hex(&now));
	s = dt_decode(&t, SYS_clock_getres, DT_ARGS((uint64_t)-6190, 0), 0, 0);
	assert_string_equal(s, "0xffffe7d2 /* CLOCK_??? */, NULL");

	s = dt_decode(&t, SYS_nanosleep, DT_ARGS(DT_PTR(&req), DT_PTR(&rem)), 0, 0);
	expect(s, "{tv_sec=0, tv_nsec=1000}, %s", hex(&rem));
}

/* gettimeofday({tv_sec=1795975791, tv_usec=388451}, {tz_minuteswest=0, tz_dsttime=0}) = 0
 * time([1795975791 /\* 2026-11-29T18:09:51+0000 *\/]) = 1795975791 (2026-11-29T18:09:51+0000)
 * time(NULL) = 1795975791 (2026-11-29T18:09:51+0000)
 * sched_getscheduler(0) = 0 (SCHED_OTHER), sched_getparam(0, [0]) = 0,
 * sched_get_priority_max(SCHED_FIFO) = 99, alarm(1) = 0 */
static void test_time_sched(void **state)
{
	static struct timeval tv = { 1795975791, 388451 };
	static struct timezone tz;
	static int64_t tt = 1795975791;
	static int prio;
	const char *s;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	s = dt_decode(&t, SYS_gettimeofday, DT_ARGS(DT_PTR(&tv), DT_PTR(&tz)), 0, 0);
	assert_string_equal(s, "{tv_sec=1795975791, tv_usec=388451}, {tz_minuteswest=0, tz_dsttime=0}");
	s = dt_decode(&t, SYS_time, DT_ARGS(DT_PTR(&tt)), tt, 0);
	assert_string_equal(strbuf_str(&t.line), "time([1795975791 /* 2026-11-29T18:09:51+0000 */]) = 1795975791 "
				    "(2026-11-29T18:09:51+0000)");
	s = dt_decode(&t, SYS_time, DT_ARGS(0), tt, 0);
	assert_string_equal(strbuf_str(&t.line), "time(NULL) = 1795975791 (2026-11-29T18:09:51+0000)");

	s = dt_decode(&t, SYS_sched_getscheduler, DT_ARGS(0), 0, 0);
	assert_string_equal(strbuf_str(&t.line), "sched_getscheduler(0) = 0 (SCHED_OTHER)");
	s = dt_decode(&t, SYS_sched_getparam, DT_ARGS(0, DT_PTR(&prio)), 0, 0);
	assert_string_equal(s, "0, [0]");
	s = dt_decode(&t, SYS_sched_get_priority_max, DT_ARGS(SCHED_FIFO), 99, 0);
	assert_string_equal(s, "SCHED_FIFO");
	assert_string_equal(dt_decode(&t, SYS_alarm, DT_ARGS(1), 0, 0), "1");
	assert_string_equal(dt_decode(&t, SYS_getpriority, DT_ARGS(PRIO_PROCESS, 0), 20, 0), "PRIO_PROCESS, 0");
	/* A call printed generically: every argument in hex. */
	assert_string_equal(dt_decode(&t, SYS_semget, DT_ARGS(0, 4096, 0x380), 0, 0), "0, 0x1000, 0x380");
}

/* times({tms_utime=10 /\* 0.10 s *\/, tms_stime=20 /\* 0.20 s *\/, tms_cutime=14 /\* 0.14 s *\/,
 *        tms_cstime=51 /\* 0.51 s *\/}) = 1718938488
 * timer_create(CLOCK_MONOTONIC, {sigev_value={sival_int=5, sival_ptr=0x5}, sigev_signo=SIGUSR1,
 *     sigev_notify=SIGEV_SIGNAL}, [0]) = 0
 * timer_create(CLOCK_REALTIME, {sigev_signo=10, sigev_notify=SIGEV_NONE}, [1]) = 0
 * timer_settime(1, TIMER_ABSTIME, {it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=100,
 *     tv_nsec=5}}, NULL) = 0
 * timer_delete(0) = 0 */
static void test_times_timers(void **state)
{
	static int64_t tms[4] = { 10, 20, 14, 51 };
	static struct sigevent ev;
	static int id = 0;
	static struct timespec its[2] = { { 0, 0 }, { 100, 5 } };
	const char *s;

	(void)state;
	s = dt_decode(&t, SYS_times, DT_ARGS(DT_PTR(tms)), 1718938488, 0);
	assert_string_equal(s, "{tms_utime=10 /* 0.10 s */, tms_stime=20 /* 0.20 s */, tms_cutime=14 /* 0.14 s */, "
			       "tms_cstime=51 /* 0.51 s */}");
	tms[0] = 0;
	tms[1] = 123;
	s = dt_decode(&t, SYS_times, DT_ARGS(DT_PTR(tms)), 1718938488, 0);
	assert_memory_equal(s, "{tms_utime=0, tms_stime=123 /* 1.23 s */,", 40);

	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGUSR1;
	ev.sigev_value.sival_int = 5;
	s = dt_decode(&t, SYS_timer_create, DT_ARGS(CLOCK_MONOTONIC, DT_PTR(&ev), DT_PTR(&id)), 0, 0);
	assert_string_equal(s, "CLOCK_MONOTONIC, {sigev_value={sival_int=5, sival_ptr=0x5}, sigev_signo=SIGUSR1, "
			       "sigev_notify=SIGEV_SIGNAL}, [0]");
	ev.sigev_notify = SIGEV_NONE;
	ev.sigev_value.sival_ptr = NULL;
	id = 1;
	s = dt_decode(&t, SYS_timer_create, DT_ARGS(CLOCK_REALTIME, DT_PTR(&ev), DT_PTR(&id)), 0, 0);
	assert_string_equal(s, "CLOCK_REALTIME, {sigev_signo=10, sigev_notify=SIGEV_NONE}, [1]");
	s = dt_decode(&t, SYS_timer_settime, DT_ARGS(1, TIMER_ABSTIME, DT_PTR(its), 0), 0, 0);
	assert_string_equal(s, "1, TIMER_ABSTIME, {it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=100, "
			       "tv_nsec=5}}, NULL");
	assert_string_equal(dt_decode(&t, SYS_timer_delete, DT_ARGS(0), 0, 0), "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_mmap_flags),
		cmocka_unit_test(test_mmap_decode_fds),
		cmocka_unit_test(test_munmap_brk_mremap),
		cmocka_unit_test(test_memory_misc),
		cmocka_unit_test(test_futex_wait_wake),
		cmocka_unit_test(test_futex_abs_timeout),
		cmocka_unit_test(test_futex_ops),
		cmocka_unit_test(test_robust_list),
		cmocka_unit_test(test_futex_waitv),
		cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_time_sched),
		cmocka_unit_test(test_times_timers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
