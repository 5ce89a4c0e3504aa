/* The crash rules on crash models made here (the real kernel cores are
 * tests/crash's): the SIGSEGV past the end of a file mapping that
 * bad-file-mapping's crash half names, and the wild pointers, NULL
 * pointers and other faults that must keep their own rules.
 *
 * The model is a process like tests/crash/progs/crash-shard.c's: a 1 MiB
 * shard mapped read-only, a guard page after it, a worker's 8 MiB stack
 * and its guard, and the main thread in memcpy, called by copy_tensor.
 * The faulting instruction's bytes are real machine code, read from a
 * file mapped where the pc is, as crash_read_code reads a core's code;
 * the main thread's stack is in the "core image". */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#include "crash/crash.h"
#include "crash/rules.h"
#include "rules/rule.h"
#include "rules/finding.h"
#include "util/util.h"

enum { R_R15 = 0, R_RBP = 4, R_RBX = 5, R_RAX = 10, R_RDX = 12, R_RSI = 13, R_RDI = 14, R_RIP = 16, R_RSP = 19 };

#define SHARD 0x7f0000000000ULL	/* the shard's mapping, 1 MiB */
#define SHARD_LEN 0x100000ULL
#define GUARD (SHARD + SHARD_LEN)	/* a no-access page right after it */
#define WSTACK (GUARD + 0x1000)	/* a worker's stack, 8 MiB */
#define WGUARD (WSTACK + 0x800000)	/* and the guard of the stack above */
#define LIBC 0x7f1000000000ULL	/* memcpy is here */
#define EXE 0x400000ULL
#define STACK 0x7ffc00000000ULL	/* the main thread's, in the image */
#define STACK_LEN 0x10000ULL
#define RSP (STACK + 0xf000)
#define EXPECTED (16ULL << 20)

/* Offsets of the instructions in the code file. */
enum {
	CODE_MOV_RSI = 0,	/* mov (%rsi),%rax: 48 8b 06 */
	CODE_MOVZB_IDX = 16,	/* movzbl (%rdi,%rax,1),%eax: 0f b6 04 07 */
	CODE_VMOV_RSI = 32,	/* vmovdqu64 (%rsi),%zmm20: glibc's memmove */
	CODE_STORE_RSI = 48,	/* mov %rax,(%rsi): 48 89 06 */
};

static char tmpdir[] = "/tmp/rc-crashrules.XXXXXX";
static char code_path[256], shard_path[256], elf_path[256], big_path[256];

static void write_file(const char *path, const void *data, size_t n, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
}

static int group_setup(void **state)
{
	unsigned char code[64];

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	memset(code, 0xcc, sizeof(code));
	memcpy(code + CODE_MOV_RSI, "\x48\x8b\x06", 3);
	memcpy(code + CODE_MOVZB_IDX, "\x0f\xb6\x04\x07", 4);
	memcpy(code + CODE_VMOV_RSI, "\x62\xe1\xfe\x48\x6f\x26", 6);
	memcpy(code + CODE_STORE_RSI, "\x48\x89\x06", 3);
	snprintf(code_path, sizeof(code_path), "%s/code.bin", tmpdir);
	snprintf(shard_path, sizeof(shard_path), "%s/shard-00001.bin", tmpdir);
	snprintf(elf_path, sizeof(elf_path), "%s/libdata.so", tmpdir);
	snprintf(big_path, sizeof(big_path), "%s/big.bin", tmpdir);
	write_file(code_path, code, sizeof(code), sizeof(code));
	write_file(shard_path, "weights", 7, (off_t)SHARD_LEN);
	write_file(elf_path, "\177ELF", 4, (off_t)SHARD_LEN);
	write_file(big_path, "weights", 7, (off_t)(4 * SHARD_LEN));
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	unlink(code_path);
	unlink(shard_path);
	unlink(elf_path);
	unlink(big_path);
	return rmdir(tmpdir);
}

struct fx {
	struct rc_crash c;
	unsigned char *stack;	/* the image: the main thread's stack */
	struct rc_findings out;
};

static struct rc_mapping *add_map(struct fx *f, uint64_t start, uint64_t end, const char *perms, const char *path,
				  int64_t size)
{
	struct rc_mapping *m = &f->c.maps[f->c.nmaps++];
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->end = end;
	m->read = perms[0] == 'r';
	m->write = perms[1] == 'w';
	m->exec = perms[2] == 'x';
	m->path = path ? xstrdup(path) : NULL;
	m->file_size = size;
	return m;
}

