/* What the decoders share: the printers (capture/decode/print.c,
 * sockaddr.c), the arguments read by their roles (read-roles.c), tracee
 * memory reads (capture/mem.c) and the tracer's syscall table
 * (decode/table.c).
 *
 * Expected texts are what strace 6.1 printed on this machine for the same
 * values, e.g. `strace -y -e trace=connect,bind,write python3 -c ...`;
 * the line each case came from is quoted above it. Where a helper fills
 * event facts, the strace parser reads the printed text back and must find
 * the same facts. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <arpa/inet.h>

#include "capture/decode/decoders.h"
#include "decode_test.h"
#include "event/facts.h"
#include "gen/tables.h"
#include "util/util.h"

/* One helper call's context: a struct dec over this process. */
struct hc {
	struct dec d;
	struct dec_opts opts;
	struct dec_arena arena;
	struct rc_event ev;
	struct strbuf out;
	struct strbuf rv;
};

static void hc_init(struct hc *h)
{
	memset(h, 0, sizeof(*h));
	h->opts.strsize = 32;
	h->opts.preview_max = 1024;
	event_clear(&h->ev);
	h->ev.kind = RC_EV_SYSCALL;
	h->d.tid = getpid();
	h->d.call.mem = dt_self_mem();
	h->d.e = &h->ev;
	h->d.out = &h->out;
	h->d.rv_extra = &h->rv;
	h->d.arena = &h->arena;
	h->d.opts = &h->opts;
}

/* Start a new helper call: empty text, a clear event. */
static void hc_reset(struct hc *h)
{
	strbuf_reset(&h->out);
	event_clear(&h->ev);
	h->ev.kind = RC_EV_SYSCALL;
}

static void hc_release(struct hc *h)
{
	dec_arena_release(&h->arena);
	strbuf_release(&h->out);
	strbuf_release(&h->rv);
}

static const char *hc_text(struct hc *h)
{
	return strbuf_str(&h->out);
}

/* Parse one strace line into *E (valid until the parser is freed). */
static struct strace_parser *parse_line(const char *line, struct rc_event *e)
{
	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_adds(&buf, line);
	strbuf_addc(&buf, '\n');
	struct strace_parser *p = strace_parser_from_buffer(buf.buf, buf.len);
	assert_int_equal(strace_parser_next(p, e, &err), 1);
	strbuf_release(&buf);
	strbuf_release(&err);
	return p;
}

/* Two pages, the second unmapped: what lies past the first page faults. */
static char *map_page_then_hole(size_t *ps)
{
	*ps = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * *ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(munmap(m + *ps, *ps), 0);
	return m;
}

static void mem_page_boundary(void **state)
{
	(void)state;
	size_t ps;
	char *m = map_page_then_hole(&ps);
	char *end = m + ps;
	const struct call_mem *me = dt_self_mem();
	char buf[64];
	bool cut = true;

	/* A string that ends right before the hole reads fine: the first
	 * read stops at the page end and never touches the next page. */
	memcpy(end - 6, "hello", 6);
	assert_int_equal(mem_read_str(me, DT_PTR(end - 6), buf, sizeof(buf), &cut), 5);
	assert_string_equal(buf, "hello");
	assert_false(cut);

	/* No NUL before the hole: unreadable as a whole, as strace's umovestr. */
	memset(end - 10, 'a', 10);
	assert_int_equal(mem_read_str(me, DT_PTR(end - 10), buf, sizeof(buf), &cut), -1);
	/* ... unless the limit comes first: then it is a cut string. */
	assert_int_equal(mem_read_str(me, DT_PTR(end - 10), buf, 5, &cut), 4);
	assert_string_equal(buf, "aaaa");
	assert_true(cut);

	/* mem_read is all or nothing. */
	assert_int_equal(mem_read(me, DT_PTR(end - 4), buf, 4), 4);
	assert_int_equal(mem_read(me, DT_PTR(end - 4), buf, 8), -1);
	assert_int_equal(mem_read(me, DT_PTR(end), buf, 1), -1);
	assert_int_equal(mem_read_str(me, DT_PTR(end), buf, sizeof(buf), &cut), -1);
	assert_int_equal(mem_read_str(me, 0, buf, sizeof(buf), NULL), -1);
	assert_int_equal(mem_read(me, DT_PTR(m), buf, 0), 0);
	munmap(m, ps);
}

static void mem_long_strings(void **state)
{
	(void)state;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const struct call_mem *me = dt_self_mem();
	size_t n = ps + ps / 2;
	char *buf = malloc(2 * ps + 1);
	bool cut = true;

	assert_true(m != MAP_FAILED);
	/* Across a page boundary: the second read continues page by page. */
	memset(m + 100, 'b', n);
	m[100 + n] = '\0';
	assert_int_equal(mem_read_str(me, DT_PTR(m + 100), buf, 2 * ps + 1, &cut), (ssize_t)n);
	assert_false(cut);
	assert_int_equal(strlen(buf), n);

	/* Longer than the limit: MAX-1 bytes and cut. */
	assert_int_equal(mem_read_str(me, DT_PTR(m + 100), buf, 101, &cut), 100);
	assert_true(cut);
	assert_int_equal(strlen(buf), 100);

	/* Exactly MAX-1 bytes, then the NUL: complete. */
	assert_int_equal(mem_read_str(me, DT_PTR(m + 100), buf, n + 1, &cut), (ssize_t)n);
	assert_false(cut);
	assert_int_equal(mem_read_str(me, DT_PTR(m + 100), buf, n, &cut), (ssize_t)n - 1);
	assert_true(cut);

	/* A string that crosses into the next page and ends there, with a
	 * hole after that page: the reads past the NUL must not fail it. */
	assert_int_equal(munmap(m + 2 * ps, ps), 0);
	memset(m + ps - 10, 'c', 20);
	m[ps + 10] = '\0';
	assert_int_equal(mem_read_str(me, DT_PTR(m + ps - 10), buf, 2 * ps + 1, &cut), 20);
	assert_false(cut);
	/* ... and one that runs into the hole is unreadable. */
	memset(m + 2 * ps - 10, 'd', 10);
	assert_int_equal(mem_read_str(me, DT_PTR(m + 2 * ps - 10), buf, 2 * ps + 1, &cut), -1);
	assert_int_equal(mem_read_str(me, DT_PTR(m + ps - 10), buf, 2 * ps + 1, &cut), 20);
	m[ps + 10] = 'c';
	memset(m + ps + 10, 'c', ps - 10);
	assert_int_equal(mem_read_str(me, DT_PTR(m + ps - 10), buf, 2 * ps + 1, &cut), -1);

	/* A struct across the boundary. */
	assert_int_equal(mem_read(me, DT_PTR(m + ps - 3), buf, 6), 6);
	assert_memory_equal(buf, "cccccc", 6);
	free(buf);
	munmap(m, 2 * ps);
}

