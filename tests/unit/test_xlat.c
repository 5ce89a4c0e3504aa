/* The generated tables against the system headers and libc. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <cmocka.h>

#include "capture/decode.h"
#include "gen/tables.h"
#include "util/xlat.h"

static void syscalls_round_trip(void **state)
{
	(void)state;
	long long v;

	assert_true(rc_xlat_syscall.count > 300);
	assert_true(xlat_value(&rc_xlat_syscall, "openat", 6, &v));
	assert_int_equal(v, SYS_openat);
	assert_true(xlat_value(&rc_xlat_syscall, "execve", 6, &v));
	assert_int_equal(v, SYS_execve);
	assert_false(xlat_value(&rc_xlat_syscall, "open_", 5, &v));
	assert_false(xlat_value(&rc_xlat_syscall, "opena", 5, &v));
	assert_false(xlat_value(&rc_xlat_syscall, "read\0x", 6, &v));
	/* Every name maps back to itself (no two syscalls share a number). */
	for (size_t i = 0; i < rc_xlat_syscall.count; i++) {
		const struct rc_xlat_entry *e = &rc_xlat_syscall.rows[i];
		assert_true(xlat_value(&rc_xlat_syscall, e->name, strlen(e->name), &v));
		assert_int_equal(v, e->value);
		assert_string_equal(xlat_name(&rc_xlat_syscall, v), e->name);
	}
	/* Sorted by name, as the lookup assumes. */
	for (size_t i = 1; i < rc_xlat_syscall.count; i++)
		assert_true(strcmp(rc_xlat_syscall.rows[i - 1].name, rc_xlat_syscall.rows[i].name) < 0);
}

static void errnos(void **state)
{
	(void)state;
	int v;

	assert_true(xlat_errno_value("ENOENT", 6, &v));
	assert_int_equal(v, ENOENT);
	assert_string_equal(xlat_errno_name(ENOENT), "ENOENT");
	assert_string_equal(xlat_errno_name(EACCES), "EACCES");
	/* Aliases resolve by name but the canonical name wins. */
	assert_true(xlat_errno_value("EWOULDBLOCK", 11, &v));
	assert_int_equal(v, EAGAIN);
	assert_string_equal(xlat_errno_name(EAGAIN), "EAGAIN");
	/* Kernel-internal codes strace prints. */
	assert_true(xlat_errno_value("ERESTARTSYS", 11, &v));
	assert_int_equal(v, 512);
	assert_string_equal(xlat_errno_name(516), "ERESTART_RESTARTBLOCK");
	assert_false(xlat_errno_value("ENOPE", 5, &v));
	for (size_t i = 1; i < rc_xlat_errno.count; i++)
		assert_true(strcmp(rc_xlat_errno.rows[i - 1].name, rc_xlat_errno.rows[i].name) < 0);
}

static void signals_and_codes(void **state)
{
	(void)state;
	long long v;

	assert_string_equal(xlat_name(&rc_xlat_signal, SIGSEGV), "SIGSEGV");
	assert_string_equal(xlat_name(&rc_xlat_signal, SIGBUS), "SIGBUS");
	assert_true(xlat_value(&rc_xlat_signal, "SIGKILL", 7, &v));
	assert_int_equal(v, SIGKILL);
	assert_true(xlat_value(&rc_xlat_si_code, "SEGV_MAPERR", 11, &v));
	assert_int_equal(v, SEGV_MAPERR);
	assert_true(xlat_value(&rc_xlat_si_code, "BUS_ADRERR", 10, &v));
	assert_int_equal(v, BUS_ADRERR);
}

/* One si_code namer for the crash model, the rules and the tracer's
 * siginfo lines: the numbers overlap between signals, the generic codes
 * do not depend on the signal, and the codes glibc's headers leave out
 * come from the kernel's. */
static void si_code_names(void **state)
{
	(void)state;

	assert_string_equal(xlat_si_code_name(SIGSEGV, SEGV_MAPERR, 0), "SEGV_MAPERR");
	assert_string_equal(xlat_si_code_name(SIGBUS, 1, 0), "BUS_ADRALN");
	assert_string_equal(xlat_si_code_name(SIGILL, 1, 0), "ILL_ILLOPC");
	assert_string_equal(xlat_si_code_name(SIGFPE, FPE_INTDIV, 0), "FPE_INTDIV");
	assert_string_equal(xlat_si_code_name(SIGCHLD, CLD_KILLED, 0), "CLD_KILLED");
	assert_string_equal(xlat_si_code_name(SIGIO, POLL_IN, 0), "POLL_IN");
	assert_string_equal(xlat_si_code_name(SIGSEGV, SI_KERNEL, 0), "SI_KERNEL");
	assert_string_equal(xlat_si_code_name(SIGABRT, SI_TKILL, 0), "SI_TKILL");
	assert_string_equal(xlat_si_code_name(SIGALRM, SI_TIMER, 0), "SI_TIMER");
	/* 0 is SI_USER only when a process sent it. */
	assert_null(xlat_si_code_name(SIGTERM, 0, 0));
	assert_string_equal(xlat_si_code_name(SIGTERM, 0, 1), "SI_USER");
	/* A signal without codes of its own. */
	assert_null(xlat_si_code_name(SIGTERM, 1, 0));
	assert_null(xlat_si_code_name(SIGSEGV, 99, 0));
	/* Only in <asm-generic/siginfo.h>. */
	assert_string_equal(xlat_si_code_name(SIGSYS, 1, 0), "SYS_SECCOMP");
	assert_string_equal(xlat_si_code_name(SIGSYS, 2, 0), "SYS_USER_DISPATCH");
	assert_string_equal(xlat_si_code_name(SIGTRAP, 6, 0), "TRAP_PERF");
	assert_string_equal(xlat_si_code("TRAP_", TRAP_BRKPT), "TRAP_BRKPT");
	assert_null(xlat_si_code("SI_", 128 + 1));
}

