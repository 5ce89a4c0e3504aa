/* The syscall table (event/syscalls.def) and its API: one meaning of each
 * call, whichever source reads it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "event/event.h"
#include "event/facts.h"
#include "event/loss.h"
#include "event/syscalls.h"
#include "util/util.h"
#include "gen/tables.h"

/* Every name the headers number is found by name with that number, and
 * by number with its name (or an alias's). */
static void names_and_numbers(void **state)
{
	(void)state;

	for (size_t i = 0; i < rc_xlat_syscall.count; i++) {
		const struct rc_xlat_entry *x = &rc_xlat_syscall.rows[i];
		const struct rc_syscall *sc = syscall_by_name(x->name, strlen(x->name));
		assert_non_null(sc);
		assert_string_equal(sc->name, x->name);
		assert_int_equal(sc->nr, x->value);
		assert_non_null(syscall_name(sc->nr));
	}
	assert_string_equal(syscall_name(SYS_read), "read");
	assert_string_equal(syscall_name(SYS_openat), "openat");
	assert_int_equal(syscall_by_name("openat", 6)->nr, SYS_openat);
	assert_ptr_equal(syscall_by_name("openat", 6), syscall_by_nr(SYS_openat));
	/* A prefix or a longer name is another name. */
	assert_null(syscall_by_name("opena", 5));
	assert_null(syscall_by_name("openat_", 7));
	assert_null(syscall_by_name("nosuchcall", 10));
	assert_null(syscall_by_nr(-1));
	assert_null(syscall_by_nr(syscall_nr_max()));
	assert_null(syscall_name(syscall_nr_max() + 100));
	assert_int_equal(syscall_classes(-1), 0);
	/* A call of other architectures, read from their logs: listed, and
	 * numbered as the call of this one it means the same as, so that
	 * the rules read it as that call; a look-up by number finds this
	 * architecture's call. */
	const struct rc_syscall *st = syscall_by_name("stat64", 6);
	assert_non_null(st);
	assert_int_equal(st->nr, SYS_stat);
	assert_string_equal(st->as, "stat");
	assert_string_equal(syscall_by_nr(SYS_stat)->name, "stat");
	assert_int_equal(syscall_arg(st, ROLE_PATH), 0);
	/* Names the table does not list take their family's row. */
	static const char *const foreign[][2] = {
		{ "clock_nanosleep_time64", "clock_nanosleep" }, { "getuid32", "getuid" },
		{ "futex_time64", "futex" }, { "mmap2", "mmap" }, { "_llseek", "lseek" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(foreign); i++) {
		const struct rc_syscall *f = syscall_by_name(foreign[i][0], strlen(foreign[i][0]));
		const struct rc_syscall *as = syscall_by_name(foreign[i][1], strlen(foreign[i][1]));
		assert_non_null(f);
		assert_string_equal(f->name, foreign[i][0]);
		assert_int_equal(f->nr, as->nr);
		assert_int_equal(syscall_classes(f->nr), as->classes);
		assert_ptr_equal(syscall_by_nr(f->nr), as);
	}
	assert_int_equal(syscall_arg(st, ROLE_STAT_BUF), 1);
}

/* Each row is consistent with itself: what its roles say of it agrees
 * with its classes and trace classes. */
static void rows_consistent(void **state)
{
	(void)state;
	size_t n = syscall_count();

	assert_true(n > 300);
	for (size_t i = 0; i < n; i++) {
		const struct rc_syscall *sc = syscall_at(i);
		assert_non_null(sc);
		/* Listed once. */
		assert_ptr_equal(syscall_by_name(sc->name, sc->len), sc);
		assert_true(sc->nargs <= RC_SC_MAX_ARGS);
		assert_true(sc->rv <= RC_RV_NONE);
		for (int a = 0; a < RC_SC_MAX_ARGS; a++)
			assert_true(sc->roles[a] < ROLE_COUNT);
		for (int r = ROLE_NONE + 1; r < ROLE_COUNT; r++)
			assert_int_equal(syscall_has_role(sc, r), syscall_arg(sc, r) >= 0);
		/* Roles end where the arguments a reader must read end. */
		for (int a = 0; a < RC_SC_MAX_ARGS; a++)
			if (sc->roles[a] != ROLE_NONE)
				assert_true((unsigned)a < syscall_role_args(sc));
		if (syscall_role_args(sc))
			assert_int_not_equal(sc->roles[syscall_role_args(sc) - 1], ROLE_NONE);
		/* The rest holds for the calls of this architecture, which the
		 * tracer prints. */
		if (sc->nr < 0 || sc->as)
			continue;
		/* A call the tracer prints has no role past the arguments it
		 * prints. */
		if (syscall_role_args(sc) > sc->nargs)
			fail_msg("%s: a role past its %u arguments", sc->name, sc->nargs);
		/* strace's %file is the calls that take a path, and %desc the
		 * ones that take an fd, but for the socket calls (%network). */
		if (syscall_arg(sc, ROLE_PATH) >= 0 && !(sc->tclasses & TC_FILE))
			fail_msg("%s takes a path but is not in %%file", sc->name);
		if ((syscall_arg(sc, ROLE_FD) >= 0 || syscall_arg(sc, ROLE_DIRFD) >= 0) &&
		    !(sc->tclasses & (TC_DESC | TC_NETWORK)))
			fail_msg("%s takes an fd but is in neither %%desc nor %%network", sc->name);
		if (sc->classes & CL_EXEC)
			assert_int_not_equal(syscall_arg(sc, ROLE_PATH), -1);
		if (sc->classes & (CL_READ | CL_WRITE | CL_SYNC | CL_FD_STORAGE))
			assert_int_not_equal(syscall_arg(sc, ROLE_FD), -1);
		if (sc->classes & CL_OPEN) {
			assert_int_equal(sc->rv, RC_RV_FD);
			assert_int_not_equal(syscall_arg(sc, ROLE_PATH), -1);
		}
	}
}

/* What each class means, checked against the roles: on every row, also
 * those of calls this architecture lacks. */
static void class_meanings(void **state)
{
	(void)state;

	for (size_t i = 0; i < syscall_count(); i++) {
		const struct rc_syscall *sc = syscall_at(i);
		bool path = syscall_arg(sc, ROLE_PATH) >= 0;
		bool fd = syscall_arg(sc, ROLE_FD) >= 0;
		/* A call returns a file's attributes iff it has a stat buffer. */
		if (!(sc->classes & CL_STAT) !=
		    !(syscall_has_role(sc, ROLE_STAT_BUF) || syscall_has_role(sc, ROLE_STATX_BUF)))
			fail_msg("%s: CL_STAT and its stat buffer disagree", sc->name);
		/* The name calls name the entry by a path. */
		if ((sc->classes & (CL_NEW_NAME | CL_DROP_NAME | CL_PATH_EXISTS)) && !path)
			fail_msg("%s: a name call with no path", sc->name);
		/* A resize names its file and the size. */
		if ((sc->classes & CL_RESIZE) && (!(path || fd) || syscall_arg(sc, ROLE_LEN) < 0))
			fail_msg("%s: a resize with no file or no length", sc->name);
		/* Every call that looks a path up without creating it shows,
		 * when it worked, that the path exists: the opens but creat,
		 * and the calls that look at a file by its path. */
		if (path && ((sc->classes & (CL_OPEN | CL_LOOK)) && !(sc->classes & CL_CREATES)) !=
			    !!(sc->classes & CL_PATH_EXISTS))
			fail_msg("%s: CL_PATH_EXISTS is not the opens and looks by path", sc->name);
		/* A call that creates its file does not show it existed. */
		if ((sc->classes & CL_CREATES) && (sc->classes & CL_PATH_EXISTS))
			fail_msg("%s: creates its file, yet a witness that it exists", sc->name);
		/* The data calls move bytes through memory, but those that
		 * copy between two fds in the kernel or count messages. */
		if ((sc->classes & (CL_READ | CL_WRITE)) &&
		    !(sc->classes & CL_MEM_IO) != (syscall_has_role(sc, ROLE_FD2) || syscall_has_role(sc, ROLE_MMSGHDR_IN) ||
						    syscall_has_role(sc, ROLE_MMSGHDR_OUT)))
			fail_msg("%s: CL_MEM_IO is not the data calls through memory", sc->name);
		if ((sc->classes & CL_MEM_IO) && !(sc->classes & (CL_READ | CL_WRITE)))
			fail_msg("%s: CL_MEM_IO but neither reads nor writes", sc->name);
		/* A copy of an fd returns the new one. */
		if ((sc->classes & CL_DUP) && (sc->rv != RC_RV_FD || !fd))
			fail_msg("%s copies an fd but takes or returns none", sc->name);
		/* A socket call (strace has those in %network alone) that moves
		 * data does it in order, with no offset. */
		if ((sc->tclasses & (TC_NETWORK | TC_DESC)) == TC_NETWORK && (sc->classes & (CL_READ | CL_WRITE)) &&
		    !(sc->classes & CL_SOCK_IO))
			fail_msg("%s moves socket data but is not CL_SOCK_IO", sc->name);
	}
}

/* The narrower classes are parts of the wider ones. */
static void classes_nest(void **state)
{
	(void)state;
	static const struct {
		unsigned long long part, whole;
	} nest[] = {
		{ CL_CREATES, CL_OPEN },
		{ CL_FORK_WAITS, CL_FORK },
		{ CL_FUTEX_WAITS, CL_FUTEX },
		{ CL_SYNC, CL_FD_STORAGE },
		{ CL_MAP_GROWS, CL_MAPS },
		{ CL_STAT, CL_LOOK },
	};

	for (size_t i = 0; i < syscall_count(); i++) {
		const struct rc_syscall *sc = syscall_at(i);
		for (size_t k = 0; k < sizeof(nest) / sizeof(nest[0]); k++)
			if ((sc->classes & nest[k].part) && !(sc->classes & nest[k].whole))
				fail_msg("%s: a class without the class it is part of", sc->name);
		/* A socket's data calls read or write. */
		if ((sc->classes & CL_SOCK_IO) && !(sc->classes & (CL_READ | CL_WRITE)))
			fail_msg("%s moves socket data but neither reads nor writes", sc->name);
		/* Reading and writing are apart. */
		assert_false((sc->classes & CL_READ) && (sc->classes & CL_WRITE));
	}
	assert_true(syscall_is(SYS_read, CL_READ));
	assert_false(syscall_is(SYS_read, CL_WRITE));
	assert_true(syscall_is(SYS_pwritev2, CL_WRITE));
	assert_true(syscall_is(SYS_sendfile, CL_WRITE));
	assert_true(syscall_is(SYS_fsync, CL_SYNC));
	assert_true(syscall_is(SYS_vfork, CL_FORK_WAITS));
	assert_false(syscall_is(SYS_clone, CL_FORK_WAITS));
	assert_true(syscall_is(SYS_clone3, CL_FORK));
	assert_true(syscall_is(SYS_creat, CL_CREATES));
	assert_false(syscall_is(SYS_openat, CL_CREATES));
	assert_true(syscall_is(SYS_futex_waitv, CL_FUTEX_WAITS));
	assert_false(syscall_is(SYS_futex, CL_FUTEX_WAITS));
	assert_true(syscall_is(SYS_epoll_pwait2, CL_EPOLL));
	assert_true(syscall_is(SYS_pselect6, CL_POLL));
	assert_false(syscall_is(SYS_getpid, ~0ULL));
	/* The classes past bit 31 are asked like the others. */
	assert_true(syscall_is(SYS_mkdirat, CL_NEW_NAME));
	assert_true(syscall_is(SYS_renameat2, CL_NEW_NAME));
	assert_true(syscall_is(SYS_renameat2, CL_DROP_NAME));
	assert_false(syscall_is(SYS_mkdirat, CL_DROP_NAME));
	assert_true(syscall_is(SYS_rmdir, CL_DROP_NAME));
	assert_false(syscall_is(SYS_openat, CL_NEW_NAME));
	/* CL_SYNC is the calls that flush an fd's data (fsync(2),
	 * sync_file_range(2)), not every call that may wait on storage. */
	assert_true(syscall_is(SYS_sync_file_range, CL_SYNC));
	assert_false(syscall_is(SYS_close, CL_SYNC));
	assert_false(syscall_is(SYS_fstat, CL_SYNC));
	assert_false(syscall_is(SYS_ftruncate, CL_SYNC));
	assert_true(syscall_is(SYS_close, CL_FD_STORAGE));
	assert_true(syscall_is(SYS_getdents64, CL_FD_STORAGE));
	assert_true(syscall_is(SYS_ftruncate, CL_RESIZE));
	assert_true(syscall_is(SYS_truncate, CL_RESIZE));
	assert_false(syscall_is(SYS_truncate, CL_FD_STORAGE));
	assert_true(syscall_is(SYS_fallocate, CL_RESIZE | CL_FD_STORAGE));
	/* The witnesses of a path include openat2 and faccessat2. */
	assert_true(syscall_is(SYS_openat2, CL_PATH_EXISTS));
	assert_true(syscall_is(SYS_faccessat2, CL_PATH_EXISTS));
	assert_false(syscall_is(SYS_creat, CL_PATH_EXISTS));
	assert_false(syscall_is(SYS_fstat, CL_PATH_EXISTS));
	assert_true(syscall_is(SYS_sendmmsg, CL_SOCK_IO));
	assert_true(syscall_is(SYS_recvmmsg, CL_SOCK_IO));
	assert_false(syscall_is(SYS_sendfile, CL_SOCK_IO));
	assert_true(syscall_is(SYS_brk, CL_MAP_GROWS));
	assert_true(syscall_is(SYS_munmap, CL_MAPS));
	assert_false(syscall_is(SYS_munmap, CL_MAP_GROWS));
	assert_true(syscall_is(SYS_lstat, CL_STAT));
	assert_true(syscall_is(SYS_preadv2, CL_MEM_IO));
	assert_true(syscall_is(SYS_recvmsg, CL_MEM_IO));
	assert_false(syscall_is(SYS_sendmmsg, CL_MEM_IO));
	assert_false(syscall_is(SYS_copy_file_range, CL_MEM_IO));
	assert_true(syscall_is(SYS_dup3, CL_DUP));
	assert_false(syscall_is(SYS_fcntl, CL_DUP));
}

/* Roles: where each fact sits, and how far a parser must read. */
static void roles(void **state)
{
	(void)state;
	const struct rc_syscall *sc = syscall_by_nr(SYS_openat);

	assert_int_equal(syscall_arg(sc, ROLE_DIRFD), 0);
	assert_int_equal(syscall_arg(sc, ROLE_PATH), 1);
	assert_int_equal(syscall_arg(sc, ROLE_OPEN_FLAGS), 2);
	assert_int_equal(syscall_arg(sc, ROLE_MODE), 3);
	assert_int_equal(syscall_arg(sc, ROLE_FD), -1);
	assert_int_equal(syscall_role_args(sc), 4);
	/* symlink(target, linkpath): the link is what gets made. */
	sc = syscall_by_nr(SYS_symlink);
	assert_int_equal(syscall_arg(sc, ROLE_PATH), 1);
	assert_int_equal(syscall_arg(sc, ROLE_PATH2), 0);
	/* statx reads only up to its buffer, the fifth argument. */
	assert_int_equal(syscall_role_args(syscall_by_nr(SYS_statx)), 5);
	/* A read's buffer holds nothing before the call; a write's data. */
	assert_int_equal(syscall_arg(syscall_by_nr(SYS_read), ROLE_DATA_OUT), -1);
	assert_int_equal(syscall_arg(syscall_by_nr(SYS_write), ROLE_DATA_OUT), 1);
	assert_int_equal(syscall_arg(syscall_by_nr(SYS_recvfrom), ROLE_DATA_IN), 1);
	assert_int_equal(syscall_arg(syscall_by_nr(SYS_setresuid), ROLE_ID), 0);
	assert_int_equal(syscall_role_args(syscall_by_nr(SYS_setresuid)), 3);
	assert_int_equal(syscall_role_args(syscall_by_nr(SYS_setuid)), 1);
	assert_int_equal(syscall_role_args(syscall_by_nr(SYS_getpid)), 0);
}

/* A futex call waits by its op; futex_waitv always does; no other call. */
static void futex_waits(void **state)
{
	(void)state;
	struct rc_event e;
	static const struct {
		int op;
		bool waits;
	} ops[] = {
		{ FUTEX_WAIT, true },	       { FUTEX_WAIT_BITSET, true }, { FUTEX_LOCK_PI, true },
		{ FUTEX_LOCK_PI2, true },      { FUTEX_WAIT_REQUEUE_PI, true }, { FUTEX_WAKE, false },
		{ FUTEX_WAKE_BITSET, false },  { FUTEX_UNLOCK_PI, false },  { FUTEX_TRYLOCK_PI, false },
		{ FUTEX_CMP_REQUEUE, false },  { -1, false },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		event_clear(&e);
		e.kind = RC_EV_SYSCALL;
		e.nr = SYS_futex;
		e.futex_op = ops[i].op;
		assert_int_equal(event_futex_waits(&e), ops[i].waits);
	}
	event_clear(&e);
	e.nr = SYS_futex_waitv;
	assert_true(event_futex_waits(&e));
	e.nr = SYS_read;
	assert_false(event_futex_waits(&e));
}

static void call_event(struct rc_event *e, long nr)
{
	event_clear(e);
	e->kind = RC_EV_SYSCALL;
	e->nr = nr;
}

/* event/facts.c: what follows from a call's meaning, for every source. */
static void call_facts(void **state)
{
	(void)state;
	struct rc_event e;

	/* newfstatat(3</etc>, "", ..., AT_EMPTY_PATH) is an fstat of fd 3. */
	call_event(&e, SYS_newfstatat);
	e.dirfd = 3;
	static const struct rc_fdfacts etc = { .kind = RC_FD_FILE, .desc = "/etc", .path = "/etc" };
	e.dir_shown = &etc;
	e.path = "";
	event_call_facts(&e, syscall_by_nr(SYS_newfstatat), false, 0, 0);
	assert_int_equal(e.fd, 3);
	assert_ptr_equal(e.fd_shown, &etc);
	/* Not with a path, nor relative to the cwd, nor for openat. */
	call_event(&e, SYS_statx);
	e.dirfd = 3;
	e.path = "passwd";
	event_call_facts(&e, syscall_by_nr(SYS_statx), true, 0, 0);
	assert_int_equal(e.fd, -1);
	call_event(&e, SYS_statx);
	e.path = "";
	event_call_facts(&e, syscall_by_nr(SYS_statx), true, 0, 0);
	assert_int_equal(e.fd, -1);
	call_event(&e, SYS_openat);
	e.dirfd = 3;
	e.path = "";
	event_call_facts(&e, syscall_by_nr(SYS_openat), true, -1, ENOENT);
	assert_int_equal(e.fd, -1);

	/* creat opens for writing, creating and truncating. */
	call_event(&e, SYS_creat);
	event_call_facts(&e, syscall_by_nr(SYS_creat), false, 0, 0);
	assert_int_equal(e.flags, O_CREAT | O_WRONLY | O_TRUNC);
	call_event(&e, SYS_openat);
	event_call_facts(&e, syscall_by_nr(SYS_openat), true, 3, 0);
	assert_int_equal(e.flags, 0);

	/* accept's connection is fd2; none when it failed or has not returned. */
	call_event(&e, SYS_accept4);
	event_call_facts(&e, syscall_by_nr(SYS_accept4), true, 7, 0);
	assert_int_equal(e.fd2, 7);
	event_call_facts(&e, syscall_by_nr(SYS_accept4), true, -1, EAGAIN);
	assert_int_equal(e.fd2, -1);
	event_call_facts(&e, syscall_by_nr(SYS_accept), false, 0, 0);
	assert_int_equal(e.fd2, -1);
	call_event(&e, SYS_getpeername);
	event_call_facts(&e, syscall_by_nr(SYS_getpeername), true, 0, 0);
	assert_int_equal(e.fd2, -1);

	/* An iovec call whose vectors were not shown moved what it returned. */
	call_event(&e, SYS_readv);
	event_call_facts(&e, syscall_by_nr(SYS_readv), false, 0, 0);
	assert_int_equal(e.len, 0);
	event_call_facts(&e, syscall_by_nr(SYS_readv), true, 512, 0);
	assert_int_equal(e.len, 512);
	call_event(&e, SYS_pwritev2);
	e.len = 100;
	event_call_facts(&e, syscall_by_nr(SYS_pwritev2), true, 40, 0);
	assert_int_equal(e.len, 100);
	call_event(&e, SYS_read);
	event_call_facts(&e, syscall_by_nr(SYS_read), true, 512, 0);
	assert_int_equal(e.len, 0);
	call_event(&e, SYS_writev);
	event_call_facts(&e, syscall_by_nr(SYS_writev), true, -1, EPIPE);
	assert_int_equal(e.len, 0);
	/* fcntl's F_DUPFD copies are fd2; F_DUPFD_CLOEXEC's close on exec. */
	call_event(&e, SYS_fcntl);
	event_fcntl_dup_facts(&e, F_DUPFD, true, 10);
	assert_int_equal(e.fd2, 10);
	assert_int_equal(e.flags, 0);
	event_fcntl_dup_facts(&e, F_DUPFD_CLOEXEC, true, 11);
	assert_int_equal(e.fd2, 11);
	assert_int_equal(e.flags, O_CLOEXEC);
	event_fcntl_dup_facts(&e, F_DUPFD, false, -1);
	assert_int_equal(e.fd2, -1);
	call_event(&e, SYS_fcntl);
	event_fcntl_dup_facts(&e, F_GETFL, true, 2);
	assert_int_equal(e.fd2, -1);
	assert_int_equal(e.flags, 0);

	/* A call the table does not list is left as it is. */
	call_event(&e, SYS_getpid);
	event_call_facts(&e, NULL, true, 5, 0);
	assert_int_equal(e.len, 0);
}

/* Raw argument values (registers) give the fds by their roles. */
static void raw_arg_facts(void **state)
{
	(void)state;
	struct rc_event e;
	const uint64_t sendfile_args[6] = { 4, 7, 0, 100 };
	const uint64_t renameat_args[6] = { 3, 0x1000, 5, 0x2000 };
	const uint64_t mmap_args[6] = { 0, 4096, 1, 2, (uint64_t)-1, 0 };
	const uint64_t setxattr_args[6] = { 9, 0, 0, 0, 0 };

	call_event(&e, SYS_sendfile);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_sendfile), sendfile_args);
	assert_int_equal(e.fd, 4);
	assert_int_equal(e.fd2, 7);
	assert_int_equal(e.dirfd, RC_AT_FDCWD);
	/* renameat's new dirfd is not the event's. */
	call_event(&e, SYS_renameat);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_renameat), renameat_args);
	assert_int_equal(e.dirfd, 3);
	assert_int_equal(e.fd, -1);
	/* An anonymous mapping's fd is -1. */
	call_event(&e, SYS_mmap);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_mmap), mmap_args);
	assert_int_equal(e.fd, -1);
	/* setxattr's first argument is a path, fsetxattr's an fd. */
	call_event(&e, SYS_setxattr);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_setxattr), setxattr_args);
	assert_int_equal(e.fd, -1);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_fsetxattr), setxattr_args);
	assert_int_equal(e.fd, 9);
	event_raw_arg_facts(&e, NULL, setxattr_args);
}