/* Where process_vm_readv is missing, the reads go through /proc/TID/mem.
 * A child makes the call fail with ENOSYS by a seccomp filter and runs
 * the same checks; its exit status is the number of the failed check. */
static int fallback_checks(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid = getpid();
	const struct call_mem *me = dt_self_mem();
	char buf[64], word[8];
	bool cut;

	if (m == MAP_FAILED || munmap(m + ps, ps) != 0)
		return 1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		return 2;
	struct iovec l = { buf, 1 }, r = { m, 1 };
	if (process_vm_readv(pid, &l, 1, &r, 1, 0) != -1 || errno != ENOSYS)
		return 3;
	memcpy(m + ps - 6, "hello", 6);
	if (mem_read_str(me, DT_PTR(m + ps - 6), buf, sizeof(buf), &cut) != 5 || strcmp(buf, "hello") || cut)
		return 4;
	memset(m + ps - 10, 'a', 10);
	if (mem_read_str(me, DT_PTR(m + ps - 10), buf, sizeof(buf), &cut) != -1)
		return 5;
	if (mem_read_str(me, DT_PTR(m + ps - 10), buf, 4, &cut) != 3 || !cut)
		return 6;
	if (mem_read(me, DT_PTR(m + ps - 4), word, 4) != 4 || memcmp(word, "aaaa", 4))
		return 7;
	if (mem_read(me, DT_PTR(m + ps - 4), word, 8) != -1)
		return 8;
	return 0;
}

static void mem_proc_fallback(void **state)
{
	(void)state;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fallback_checks());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 2)
		skip();		/* no seccomp here */
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void arena_keeps_pointers(void **state)
{
	(void)state;
	struct hc h;
	char *ptrs[600];
	char big[20000];

	hc_init(&h);
	memset(big, 'z', sizeof(big));
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 600; i++) {
			char s[32];
			int n = snprintf(s, sizeof(s), "string number %d", i);
			ptrs[i] = dec_keep(&h.d, s, (size_t)n);
			assert_non_null(ptrs[i]);
			if (i % 100 == 0)
				assert_non_null(dec_keep(&h.d, big, sizeof(big)));
		}
		for (int i = 0; i < 600; i++) {
			char s[32];
			snprintf(s, sizeof(s), "string number %d", i);
			assert_string_equal(ptrs[i], s);
		}
		dec_arena_reset(&h.arena);
	}
	char *e = dec_keep(&h.d, "", 0);
	assert_string_equal(e, "");
	hc_release(&h);
}

static void errno_names(void **state)
{
	(void)state;
	struct hc h;

	hc_init(&h);
	dec_errno_name(&h.d, ECONNREFUSED);
	dec_sep(&h.d);
	dec_errno_name(&h.d, 512);	/* ERESTARTSYS */
	dec_sep(&h.d);
	dec_errno_name(&h.d, 100000);
	assert_string_equal(hc_text(&h), "ECONNREFUSED, ERESTARTSYS, 100000");
	hc_release(&h);
}

static void open_flags(void **state)
{
	(void)state;
	struct hc h;
	static const struct {
		unsigned long long v;
		const char *text;	/* as strace 6.1 printed openat's flags */
	} cases[] = {
		{ O_RDONLY | O_CLOEXEC, "O_RDONLY|O_CLOEXEC" },
		{ O_WRONLY | O_CREAT | O_TRUNC, "O_WRONLY|O_CREAT|O_TRUNC" },
		{ O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY, "O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY" },
		{ O_RDWR | O_CLOEXEC | O_TMPFILE, "O_RDWR|O_CLOEXEC|O_TMPFILE" },
		{ O_WRONLY | O_CREAT | O_SYNC | O_CLOEXEC, "O_WRONLY|O_CREAT|O_SYNC|O_CLOEXEC" },
		{ O_RDONLY | O_CLOEXEC | FASYNC | 0x40000000, "O_RDONLY|O_CLOEXEC|FASYNC|0x40000000" },
		{ 3 | O_NOFOLLOW | O_CLOEXEC | O_PATH | O_DIRECTORY,
		  "O_ACCMODE|O_NOFOLLOW|O_CLOEXEC|O_PATH|O_DIRECTORY" },
		{ O_EXCL | O_NOCTTY | O_APPEND | O_DSYNC | O_DIRECT | O_NOATIME | O_CLOEXEC,
		  "O_RDONLY|O_EXCL|O_NOCTTY|O_APPEND|O_DSYNC|O_DIRECT|O_NOATIME|O_CLOEXEC" },
		{ O_RDONLY, "O_RDONLY" },
	};

	hc_init(&h);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		hc_reset(&h);
		dec_open_flags(&h.d, cases[i].v);
		assert_string_equal(hc_text(&h), cases[i].text);
	}
	hc_release(&h);
}

static void numbers(void **state)
{
	(void)state;
	struct hc h;

	hc_init(&h);
	h.d.call.args[0] = (uint64_t)-1;
	h.d.call.args[2] = 0;
	h.d.call.args[3] = 0x7ffd1234;
	dec_ulong(&h.d, 0);
	dec_sep(&h.d);
	dec_hex(&h.d, 3);
	dec_sep(&h.d);
	dec_hex(&h.d, 2);
	dec_sep(&h.d);
	dec_ptr(&h.d, 0);
	dec_sep(&h.d);
	dec_ptr(&h.d, 0x7ffd1234);
	assert_string_equal(hc_text(&h),
			    "18446744073709551615, 0x7ffd1234, 0, NULL, 0x7ffd1234");
	hc_release(&h);
}