static void add_module(struct fx *f, const char *name, uint64_t start, uint64_t end)
{
	struct rc_module *m = &f->c.modules[f->c.nmodules++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->start = start;
	m->end = end;
	m->has_symbols = m->has_debuginfo = true;
}

static void add_frame(struct rc_thread *t, uint64_t pc, const struct rc_module *m, const char *fn)
{
	struct rc_frame *fr = &t->frames[t->nframes++];
	memset(fr, 0, sizeof(*fr));
	fr->pc = pc;
	fr->module = m;
	fr->function = xstrdup(fn);
}

static void put_word(struct fx *f, uint64_t addr, uint64_t v)
{
	assert_true(addr >= STACK && addr + 8 <= STACK + STACK_LEN);
	memcpy(f->stack + (addr - STACK), &v, 8);
}

/* The process at its fault: SIGSEGV SI_CODE at FAULT, the pc at the code
 * file's offset CODE in memcpy, called by copy_tensor (frame 1), whose
 * frame ends where the return address into load_shard (frame 2) is. */
static void fx_init(struct fx *f, int si_code, uint64_t fault, unsigned code)
{
	memset(f, 0, sizeof(*f));
	crash_init(&f->c);
	findings_init(&f->out);
	f->c.signo = SIGSEGV;
	f->c.si_code = si_code;
	f->c.fault_addr = fault;
	f->c.has_siginfo = true;
	f->c.pid = f->c.crashed_tid = 4242;
	f->c.maps = xcalloc(16, sizeof(*f->c.maps));
	f->c.modules = xcalloc(4, sizeof(*f->c.modules));
	add_map(f, EXE, EXE + 0x1000, "r-x", code_path, 64);
	add_map(f, SHARD, SHARD + SHARD_LEN, "r--", shard_path, (int64_t)SHARD_LEN);
	add_map(f, GUARD, GUARD + 0x1000, "---", NULL, -1);
	add_map(f, WSTACK, WGUARD, "rw-", NULL, -1);
	add_map(f, WGUARD, WGUARD + 0x1000, "---", NULL, -1);
	add_map(f, LIBC, LIBC + 0x1000, "r-x", code_path, 64);
	struct rc_mapping *st = add_map(f, STACK, STACK + STACK_LEN, "rw-", NULL, -1);
	st->in_core = true;
	st->core_offset = 0;
	st->core_size = STACK_LEN;
	f->stack = xcalloc(1, STACK_LEN);
	f->c.image = f->stack;
	f->c.image_size = STACK_LEN;
	add_module(f, "/tmp/ct/crash-shard", EXE, EXE + 0x1000);
	add_module(f, "/usr/lib/x86_64-linux-gnu/libc.so.6", LIBC, LIBC + 0x1000);

	f->c.threads = xcalloc(1, sizeof(*f->c.threads));
	f->c.nthreads = 1;
	struct rc_thread *t = &f->c.threads[0];
	t->tid = 4242;
	t->crashed = true;
	t->frames = xcalloc(4, sizeof(*t->frames));
	for (int i = 0; i < RC_CRASH_NREGS; i++)
		t->regs[i] = 0x1000 + (uint64_t)i;	/* small numbers: no pointers, no lengths past the fault */
	t->regs[R_RIP] = LIBC + code;
	t->regs[R_RSP] = RSP;
	t->regs[R_RBP] = RSP + 0x20;
	add_frame(t, LIBC + code, &f->c.modules[1], "__memmove_avx512_unaligned_erms");
	add_frame(t, EXE + 0x100, &f->c.modules[0], "copy_tensor");
	add_frame(t, EXE + 0x200, &f->c.modules[0], "load_shard");
	add_frame(t, EXE + 0x300, &f->c.modules[0], "main");
	/* memcpy's return address, then copy_tensor's frame, which ends at
	 * the return address into load_shard */
	put_word(f, RSP, EXE + 0x100);
	put_word(f, RSP + 0x28, EXE + 0x200);
}

static void fx_release(struct fx *f)
{
	findings_release(&f->out);
	crash_release(&f->c);
	free(f->stack);
}

static struct rc_thread *thread(struct fx *f)
{
	return &f->c.threads[0];
}

static const struct rc_finding *run_rules(struct fx *f)
{
	crash_rules_run(&f->c, RC_RULES_ALL, &f->out);
	assert_true(f->out.count > 0);
	return f->out.v[0];
}

static const struct rc_finding *find(struct fx *f, const char *rule)
{
	for (size_t i = 0; i < f->out.count; i++)
		if (!strcmp(f->out.v[i]->rule, rule))
			return f->out.v[i];
	return NULL;
}

static bool contains(const char *s, const char *needle)
{
	return s && strstr(s, needle);
}

/* Story 3 at -O0: memcpy copies backwards from the far end and faults in
 * the worker stack's guard, 8 MiB past the shard; its cursor points
 * there, but copy_tensor's frame still holds the source and the length. */
static void backward_copy_args_on_stack(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, WGUARD + 0xff0, CODE_VMOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0xff0;
	put_word(&f, RSP + 0x08, 0x7fe000000010ULL);	/* dst */
	put_word(&f, RSP + 0x10, SHARD);			/* src */
	put_word(&f, RSP + 0x18, EXPECTED);			/* n */
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_string_equal(r->path, shard_path);
	assert_int_equal(r->bytes, (long long)SHARD_LEN);
	assert_int_equal(r->signo, SIGSEGV);
	assert_true(contains(r->summary, "has 1048576 bytes"));
	assert_true(contains(r->summary, "copy_tensor in crash-shard read past them"));
	assert_true(contains(r->summary, "a read from offset 0 ran 8396784 bytes past the end of the mapping "
				 "(0x7f0000000000-0x7f0000100000)"));
	assert_true(contains(r->summary, "SEGV_ACCERR at 0x7f0000901ff0"));
	assert_true(contains(r->message, "a length of 16777216 bytes"));
	assert_true(contains(r->advice, "checksum (SHA-256)"));
	assert_true(contains(r->advice, "size"));
	assert_null(find(&f, "native-crash"));
	fx_release(&f);
}

/* The same at -O2: the caller kept the source in a callee-saved register
 * and memmove the length in rdx; nothing on the stack. */
static void backward_copy_args_in_registers(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, WGUARD + 0xff0, CODE_VMOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0xff0;
	thread(&f)->regs[R_RBX] = SHARD + 0x40;
	thread(&f)->regs[R_RDX] = EXPECTED;
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->summary, "a read from offset 64 ran"));
	fx_release(&f);
}