/* The scalar roles, each in the half it is known in: the arguments after
 * the first one the kernel writes only at exit (a call still blocked has
 * not printed them), the rest at entry; fcntl's copy with its result. */
static void raw_arg_phases(void **state)
{
	(void)state;
	struct rc_event e;
	const uint64_t rw_args[6] = { 3, 0x1000, 4096, 77 };
	const uint64_t epoll_args[6] = { 4, 0x1000, 8, 2500 };
	const uint64_t poll_args[6] = { 0x1000, 1, 2500 };
	const uint64_t pipe2_args[6] = { 0x1000, O_CLOEXEC };
	const uint64_t fcntl_args[6] = { 1, F_DUPFD_CLOEXEC, 10 };
	const uint64_t kill_args[6] = { 42, SIGTERM };
	const uint64_t open_args[6] = { 0x1000, O_RDONLY, 0644 };

	/* recvfrom writes its buffer: its length at exit. */
	call_event(&e, SYS_recvfrom);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_recvfrom), rw_args);
	assert_int_equal(e.fd, 3);
	assert_int_equal(e.len, 0);
	event_raw_exit_facts(&e, syscall_by_nr(SYS_recvfrom), rw_args, 100, 0);
	assert_int_equal(e.len, 4096);
	call_event(&e, SYS_preadv);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_preadv), rw_args);
	assert_int_equal(e.offset, -1);
	event_raw_exit_facts(&e, syscall_by_nr(SYS_preadv), rw_args, 100, 0);
	assert_int_equal(e.offset, 77);
	/* pwrite64's buffer is read: everything at entry. */
	call_event(&e, SYS_pwrite64);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_pwrite64), rw_args);
	assert_int_equal(e.len, 4096);
	assert_int_equal(e.offset, 77);

	call_event(&e, SYS_epoll_wait);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_epoll_wait), epoll_args);
	assert_int_equal(e.timeout_ms, -1);
	event_raw_exit_facts(&e, syscall_by_nr(SYS_epoll_wait), epoll_args, 0, 0);
	assert_int_equal(e.timeout_ms, 2500);
	call_event(&e, SYS_poll);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_poll), poll_args);
	assert_int_equal(e.timeout_ms, 2500);

	call_event(&e, SYS_pipe2);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_pipe2), pipe2_args);
	assert_int_equal(e.flags, 0);
	event_raw_exit_facts(&e, syscall_by_nr(SYS_pipe2), pipe2_args, 0, 0);
	assert_int_equal(e.flags, O_CLOEXEC);

	call_event(&e, SYS_fcntl);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_fcntl), fcntl_args);
	assert_int_equal(e.fd2, -1);
	event_raw_exit_facts(&e, syscall_by_nr(SYS_fcntl), fcntl_args, 12, 0);
	assert_int_equal(e.fd2, 12);

	call_event(&e, SYS_kill);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_kill), kill_args);
	assert_true(e.has_kill_target);
	assert_int_equal(e.kill_target, 42);
	assert_int_equal(e.signo, SIGTERM);

	/* An open that cannot create has no mode. */
	call_event(&e, SYS_open);
	event_raw_arg_facts(&e, syscall_by_nr(SYS_open), open_args);
	assert_int_equal(e.mode, 0);
	assert_int_equal(e.flags, O_RDONLY);
}