static void paths(void **state)
{
	(void)state;
	struct hc h;
	size_t ps;
	char *m = map_page_then_hole(&ps);
	char expect[64];

	hc_init(&h);
	/* openat(AT_FDCWD</tmp/ydir>, "a<b>\"c d\ne", O_RDONLY) */
	static const char odd[] = "a<b>\"c d\ne";
	const char *p = dec_path(&h.d, DT_PTR(odd));
	assert_string_equal(hc_text(&h), "\"a<b>\\\"c d\\ne\"");
	assert_string_equal(p, odd);
	assert_true(p != odd);

	/* NULL and an unreadable address print as strace does. */
	hc_reset(&h);
	assert_null(dec_path(&h.d, 0));
	assert_string_equal(hc_text(&h), "NULL");
	hc_reset(&h);
	assert_null(dec_path(&h.d, DT_PTR(m + ps)));
	snprintf(expect, sizeof(expect), "%p", (void *)(m + ps));
	assert_string_equal(hc_text(&h), expect);

	/* A path is printed in full whatever -s says. */
	hc_reset(&h);
	h.opts.strsize = 4;
	p = dec_path(&h.d, DT_PTR("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	assert_string_equal(hc_text(&h), "\"/usr/lib/x86_64-linux-gnu/libc.so.6\"");
	assert_string_equal(p, "/usr/lib/x86_64-linux-gnu/libc.so.6");

	/* dec_str is cut at -s. */
	hc_reset(&h);
	h.opts.strsize = 8;
	p = dec_str(&h.d, DT_PTR("cat a*; echo"));
	assert_string_equal(hc_text(&h), "\"cat a*; \"...");
	assert_string_equal(p, "cat a*; ");
	hc_reset(&h);
	p = dec_str(&h.d, DT_PTR("12345678"));
	assert_string_equal(hc_text(&h), "\"12345678\"");
	munmap(m, ps);
	hc_release(&h);
}

static void buffers(void **state)
{
	(void)state;
	struct hc h;
	char data[40];
	struct rc_event pe;
	char line[256];

	hc_init(&h);
	memset(data, 'x', sizeof(data));
	/* write(1, "xxxx...", 40) with the default -s 32 */
	dec_buf(&h.d, DT_PTR(data), sizeof(data), true);
	assert_string_equal(hc_text(&h), "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"...");
	assert_int_equal(h.ev.data_len, 40);
	assert_false(h.ev.data_truncated);
	assert_memory_equal(h.ev.data, data, 40);

	/* The parser's preview of the same text is the printed part, cut. */
	snprintf(line, sizeof(line), "write(1, %s, 40) = 40", hc_text(&h));
	struct strace_parser *p = parse_line(line, &pe);
	assert_int_equal(pe.data_len, 32);
	assert_true(pe.data_truncated);
	assert_memory_equal(pe.data, h.ev.data, pe.data_len);
	strace_parser_free(p);

	/* A preview smaller than the buffer keeps its head and its tail. */
	hc_reset(&h);
	h.opts.preview_max = 16;
	char text[] = "Traceback (most recent call last):\nE: x\n";
	dec_buf(&h.d, DT_PTR(text), 40, true);
	assert_int_equal(h.ev.data_len, 16);
	assert_memory_equal(h.ev.data, "Tracebac):\nE: x\n", 16);
	assert_int_equal(h.ev.data_gap, 8);
	assert_int_equal(h.ev.data_omitted, 24);
	assert_false(h.ev.data_truncated);

	/* sendto(3, "hello\0\1world\nhello\0\1world\nhello\0"..., 65, 0, ...) */
	hc_reset(&h);
	const char hello[] = "hello\0\1world\nhello\0\1world\nhello\0\1world\nhello\0\1world\nhello\0\1world\n";
	dec_buf(&h.d, DT_PTR(hello), sizeof(hello) - 1, false);
	assert_string_equal(hc_text(&h), "\"hello\\0\\1world\\nhello\\0\\1world\\nhello\\0\"...");
	assert_null(h.ev.data);

	/* write(1, "\0017\18\n\0", 6), and with -x:
	 * write(1, "\x01\x37\x01\x38\x0a\x00", 6) */
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR("\0017\0018\n"), 6, false);
	assert_string_equal(hc_text(&h), "\"\\0017\\18\\n\\0\"");
	hc_reset(&h);
	h.opts.hex_all = true;
	dec_buf(&h.d, DT_PTR("\0017\0018\n"), 6, false);
	assert_string_equal(hc_text(&h), "\"\\x01\\x37\\x01\\x38\\x0a\\x00\"");
	/* -x leaves strings of printables and whitespace alone:
	 * write(1, "a\tb\n\r\v\f", 7) */
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR("a\tb\n\r\v\f"), 7, false);
	assert_string_equal(hc_text(&h), "\"a\\tb\\n\\r\\v\\f\"");
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR("x\033y\177"), 4, false);
	assert_string_equal(hc_text(&h), "\"\\x78\\x1b\\x79\\x7f\"");
	h.opts.hex_all = false;
	/* write(1, "x\33y\177", 4) */
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR("x\033y\177"), 4, false);
	assert_string_equal(hc_text(&h), "\"x\\33y\\177\"");
	/* write(1</dev/null>, "\200abc\1\t", 6) */
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR("\200abc\1\t"), 6, false);
	assert_string_equal(hc_text(&h), "\"\\200abc\\1\\t\"");

	/* Empty, NULL and unreadable. */
	hc_reset(&h);
	dec_buf(&h.d, DT_PTR(data), 0, true);
	dec_sep(&h.d);
	dec_buf(&h.d, 0, 10, true);
	assert_string_equal(hc_text(&h), "\"\", NULL");
	size_t ps;
	char *m = map_page_then_hole(&ps);
	hc_reset(&h);
	memset(m + ps - 8, 'q', 8);
	dec_buf(&h.d, DT_PTR(m + ps - 8), 20, true);
	snprintf(line, sizeof(line), "%p", (void *)(m + ps - 8));
	assert_string_equal(hc_text(&h), line);
	/* The printed part and the preview's head are readable, its tail is
	 * not: print, and keep the head (the preview is 16 bytes here). */
	hc_reset(&h);
	h.opts.strsize = 4;
	dec_buf(&h.d, DT_PTR(m + ps - 8), 20, true);
	assert_string_equal(hc_text(&h), "\"qqqq\"...");
	assert_int_equal(h.ev.data_len, 8);
	assert_int_equal(h.ev.data_omitted, 0);
	assert_true(h.ev.data_truncated);
	/* Only the printed part is readable: keep that. */
	hc_reset(&h);
	h.opts.preview_max = 32;
	dec_buf(&h.d, DT_PTR(m + ps - 8), 20, true);
	assert_string_equal(hc_text(&h), "\"qqqq\"...");
	assert_int_equal(h.ev.data_len, 4);
	assert_true(h.ev.data_truncated);
	munmap(m, ps);
	hc_release(&h);
}

