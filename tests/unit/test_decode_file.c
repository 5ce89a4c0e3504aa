/* The file decoders (capture/decode/file.c).
 *
 * Most cases make the real call in a scratch directory, decoding its entry
 * half before and its exit half after, as the tracer sees it, and compare
 * the text with what strace 6.1 printed on this machine for the same call
 * (`strace -o out ./prog`, the strace line quoted above the case, with
 * this test's paths, fds and addresses put in). Results the kernel would
 * fill differently elsewhere (statx masks, statfs counts) come from a
 * stand-in "kernel" that writes fixed values between the halves. The
 * strace parser then reads every line back and must find the facts the
 * decoder put into the event (dt_check_same_facts).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <termios.h>
#include <time.h>

#include "decode_test.h"
#include "event/facts.h"
#include "gen/tables.h"
#include "util/util.h"

static char dir[64];

/* printf into one of a few rotating buffers: expected texts are built
 * from this run's paths, fds and addresses. */
static const char *F(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *F(const char *fmt, ...)
{
	static char bufs[8][1024];
	static unsigned next;
	char *b = bufs[next++ % 8];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(bufs[0]), fmt, ap);
	va_end(ap);
	return b;
}

static const char *P(const char *name)
{
	return F("%s/%s", dir, name);
}

#define A(p) ((unsigned long long)(uintptr_t)(p))

typedef dt_kernel_fn kernel_fn;

static long long last_ret;
static int last_err;

/* decode_test.h's dt_decode_with, keeping the result for real(). */
static const char *decode_k(struct dt *t, long nr, const uint64_t args[6], bool real, long long rval, int err,
			    kernel_fn kernel, void *ctx)
{
	const char *text = dt_decode_with(t, nr, args, real, rval, err, kernel, ctx);

	last_ret = t->ret;
	last_err = t->err;
	return text;
}

/* The real call: its text must be EXPECT and the parser must agree on
 * the facts. Returns the call's result. */
static long long real(struct dt *t, long nr, const uint64_t args[6], const char *expect)
{
	assert_string_equal(decode_k(t, nr, args, true, 0, 0, NULL, NULL), expect);
	dt_check_same_facts(t);
	return last_ret;
}

/* The same with a stand-in kernel and the result RVAL/ERR. */
static void fake(struct dt *t, long nr, const uint64_t args[6], long long rval, int err, kernel_fn kernel,
		 void *ctx, const char *expect)
{
	assert_string_equal(decode_k(t, nr, args, false, rval, err, kernel, ctx), expect);
	dt_check_same_facts(t);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rc-dfile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	/* Dates in comments are local time, as strace prints them. */
	setenv("TZ", "UTC", 1);
	tzset();
	umask(022);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

static int new_file(const char *name, const char *data)
{
	int fd = open(P(name), O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	fchmod(fd, 0644);
	if (data)
		assert_int_equal(write(fd, data, strlen(data)), (ssize_t)strlen(data));
	return fd;
}

static void open_calls(void **state)
{
	(void)state;
	struct dt t;
	const char *a = P("a");
	char path[256];

	snprintf(path, sizeof(path), "%s", a);
	dt_init(&t);
	/* openat(AT_FDCWD, "/tmp/fh/a.txt", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3 */
	int fd = (int)real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(path), O_WRONLY | O_CREAT | O_TRUNC, 0644),
			   F("AT_FDCWD, \"%s\", O_WRONLY|O_CREAT|O_TRUNC, 0644", path));
	assert_true(fd >= 0);
	assert_string_equal(t.ev.path, path);
	assert_int_equal(t.ev.dirfd, RC_AT_FDCWD);
	assert_int_equal(t.ev.flags, O_WRONLY | O_CREAT | O_TRUNC);
	assert_int_equal(t.ev.mode, 0644);
	assert_int_equal(t.ev.fd, -1);
	close(fd);

	/* openat(AT_FDCWD, "/nonexist", O_RDONLY) = -1 ENOENT (No such file or directory) */
	real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(P("missing")), O_RDONLY),
	     F("AT_FDCWD, \"%s/missing\", O_RDONLY", dir));
	assert_int_equal(last_err, ENOENT);
	assert_int_equal(t.ev.flags, O_RDONLY);
	assert_int_equal(t.ev.mode, 0);

	/* openat(3, "x", O_RDONLY|O_NONBLOCK|O_DIRECTORY) = -1 ENOTDIR (Not a directory) */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	real(&t, SYS_openat, DT_ARGS((uint64_t)dfd, DT_PTR("a"), O_RDONLY | O_NONBLOCK | O_DIRECTORY),
	     F("%d, \"a\", O_RDONLY|O_NONBLOCK|O_DIRECTORY", dfd));
	assert_int_equal(last_err, ENOTDIR);
	assert_int_equal(t.ev.dirfd, dfd);
	assert_string_equal(t.ev.path, "a");
	close(dfd);

	/* openat(AT_FDCWD, "/tmp/fh", O_RDWR|O_TMPFILE, 0600) = 5: O_TMPFILE
	 * prints the mode; O_DIRECTORY alone (part of glibc's O_TMPFILE)
	 * does not. */
	fd = (int)real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dir), O_RDWR | O_TMPFILE, 0600),
		       F("AT_FDCWD, \"%s\", O_RDWR|O_TMPFILE, 0600", dir));
	assert_int_equal(t.ev.mode, 0600);
	if (fd >= 0)
		close(fd);
	fd = (int)real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dir), O_RDONLY | O_DIRECTORY, 0600),
		       F("AT_FDCWD, \"%s\", O_RDONLY|O_DIRECTORY", dir));
	assert_int_equal(t.ev.mode, 0);
	close(fd);

	/* open("/tmp/fh/a.txt", O_RDONLY|O_CLOEXEC) = 3
	 * open("/tmp/fh/zz", O_WRONLY|O_CREAT|0x40000000, 0644) = 7 */
	fd = (int)real(&t, SYS_open, DT_ARGS(DT_PTR(path), O_RDONLY | O_CLOEXEC), F("\"%s\", O_RDONLY|O_CLOEXEC", path));
	assert_int_equal(t.ev.flags, O_RDONLY | O_CLOEXEC);
	close(fd);
	fake(&t, SYS_open, DT_ARGS(DT_PTR(path), O_WRONLY | O_CREAT | 0x40000000, 0644), 7, 0, NULL, NULL,
	     F("\"%s\", O_WRONLY|O_CREAT|0x40000000, 0644", path));
	assert_int_equal(t.ev.flags, O_WRONLY | O_CREAT | 0x40000000);
	/* The mode is a umode_t, as mkdir("/tmp/fh/mm", 0755) printed for 0x10000|0755. */
	fake(&t, SYS_open, DT_ARGS(DT_PTR(path), O_WRONLY | O_CREAT, 0x10000 | 0644), 7, 0, NULL, NULL,
	     F("\"%s\", O_WRONLY|O_CREAT, 0644", path));
	assert_int_equal(t.ev.mode, 0644);

	/* openat2(AT_FDCWD, "/tmp/fh/a.txt", {flags=O_RDONLY|O_CLOEXEC, resolve=RESOLVE_NO_SYMLINKS}, 24) = 6
	 * openat2(AT_FDCWD, "/tmp/fh/c", {flags=O_WRONLY|O_CREAT, mode=0640, resolve=0}, 24) = 7 */
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	fd = (int)real(&t, SYS_openat2, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(path), DT_PTR(&how), sizeof(how)),
		       F("AT_FDCWD, \"%s\", {flags=O_RDONLY|O_CLOEXEC, resolve=RESOLVE_NO_SYMLINKS}, 24", path));
	assert_int_equal(t.ev.flags, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	struct open_how how2 = { .flags = O_WRONLY | O_CREAT, .mode = 0640 };
	fake(&t, SYS_openat2, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(path), DT_PTR(&how2), sizeof(how2)), 7, 0, NULL, NULL,
	     F("AT_FDCWD, \"%s\", {flags=O_WRONLY|O_CREAT, mode=0640, resolve=0}, 24", path));
	assert_int_equal(t.ev.mode, 0640);
	/* A how smaller than the first version is an address. */
	fake(&t, SYS_openat2, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(path), DT_PTR(&how2), 8), 0, EINVAL, NULL, NULL,
	     F("AT_FDCWD, \"%s\", %#llx, 8", path, A(&how2)));
	assert_int_equal(t.ev.flags, 0);

	/* creat("/tmp/fh/d", 0600) = 8 */
	fd = (int)real(&t, SYS_creat, DT_ARGS(DT_PTR(P("d")), 0600), F("\"%s/d\", 0600", dir));
	assert_int_equal(t.ev.flags, O_CREAT | O_WRONLY | O_TRUNC);
	assert_int_equal(t.ev.mode, 0600);
	close(fd);
	unlink(P("d"));

	/* openat(AT_FDCWD, 0x8, O_RDONLY) = -1 EFAULT (Bad address) */
	real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, 8, O_RDONLY), "AT_FDCWD, 0x8, O_RDONLY");
	assert_null(t.ev.path);

	assert_int_equal(dec_lookup(SYS_openat)->rv, RC_RV_FD);
	unlink(path);
	dt_release(&t);
}