/* Arguments beyond the culprit's frame (in load_shard's, or further up)
 * are not the copy's: the scan stops at copy_tensor's return address. */
static void args_beyond_culprit_frame(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, WGUARD + 0xff0, CODE_VMOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0xff0;
	put_word(&f, RSP + 0x30, SHARD);
	put_word(&f, RSP + 0x38, EXPECTED);
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "native-crash");
	assert_null(find(&f, "bad-file-mapping"));
	fx_release(&f);
}

/* An unrelated wild pointer into a guard page that happens to lie above a
 * file mapping: the register holds the wild address, no pointer into the
 * shard is there, or one is but no length reaches the fault. */
static void wild_pointer_near_a_mapping(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, WGUARD + 0x10, CODE_MOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0x10;
	assert_string_equal(run_rules(&f)->rule, "native-crash");
	fx_release(&f);

	fx_init(&f, SEGV_ACCERR, WGUARD + 0x10, CODE_MOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0x10;
	thread(&f)->regs[R_RBX] = SHARD + 0x100;	/* a pointer into the shard, in use elsewhere */
	thread(&f)->regs[R_RDX] = 0x4000;		/* and lengths too short to reach */
	put_word(&f, RSP + 0x10, 0x100000);
	assert_string_equal(run_rules(&f)->rule, "native-crash");
	fx_release(&f);

	/* An unmapped address further on: no mapping ends next to it. */
	fx_init(&f, SEGV_MAPERR, WGUARD + 0x5000, CODE_MOV_RSI);
	thread(&f)->regs[R_RSI] = WGUARD + 0x5000;
	assert_string_equal(run_rules(&f)->rule, "native-crash");
	fx_release(&f);
}

/* A forward copy whose cursor runs off the shard into the guard right
 * after it: the faulting access's own register points at the end. */
static void forward_cursor_at_end(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, GUARD, CODE_MOV_RSI);
	thread(&f)->regs[R_RSI] = GUARD;
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->summary, "an access through a pointer into its mapping faulted at the end"));
	fx_release(&f);

	/* A cursor a little past the end (memmove's aligned loop), in the
	 * guard with nothing readable between. */
	fx_init(&f, SEGV_ACCERR, GUARD + 0x30, CODE_MOV_RSI);
	thread(&f)->regs[R_RSI] = GUARD + 0x30;
	assert_string_equal(run_rules(&f)->rule, "bad-file-mapping");
	fx_release(&f);
}

/* A loop indexing the shard from its start, past its end, through the
 * worker's stack (readable) into the next guard: base = the shard. */