static void string_arrays(void **state)
{
	(void)state;
	struct hc h;
	struct rc_event pe;
	char line[1024];
	const char *argv[] = { "true", "1", "2", "3", "4", "5", "6", "7", "8", "9", NULL };

	hc_init(&h);
	/* execve("/bin/true", ["true", "1", "2", "3", "4", "5", "6", "7", ...],
	 *        0x55f638ed9c70 / * 2 vars * /) = 0 with -s 8 */
	h.opts.strsize = 8;
	h.d.call.args[0] = DT_PTR(argv);
	dec_argv_arg(&h.d, 0);
	assert_string_equal(hc_text(&h), "[\"true\", \"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", ...]");
	assert_int_equal(h.ev.argc, 8);
	assert_true(h.ev.argv_truncated);
	snprintf(line, sizeof(line), "execve(\"/bin/true\", %s, 0x1 /* 2 vars */) = 0", hc_text(&h));
	struct strace_parser *p = parse_line(line, &pe);
	assert_int_equal(pe.argc, h.ev.argc);
	assert_true(pe.argv_truncated);
	for (int i = 0; i < pe.argc; i++)
		assert_string_equal(pe.argv[i], h.ev.argv[i]);
	strace_parser_free(p);

	/* execve("/usr/bin/sh", ["sh", "-c", "cat a*; "...], ...) with -s 8 */
	hc_reset(&h);
	const char *sh[] = { "sh", "-c", "cat a*; exec env", NULL };
	h.d.call.args[0] = DT_PTR(sh);
	dec_argv_arg(&h.d, 0);
	assert_string_equal(hc_text(&h), "[\"sh\", \"-c\", \"cat a*; \"...]");
	assert_int_equal(h.ev.argc, 3);
	assert_false(h.ev.argv_truncated);
	assert_string_equal(h.ev.argv[2], "cat a*; ");

	/* More than the event keeps. */
	hc_reset(&h);
	h.opts.strsize = 32;
	const char *many[RC_EVENT_MAX_ARGV + 3];
	for (int i = 0; i < RC_EVENT_MAX_ARGV + 2; i++)
		many[i] = "x";
	many[RC_EVENT_MAX_ARGV + 2] = NULL;
	h.d.call.args[0] = DT_PTR(many);
	dec_argv_arg(&h.d, 0);
	assert_int_equal(h.ev.argc, RC_EVENT_MAX_ARGV);
	assert_true(h.ev.argv_truncated);
	snprintf(line, sizeof(line), "execve(\"/bin/x\", %s, NULL) = 0", hc_text(&h));
	p = parse_line(line, &pe);
	assert_int_equal(pe.argc, RC_EVENT_MAX_ARGV);
	assert_true(pe.argv_truncated);
	strace_parser_free(p);

	/* An empty array; NULL. */
	hc_reset(&h);
	const char *none[] = { NULL };
	h.d.call.args[0] = DT_PTR(none);
	h.d.call.args[1] = 0;
	dec_argv_arg(&h.d, 0);
	dec_sep(&h.d);
	dec_argv_arg(&h.d, 1);
	assert_int_equal(h.ev.argc, 0);
	assert_string_equal(hc_text(&h), "[], NULL");

	/* envp: execve(..., 0x7ffd255a2f28 / * 41 vars * /) */
	const char *env3[] = { "A=1", "B=2", "C=3", NULL };
	const char *env1[] = { "A=1", NULL };
	char expect[128];
	hc_reset(&h);
	dec_envp(&h.d, DT_PTR(env3));
	dec_sep(&h.d);
	dec_envp(&h.d, DT_PTR(env1));
	dec_sep(&h.d);
	dec_envp(&h.d, 0);
	snprintf(expect, sizeof(expect), "%p /* 3 vars */, %p /* 1 var */, NULL", (void *)env3, (void *)env1);
	assert_string_equal(hc_text(&h), expect);
	hc_release(&h);
}

/* Decode the sockaddr at SA, check the text and that the parser reads
 * the same address back from a connect line. */
static void check_sockaddr(struct hc *h, const void *sa, size_t len, const char *text)
{
	struct rc_event pe;
	char line[512];

	hc_reset(h);
	dec_sockaddr(&h->d, DT_PTR(sa), len);
	assert_string_equal(hc_text(h), text);
	snprintf(line, sizeof(line), "connect(3, %s, %zu) = 0", text, len);
	struct strace_parser *p = parse_line(line, &pe);
	assert_int_equal(pe.sa.family, h->ev.sa.family);
	assert_int_equal(pe.sa.port, h->ev.sa.port);
	assert_int_equal(pe.sa.abstract, h->ev.sa.abstract);
	if (pe.sa.host || h->ev.sa.host)
		assert_string_equal(pe.sa.host ? pe.sa.host : "(null)", h->ev.sa.host ? h->ev.sa.host : "(null)");
	strace_parser_free(p);
}