static void fill_statx(void *ctx)
{
	struct statx *sx = ctx;
	unsigned mask = sx->stx_mask;
	unsigned mode = sx->stx_mode;
	unsigned long long size = sx->stx_size;

	memset(sx, 0x55, sizeof(*sx));
	sx->stx_mask = mask;
	sx->stx_attributes = 0;
	sx->stx_mode = (unsigned short)mode;
	sx->stx_size = size;
}

static void stat_calls(void **state)
{
	(void)state;
	struct dt t;
	struct stat st;
	struct statx sx;
	int fd = new_file("s", "hello\n");
	const char *path = P("s");
	char spath[256];

	snprintf(spath, sizeof(spath), "%s", path);
	dt_init(&t);
	/* fstat(3, {st_mode=S_IFREG|0644, st_size=6, ...}) = 0 */
	real(&t, SYS_fstat, DT_ARGS((uint64_t)fd, DT_PTR(&st)), F("%d, {st_mode=S_IFREG|0644, st_size=6, ...}", fd));
	assert_int_equal(t.ev.fd, fd);
	assert_int_equal(t.ev.st_size, 6);
	/* fstat(99, 0x7ffccfa26570) = -1 EBADF (Bad file descriptor) */
	real(&t, SYS_fstat, DT_ARGS(99, DT_PTR(&st)), F("99, %#llx", A(&st)));
	assert_int_equal(t.ev.st_size, -1);

	/* stat("/tmp/fh/a.txt", {st_mode=S_IFREG|0644, st_size=6, ...}) = 0
	 * stat("/nonexist", 0x7ffccfa26570) = -1 ENOENT (No such file or directory)
	 * lstat("/tmp/fh/a.txt", {st_mode=S_IFREG|0644, st_size=6, ...}) = 0 */
	real(&t, SYS_stat, DT_ARGS(DT_PTR(spath), DT_PTR(&st)), F("\"%s\", {st_mode=S_IFREG|0644, st_size=6, ...}", spath));
	assert_string_equal(t.ev.path, spath);
	assert_int_equal(t.ev.st_size, 6);
	real(&t, SYS_stat, DT_ARGS(DT_PTR("/nonexist"), DT_PTR(&st)), F("\"/nonexist\", %#llx", A(&st)));
	assert_int_equal(t.ev.st_size, -1);
	real(&t, SYS_lstat, DT_ARGS(DT_PTR(spath), DT_PTR(&st)), F("\"%s\", {st_mode=S_IFREG|0644, st_size=6, ...}", spath));
	/* A directory's size, and a setuid mode. */
	chmod(spath, 04755);
	real(&t, SYS_stat, DT_ARGS(DT_PTR(spath), DT_PTR(&st)),
	     F("\"%s\", {st_mode=S_IFREG|S_ISUID|0755, st_size=6, ...}", spath));
	chmod(spath, 0644);

	/* newfstatat(3, "", {st_mode=S_IFREG|0644, st_size=6, ...}, AT_EMPTY_PATH) = 0:
	 * an fstat of fd 3, as facts.c has it. */
	real(&t, SYS_newfstatat, DT_ARGS((uint64_t)fd, DT_PTR(""), DT_PTR(&st), AT_EMPTY_PATH),
	     F("%d, \"\", {st_mode=S_IFREG|0644, st_size=6, ...}, AT_EMPTY_PATH", fd));
	assert_int_equal(t.ev.fd, fd);
	assert_int_equal(t.ev.dirfd, fd);
	assert_int_equal(t.ev.st_size, 6);
	/* newfstatat(AT_FDCWD, "/dev/null", {st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}, 0) = 0 */
	real(&t, SYS_newfstatat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/dev/null"), DT_PTR(&st), 0),
	     "AT_FDCWD, \"/dev/null\", {st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}, 0");
	assert_int_equal(t.ev.st_size, -1);
	assert_int_equal(t.ev.fd, -1);
	/* newfstatat(AT_FDCWD, "/tmp/fh/x", 0x8, 0) = -1 EFAULT (Bad address) */
	real(&t, SYS_newfstatat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(spath), 8, AT_SYMLINK_NOFOLLOW),
	     F("AT_FDCWD, \"%s\", 0x8, AT_SYMLINK_NOFOLLOW", spath));

	/* statx(AT_FDCWD, "/tmp/fh/a.txt", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS,
	 *       {stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0, stx_mode=S_IFREG|0644, stx_size=6, ...}) = 0 */
	sx.stx_mask = STATX_BASIC_STATS | STATX_MNT_ID;
	sx.stx_mode = S_IFREG | 0644;
	sx.stx_size = 6;
	fake(&t, SYS_statx, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(spath), AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, DT_PTR(&sx)),
	     0, 0, fill_statx, &sx,
	     F("AT_FDCWD, \"%s\", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, {stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, "
	       "stx_attributes=0, stx_mode=S_IFREG|0644, stx_size=6, ...}", spath));
	assert_int_equal(t.ev.st_size, 6);
	/* statx(3, "", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_ALL, {stx_mask=STATX_ALL|STATX_MNT_ID, ...}) = 0 */
	sx.stx_mask = STATX_ALL | STATX_MNT_ID;
	fake(&t, SYS_statx, DT_ARGS((uint64_t)fd, DT_PTR(""), AT_EMPTY_PATH, STATX_ALL, DT_PTR(&sx)), 0, 0, fill_statx, &sx,
	     F("%d, \"\", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_ALL, {stx_mask=STATX_ALL|STATX_MNT_ID, "
	       "stx_attributes=0, stx_mode=S_IFREG|0644, stx_size=6, ...}", fd));
	assert_int_equal(t.ev.fd, fd);
	/* statx(AT_FDCWD, "/tmp/fh/x", AT_STATX_DONT_SYNC|AT_SYMLINK_NOFOLLOW, STATX_SIZE, ...): a mask
	 * without the type and mode prints no mode; one without the size no
	 * size (and the event has none); bits strace 6.1 does not name are hex. */
	sx.stx_mask = STATX_SIZE | 0x40000;
	fake(&t, SYS_statx, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(spath), AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_SIZE,
				    DT_PTR(&sx)), 0, 0, fill_statx, &sx,
	     F("AT_FDCWD, \"%s\", AT_STATX_DONT_SYNC|AT_SYMLINK_NOFOLLOW, STATX_SIZE, {stx_mask=STATX_SIZE|0x40000, "
	       "stx_attributes=0, stx_size=6, ...}", spath));
	sx.stx_mask = STATX_TYPE;
	sx.stx_mode = S_IFCHR | 0666;
	fake(&t, SYS_statx, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/dev/null"), 0, STATX_TYPE, DT_PTR(&sx)), 0, 0, fill_statx,
	     &sx, "AT_FDCWD, \"/dev/null\", AT_STATX_SYNC_AS_STAT, STATX_TYPE, {stx_mask=STATX_TYPE, stx_attributes=0, "
		  "stx_mode=S_IFCHR|0666, ...}");
	assert_int_equal(t.ev.st_size, -1);
	/* statx(AT_FDCWD, "/nonexist", AT_STATX_SYNC_AS_STAT, STATX_MODE|STATX_SIZE, 0x7ffccfa263f0) = -1 ENOENT */
	real(&t, SYS_statx, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/nonexist"), 0, STATX_SIZE | STATX_MODE, DT_PTR(&sx)),
	     F("AT_FDCWD, \"/nonexist\", AT_STATX_SYNC_AS_STAT, STATX_MODE|STATX_SIZE, %#llx", A(&sx)));
	assert_int_equal(t.ev.st_size, -1);
	/* The real call works too. */
	decode_k(&t, SYS_statx, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(spath), 0, STATX_BASIC_STATS, DT_PTR(&sx)), true, 0, 0,
		 NULL, NULL);
	assert_int_equal(last_err, 0);
	assert_non_null(strstr(strbuf_str(&t.args), "stx_mode=S_IFREG|0644, stx_size=6, ...}"));
	dt_check_same_facts(&t);
	assert_int_equal(t.ev.st_size, 6);

	dt_release(&t);
	close(fd);
	unlink(spath);
}

static void fill_statfs(void *ctx)
{
	struct statfs *b = ctx;

	memset(b, 0, sizeof(*b));
	b->f_type = TMPFS_MAGIC;
	b->f_bsize = 4096;
	b->f_blocks = 10;
	b->f_bfree = 5;
	b->f_bavail = 4;
	b->f_files = 100;
	b->f_ffree = 50;
	memcpy(&b->f_fsid, (const int[2]){ 0x12, 0 }, sizeof(b->f_fsid));
	b->f_namelen = 255;
	b->f_frsize = 4096;
	b->f_flags = 0x20 | ST_NOSUID | ST_RELATIME;
}