static void index_past_the_end(void **state)
{
	struct fx f;
	(void)state;
	uint64_t i = WGUARD + 0x20 - SHARD;
	fx_init(&f, SEGV_ACCERR, SHARD + i, CODE_MOVZB_IDX);
	thread(&f)->regs[R_RDI] = SHARD;
	thread(&f)->regs[R_RAX] = i;
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->summary, "8392736 bytes past the end"));
	fx_release(&f);

	/* The same instruction, but its registers do not make the fault
	 * address: not this access. */
	fx_init(&f, SEGV_ACCERR, WGUARD + 0x20, CODE_MOVZB_IDX);
	thread(&f)->regs[R_RDI] = SHARD;
	thread(&f)->regs[R_RAX] = 0x10;
	assert_string_equal(run_rules(&f)->rule, "native-crash");
	fx_release(&f);
}

/* NULL + offset stays null-deref's even with a file mapping near 0 and a
 * pointer into it and a huge length in the registers. */
static void null_near_a_mapping(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_MAPERR, 0x10, CODE_MOV_RSI);
	f.c.maps[1].start = 0x10000;	/* the shard, mapped low */
	f.c.maps[1].end = 0x110000;
	/* keep the maps sorted: move the shard first */
	struct rc_mapping shard = f.c.maps[1];
	memmove(&f.c.maps[1], &f.c.maps[0], sizeof(shard));
	f.c.maps[0] = shard;
	thread(&f)->regs[R_RSI] = 0x10;
	thread(&f)->regs[R_RBX] = 0x10000;
	thread(&f)->regs[R_RDX] = EXPECTED;
	assert_string_equal(run_rules(&f)->rule, "null-deref");
	assert_null(find(&f, "bad-file-mapping"));
	fx_release(&f);
}

/* A mapped ELF object (a library, data segment and all) is not a data
 * file that was short. */
static void elf_mapping_is_not_data(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, GUARD, CODE_MOV_RSI);
	free(f.c.maps[1].path);
	f.c.maps[1].path = xstrdup(elf_path);
	thread(&f)->regs[R_RSI] = GUARD;
	assert_string_equal(run_rules(&f)->rule, "native-crash");
	fx_release(&f);
}

/* A window of a longer file: the mapping, not the file, is short; and a
 * file gone since the crash. */
static void window_and_gone(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, GUARD, CODE_MOV_RSI);
	free(f.c.maps[1].path);
	f.c.maps[1].path = xstrdup(big_path);
	f.c.maps[1].file_size = 4 * SHARD_LEN;
	thread(&f)->regs[R_RSI] = GUARD;
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->advice, "read more than it mapped"));
	assert_true(contains(r->advice, "4194304 bytes"));
	fx_release(&f);

	fx_init(&f, SEGV_ACCERR, GUARD, CODE_MOV_RSI);
	free(f.c.maps[1].path);
	f.c.maps[1].path = xstrdup("/nonexistent/rc-test/shard.bin");
	f.c.maps[1].file_size = -1;
	thread(&f)->regs[R_RSI] = GUARD;
	r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->summary, "(gone now; 1048576 bytes mapped)"));
	assert_int_equal(r->bytes, -1);
	fx_release(&f);
}

/* The shard's own faults keep their rules: a write into it (read-only,
 * within the file) is write-to-readonly's; SIGBUS past the file's end
 * inside a longer mapping is the SIGBUS case. */
static void other_faults_keep_their_rules(void **state)
{
	struct fx f;
	(void)state;
	fx_init(&f, SEGV_ACCERR, SHARD + 0x100, CODE_STORE_RSI);
	thread(&f)->regs[R_RSI] = SHARD + 0x100;
	assert_string_equal(run_rules(&f)->rule, "write-to-readonly");
	assert_null(find(&f, "bad-file-mapping"));
	fx_release(&f);

	fx_init(&f, BUS_ADRERR, SHARD + 0x2000, CODE_MOV_RSI);
	f.c.signo = SIGBUS;
	f.c.maps[1].file_size = 0x1000;
	thread(&f)->regs[R_RSI] = SHARD + 0x2000;
	const struct rc_finding *r = run_rules(&f);
	assert_string_equal(r->rule, "bad-file-mapping");
	assert_true(contains(r->summary, "is mapped past its end"));
	fx_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(backward_copy_args_on_stack),
		cmocka_unit_test(backward_copy_args_in_registers),
		cmocka_unit_test(args_beyond_culprit_frame),
		cmocka_unit_test(wild_pointer_near_a_mapping),
		cmocka_unit_test(forward_cursor_at_end),
		cmocka_unit_test(index_past_the_end),
		cmocka_unit_test(null_near_a_mapping),
		cmocka_unit_test(elf_mapping_is_not_data),
		cmocka_unit_test(window_and_gone),
		cmocka_unit_test(other_faults_keep_their_rules),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