static void sockaddrs(void **state)
{
	(void)state;
	struct hc h;
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un abs = { .sun_family = AF_UNIX };
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = 31641 };

	hc_init(&h);
	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	check_sockaddr(&h, &in, sizeof(in),
		       "{sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr(\"127.0.0.1\")}");
	assert_int_equal(h.ev.sa.family, AF_INET);
	assert_int_equal(h.ev.sa.port, 80);
	assert_string_equal(h.ev.sa.host, "127.0.0.1");

	inet_pton(AF_INET6, "::1", &in6.sin6_addr);
	check_sockaddr(&h, &in6, sizeof(in6),
		       "{sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), "
		       "inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}");
	assert_int_equal(h.ev.sa.port, 443);
	assert_string_equal(h.ev.sa.host, "::1");
	/* The scope id names an interface when one has that index. */
	in6.sin6_scope_id = 1;
	inet_pton(AF_INET6, "fe80::1", &in6.sin6_addr);
	in6.sin6_flowinfo = htonl(5);
	hc_reset(&h);
	dec_sockaddr(&h.d, DT_PTR(&in6), sizeof(in6));
	assert_string_equal(hc_text(&h), "{sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(5), "
			    "inet_pton(AF_INET6, \"fe80::1\", &sin6_addr), sin6_scope_id=if_nametoindex(\"lo\")}");

	/* connect(3, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 14) */
	check_sockaddr(&h, &un, offsetof(struct sockaddr_un, sun_path) + 12,
		       "{sa_family=AF_UNIX, sun_path=\"/run/x.sock\"}");
	assert_string_equal(h.ev.sa.host, "/run/x.sock");
	assert_int_equal(h.ev.sa.port, -1);
	assert_false(h.ev.sa.abstract);

	/* connect(3, {sa_family=AF_UNIX, sun_path=@"abs\nname"}, 11) */
	memcpy(abs.sun_path, "\0abs\nname", 9);
	check_sockaddr(&h, &abs, offsetof(struct sockaddr_un, sun_path) + 9,
		       "{sa_family=AF_UNIX, sun_path=@\"abs\\nname\"}");
	assert_true(h.ev.sa.abstract);
	assert_string_equal(h.ev.sa.host, "abs\nname");

	/* bind(5, {sa_family=AF_UNIX}, 2) */
	check_sockaddr(&h, &un, 2, "{sa_family=AF_UNIX}");
	assert_int_equal(h.ev.sa.family, AF_UNIX);
	assert_null(h.ev.sa.host);

	/* getsockname(4, {sa_family=AF_NETLINK, nl_pid=31641, nl_groups=00000000}, [12]) */
	check_sockaddr(&h, &nl, sizeof(nl), "{sa_family=AF_NETLINK, nl_pid=31641, nl_groups=00000000}");
	assert_int_equal(h.ev.sa.family, AF_NETLINK);
	/* bind(4, {sa_family=AF_NETLINK, nl_pad=0x9117, nl_pid=0, nl_groups=00000000}, 12) */
	nl.nl_pad = 0x9117;
	nl.nl_pid = 0;
	check_sockaddr(&h, &nl, sizeof(nl), "{sa_family=AF_NETLINK, nl_pad=0x9117, nl_pid=0, nl_groups=00000000}");

	/* Too short for its family: the raw bytes.
	 * connect(3, {sa_family=AF_INET, sa_data="\0P\177\0\0\1"}, 8)
	 * connect(3, {sa_family=AF_INET}, 2) */
	check_sockaddr(&h, &in, 8, "{sa_family=AF_INET, sa_data=\"\\0P\\177\\0\\0\\1\"}");
	check_sockaddr(&h, &in, 2, "{sa_family=AF_INET}");
	assert_int_equal(h.ev.sa.port, -1);

	/* connect(3, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0),
	 *             inet_pton(AF_INET6, "::1", &sin6_addr)}, 24)
	 * connect(3, {sa_family=AF_INET6, sa_data="\1\273\0..."}, 20) */
	memset(&in6, 0, sizeof(in6));
	in6.sin6_family = AF_INET6;
	in6.sin6_port = htons(443);
	inet_pton(AF_INET6, "::1", &in6.sin6_addr);
	check_sockaddr(&h, &in6, 24, "{sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), "
		       "inet_pton(AF_INET6, \"::1\", &sin6_addr)}");
	check_sockaddr(&h, &in6, 20, "{sa_family=AF_INET6, sa_data=\"\\1\\273\\0\\0\\0\\0\\0\\0"
		       "\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}");

	/* A path that fills sun_path without a NUL, one with bytes after its NUL:
	 * connect(3, {sa_family=AF_UNIX, sun_path="xxx...x"}, 110)
	 * connect(3, {sa_family=AF_UNIX, sun_path="/a"}, 9) */
	struct sockaddr_un full = { .sun_family = AF_UNIX };
	memset(full.sun_path, 'x', sizeof(full.sun_path));
	char expect_full[256];
	snprintf(expect_full, sizeof(expect_full), "{sa_family=AF_UNIX, sun_path=\"%.*s\"}",
		 (int)sizeof(full.sun_path), full.sun_path);
	check_sockaddr(&h, &full, sizeof(full), expect_full);
	assert_int_equal(strlen(h.ev.sa.host), sizeof(full.sun_path));
	memcpy(un.sun_path, "/a\0junk", 8);
	check_sockaddr(&h, &un, 9, "{sa_family=AF_UNIX, sun_path=\"/a\"}");

	/* Other and unknown families:
	 * connect(3, {sa_family=AF_UNSPEC, sa_data="\0\0\0\0\0\0\0\0\0\0\0\0\0\0"}, 16)
	 * connect(3, {sa_family=AF_NETLINK, sa_data="\0\0\0\0"}, 6)
	 * connect(3, {sa_family=0xc8 / * AF_??? * /, sa_data="abcdef"}, 8) */
	unsigned char raw[16] = { 0 };
	check_sockaddr(&h, raw, 16, "{sa_family=AF_UNSPEC, sa_data=\"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}");
	raw[0] = AF_NETLINK;
	check_sockaddr(&h, raw, 6, "{sa_family=AF_NETLINK, sa_data=\"\\0\\0\\0\\0\"}");
	raw[0] = 200;
	memcpy(raw + 2, "abcdef", 6);
	check_sockaddr(&h, raw, 8, "{sa_family=0xc8 /* AF_??? */, sa_data=\"abcdef\"}");
	assert_int_equal(h.ev.sa.family, 200);

	/* NULL, too short for a family, unreadable. */
	hc_reset(&h);
	dec_sockaddr(&h.d, 0, 16);
	dec_sep(&h.d);
	dec_sockaddr(&h.d, DT_PTR(&in), 1);
	char expect[64];
	snprintf(expect, sizeof(expect), "NULL, %p", (void *)&in);
	assert_string_equal(hc_text(&h), expect);
	size_t ps;
	char *m = map_page_then_hole(&ps);
	hc_reset(&h);
	memcpy(m + ps - 4, &in, 4);
	dec_sockaddr(&h.d, DT_PTR(m + ps - 4), sizeof(in));
	snprintf(expect, sizeof(expect), "%p", (void *)(m + ps - 4));
	assert_string_equal(hc_text(&h), expect);
	assert_int_equal(h.ev.sa.family, 0);
	munmap(m, ps);
	hc_release(&h);
}