static void statfs_calls(void **state)
{
	(void)state;
	struct dt t;
	struct statfs b;

	dt_init(&t);
	/* statfs("/tmp", {f_type=EXT2_SUPER_MAGIC, f_bsize=4096, f_blocks=66053021, ..., f_flags=ST_VALID|ST_RELATIME}) = 0 */
	fake(&t, SYS_statfs, DT_ARGS(DT_PTR("/tmp"), DT_PTR(&b)), 0, 0, fill_statfs, &b,
	     "\"/tmp\", {f_type=TMPFS_MAGIC, f_bsize=4096, f_blocks=10, f_bfree=5, f_bavail=4, f_files=100, f_ffree=50, "
	     "f_fsid={val=[0x12, 0]}, f_namelen=255, f_frsize=4096, f_flags=ST_VALID|ST_NOSUID|ST_RELATIME}");
	assert_string_equal(t.ev.path, "/tmp");
	b.f_type = 0x1234;
	b.f_flags = ST_RDONLY;
	fake(&t, SYS_fstatfs, DT_ARGS(5, DT_PTR(&b)), 0, 0, NULL, NULL,
	     "5, {f_type=0x1234, f_bsize=4096, f_blocks=10, f_bfree=5, f_bavail=4, f_files=100, f_ffree=50, "
	     "f_fsid={val=[0x12, 0]}, f_namelen=255, f_frsize=4096}");
	assert_int_equal(t.ev.fd, 5);
	real(&t, SYS_statfs, DT_ARGS(DT_PTR("/nonexist"), DT_PTR(&b)), F("\"/nonexist\", %#llx", A(&b)));
	/* The real one decodes the machine's own /tmp. */
	decode_k(&t, SYS_statfs, DT_ARGS(DT_PTR("/tmp"), DT_PTR(&b)), true, 0, 0, NULL, NULL);
	assert_true(strncmp(strbuf_str(&t.args), "\"/tmp\", {f_type=", 16) == 0);
	dt_check_same_facts(&t);
	dt_release(&t);
}