/* The tracer's signal names are the table's, with strace's choice where
 * glibc has two names for a number. */
static void tracer_signal_names(void **state)
{
	(void)state;

	assert_string_equal(dec_signame(SIGIO), "SIGIO");
	assert_string_equal(dec_signame(SIGABRT), "SIGABRT");
	assert_string_equal(dec_signame(SIGCHLD), "SIGCHLD");
	assert_string_equal(dec_signame(SIGSTKFLT), "SIGSTKFLT");
	assert_string_equal(dec_signame(SIGRTMIN), "SIGRT_2");
	for (int sig = 1; sig < 32; sig++) {
		assert_non_null(dec_signame(sig));
		if (sig != SIGIO)
			assert_string_equal(dec_signame(sig), xlat_name(&rc_xlat_signal, sig));
	}
	assert_null(dec_signame(0));
	assert_null(dec_signame(65));
}

static void flags(void **state)
{
	(void)state;
	bool unknown = false;
	const char *s = "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC";

	assert_int_equal(xlat_flags(&rc_xlat_open_flag, s, strlen(s), &unknown),
			 O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	assert_false(unknown);
	s = "MAP_PRIVATE|MAP_ANONYMOUS|0x40000";
	assert_int_equal(xlat_flags(&rc_xlat_mmap_flag, s, strlen(s), &unknown),
			 MAP_PRIVATE | MAP_ANONYMOUS | 0x40000);
	s = "PROT_READ|PROT_BOGUS";
	assert_int_equal(xlat_flags(&rc_xlat_prot_flag, s, strlen(s), &unknown), PROT_READ);
	assert_true(unknown);
}

/* A table of src/xlat/: its rows sorted by name are by_name, each name
 * looks its own value up, and a value's name is its first row's. */
static void file_table(const struct rc_xlat *x)
{
	long long v;

	assert_true(x->count > 0);
	assert_ptr_not_equal(x->rows, x->by_name);
	for (size_t i = 0; i < x->count; i++) {
		const struct rc_xlat_entry *r = &x->rows[i];
		assert_int_equal(r->len, strlen(r->name));
		assert_false(r->alias);
		assert_true(xlat_value(x, r->name, r->len, &v));
		assert_int_equal(v, r->value);
		size_t first = 0;
		while (x->rows[first].value != r->value)
			first++;
		assert_string_equal(xlat_name(x, r->value), x->rows[first].name);
		size_t found = 0;
		for (size_t j = 0; j < x->count; j++)
			found += strcmp(x->by_name[j].name, r->name) == 0 && x->by_name[j].value == r->value;
		assert_int_equal(found, 1);
	}
	for (size_t i = 1; i < x->count; i++)
		assert_true(strcmp(x->by_name[i - 1].name, x->by_name[i].name) < 0);
	assert_false(xlat_value(x, "NO_SUCH_NAME", 12, &v));
}

/* The files' forms: a name the headers define, names printed together,
 * a value where the headers lack the name, enum constants, values taken
 * as 32 bits; and the order is the file's. */
static void file_tables(void **state)
{
	(void)state;
	const struct rc_xlat *tables[] = {
		&rc_xlat_mmap_flags, &rc_xlat_mmap_prot,     &rc_xlat_futexops,  &rc_xlat_mount_flags,
		&rc_xlat_usagewho,   &rc_xlat_waitid_types,  &rc_xlat_pr_dumpable, &rc_xlat_sa_handler_values,
		&rc_xlat_clone_flags, &rc_xlat_clone3_flags, &rc_xlat_epollevents,
	};

	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		file_table(tables[i]);
	assert_string_equal(rc_xlat_mmap_flags.rows[0].name, "MAP_SHARED");
	assert_int_equal(rc_xlat_mmap_flags.rows[0].value, MAP_SHARED);
	assert_string_equal(rc_xlat_mmap_prot.rows[0].name, "PROT_NONE");
	long long v;
	assert_true(xlat_value(&rc_xlat_futexops, "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME", 46, &v));
	assert_int_equal(v, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME);
	assert_string_equal(xlat_name(&rc_xlat_futexops, FUTEX_LOCK_PI2 | FUTEX_PRIVATE_FLAG), "FUTEX_LOCK_PI2_PRIVATE");
	assert_true(xlat_value(&rc_xlat_pr_dumpable, "SUID_DUMP_ROOT", 14, &v));
	assert_int_equal(v, 2);
	assert_true(xlat_value(&rc_xlat_waitid_types, "P_PIDFD", 7, &v));
	assert_int_equal(v, P_PIDFD);
	/* #Unsigned: MS_NOUSER (1 << 31) and RUSAGE_CHILDREN (-1) as the 32
	 * bits the calls take; a pointer constant keeps its 64. */
	assert_string_equal(xlat_name(&rc_xlat_mount_flags, 0x80000000LL), "MS_NOUSER");
	assert_string_equal(xlat_name(&rc_xlat_usagewho, 0xffffffffLL), "RUSAGE_CHILDREN");
	assert_string_equal(xlat_name(&rc_xlat_sa_handler_values, -1), "SIG_ERR");
	assert_string_equal(xlat_name(&rc_xlat_epollevents, 0x80000000LL), "EPOLLET");
}

static const char *flags_text(struct strbuf *sb, const struct rc_xlat *x, unsigned long long v, const char *dflt)
{
	strbuf_reset(sb);
	xlat_print_flags(sb, x, v, dflt);
	return sb->buf ? sb->buf : "";
}

static const char *val_text(struct strbuf *sb, const struct rc_xlat *x, unsigned long long v, const char *dflt)
{
	strbuf_reset(sb);
	xlat_print_val(sb, x, v, dflt);
	return sb->buf ? sb->buf : "";
}

/* strace's printflags and printxval over a table's order. */
static void printing(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;

	/* The file's order, not the bits': MAP_NORESERVE before MAP_GROWSDOWN. */
	assert_string_equal(flags_text(&sb, &rc_xlat_mmap_flags, MAP_GROWSDOWN | MAP_NORESERVE | MAP_ANONYMOUS, NULL),
			    "MAP_ANONYMOUS|MAP_NORESERVE|MAP_GROWSDOWN");
	/* Bits no name takes, after the names. */
	assert_string_equal(flags_text(&sb, &rc_xlat_mmap_prot, PROT_READ | 0x100000, "PROT_???"), "PROT_READ|0x100000");
	/* No name at all: the value, and the default in a comment. */
	assert_string_equal(flags_text(&sb, &rc_xlat_clone3_flags, 0x10, "CLONE_???"), "0x10 /* CLONE_??? */");
	assert_string_equal(flags_text(&sb, &rc_xlat_clone3_flags, 0x10, NULL), "0x10");
	/* 0 is the first row's when its value is 0 ... */
	assert_string_equal(flags_text(&sb, &rc_xlat_mmap_prot, 0, "PROT_???"), "PROT_NONE");
	/* ... else "0", or nothing without a default. */
	assert_string_equal(flags_text(&sb, &rc_xlat_clone_flags, 0, "CLONE_???"), "0");
	assert_string_equal(flags_text(&sb, &rc_xlat_clone_flags, 0, NULL), "");
	/* Two tables as one: clone3's flags. */
	strbuf_reset(&sb);
	xlat_print_flags2(&sb, &rc_xlat_clone_flags, &rc_xlat_clone3_flags,
			  CLONE_VM | CLONE_INTO_CGROUP | 0x4000000000ULL, "CLONE_???");
	assert_string_equal(sb.buf, "CLONE_VM|CLONE_INTO_CGROUP|0x4000000000");
	strbuf_reset(&sb);
	xlat_print_flags2(&sb, &rc_xlat_clone_flags, &rc_xlat_clone3_flags, 0, "CLONE_???");
	assert_string_equal(sb.buf, "0");
	/* A value: its name, else hex and the default. */
	assert_string_equal(val_text(&sb, &rc_xlat_futexops, FUTEX_WAIT_PRIVATE, "FUTEX_???"), "FUTEX_WAIT_PRIVATE");
	assert_string_equal(val_text(&sb, &rc_xlat_futexops, 0x7f, "FUTEX_???"), "0x7f /* FUTEX_??? */");
	assert_string_equal(val_text(&sb, &rc_xlat_futexops, 0x7f, NULL), "0x7f");
	assert_false(xlat_print_val(&sb, &rc_xlat_futexops, 0x7f, NULL));
	assert_true(xlat_print_val(&sb, &rc_xlat_futexops, FUTEX_WAKE, NULL));
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(syscalls_round_trip),
		cmocka_unit_test(errnos),
		cmocka_unit_test(signals_and_codes),
		cmocka_unit_test(si_code_names),
		cmocka_unit_test(tracer_signal_names),
		cmocka_unit_test(flags),
		cmocka_unit_test(file_tables),
		cmocka_unit_test(printing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