static void fds(void **state)
{
	(void)state;
	struct hc h;
	char dir[] = "/tmp/rc-test-XXXXXX";
	char path[128], expect[4200], cwd[4096];

	hc_init(&h);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a<b>\"c d\ne", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	assert_true(fd >= 0);

	/* Without -y: the number. */
	h.ev.fd = fd;
	dec_fd(&h.d, fd);
	snprintf(expect, sizeof(expect), "%d", fd);
	assert_string_equal(hc_text(&h), expect);
	assert_null(h.ev.fd_shown);

	/* read(3</tmp/ydir/a\74b\76\"c d\ne>, "x", 131072) = 1 */
	h.opts.decode_fds = true;
	hc_reset(&h);
	h.ev.fd = fd;
	dec_fd(&h.d, fd);
	snprintf(expect, sizeof(expect), "%d<%s/a\\74b\\76\\\"c d\\ne>", fd, dir);
	assert_string_equal(hc_text(&h), expect);
	assert_string_equal(dt_shown(h.ev.fd_shown), path);
	struct rc_event pe;
	char line[4300];
	snprintf(line, sizeof(line), "close(%s) = 0", hc_text(&h));
	struct strace_parser *p = parse_line(line, &pe);
	assert_int_equal(pe.fd, fd);
	assert_string_equal(dt_shown(pe.fd_shown), dt_shown(h.ev.fd_shown));
	strace_parser_free(p);

	/* read(3</tmp/delme>(deleted), "", 1) = 0 */
	hc_reset(&h);
	unlink(path);
	h.ev.fd = fd;
	dec_fd(&h.d, fd);
	snprintf(expect, sizeof(expect), "%d<%s/a\\74b\\76\\\"c d\\ne>(deleted)", fd, dir);
	assert_string_equal(hc_text(&h), expect);
	assert_string_equal(dt_shown(h.ev.fd_shown), path);
	snprintf(line, sizeof(line), "close(%s) = 0", hc_text(&h));
	p = parse_line(line, &pe);
	assert_int_equal(pe.fd, fd);
	assert_string_equal(dt_shown(pe.fd_shown), dt_shown(h.ev.fd_shown));
	strace_parser_free(p);

	/* Only the event's own fd becomes the hint; a closed fd has no
	 * decoration; neither has a negative one. */
	hc_reset(&h);
	h.ev.fd = fd + 1;
	dec_fd(&h.d, fd);
	assert_null(h.ev.fd_shown);
	hc_reset(&h);
	close(fd);
	dec_fd(&h.d, fd);
	dec_sep(&h.d);
	dec_fd(&h.d, -1);
	snprintf(expect, sizeof(expect), "%d, -1", fd);
	assert_string_equal(hc_text(&h), expect);

	/* socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3<socket:[351996]> */
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct stat st;
	assert_int_equal(fstat(s, &st), 0);
	hc_reset(&h);
	h.ev.fd = s;
	dec_fd(&h.d, s);
	snprintf(expect, sizeof(expect), "%d<socket:[%lu]>", s, (unsigned long)st.st_ino);
	assert_string_equal(hc_text(&h), expect);
	snprintf(expect, sizeof(expect), "socket:[%lu]", (unsigned long)st.st_ino);
	assert_string_equal(dt_shown(h.ev.fd_shown), expect);
	close(s);

	/* openat(AT_FDCWD</tmp>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	hc_reset(&h);
	dec_dirfd(&h.d, RC_AT_FDCWD);
	snprintf(expect, sizeof(expect), "AT_FDCWD<%s>", cwd);
	assert_string_equal(hc_text(&h), expect);
	assert_string_equal(dt_shown(h.ev.dir_shown), cwd);
	snprintf(line, sizeof(line), "openat(%s, \"x\", O_RDONLY) = 3", hc_text(&h));
	p = parse_line(line, &pe);
	assert_int_equal(pe.dirfd, RC_AT_FDCWD);
	assert_string_equal(dt_shown(pe.dir_shown), dt_shown(h.ev.dir_shown));
	strace_parser_free(p);

	/* A real directory fd, the event's dirfd. */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	hc_reset(&h);
	h.ev.dirfd = dfd;
	dec_dirfd(&h.d, dfd);
	snprintf(expect, sizeof(expect), "%d<%s>", dfd, dir);
	assert_string_equal(hc_text(&h), expect);
	assert_string_equal(dt_shown(h.ev.dir_shown), dir);
	close(dfd);

	/* Without -y: AT_FDCWD alone, no hint. */
	h.opts.decode_fds = false;
	hc_reset(&h);
	dec_dirfd(&h.d, RC_AT_FDCWD);
	assert_string_equal(hc_text(&h), "AT_FDCWD");
	assert_null(h.ev.dir_shown);

	unlink(path);
	rmdir(dir);
	hc_release(&h);
}

/* Each row's decoder column, as event/syscalls.def spells it, and the
 * function it names: the table must run that one for the row's number. */
#define dec_NONE NULL
static const struct {
	const char *name;
	dec_fn fn;
} row_decoders[] = {
#define SC(name, decoder, ...) { #decoder, dec_##decoder },
#include "event/syscalls.def"
#undef SC
};
#undef dec_NONE

static bool decoder_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(row_decoders); i++)
		if (strcmp(row_decoders[i].name, name) == 0)
			return true;
	return false;
}

/* The decoders the files of decode/ define: a line "void dec_x(struct
 * dec *d)" that opens a definition, not one of decode.h's helpers that
 * take the same argument (dec_sep). */
static void decoders_defined(const char *file, const char *header)
{
	FILE *f = fopen(file, "r");
	char line[512], prev[512] = "";

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char name[128], decl[160];
		if (strcmp(line, "{\n") == 0 && sscanf(prev, "void dec_%127[a-z0-9_](struct dec *d)", name) == 1 &&
		    strstr(prev, "(struct dec *d)\n")) {
			snprintf(decl, sizeof(decl), "void dec_%s(struct dec *d);", name);
			if (!strstr(header, decl) && !decoder_named(name))
				fail_msg("%s: dec_%s is named by no row of event/syscalls.def", file, name);
		}
		snprintf(prev, sizeof(prev), "%s", line);
	}
	fclose(f);
}

/* The table is event/syscalls.def's: every call the headers number has
 * its row's decoder (none for NONE), every decoder a row names exists
 * (the link says so), and every decoder decode/ defines is named by some
 * row. */
static void table_decoders(void **state)
{
	(void)state;
	long max = dec_nr_max();
	size_t numbered = 0;

	assert_int_equal(ARRAY_SIZE(row_decoders), syscall_count());
	for (size_t i = 0; i < syscall_count(); i++) {
		const struct rc_syscall *row = syscall_at(i);
		if (row->nr < 0)
			continue;
		const struct dec_syscall *sc = dec_lookup(row->nr);
		assert_non_null(sc);
		assert_int_equal(sc->nr, row->nr);
		if (syscall_by_nr(row->nr) != row)
			continue;
		numbered++;
		if (sc->fn != row_decoders[i].fn)
			fail_msg("%s: the table does not run dec_%s", row->name, row_decoders[i].name);
		assert_int_equal(!sc->fn, strcmp(row_decoders[i].name, "NONE") == 0);
		assert_int_equal(sc->nargs, row->nargs);
		assert_true(sc->nargs <= 6);
		assert_int_equal(sc->rv, row->rv);
		assert_int_equal(sc->classes, row->tclasses);
		assert_string_equal(dec_syscall_name(sc->nr), row->name);
	}
	assert_true(numbered > 300);

	static char header[65536];
	FILE *h = fopen(SOURCE_ROOT "/src/capture/decode.h", "r");
	assert_non_null(h);
	size_t hlen = fread(header, 1, sizeof(header) - 1, h);
	fclose(h);
	assert_true(hlen > 0 && hlen < sizeof(header) - 1);
	header[hlen] = '\0';
	DIR *dir = opendir(SOURCE_ROOT "/src/capture/decode");
	assert_non_null(dir);
	size_t files = 0;
	for (struct dirent *de; (de = readdir(dir));) {
		size_t n = strlen(de->d_name);
		if (n < 3 || strcmp(de->d_name + n - 2, ".c") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof(path), "%s/src/capture/decode/%s", SOURCE_ROOT, de->d_name);
		decoders_defined(path, header);
		files++;
	}
	closedir(dir);
	assert_true(files > 10);
	assert_null(dec_lookup(-1));
	assert_null(dec_lookup(max));
	assert_null(dec_syscall_name(max + 100));
}