static void path_calls(void **state)
{
	(void)state;
	struct dt t;
	int fd = new_file("f", "x");
	char f[256], g[256], dd[256], ln[256], buf[256];

	close(fd);
	snprintf(f, sizeof(f), "%s", P("f"));
	snprintf(g, sizeof(g), "%s", P("g"));
	snprintf(dd, sizeof(dd), "%s", P("dd"));
	snprintf(ln, sizeof(ln), "%s", P("ln"));
	dt_init(&t);

	/* access("/tmp/fh/a.txt", R_OK|W_OK) = 0; access("/tmp/fh/a.txt", F_OK) = 0:
	 * named modes are 0 to the parser, a bare number is the number. */
	real(&t, SYS_access, DT_ARGS(DT_PTR(f), R_OK | W_OK), F("\"%s\", R_OK|W_OK", f));
	assert_string_equal(t.ev.path, f);
	assert_int_equal(t.ev.mode, 0);
	real(&t, SYS_access, DT_ARGS(DT_PTR(f), F_OK), F("\"%s\", F_OK", f));
	/* access("/tmp", R_OK|0x10) = -1 EINVAL; faccessat(AT_FDCWD, "/tmp", 0x10 /\* ?_OK *\/) = -1 EINVAL */
	real(&t, SYS_access, DT_ARGS(DT_PTR("/tmp"), R_OK | 0x10), "\"/tmp\", R_OK|0x10");
	real(&t, SYS_faccessat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/tmp"), 0x10), "AT_FDCWD, \"/tmp\", 0x10 /* ?_OK */");
	assert_int_equal(t.ev.mode, 0x10);
	/* faccessat2(AT_FDCWD, "/tmp", W_OK, AT_EACCESS) = 0 */
	real(&t, SYS_faccessat2, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/tmp"), W_OK, AT_EACCESS),
	     "AT_FDCWD, \"/tmp\", W_OK, AT_EACCESS");

	/* mkdir("/tmp/fh/dd", 0755) = 0, rmdir, mkdirat(AT_FDCWD, "/tmp/fh/dd2", 0700) = 0,
	 * unlinkat(AT_FDCWD, "/tmp/fh/dd2", AT_REMOVEDIR) = 0 */
	real(&t, SYS_mkdir, DT_ARGS(DT_PTR(dd), 0755), F("\"%s\", 0755", dd));
	assert_int_equal(t.ev.mode, 0755);
	real(&t, SYS_mkdir, DT_ARGS(DT_PTR(dd), 0755), F("\"%s\", 0755", dd));
	assert_int_equal(last_err, EEXIST);
	real(&t, SYS_rmdir, DT_ARGS(DT_PTR(dd)), F("\"%s\"", dd));
	real(&t, SYS_mkdirat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dd), 0700), F("AT_FDCWD, \"%s\", 0700", dd));
	assert_int_equal(t.ev.mode, 0700);
	real(&t, SYS_unlinkat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dd), AT_REMOVEDIR), F("AT_FDCWD, \"%s\", AT_REMOVEDIR", dd));
	/* unlinkat(AT_FDCWD, "/tmp/fh/nonex", 0x4 /\* AT_??? *\/) = -1 EINVAL */
	real(&t, SYS_unlinkat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dd), 4), F("AT_FDCWD, \"%s\", 0x4 /* AT_??? */", dd));

	/* rename("/tmp/fh/d", "/tmp/fh/e") = 0 and back with renameat, renameat2 with flags */
	real(&t, SYS_rename, DT_ARGS(DT_PTR(f), DT_PTR(g)), F("\"%s\", \"%s\"", f, g));
	assert_string_equal(t.ev.path, f);
	assert_string_equal(t.ev.path2, g);
	real(&t, SYS_renameat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(g), (uint64_t)AT_FDCWD, DT_PTR(f)),
	     F("AT_FDCWD, \"%s\", AT_FDCWD, \"%s\"", g, f));
	assert_string_equal(t.ev.path2, f);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	/* renameat2(AT_FDCWD, "/tmp/fh/d", AT_FDCWD, "/tmp/fh/e", RENAME_NOREPLACE) = 0; the second
	 * dirfd is not the event's. */
	real(&t, SYS_renameat2, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), (uint64_t)dfd, DT_PTR("g"), RENAME_NOREPLACE),
	     F("AT_FDCWD, \"%s\", %d, \"g\", RENAME_NOREPLACE", f, dfd));
	assert_int_equal(t.ev.dirfd, RC_AT_FDCWD);
	real(&t, SYS_renameat2, DT_ARGS((uint64_t)dfd, DT_PTR("g"), (uint64_t)AT_FDCWD, DT_PTR(f), 0x10),
	     F("%d, \"g\", AT_FDCWD, \"%s\", 0x10 /* RENAME_?? */", dfd, f));
	assert_int_equal(t.ev.dirfd, dfd);
	real(&t, SYS_renameat2, DT_ARGS((uint64_t)dfd, DT_PTR("g"), (uint64_t)AT_FDCWD, DT_PTR(f), 0),
	     F("%d, \"g\", AT_FDCWD, \"%s\", 0", dfd, f));

	/* link("/tmp/fh/e", "/tmp/fh/f") = 0; linkat(..., AT_SYMLINK_FOLLOW) = 0 */
	real(&t, SYS_link, DT_ARGS(DT_PTR(f), DT_PTR(g)), F("\"%s\", \"%s\"", f, g));
	unlink(g);
	real(&t, SYS_linkat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), (uint64_t)dfd, DT_PTR("g"), AT_SYMLINK_FOLLOW),
	     F("AT_FDCWD, \"%s\", %d, \"g\", AT_SYMLINK_FOLLOW", f, dfd));
	assert_string_equal(t.ev.path2, "g");
	real(&t, SYS_unlink, DT_ARGS(DT_PTR(g)), F("\"%s\"", g));
	assert_string_equal(t.ev.path, g);

	/* symlink("a.txt", "/tmp/fh/ln") = 0: the link is the path, the target path2.
	 * symlinkat("target", AT_FDCWD, "/tmp/fh/s2") = 0 */
	real(&t, SYS_symlink, DT_ARGS(DT_PTR("f"), DT_PTR(ln)), F("\"f\", \"%s\"", ln));
	assert_string_equal(t.ev.path, ln);
	assert_string_equal(t.ev.path2, "f");
	/* readlink("/tmp/fh/ln", "a.txt", 256) = 5; readlinkat(AT_FDCWD, "/tmp/fh/ln", "a.t", 3) = 3;
	 * readlink("/tmp/fh/a.txt", 0x7ffccfa262f0, 256) = -1 EINVAL */
	real(&t, SYS_readlink, DT_ARGS(DT_PTR(ln), DT_PTR(buf), sizeof(buf)), F("\"%s\", \"f\", 256", ln));
	real(&t, SYS_readlinkat, DT_ARGS((uint64_t)dfd, DT_PTR("ln"), DT_PTR(buf), 0), F("%d, \"ln\", %#llx, 0", dfd, A(buf)));
	assert_int_equal(t.ev.dirfd, dfd);
	real(&t, SYS_readlink, DT_ARGS(DT_PTR(f), DT_PTR(buf), sizeof(buf)), F("\"%s\", %#llx, 256", f, A(buf)));
	assert_int_equal(last_err, EINVAL);
	unlink(ln);
	real(&t, SYS_symlinkat, DT_ARGS(DT_PTR("target"), (uint64_t)dfd, DT_PTR("ln")), F("\"target\", %d, \"ln\"", dfd));
	assert_int_equal(t.ev.dirfd, dfd);
	assert_string_equal(t.ev.path, "ln");
	assert_string_equal(t.ev.path2, "target");
	real(&t, SYS_readlinkat, DT_ARGS((uint64_t)dfd, DT_PTR("ln"), DT_PTR(buf), 3), F("%d, \"ln\", \"tar\", 3", dfd));
	/* -s cuts the text: readlink(..., "targ"..., 100) with -s 4. */
	t.opts.strsize = 4;
	real(&t, SYS_readlinkat, DT_ARGS((uint64_t)dfd, DT_PTR("ln"), DT_PTR(buf), 100),
	     F("%d, \"ln\", \"targ\"..., 100", dfd));
	t.opts.strsize = 32;
	unlink(ln);

	/* chmod("/tmp/fh/e", 0600) = 0, fchmodat(AT_FDCWD, "/tmp/fh/e", 04755) = 0, chmod(.., 07777) */
	real(&t, SYS_chmod, DT_ARGS(DT_PTR(f), 0600), F("\"%s\", 0600", f));
	assert_int_equal(t.ev.mode, 0600);
	real(&t, SYS_fchmodat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), 04755), F("AT_FDCWD, \"%s\", 04755", f));
	assert_int_equal(t.ev.mode, 04755);
	real(&t, SYS_chmod, DT_ARGS(DT_PTR(f), 07777), F("\"%s\", 07777", f));
	/* chown("/tmp/fh/e", -1, -1) = 0, lchown("/tmp/fh/e", 1000, -1),
	 * fchownat(AT_FDCWD, "/tmp/fh/e", -1, 1000, AT_SYMLINK_NOFOLLOW) */
	real(&t, SYS_chown, DT_ARGS(DT_PTR(f), (uint64_t)-1, 0xffffffffu), F("\"%s\", -1, -1", f));
	assert_string_equal(t.ev.path, f);
	fake(&t, SYS_lchown, DT_ARGS(DT_PTR(f), 1000, (uint64_t)-1), 0, 0, NULL, NULL, F("\"%s\", 1000, -1", f));
	fake(&t, SYS_fchownat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), (uint64_t)-1, 1000, AT_SYMLINK_NOFOLLOW), 0, 0, NULL,
	     NULL, F("AT_FDCWD, \"%s\", -1, 1000, AT_SYMLINK_NOFOLLOW", f));
	/* truncate("/tmp/fh/e", 100) = 0 */
	real(&t, SYS_truncate, DT_ARGS(DT_PTR(f), 100), F("\"%s\", 100", f));
	assert_int_equal(t.ev.len, 100);
	/* truncate("/tmp/fh/x", 4294967295) with a 32-bit -1; a 64-bit -1 is no length */
	fake(&t, SYS_truncate, DT_ARGS(DT_PTR(f), (uint64_t)-1), 0, EINVAL, NULL, NULL,
	     F("\"%s\", 18446744073709551615", f));
	assert_int_equal(t.ev.len, 0);

	/* mknod("/tmp/fh/fifo", S_IFIFO|0644) = 0: a symbolic mode is 0 to the parser.
	 * mknodat(AT_FDCWD, "/tmp/fh/reg", 0600) = 0
	 * mknodat(AT_FDCWD, "/tmp/fh/cdev", S_IFCHR|0600, makedev(0x1, 0x3)) = 0 */
	real(&t, SYS_mknod, DT_ARGS(DT_PTR(g), S_IFIFO | 0644, 0), F("\"%s\", S_IFIFO|0644", g));
	assert_int_equal(t.ev.mode, 0);
	unlink(g);
	real(&t, SYS_mknodat, DT_ARGS((uint64_t)dfd, DT_PTR("g"), 0600, 0), F("%d, \"g\", 0600", dfd));
	assert_int_equal(t.ev.mode, 0600);
	unlink(g);
	fake(&t, SYS_mknodat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(g), S_IFCHR | 0600, 0x0103), 0, 0, NULL, NULL,
	     F("AT_FDCWD, \"%s\", S_IFCHR|0600, makedev(0x1, 0x3)", g));

	/* chdir, chroot, getcwd("/tmp", 256) = 5, getcwd(0x7ffccfa262f0, 2) = -1 ERANGE */
	fake(&t, SYS_chdir, DT_ARGS(DT_PTR(dir)), 0, 0, NULL, NULL, F("\"%s\"", dir));
	assert_string_equal(t.ev.path, dir);
	fake(&t, SYS_chroot, DT_ARGS(DT_PTR("/nonexist")), 0, ENOENT, NULL, NULL, "\"/nonexist\"");
	char cwd[PATH_MAX];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	real(&t, SYS_getcwd, DT_ARGS(DT_PTR(buf), sizeof(buf)), F("\"%s\", 256", cwd));
	real(&t, SYS_getcwd, DT_ARGS(DT_PTR(buf), 2), F("%#llx, 2", A(buf)));
	assert_int_equal(last_err, ERANGE);

	/* utimensat(AT_FDCWD, "/tmp/fh/e", [UTIME_NOW, UTIME_OMIT], 0) = 0
	 * utimensat(AT_FDCWD, "/tmp/fh/e", NULL, AT_SYMLINK_NOFOLLOW) = 0
	 * utimensat(11, NULL, [{tv_sec=1, tv_nsec=2} /\* 1970-01-01T00:00:01.000000002+0000 *\/, ...], 0) = 0 */
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
	real(&t, SYS_utimensat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), DT_PTR(ts), 0),
	     F("AT_FDCWD, \"%s\", [UTIME_NOW, UTIME_OMIT], 0", f));
	assert_string_equal(t.ev.path, f);
	real(&t, SYS_utimensat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), 0, AT_SYMLINK_NOFOLLOW),
	     F("AT_FDCWD, \"%s\", NULL, AT_SYMLINK_NOFOLLOW", f));
	fd = open(f, O_RDWR);
	struct timespec ts2[2] = { { 1, 2 }, { 0, 0 } };
	real(&t, SYS_utimensat, DT_ARGS((uint64_t)fd, 0, DT_PTR(ts2), 0),
	     F("%d, NULL, [{tv_sec=1, tv_nsec=2} /* 1970-01-01T00:00:01.000000002+0000 */, {tv_sec=0, tv_nsec=0}], 0", fd));
	assert_int_equal(t.ev.dirfd, fd);
	assert_null(t.ev.path);
	real(&t, SYS_utimensat, DT_ARGS((uint64_t)fd, 0, 8, 0), F("%d, NULL, 0x8, 0", fd));
	close(fd);
	/* utimes("/tmp/fh/x", [{tv_sec=5, tv_usec=6} /\* 1970-01-01T00:00:05.000006+0000 *\/, {tv_sec=0, tv_usec=0}]) = 0
	 * utime("/tmp/fh/x", {actime=10 /\* 1970-01-01T00:00:10+0000 *\/, modtime=0}) = 0 */
	struct timeval tv[2] = { { 5, 6 }, { 0, 0 } };
	real(&t, SYS_utimes, DT_ARGS(DT_PTR(f), DT_PTR(tv)),
	     F("\"%s\", [{tv_sec=5, tv_usec=6} /* 1970-01-01T00:00:05.000006+0000 */, {tv_sec=0, tv_usec=0}]", f));
	real(&t, SYS_futimesat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(f), 0), F("AT_FDCWD, \"%s\", NULL", f));
	long ub[2] = { 10, 0 };
	real(&t, SYS_utime, DT_ARGS(DT_PTR(f), DT_PTR(ub)),
	     F("\"%s\", {actime=10 /* 1970-01-01T00:00:10+0000 */, modtime=0}", f));

	/* inotify_add_watch(15, "/tmp/fh", IN_MODIFY|IN_CREATE|IN_DELETE) = 1 */
	int in = inotify_init1(IN_CLOEXEC);
	real(&t, SYS_inotify_add_watch, DT_ARGS((uint64_t)in, DT_PTR(dir), IN_MODIFY | IN_CREATE | IN_DELETE),
	     F("%d, \"%s\", IN_MODIFY|IN_CREATE|IN_DELETE", in, dir));
	assert_int_equal(t.ev.fd, in);
	assert_string_equal(t.ev.path, dir);
	real(&t, SYS_inotify_rm_watch, DT_ARGS((uint64_t)in, (uint64_t)last_ret), F("%d, %lld", in, last_ret));
	close(in);
	/* inotify_init1(IN_CLOEXEC) = 15 */
	fake(&t, SYS_inotify_init1, DT_ARGS(IN_CLOEXEC | IN_NONBLOCK), 4, 0, NULL, NULL, "IN_NONBLOCK|IN_CLOEXEC");

	close(dfd);
	unlink(f);
	dt_release(&t);
}