/* A call newer than the headers (fchmodat2, Linux 6.6) has the number
 * that every architecture gives it, which this kernel answers to: the
 * mode of a file it changes is the mode asked for. */
static void newer_calls_numbered(void **state)
{
	(void)state;
	const struct rc_syscall *sc = syscall_by_name("fchmodat2", 9);
	assert_non_null(sc);
	assert_int_equal(sc->nr, 452);
	assert_ptr_equal(syscall_by_nr(452), sc);
	assert_string_equal(syscall_name(452), "fchmodat2");
	assert_true(syscall_classes(452) & CL_SET_PERM);

	char path[] = "/tmp/rc-fchmodat2-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	long r = syscall(452, AT_FDCWD, path, 0640, 0);
	int err = errno;
	struct stat st;
	bool ok = stat(path, &st) == 0;
	unlink(path);
	if (r < 0 && err == ENOSYS)
		skip();	/* a kernel before 6.6 */
	assert_int_equal(r, 0);
	assert_true(ok);
	assert_int_equal(st.st_mode & 07777, 0640);
}

/* The calls of the architectures users' logs come from, as Debian's
 * cross headers name them (tests/fixtures/syscalls/, made by
 * tools/foreign-syscall-names): each is a call rootcause knows, its own
 * or its family's, but for calls that are obsolete or of one machine
 * alone, which no family covers soundly. */