/* Every __NR_x of the system headers is named, both ways. */
static void table_names(void **state)
{
	(void)state;
	const char *files[] = { "/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
				"/usr/include/asm/unistd_64.h" };
	FILE *f = NULL;
	char line[256];
	int seen = 0;

	for (size_t i = 0; i < 2 && !f; i++)
		f = fopen(files[i], "r");
	if (!f)
		skip();
	while (fgets(line, sizeof(line), f)) {
		char name[128];
		long nr;
		if (sscanf(line, "#define __NR_%127s %ld", name, &nr) != 2)
			continue;
		seen++;
		if (dec_syscall_nr(name, strlen(name)) != nr)
			fail_msg("__NR_%s (%ld) is not in the table", name, nr);
		const char *n = dec_syscall_name(nr);
		assert_non_null(n);
		assert_int_equal(dec_syscall_nr(n, strlen(n)), nr);
	}
	fclose(f);
	assert_true(seen > 300);
	assert_true(dec_nr_max() > SYS_openat);
	assert_string_equal(dec_syscall_name(SYS_openat), "openat");
	assert_string_equal(dec_syscall_name(SYS_newfstatat), "newfstatat");
	assert_int_equal(dec_syscall_nr("exit_group", 10), SYS_exit_group);
	assert_int_equal(dec_syscall_nr("no_such_call", 12), -1);
}

/* A call no family knows prints its six arguments as strace's printargs. */
static void generic_calls(void **state)
{
	(void)state;
	struct hc h;

	hc_init(&h);
	h.d.call.nr = dec_nr_max() + 7;
	h.d.call.args[0] = 1;
	h.d.call.args[1] = 0;
	h.d.call.args[2] = 0x7ffd0000;
	h.d.call.args[3] = (uint64_t)-1;
	h.d.call.args[4] = 42;
	h.d.call.args[5] = 0;
	dec_call(&h.d);
	h.d.exiting = true;
	dec_call(&h.d);
	assert_string_equal(hc_text(&h), "0x1, 0, 0x7ffd0000, 0xffffffffffffffff, 0x2a, 0");
	hc_release(&h);
}

/* A raw value for each scalar role that prints as something a reader of
 * the text can take back, and is not what an unset fact holds. */
static uint64_t role_value(unsigned char role)
{
	switch (role) {
	case ROLE_FD: return 5;
	case ROLE_FD2: return 6;
	case ROLE_DIRFD: return 7;
	case ROLE_OPEN_FLAGS: return O_WRONLY | O_CREAT | O_CLOEXEC;
	case ROLE_PIPE_FLAGS: return O_CLOEXEC | O_NONBLOCK;
	case ROLE_MODE: return 0640;
	case ROLE_LEN: return 4096;
	case ROLE_MAP_LEN: return 8192;
	case ROLE_OFFSET: return 77;
	case ROLE_ADDR: return 0x7000;
	case ROLE_PROT: return PROT_READ | PROT_WRITE;
	case ROLE_MMAP_FLAGS: return MAP_SHARED;
	case ROLE_MREMAP_FLAGS: return MREMAP_MAYMOVE;
	case ROLE_FAMILY: return AF_INET;
	case ROLE_SOCK_TYPE: return SOCK_STREAM | SOCK_CLOEXEC;
	case ROLE_PROTOCOL: return IPPROTO_TCP;
	case ROLE_SOCKOPT_LEVEL: return SOL_SOCKET;
	case ROLE_SOCKOPT_NAME: return SO_REUSEADDR;
	case ROLE_TIMEOUT_MS: return 1500;
	case ROLE_FUTEX_OP: return 1;	/* FUTEX_WAKE */
	case ROLE_FLOCK_OP: return 2;	/* LOCK_EX */
	case ROLE_CLONE_FLAGS: return CLONE_VM | SIGCHLD;
	case ROLE_KILL_PID: return 1234;
	case ROLE_SIGNAL: return SIGTERM;
	case ROLE_EXIT_CODE: return 3;
	case ROLE_ID: return 1000;
	case ROLE_PATH: return DT_PTR("/tmp/role-path");
	case ROLE_PATH2: return DT_PTR("/tmp/role-path2");
	case ROLE_TIMEOUT_TS: {
		static const struct dec_ktime ts = { 1, 500000000 };
		return DT_PTR(&ts);
	}
	case ROLE_TIMEOUT_TV: {
		static const struct dec_ktime tv = { 1, 500000 };
		return DT_PTR(&tv);
	}
	case ROLE_ARGV: {
		static const char *const argv[] = { "prog", "--flag", NULL };
		return DT_PTR(argv);
	}
	case ROLE_DATA_OUT: {
		static char data[4096];
		memset(data, 'w', sizeof(data) - 1);
		return DT_PTR(data);
	}
	default: return 0;	/* memory: NULL */
	}
}

/* Every call the tracer decodes and the table gives roles: decoded from
 * registers, and read back from the text it printed, it has the same
 * facts, each scalar role's from the raw pass (event_raw_arg_facts). The
 * call fails (EBADF), so that the exit half reads no buffers; pointers
 * are NULL. */