static void fd_calls(void **state)
{
	(void)state;
	struct dt t;
	int fd = new_file("fd", "hello\n");
	char buf[64];

	dt_init(&t);
	/* dup(3) = 12; dup2(3, 20) = 20: the target is fd2; dup3(3, 21, O_CLOEXEC) = 21 */
	int d1 = (int)real(&t, SYS_dup, DT_ARGS((uint64_t)fd), F("%d", fd));
	assert_int_equal(t.ev.fd, fd);
	assert_int_equal(dec_lookup(SYS_dup)->rv, RC_RV_FD);
	real(&t, SYS_dup2, DT_ARGS((uint64_t)fd, 120), F("%d, 120", fd));
	assert_int_equal(t.ev.fd2, 120);
	real(&t, SYS_dup3, DT_ARGS((uint64_t)fd, 121, O_CLOEXEC), F("%d, 121, O_CLOEXEC", fd));
	assert_int_equal(t.ev.fd2, 121);
	real(&t, SYS_dup3, DT_ARGS((uint64_t)fd, 121, 0), F("%d, 121, 0", fd));
	/* close(99) = -1 EBADF; close_range(50, 4294967295, CLOSE_RANGE_CLOEXEC) = 0 */
	real(&t, SYS_close, DT_ARGS(120), "120");
	real(&t, SYS_close, DT_ARGS(121), "121");
	real(&t, SYS_close, DT_ARGS(121), "121");
	assert_int_equal(last_err, EBADF);
	assert_int_equal(t.ev.fd, 121);
	real(&t, SYS_close_range, DT_ARGS(1000, 0xffffffffu, CLOSE_RANGE_CLOEXEC), "1000, 4294967295, CLOSE_RANGE_CLOEXEC");
	assert_int_equal(t.ev.fd, -1);
	real(&t, SYS_close_range, DT_ARGS(1000, 1000, 8), "1000, 1000, 0x8 /* CLOSE_RANGE_??? */");
	close(d1);

	/* fcntl(3, F_GETFD) = 0x1 (flags FD_CLOEXEC): the value is the framework's,
	 * the text after it ours. fcntl(3, F_SETFD, FD_CLOEXEC) = 0 */
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETFD, FD_CLOEXEC), F("%d, F_SETFD, FD_CLOEXEC", fd));
	assert_int_equal(t.ev.fd, fd);
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETFD), F("%d, F_GETFD", fd));
	assert_string_equal(strbuf_str(&t.rv_extra), "(flags FD_CLOEXEC)");
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETFD, 0), F("%d, F_SETFD, 0", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETFD), F("%d, F_GETFD", fd));
	assert_int_equal(t.rv_extra.len, 0);
	/* fcntl(3, F_GETFL) = 0x8002 (flags O_RDWR|O_LARGEFILE); fcntl(3, F_SETFL, O_RDONLY|O_NONBLOCK) = 0 */
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETFL, O_RDONLY | O_NONBLOCK), F("%d, F_SETFL, O_RDONLY|O_NONBLOCK", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETFL), F("%d, F_GETFL", fd));
	assert_true(strncmp(strbuf_str(&t.rv_extra), "(flags O_RDWR|O_NONBLOCK", 24) == 0);
	/* fcntl(3, F_DUPFD, 10) = 13; fcntl(3, F_DUPFD_CLOEXEC, 3) = 14 */
	int d2 = (int)real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_DUPFD_CLOEXEC, 10), F("%d, F_DUPFD_CLOEXEC, 10", fd));
	/* The copy is fd2, as the parser has it. */
	assert_int_equal(t.ev.fd2, d2);
	assert_int_equal(t.ev.flags & O_CLOEXEC, O_CLOEXEC);
	close(d2);
	d2 = (int)real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_DUPFD, 10), F("%d, F_DUPFD, 10", fd));
	assert_int_equal(t.ev.fd2, d2);
	assert_int_equal(t.ev.flags & O_CLOEXEC, 0);
	close(d2);
	/* fcntl(3, F_SETLK, {l_type=F_RDLCK, l_whence=SEEK_SET, l_start=0, l_len=0}) = 0
	 * fcntl(3, F_GETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=0, l_len=0, l_pid=0}) = 0 */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETLK, DT_PTR(&fl)),
	     F("%d, F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=0}", fd));
	/* The lock facts both sources give: an exclusive lock, not waited for. */
	assert_int_equal(t.ev.lock, RC_LOCK_EXCL);
	assert_false(t.ev.lock_waits);
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETLK, DT_PTR(&fl)),
	     F("%d, F_GETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=0, l_len=0, l_pid=0}", fd));
	fl.l_type = F_UNLCK;
	fl.l_start = 10;
	fl.l_len = -5;
	fl.l_whence = SEEK_END;
	fake(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_OFD_SETLKW, DT_PTR(&fl)), 0, 0, NULL, NULL,
	     F("%d, F_OFD_SETLKW, {l_type=F_UNLCK, l_whence=SEEK_END, l_start=10, l_len=-5}", fd));
	/* fcntl(9, F_SETLK, NULL) = -1 EFAULT; fcntl(9, F_GETLK, 0x8) = -1 EFAULT */
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETLK, 0), F("%d, F_SETLK, NULL", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETLK, 8), F("%d, F_GETLK, 0x8", fd));
	/* fcntl(9, F_SETSIG, SIGUSR1) = 0; fcntl(9, F_GETSIG) = 10 (SIGUSR1);
	 * fcntl(9, F_GETLEASE) = 0x2 (F_UNLCK); fcntl(9, F_GETOWN_EX, {type=F_OWNER_PID, pid=0}) = 0 */
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETOWN, 0), F("%d, F_SETOWN, 0", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETSIG, SIGUSR1), F("%d, F_SETSIG, SIGUSR1", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETSIG), F("%d, F_GETSIG", fd));
	assert_string_equal(strbuf_str(&t.rv_extra), "(SIGUSR1)");
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_SETSIG, 0), F("%d, F_SETSIG, 0", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETLEASE), F("%d, F_GETLEASE", fd));
	assert_string_equal(strbuf_str(&t.rv_extra), "(F_UNLCK)");
	struct f_owner_ex ox;
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_GETOWN_EX, DT_PTR(&ox)), F("%d, F_GETOWN_EX, {type=F_OWNER_PID, pid=0}", fd));
	/* fcntl(3, F_ADD_SEALS, F_SEAL_SEAL) = -1 EPERM; fcntl(9, F_NOTIFY, DN_MODIFY|DN_MULTISHOT) = -1 ENOTDIR
	 * fcntl(9, 0x270f /\* F_??? *\/, 0x5) = -1 EINVAL */
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_ADD_SEALS, F_SEAL_SEAL), F("%d, F_ADD_SEALS, F_SEAL_SEAL", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, F_NOTIFY, DN_MODIFY | (unsigned)DN_MULTISHOT),
	     F("%d, F_NOTIFY, DN_MODIFY|DN_MULTISHOT", fd));
	real(&t, SYS_fcntl, DT_ARGS((uint64_t)fd, 9999, 5), F("%d, 0x270f /* F_??? */, 0x5", fd));
	assert_int_equal(t.ev.fd, fd);

	/* flock(3, LOCK_EX|LOCK_NB) = 0, flock(9, 0) = -1 EINVAL */
	real(&t, SYS_flock, DT_ARGS((uint64_t)fd, LOCK_EX | LOCK_NB), F("%d, LOCK_EX|LOCK_NB", fd));
	assert_int_equal(t.ev.lock, RC_LOCK_EXCL);
	assert_false(t.ev.lock_waits);
	assert_int_equal(t.ev.fd, fd);
	real(&t, SYS_flock, DT_ARGS((uint64_t)fd, LOCK_UN), F("%d, LOCK_UN", fd));
	assert_int_equal(t.ev.lock, RC_LOCK_UNLOCK);
	real(&t, SYS_flock, DT_ARGS((uint64_t)fd, 0), F("%d, 0", fd));

	/* lseek(3, 0, SEEK_SET) = 0; lseek(3, -2, SEEK_END); lseek(3, 0, 0x7 /\* SEEK_??? *\/) = -1 EINVAL */
	real(&t, SYS_lseek, DT_ARGS((uint64_t)fd, 0, SEEK_SET), F("%d, 0, SEEK_SET", fd));
	assert_int_equal(t.ev.offset, 0);
	real(&t, SYS_lseek, DT_ARGS((uint64_t)fd, (uint64_t)-2, SEEK_END), F("%d, -2, SEEK_END", fd));
	assert_int_equal(t.ev.offset, -2);
	assert_int_equal(last_ret, 4);
	real(&t, SYS_lseek, DT_ARGS((uint64_t)fd, 0, 7), F("%d, 0, 0x7 /* SEEK_??? */", fd));
	assert_int_equal(last_err, EINVAL);

	/* ftruncate(11, 0) = 0; fsync(11) = 0; fdatasync(11) = 0 */
	real(&t, SYS_ftruncate, DT_ARGS((uint64_t)fd, 6), F("%d, 6", fd));
	assert_int_equal(t.ev.len, 6);
	real(&t, SYS_fsync, DT_ARGS((uint64_t)fd), F("%d", fd));
	assert_int_equal(t.ev.fd, fd);
	real(&t, SYS_fdatasync, DT_ARGS((uint64_t)fd), F("%d", fd));
	real(&t, SYS_syncfs, DT_ARGS((uint64_t)fd), F("%d", fd));
	/* fallocate(11, 0, 0, 4096) = 0; fallocate(11, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 0, 100) = 0;
	 * fallocate(9, 0x1000 /\* FALLOC_FL_??? *\/, 4294967295, 5) = -1 EOPNOTSUPP */
	fake(&t, SYS_fallocate, DT_ARGS((uint64_t)fd, 0, 0, 4096), 0, 0, NULL, NULL, F("%d, 0, 0, 4096", fd));
	assert_int_equal(t.ev.offset, 0);
	assert_int_equal(t.ev.len, 4096);
	fake(&t, SYS_fallocate, DT_ARGS((uint64_t)fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 100, 200), 0, 0, NULL, NULL,
	     F("%d, FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE, 100, 200", fd));
	assert_int_equal(t.ev.offset, 100);
	fake(&t, SYS_fallocate, DT_ARGS((uint64_t)fd, 0x1000, 0xffffffffu, 5), 0, EOPNOTSUPP, NULL, NULL,
	     F("%d, 0x1000 /* FALLOC_FL_??? */, 4294967295, 5", fd));
	/* fadvise64(3, 100, 200, POSIX_FADV_DONTNEED) = 0; fadvise64(9, 0, 4294967295, 0x4d /\* POSIX_FADV_??? *\/) */
	real(&t, SYS_fadvise64, DT_ARGS((uint64_t)fd, 100, 200, POSIX_FADV_DONTNEED), F("%d, 100, 200, POSIX_FADV_DONTNEED", fd));
	assert_int_equal(t.ev.offset, 100);
	assert_int_equal(t.ev.len, 200);
	real(&t, SYS_fadvise64, DT_ARGS((uint64_t)fd, 0, 0xffffffffu, 77), F("%d, 0, 4294967295, 0x4d /* POSIX_FADV_??? */", fd));
	/* sync_file_range(0, 0, 0, 0) = -1 ESPIPE; readahead(0, 0, 100) = -1 EINVAL */
	real(&t, SYS_sync_file_range, DT_ARGS((uint64_t)fd, 0, 10, SYNC_FILE_RANGE_WRITE),
	     F("%d, 0, 10, SYNC_FILE_RANGE_WRITE", fd));
	assert_int_equal(t.ev.fd, fd);
	real(&t, SYS_readahead, DT_ARGS((uint64_t)fd, 0, 100), F("%d, 0, 100", fd));

	/* fchdir(9) = 0, fchmod(3, 0644) = 0: the mode is not a fact of fchmod; fchown(3, 0, 0) */
	real(&t, SYS_fchmod, DT_ARGS((uint64_t)fd, 0644), F("%d, 0644", fd));
	assert_int_equal(t.ev.mode, 0);
	assert_int_equal(t.ev.fd, fd);
	fake(&t, SYS_fchown, DT_ARGS((uint64_t)fd, 0, 0), 0, 0, NULL, NULL, F("%d, 0, 0", fd));
	fake(&t, SYS_fchdir, DT_ARGS(9), 0, 0, NULL, NULL, "9");
	assert_int_equal(t.ev.fd, 9);

	/* umask(022) = 022 */
	fake(&t, SYS_umask, DT_ARGS(022), 022, 0, NULL, NULL, "022");
	fake(&t, SYS_umask, DT_ARGS(0), 022, 0, NULL, NULL, "000");
	assert_int_equal(dec_lookup(SYS_umask)->rv, RC_RV_OCT);

	/* memfd_create("mfd", MFD_CLOEXEC|MFD_ALLOW_SEALING) = 16; memfd_create("x", 0) = 17;
	 * memfd_create("huge", MFD_HUGETLB|21<<MFD_HUGE_SHIFT) = 12 */
	fake(&t, SYS_memfd_create, DT_ARGS(DT_PTR("mfd"), MFD_CLOEXEC | MFD_ALLOW_SEALING), 16, 0, NULL, NULL,
	     "\"mfd\", MFD_CLOEXEC|MFD_ALLOW_SEALING");
	fake(&t, SYS_memfd_create, DT_ARGS(DT_PTR("x"), 0), 17, 0, NULL, NULL, "\"x\", 0");
	fake(&t, SYS_memfd_create, DT_ARGS(DT_PTR("huge"), MFD_HUGETLB | (21u << 26)), 12, 0, NULL, NULL,
	     "\"huge\", MFD_HUGETLB|21<<MFD_HUGE_SHIFT");
	fake(&t, SYS_memfd_create, DT_ARGS(DT_PTR("0123456789012345678901234567890123456789"), 0x100), 0, EINVAL, NULL,
	     NULL, "\"01234567890123456789012345678901\"..., 0x100 /* MFD_??? */");
	(void)buf;
	close(fd);
	unlink(P("fd"));
	dt_release(&t);
}