static void foreign_calls_known(void **state)
{
	(void)state;
	static const char *const arches[] = { "armhf", "arm64", "ppc64el", "riscv64", "s390x", "i386" };
	static const char *const unmapped[] = {
		/* obsolete, never implemented, or multiplexers strace decodes */
		"bdflush", "break", "ftime", "gtty", "idle", "lock", "mpx", "nice", "prof", "profil", "stty",
		"ulimit", "socketcall", "ipc", "multiplexer", "timerfd", "syscalls", "arch_specific_syscall",
		/* one machine's own */
		"vm86", "vm86old", "pciconfig_iobase", "pciconfig_read", "pciconfig_write", "rtas", "spu_create",
		"spu_run", "subpage_prot", "swapcontext", "switch_endian", "sys_debug_setcontext",
		"s390_guarded_storage", "s390_pci_mmio_read", "s390_pci_mmio_write", "s390_runtime_instr",
		"s390_sthyi", "riscv_flush_icache",
	};
	size_t total = 0;

	for (size_t a = 0; a < ARRAY_SIZE(arches); a++) {
		char path[512], name[128];
		snprintf(path, sizeof(path), "%s/tests/fixtures/syscalls/%s.names", SOURCE_ROOT, arches[a]);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = '\0';
			bool skip_it = false;
			for (size_t u = 0; u < ARRAY_SIZE(unmapped); u++)
				skip_it |= strcmp(name, unmapped[u]) == 0;
			total++;
			if (!skip_it && !syscall_by_name(name, strlen(name)))
				fail_msg("%s: '%s' is not known", arches[a], name);
		}
		fclose(f);
	}
	assert_true(total > 2000);
	/* The old signal calls are read as their rt_ calls. */
	const struct rc_syscall *sa = syscall_by_name("sigaction", 9);
	assert_non_null(sa);
	assert_string_equal(sa->as, "rt_sigaction");
	assert_int_equal(sa->nr, SYS_rt_sigaction);
}