static void roles_same_facts(void **state)
{
	(void)state;
	size_t checked = 0;

	for (size_t i = 0; i < syscall_count(); i++) {
		const struct rc_syscall *sc = syscall_at(i);
		if (sc->nr < 0 || !syscall_role_args(sc) || !dec_lookup(sc->nr))
			continue;
		uint64_t args[6] = { 0 };
		struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(8080) };
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		for (unsigned a = 0; a < RC_SC_MAX_ARGS; a++)
			args[a] = role_value(sc->roles[a]);
		for (unsigned a = 0; a < RC_SC_MAX_ARGS; a++) {
			/* A given address is followed by its length. */
			if (sc->roles[a] == ROLE_SOCKADDR && a + 1 < RC_SC_MAX_ARGS) {
				args[a] = DT_PTR(&sin);
				args[a + 1] = sizeof(sin);
			}
		}
		struct dt t;
		dt_init(&t);
		dt_decode(&t, sc->nr, args, -1, EBADF);
		print_message("%s\n", t.line.buf);
		if (syscall_has_role(sc, ROLE_FD))
			assert_int_equal(t.ev.fd, 5);
		if (syscall_has_role(sc, ROLE_FD2))
			assert_int_equal(t.ev.fd2, 6);
		if (syscall_has_role(sc, ROLE_DIRFD))
			assert_int_equal(t.ev.dirfd, 7);
		if (syscall_has_role(sc, ROLE_LEN))
			assert_int_equal(t.ev.len, 4096);
		if (syscall_has_role(sc, ROLE_MAP_LEN))
			assert_int_equal(t.ev.len, 8192);
		if (syscall_has_role(sc, ROLE_OFFSET))
			assert_int_equal(t.ev.offset, 77);
		if (syscall_has_role(sc, ROLE_ADDR))
			assert_int_equal(t.ev.addr, 0x7000);
		if (syscall_has_role(sc, ROLE_KILL_PID))
			assert_int_equal(t.ev.kill_target, 1234);
		if (syscall_has_role(sc, ROLE_SIGNAL))
			assert_int_equal(t.ev.signo, SIGTERM);
		if (syscall_has_role(sc, ROLE_FUTEX_OP))
			assert_int_equal(t.ev.futex_op, 1);
		if (syscall_has_role(sc, ROLE_TIMEOUT_MS))
			assert_int_equal(t.ev.timeout_ms, 1500);
		if (syscall_has_role(sc, ROLE_ID))
			assert_true(t.ev.nids > 0 && t.ev.ids[0] == 1000);
		if (syscall_has_role(sc, ROLE_PATH))
			assert_string_equal(t.ev.path ? t.ev.path : "(null)", "/tmp/role-path");
		if (syscall_has_role(sc, ROLE_PATH2))
			assert_string_equal(t.ev.path2 ? t.ev.path2 : "(null)", "/tmp/role-path2");
		int ti = syscall_arg(sc, ROLE_TIMEOUT_TS) >= 0 ? syscall_arg(sc, ROLE_TIMEOUT_TS)
							       : syscall_arg(sc, ROLE_TIMEOUT_TV);
		/* (epoll_pwait2 prints its timeout at exit: a failed call's
		 * is an address.) */
		if (ti >= 0 && !event_arg_at_exit(sc, (unsigned)ti))
			assert_int_equal(t.ev.timeout_ms, 1500);
		if (syscall_has_role(sc, ROLE_ARGV)) {
			assert_int_equal(t.ev.argc, 2);
			assert_string_equal(t.ev.argv[1], "--flag");
		}
		if (syscall_has_role(sc, ROLE_DATA_OUT)) {
			/* All 4096 bytes written: the preview's head and tail. */
			assert_non_null(t.ev.data);
			assert_int_equal(t.ev.data_len, t.opts.preview_max);
			assert_int_equal(t.ev.data[0], 'w');
		}
		if (syscall_has_role(sc, ROLE_SOCKADDR)) {
			assert_int_equal(t.ev.sa.family, AF_INET);
			assert_int_equal(t.ev.sa.port, 8080);
			assert_string_equal(t.ev.sa.host ? t.ev.sa.host : "(null)", "127.0.0.1");
		}
		dt_check_same_facts(&t);
		/* The facts dt_check_same_facts leaves to the rules' own tests. */
		assert_int_equal(t.parsed.sockopt_level, t.ev.sockopt_level);
		assert_int_equal(t.parsed.sockopt_name, t.ev.sockopt_name);
		assert_int_equal(t.parsed.exit_code, t.ev.exit_code);
		assert_int_equal(t.parsed.nids, t.ev.nids);
		for (int k = 0; k < t.ev.nids && k < t.parsed.nids; k++)
			assert_int_equal(t.parsed.ids[k], t.ev.ids[k]);
		dt_release(&t);
		checked++;
	}
	assert_true(checked > 100);
}

/* The memory roles are read once, by the framework, before the decoder:
 * what the decoder prints is that copy, even when the memory changed in
 * between (another thread of the tracee may write it). */
static void roles_read_once(void **state)
{
	(void)state;
	struct dt t;
	struct dec d;
	char path[] = "/tmp/read-once-a";
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(8080) };

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	dt_init(&t);
	event_clear(&t.ev);
	memset(&d, 0, sizeof(d));
	d.tid = getpid();
	d.call.mem = dt_self_mem();
	d.e = &t.ev;
	d.out = &t.args;
	d.arena = &t.arena;
	d.opts = &t.opts;

	d.call.nr = SYS_unlink;
	d.call.args[0] = DT_PTR(path);
	dec_read_roles(&d, syscall_by_nr(SYS_unlink));
	assert_string_equal(t.ev.path, "/tmp/read-once-a");
	path[sizeof(path) - 2] = 'b';
	dec_path_arg(&d, 0);
	assert_string_equal(strbuf_str(&t.args), "\"/tmp/read-once-a\"");

	strbuf_reset(&t.args);
	d.call.nr = SYS_connect;
	d.call.args[0] = 3;
	d.call.args[1] = DT_PTR(&sin);
	d.call.args[2] = sizeof(sin);
	dec_read_roles(&d, syscall_by_nr(SYS_connect));
	assert_int_equal(t.ev.sa.port, 8080);
	sin.sin_port = htons(9090);
	dec_sockaddr_arg(&d, 1);
	assert_string_equal(strbuf_str(&t.args),
			    "{sa_family=AF_INET, sin_port=htons(8080), sin_addr=inet_addr(\"127.0.0.1\")}");
	/* Not a role's argument: read when printed. */
	dec_read_roles(&d, NULL);
	strbuf_reset(&t.args);
	dec_sockaddr_arg(&d, 1);
	assert_non_null(strstr(strbuf_str(&t.args), "htons(9090)"));

	/* write's data: printed and previewed from the same copy. */
	char data[] = "first";
	strbuf_reset(&t.args);
	d.call.nr = SYS_write;
	d.call.args[1] = DT_PTR(data);
	d.call.args[2] = 5;
	dec_read_roles(&d, syscall_by_nr(SYS_write));
	data[0] = 'F';
	dec_buf_arg(&d, 1, 5);
	assert_string_equal(strbuf_str(&t.args), "\"first\"");
	assert_int_equal(t.ev.data_len, 5);
	assert_memory_equal(t.ev.data, "first", 5);

	/* execve's argv: printed from the strings kept as the event's. */
	char arg1[] = "--one";
	const char *argv[] = { "prog", arg1, NULL };
	strbuf_reset(&t.args);
	d.call.nr = SYS_execve;
	d.call.args[0] = DT_PTR("/bin/prog");
	d.call.args[1] = DT_PTR(argv);
	d.call.args[2] = 0;
	dec_read_roles(&d, syscall_by_nr(SYS_execve));
	arg1[2] = 'O';
	dec_argv_arg(&d, 1);
	assert_string_equal(strbuf_str(&t.args), "[\"prog\", \"--one\"]");
	assert_int_equal(t.ev.argc, 2);
	assert_string_equal(t.ev.argv[1], "--one");
	dt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mem_page_boundary),
		cmocka_unit_test(mem_long_strings),
		cmocka_unit_test(mem_proc_fallback),
		cmocka_unit_test(arena_keeps_pointers),
		cmocka_unit_test(errno_names),
		cmocka_unit_test(open_flags),
		cmocka_unit_test(numbers),
		cmocka_unit_test(paths),
		cmocka_unit_test(buffers),
		cmocka_unit_test(string_arrays),
		cmocka_unit_test(sockaddrs),
		cmocka_unit_test(fds),
		cmocka_unit_test(table_decoders),
		cmocka_unit_test(roles_same_facts),
		cmocka_unit_test(roles_read_once),
		cmocka_unit_test(table_names),
		cmocka_unit_test(generic_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