static void getdents_calls(void **state)
{
	(void)state;
	struct dt t;
	char buf[4096];
	int d;

	close(new_file("e1", NULL));
	close(new_file("e2", NULL));
	d = open(dir, O_RDONLY | O_DIRECTORY);
	dt_init(&t);
	/* getdents64(9, 0x7ffcf36eca90 /\* 130 entries *\/, 4096) = 4088: ".", "..", e1, e2 */
	real(&t, SYS_getdents64, DT_ARGS((uint64_t)d, DT_PTR(buf), sizeof(buf)), F("%d, %#llx /* 4 entries */, 4096", d, A(buf)));
	assert_int_equal(t.ev.fd, d);
	real(&t, SYS_getdents64, DT_ARGS((uint64_t)d, DT_PTR(buf), sizeof(buf)), F("%d, %#llx /* 0 entries */, 4096", d, A(buf)));
	/* getdents64(99, 0x7ffcf36eca90, 4096) = -1 EBADF */
	real(&t, SYS_getdents64, DT_ARGS(99, DT_PTR(buf), sizeof(buf)), F("99, %#llx, 4096", A(buf)));
	lseek(d, 0, SEEK_SET);
	/* getdents(8, 0x7ffcf36eca90 /\* 7 entries *\/, 200) = 192 */
	real(&t, SYS_getdents, DT_ARGS((uint64_t)d, DT_PTR(buf), sizeof(buf)), F("%d, %#llx /* 4 entries */, 4096", d, A(buf)));
	close(d);
	unlink(P("e1"));
	unlink(P("e2"));
	dt_release(&t);
}

static void ioctl_calls(void **state)
{
	(void)state;
	struct dt t;
	struct termios tio;
	struct winsize ws;
	int fd = new_file("io", "hello\n"), on = 1, n;

	dt_init(&t);
	/* ioctl(3, TCGETS, 0x7ffccfa26250) = -1 ENOTTY (isatty on a file) */
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, TCGETS, DT_PTR(&tio)), F("%d, TCGETS, %#llx", fd, A(&tio)));
	assert_int_equal(last_err, ENOTTY);
	assert_int_equal(t.ev.fd, fd);
	/* ioctl(3, FIONBIO, [1]) = 0; ioctl(3, FIONREAD, [6]) = 0; ioctl(3, FIOCLEX) = 0 */
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, FIONBIO, DT_PTR(&on)), F("%d, FIONBIO, [1]", fd));
	lseek(fd, 0, SEEK_SET);
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, FIONREAD, DT_PTR(&n)), F("%d, FIONREAD, [6]", fd));
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, FIOCLEX), F("%d, FIOCLEX", fd));
	/* ioctl(1, TIOCGWINSZ, 0x7ffccfa26244) = -1 ENOTTY */
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, TIOCGWINSZ, DT_PTR(&ws)), F("%d, TIOCGWINSZ, %#llx", fd, A(&ws)));
	/* ioctl(3, _IOC(_IOC_NONE, 0x12, 0x34, 0), 0x5) = -1 ENOTTY and the others' directions */
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, 0x1234, 5), F("%d, _IOC(_IOC_NONE, 0x12, 0x34, 0), 0x5", fd));
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, _IOR('x', 3, int), 0), F("%d, _IOC(_IOC_READ, 0x78, 0x3, 0x4), 0", fd));
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)fd, _IOWR('x', 0x83, struct winsize), DT_PTR(&ws)),
	     F("%d, _IOC(_IOC_READ|_IOC_WRITE, 0x78, 0x83, 0x8), %#llx", fd, A(&ws)));
	close(fd);
	unlink(P("io"));

	/* A terminal: the pty pair's slave, as isatty() on a terminal sees it.
	 * ioctl(0, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR,
	 *       c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE, ...}) = 0
	 * ioctl(0, TIOCGWINSZ, {ws_row=0, ws_col=0, ws_xpixel=0, ws_ypixel=0}) = 0 */
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m)) {
		dt_release(&t);
		skip();
	}
	int s = open(ptsname(m), O_RDWR | O_NOCTTY);
	assert_true(s >= 0);
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TCGETS, DT_PTR(&tio)),
	     F("%d, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, c_cflag=B38400|CS8|CREAD, "
	       "c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE, ...}", s));
	/* The kernel reads it at entry: ioctl(0, SNDCTL_TMR_START or TCSETS, {...}) = 0. Raw
	 * mode leaves c_oflag with no flag after the delays. */
	tio.c_iflag = 0;
	tio.c_oflag = 0;
	tio.c_lflag = 0;
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TCSETS, DT_PTR(&tio)),
	     F("%d, SNDCTL_TMR_START or TCSETS, {c_iflag=, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|, c_cflag=B38400|CS8|CREAD, "
	       "c_lflag=, ...}", s));
	/* ioctl(0, SNDCTL_TMR_STOP or TCSETSW, {c_iflag=IUTF8|0x40000000, c_oflag=NL0|CR0|XTABS|BS0|VT0|FF0|,
	 *       c_cflag=B38400|B9600<<IBSHIFT|CS8|CREAD|CRTSCTS, c_lflag=, ...}) = 0 */
	tio.c_cflag = (tio.c_cflag & ~CIBAUD) | (B9600 << __builtin_ctz(CIBAUD)) | CRTSCTS;
	tio.c_oflag |= XTABS;
	tio.c_iflag = IUTF8 | 0x40000000;
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TCSETSW, DT_PTR(&tio)),
	     F("%d, SNDCTL_TMR_STOP or TCSETSW, {c_iflag=IUTF8|0x40000000, c_oflag=NL0|CR0|XTABS|BS0|VT0|FF0|, "
	       "c_cflag=B38400|B9600<<IBSHIFT|CS8|CREAD|CRTSCTS, c_lflag=, ...}", s));
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TIOCGWINSZ, DT_PTR(&ws)),
	     F("%d, TIOCGWINSZ, {ws_row=0, ws_col=0, ws_xpixel=0, ws_ypixel=0}", s));
	ws.ws_row = 24;
	ws.ws_col = 80;
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TIOCSWINSZ, DT_PTR(&ws)),
	     F("%d, TIOCSWINSZ, {ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0}", s));
	/* ioctl(3, TIOCGPTN, [2]) = 0 on the master */
	assert_int_equal(ioctl(m, TIOCGPTN, &n), 0);
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)m, TIOCGPTN, DT_PTR(&n)), F("%d, TIOCGPTN, [%d]", m, n));
	/* ioctl(0, TCFLSH, TCIOFLUSH) = 0; ioctl(0, TCXONC, TCOON) = 0; ioctl(0, TIOCMGET, ...) */
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TCFLSH, TCIOFLUSH), F("%d, TCFLSH, TCIOFLUSH", s));
	real(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TCXONC, TCOON), F("%d, TCXONC, TCOON", s));
	n = TIOCM_DTR | TIOCM_RTS;
	fake(&t, SYS_ioctl, DT_ARGS((uint64_t)s, TIOCMSET, DT_PTR(&n)), 0, 0, NULL, NULL,
	     F("%d, TIOCMSET, [TIOCM_DTR|TIOCM_RTS]", s));
	close(s);
	close(m);
	dt_release(&t);
}