/* What a capture lost, by thread and call: the most kept, most first,
 * and said grouped by thread (event/loss.h). */
static void losses_said(void **state)
{
	struct rc_loss v[RC_LOSSES_KEPT];
	size_t n = 0;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	loss_keep(v, &n, 10, SYS_read, 300);
	loss_keep(v, &n, 11, SYS_openat, 5);
	loss_keep(v, &n, 10, SYS_write, 290);
	loss_keep(v, &n, 11, RC_LOSS_EXIT, 1);
	for (int i = 0; i < 10; i++)
		loss_keep(v, &n, 12, 1000 + i, 2);	/* numbers no call has */
	loss_keep(v, &n, 13, SYS_close, 1000);
	assert_int_equal(n, RC_LOSSES_KEPT);
	assert_int_equal(v[0].tid, 13);
	assert_int_equal(v[1].n, 300);
	assert_int_equal(v[2].n, 290);
	assert_int_equal(v[3].n, 5);
	for (size_t i = 1; i < n; i++)
		assert_true(v[i - 1].n >= v[i].n);
	loss_describe(&sb, v, n);
	assert_string_equal(sb.buf, "thread 13: close 1,000; thread 10: read 300, write 290; thread 11: openat 5; "
				    "thread 12: syscall 1000 2, syscall 1001 2, syscall 1002 2, syscall 1003 2");
	strbuf_reset(&sb);
	n = 0;
	loss_keep(v, &n, 7, RC_LOSS_EXIT, 1);
	loss_describe(&sb, v, n);
	assert_string_equal(sb.buf, "thread 7: its end 1");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_and_numbers),
		cmocka_unit_test(rows_consistent),
		cmocka_unit_test(class_meanings),
		cmocka_unit_test(classes_nest),
		cmocka_unit_test(roles),
		cmocka_unit_test(futex_waits),
		cmocka_unit_test(call_facts),
		cmocka_unit_test(raw_arg_facts),
		cmocka_unit_test(raw_arg_phases),
		cmocka_unit_test(newer_calls_numbered),
		cmocka_unit_test(foreign_calls_known),
		cmocka_unit_test(losses_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