static void xattr_calls(void **state)
{
	(void)state;
	struct dt t;
	int fd = new_file("xa", NULL);
	char buf[128];
	char f[256];

	snprintf(f, sizeof(f), "%s", P("xa"));
	dt_init(&t);
	/* fsetxattr(9, "user.a", "v", 2, 0) = 0: the value's last NUL is not printed */
	real(&t, SYS_fsetxattr, DT_ARGS((uint64_t)fd, DT_PTR("user.a"), DT_PTR("v"), 2, 0),
	     F("%d, \"user.a\", \"v\", 2, 0", fd));
	assert_int_equal(t.ev.fd, fd);
	if (last_err == EOPNOTSUPP) {
		close(fd);
		unlink(f);
		dt_release(&t);
		skip();
	}
	/* fsetxattr(9, "user.b", "01234567890123456789012345678901"..., 40, XATTR_REPLACE) = -1 ENODATA */
	real(&t, SYS_fsetxattr, DT_ARGS((uint64_t)fd, DT_PTR("user.b"), DT_PTR("0123456789012345678901234567890123456789"), 40,
					XATTR_REPLACE),
	     F("%d, \"user.b\", \"01234567890123456789012345678901\"..., 40, XATTR_REPLACE", fd));
	/* fgetxattr(9, "user.a", "v", 100) = 2; getxattr("/tmp/fh/x", "user.a", 0x7ffcf36eca90, 1) = -1 ERANGE */
	real(&t, SYS_fgetxattr, DT_ARGS((uint64_t)fd, DT_PTR("user.a"), DT_PTR(buf), 100), F("%d, \"user.a\", \"v\", 100", fd));
	real(&t, SYS_getxattr, DT_ARGS(DT_PTR(f), DT_PTR("user.a"), DT_PTR(buf), 1),
	     F("\"%s\", \"user.a\", %#llx, 1", f, A(buf)));
	assert_string_equal(t.ev.path, f);
	real(&t, SYS_lsetxattr, DT_ARGS(DT_PTR(f), DT_PTR("user.c"), DT_PTR("xyz"), 3, XATTR_CREATE),
	     F("\"%s\", \"user.c\", \"xyz\", 3, XATTR_CREATE", f));
	/* flistxattr(9, "user.a\0", 100) = 7; listxattr("/tmp/fh/x", 0x7ffcf36eca90, 0) = 7 */
	real(&t, SYS_lremovexattr, DT_ARGS(DT_PTR(f), DT_PTR("user.c")), F("\"%s\", \"user.c\"", f));
	real(&t, SYS_flistxattr, DT_ARGS((uint64_t)fd, DT_PTR(buf), 100), F("%d, \"user.a\\0\", 100", fd));
	real(&t, SYS_listxattr, DT_ARGS(DT_PTR(f), DT_PTR(buf), 0), F("\"%s\", %#llx, 0", f, A(buf)));
	/* fremovexattr is not one of facts.c's calls: no fd in the event. */
	real(&t, SYS_fremovexattr, DT_ARGS((uint64_t)fd, DT_PTR("user.a")), F("%d, \"user.a\"", fd));
	assert_int_equal(t.ev.fd, -1);
	close(fd);
	unlink(f);
	dt_release(&t);
}

/* Calls that would change the machine are decoded with a made-up result. */
static void system_calls(void **state)
{
	(void)state;
	struct dt t;

	dt_init(&t);
	/* mount("/tmp", "/nonexist", NULL, MS_BIND|MS_REC, NULL) = -1 ENOENT: facts.c takes no path */
	fake(&t, SYS_mount, DT_ARGS(DT_PTR("/tmp"), DT_PTR("/nonexist"), 0, MS_BIND | MS_REC, 0), 0, ENOENT, NULL, NULL,
	     "\"/tmp\", \"/nonexist\", NULL, MS_BIND|MS_REC, NULL");
	assert_null(t.ev.path);
	/* mount("none", "/nonexist", "tmpfs", MS_MGC_VAL|MS_RDONLY, "size=1m") = -1 ENOENT */
	fake(&t, SYS_mount, DT_ARGS(DT_PTR("none"), DT_PTR("/nonexist"), DT_PTR("tmpfs"), MS_MGC_VAL | MS_RDONLY,
				    DT_PTR("size=1m")), 0, ENOENT, NULL, NULL,
	     "\"none\", \"/nonexist\", \"tmpfs\", MS_MGC_VAL|MS_RDONLY, \"size=1m\"");
	/* umount2("/nonexist", MNT_DETACH|0x100) = -1 EINVAL */
	fake(&t, SYS_umount2, DT_ARGS(DT_PTR("/nonexist"), MNT_DETACH | 0x100), 0, EINVAL, NULL, NULL,
	     "\"/nonexist\", MNT_DETACH|0x100");
	assert_string_equal(t.ev.path, "/nonexist");
	/* swapon("/nonexist", SWAP_FLAG_PREFER|5) = -1 ENOENT; swapoff("/x"); acct(NULL) = 0 */
	fake(&t, SYS_swapon, DT_ARGS(DT_PTR("/nonexist"), 0x8000 | 5), 0, ENOENT, NULL, NULL,
	     "\"/nonexist\", SWAP_FLAG_PREFER|5");
	fake(&t, SYS_swapoff, DT_ARGS(DT_PTR("/x")), 0, ENOENT, NULL, NULL, "\"/x\"");
	fake(&t, SYS_acct, DT_ARGS(0), 0, 0, NULL, NULL, "NULL");
	/* pivot_root("/a", "/b") = -1 ENOENT */
	fake(&t, SYS_pivot_root, DT_ARGS(DT_PTR("/a"), DT_PTR("/b")), 0, ENOENT, NULL, NULL, "\"/a\", \"/b\"");
	assert_string_equal(t.ev.path, "/a");
	assert_string_equal(t.ev.path2, "/b");
	/* fanotify_init(FAN_CLASS_NOTIF, O_RDONLY) = 6 */
	fake(&t, SYS_fanotify_init, DT_ARGS(0, 0), 6, 0, NULL, NULL, "FAN_CLASS_NOTIF, O_RDONLY");
	/* quotactl is printed generically. */
	fake(&t, SYS_quotactl, DT_ARGS(0, 0x20, 0, 0), 0, ENOENT, NULL, NULL, "0, 0x20, 0, 0");
	dt_release(&t);
}

static void handle_calls(void **state)
{
	(void)state;
	struct dt t;
	struct {
		struct file_handle fh;
		unsigned char b[128];
	} h;
	int mid;

	dt_init(&t);
	/* name_to_handle_at(AT_FDCWD, "/tmp/fh/e", {handle_bytes=128 => 8, handle_type=1,
	 *                   f_handle="\x19\x21\xa8\x00\xfd\xcc\x12\x46"}, [26], 0) = 0 */
	h.fh.handle_bytes = 128;
	decode_k(&t, SYS_name_to_handle_at, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dir), DT_PTR(&h), DT_PTR(&mid), 0), true, 0,
		 0, NULL, NULL);
	if (last_err == EOPNOTSUPP) {
		dt_release(&t);
		skip();
	}
	assert_int_equal(last_err, 0);
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "AT_FDCWD, \"%s\", {handle_bytes=128 => %u, handle_type=%d, f_handle=\"", dir,
		    h.fh.handle_bytes, h.fh.handle_type);
	for (unsigned i = 0; i < h.fh.handle_bytes; i++)
		strbuf_addf(&want, "\\x%02x", h.b[i]);
	strbuf_addf(&want, "\"}, [%d], 0", mid);
	assert_string_equal(strbuf_str(&t.args), strbuf_str(&want));
	strbuf_release(&want);
	dt_check_same_facts(&t);
	assert_string_equal(t.ev.path, dir);
	/* Too small a buffer: EOVERFLOW, with the size the kernel wants. */
	h.fh.handle_bytes = 0;
	decode_k(&t, SYS_name_to_handle_at, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dir), DT_PTR(&h), DT_PTR(&mid), 0), true, 0,
		 0, NULL, NULL);
	assert_int_equal(last_err, EOVERFLOW);
	assert_string_equal(strbuf_str(&t.args),
			    F("AT_FDCWD, \"%s\", {handle_bytes=0 => %u}, %#llx, 0", dir, h.fh.handle_bytes, A(&mid)));
	dt_check_same_facts(&t);
	/* An unreadable handle prints everything at entry. */
	real(&t, SYS_name_to_handle_at, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR(dir), 8, DT_PTR(&mid), AT_EMPTY_PATH),
	     F("AT_FDCWD, \"%s\", 0x8, %#llx, AT_EMPTY_PATH", dir, A(&mid)));
	dt_release(&t);
}

/* With -y: fds and AT_FDCWD carry their paths, and the event gets them as
 * hints. */
static void decorated_fds(void **state)
{
	(void)state;
	struct dt t;
	struct stat st;
	int fd = new_file("dec", "abc");
	char f[256], cwd[PATH_MAX];

	snprintf(f, sizeof(f), "%s", P("dec"));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	dt_init(&t);
	t.opts.decode_fds = true;
	/* fstat(3</tmp/fh/a.txt>, {st_mode=S_IFREG|0644, st_size=3, ...}) = 0 */
	real(&t, SYS_fstat, DT_ARGS((uint64_t)fd, DT_PTR(&st)), F("%d<%s>, {st_mode=S_IFREG|0644, st_size=3, ...}", fd, f));
	assert_string_equal(dt_shown(t.ev.fd_shown), f);
	/* newfstatat(3</tmp/x>, "", ..., AT_EMPTY_PATH): the dirfd's hint is the fd's */
	real(&t, SYS_newfstatat, DT_ARGS((uint64_t)fd, DT_PTR(""), DT_PTR(&st), AT_EMPTY_PATH),
	     F("%d<%s>, \"\", {st_mode=S_IFREG|0644, st_size=3, ...}, AT_EMPTY_PATH", fd, f));
	assert_string_equal(dt_shown(t.ev.dir_shown), f);
	assert_string_equal(dt_shown(t.ev.fd_shown), f);
	/* openat(AT_FDCWD</tmp/fh>, "x", O_RDONLY) */
	real(&t, SYS_openat, DT_ARGS((uint64_t)AT_FDCWD, DT_PTR("/nonexist"), O_RDONLY),
	     F("AT_FDCWD<%s>, \"/nonexist\", O_RDONLY", cwd));
	assert_string_equal(dt_shown(t.ev.dir_shown), cwd);
	/* dup2(3</x>, 120): the target is printed before it exists */
	real(&t, SYS_dup2, DT_ARGS((uint64_t)fd, 120), F("%d<%s>, 120", fd, f));
	assert_string_equal(dt_shown(t.ev.fd_shown), f);
	close(120);
	close(fd);
	unlink(f);
	dt_release(&t);
}

static void table_rows(void **state)
{
	(void)state;
	/* strace 6.1's classes: %file, %desc, and %stat for stat alone. */
	assert_int_equal(dec_lookup(SYS_openat)->classes, TC_DESC | TC_FILE);
	assert_int_equal(dec_lookup(SYS_stat)->classes, TC_FILE | TC_STAT);
	assert_int_equal(dec_lookup(SYS_lstat)->classes, TC_FILE);
	assert_int_equal(dec_lookup(SYS_fstat)->classes, TC_DESC);
	assert_int_equal(dec_lookup(SYS_getcwd)->classes, TC_FILE);
	assert_int_equal(dec_lookup(SYS_memfd_create)->classes, TC_DESC);
	assert_int_equal(dec_lookup(SYS_close_range)->classes, 0);
	assert_int_equal(dec_lookup(SYS_umask)->classes, 0);
	assert_int_equal(dec_lookup(SYS_openat)->nargs, 4);
	assert_int_equal(dec_lookup(SYS_statx)->nargs, 5);
	assert_int_equal(dec_lookup(SYS_creat)->rv, RC_RV_FD);
	assert_int_equal(dec_lookup(SYS_dup2)->rv, RC_RV_FD);
	assert_int_equal(dec_lookup(SYS_close)->rv, RC_RV_DEC);
	assert_non_null(dec_lookup(SYS_fcntl)->fn);
}

/* The open flags an event keeps (event_open_flags, from the raw value)
 * are the ones a log reader gets from the printed text: the names
 * the headers define as 0 (O_LARGEFILE here), bits with no name, every
 * access mode. */
static void open_flags_fact(void **state)
{
	(void)state;
	static const unsigned long long values[] = {
		O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC, O_RDWR | O_CLOEXEC | O_DIRECTORY, O_ACCMODE,
		O_RDONLY | 0x8000 /* the kernel's O_LARGEFILE */, O_WRONLY | O_TMPFILE, O_SYNC | O_DSYNC,
		O_RDONLY | FASYNC | O_NOATIME | O_PATH, O_RDWR | 0x40000000, 0xffffffff,
	};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct strbuf out = STRBUF_INIT;
		struct dec d;
		memset(&d, 0, sizeof(d));
		d.out = &out;
		dec_open_flags(&d, values[i]);
		unsigned long long fact = event_open_flags(values[i]);
		long long parsed = xlat_flags(&rc_xlat_open_flag, out.buf, out.len, NULL);
		if ((long long)fact != parsed)
			fail_msg("%#llx printed as %s: kept %#llx, read back %#llx", values[i], out.buf, fact,
				 (unsigned long long)parsed);
		strbuf_release(&out);
	}
}

/* The MODE fact of access and mknod is what a reader of the printed
 * mode gets: the number when it is printed alone, 0 when by name. */
static long long text_num(const char *s)
{
	return *s >= '0' && *s <= '9' ? strtoll(s, NULL, 0) : 0;
}

static void mode_fact(void **state)
{
	(void)state;
	static const unsigned long long access_modes[] = {
		F_OK, R_OK, R_OK | W_OK | X_OK, 0x10, R_OK | 0x10, 0xffffffffffffffffULL,
	};
	static const unsigned mknod_modes[] = {
		0644, S_IFIFO | 0600, S_IFCHR | 0620, S_IFREG | S_ISUID | 0755, S_ISVTX | 0777, 0,
		S_ISGID | 0750, 0170000 | 0644,
	};
	struct dt t;

	for (size_t i = 0; i < sizeof(access_modes) / sizeof(access_modes[0]); i++) {
		dt_init(&t);
		uint64_t args[6] = { 0, access_modes[i] };
		const char *text = dt_decode(&t, SYS_access, args, -1, ENOENT);
		const char *m = strstr(text, ", ");
		assert_non_null(m);
		if (t.ev.mode != text_num(m + 2))
			fail_msg("access mode %#llx printed as %s: fact %lld", access_modes[i], m + 2, t.ev.mode);
		dt_release(&t);
	}
	for (size_t i = 0; i < sizeof(mknod_modes) / sizeof(mknod_modes[0]); i++) {
		dt_init(&t);
		uint64_t args[6] = { 0, mknod_modes[i], 0 };
		const char *text = dt_decode(&t, SYS_mknod, args, -1, ENOENT);
		const char *m = strstr(text, ", ");
		assert_non_null(m);
		if (t.ev.mode != text_num(m + 2))
			fail_msg("mknod mode %#o printed as %s: fact %lld", mknod_modes[i], m + 2, t.ev.mode);
		dt_release(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_calls),
		cmocka_unit_test(open_flags_fact),
		cmocka_unit_test(mode_fact),
		cmocka_unit_test(stat_calls),
		cmocka_unit_test(statfs_calls),
		cmocka_unit_test(path_calls),
		cmocka_unit_test(fd_calls),
		cmocka_unit_test(getdents_calls),
		cmocka_unit_test(ioctl_calls),
		cmocka_unit_test(xattr_calls),
		cmocka_unit_test(system_calls),
		cmocka_unit_test(handle_calls),
		cmocka_unit_test(decorated_fds),
		cmocka_unit_test(table_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
