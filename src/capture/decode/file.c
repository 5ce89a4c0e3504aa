/* The file family: paths, the stat family, directories, links, modes and
 * owners, and the fd housekeeping calls (close, dup, lseek; fcntl and
 * flock are in fcntl.c, ioctl in ioctl.c, xattrs, mounts and fanotify in
 * mount.c),
 * as strace 6.1 prints them, with the facts their arguments' roles in
 * event/syscalls.def give: the raw path (the engine resolves it against
 * dirfd or the cwd), dirfd, fd, fd2, flags, mode, len, offset and
 * st_size. What a struct's members mean is event/facts.h's, which the
 * strace parser calls with the same values read from the text.
 *
 * Calls that write a result (stat buffers, readlink's and getcwd's text,
 * F_GETLK's lock, TCGETS's termios) print their first arguments at entry
 * and the rest at exit, as strace does. The constant tables
 * (src/xlat/) are in strace's order, which is the order flags print in;
 * their values come from the headers. Only x86_64's native layouts are
 * decoded.
 */
#include "capture/decode.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "capture/decode/decoders.h"
#include "capture/decode/file.h"
#include "event/facts.h"
#include "gen/tables.h"
#include "util/util.h"

/* The kernel's flag for statfs results that carry f_flags
 * (include/linux/statfs.h); no userspace header exports it. */
#ifndef ST_VALID
#define ST_VALID 0x0020
#endif

/*
 * Small printers.
 */

/* strace's print_numeric_umode_t: the mode as an unsigned short. */
static void umode(struct dec *d, uint64_t v)
{
	strbuf_addf(d->out, "%#03o", (unsigned short)v);
}

/* strace's print_symbolic_mode_t: "S_IFREG|0644", "S_ISUID|0755", "0600".
 * Returns the MODE fact a reader of that text gets: the number when it is
 * printed alone, 0 when names come with it. */
static unsigned symbolic_mode(struct dec *d, unsigned mode)
{
	const char *ifmt = "";
	const unsigned special = S_ISUID | S_ISGID | S_ISVTX;

	if (mode & S_IFMT)
		ifmt = xlat_name(&rc_xlat_modetypes, mode & S_IFMT);
	if (!ifmt) {
		strbuf_addf(d->out, "%#03o", mode);
		return mode;
	}
	strbuf_addf(d->out, "%s%s%s%s%s%#03o", ifmt, ifmt[0] ? "|" : "",
		    (mode & S_ISUID) ? "S_ISUID|" : "", (mode & S_ISGID) ? "S_ISGID|" : "",
		    (mode & S_ISVTX) ? "S_ISVTX|" : "",
		    mode & ~(unsigned)(S_IFMT | special));
	return ifmt[0] || (mode & special) ? 0 : mode;
}

static void dev_t_val(struct dec *d, unsigned long long dev)
{
	strbuf_addf(d->out, "makedev(%#x, %#x)", major(dev), minor(dev));
}

/* printuid: -1 for the "unchanged" id, else unsigned. */
static void uid_arg(struct dec *d, uint64_t v)
{
	unsigned id = (unsigned)v;

	if (id == (unsigned)-1)
		strbuf_add(d->out, "-1", 2);
	else
		strbuf_addf(d->out, "%u", id);
}

void file_int_at(struct dec *d, uint64_t addr)
{
	int v;

	if (dec_umove(d, addr, &v, sizeof(v)))
		strbuf_addf(d->out, "[%d]", v);
}

/* The fd argument I, printed; the event's fd is its FD role's (event_raw_arg_facts). */
void file_fd_arg(struct dec *d, int i)
{
	dec_fd(d, (int)d->call.args[i]);
}

/* The dirfd argument I, printed; the event's dirfd is its DIRFD role's. */
static void dirfd_arg(struct dec *d, int i)
{
	dec_dirfd(d, (int)d->call.args[i]);
}

/* A dirfd that is not the event's (the second one of renameat). */
static void other_dirfd(struct dec *d, int i)
{
	int fd = (int)d->call.args[i];
	const struct rc_fdfacts *shown = d->e->dir_shown;

	dec_dirfd(d, fd);
	d->e->dir_shown = shown;
}

/* strace's sprinttime_nsec & co: a local date for a comment, or NULL. */
static const char *fmt_time(char *buf, size_t size, long long sec, unsigned long long part, unsigned long long max,
			    int width)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if ((sec == 0 && part == 0) || part > max || (long long)t != sec || !localtime_r(&t, &tm))
		return NULL;
	size_t pos = strftime(buf, size, "%FT%T", &tm);
	if (!pos)
		return NULL;
	if (part > 0) {
		int n = snprintf(buf + pos, size - pos, ".%0*llu", width, part);
		if (n < 0 || (size_t)n >= size - pos)
			return NULL;
		pos += (size_t)n;
	}
	return strftime(buf + pos, size - pos, "%z", &tm) ? buf : NULL;
}

static void time_comment(struct dec *d, long long sec, unsigned long long part, unsigned long long max, int width)
{
	char buf[96];
	const char *s = fmt_time(buf, sizeof(buf), sec, part, max, width);

	if (s)
		strbuf_addf(d->out, " /* %s */", s);
}

/*
 * open and friends.
 */
static void open_tail(struct dec *d, int i)
{
	dec_path_arg(d, i);
	dec_sep(d);
	dec_open_flags(d, d->call.args[i + 1]);
	if (event_open_reads_mode(d->call.args[i + 1])) {
		dec_sep(d);
		umode(d, d->call.args[i + 2]);
	}
}

void dec_open(struct dec *d)
{
	if (!d->exiting)
		open_tail(d, 0);
}

void dec_openat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	open_tail(d, 1);
}

void dec_openat2(struct dec *d)
{
	struct open_how how;
	uint64_t addr = d->call.args[2], size = d->call.args[3];

	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	/* OPEN_HOW_SIZE_VER0: smaller is EINVAL and printed as an address. */
	memset(&how, 0, sizeof(how));
	if (size < 24)
		dec_ptr(d, addr);
	else if (dec_umove(d, addr, &how, MIN(size, sizeof(how)))) {
		strbuf_add(d->out, "{flags=", 7);
		dec_open_flags(d, how.flags);
		event_open_how_facts(d->e, event_open_flags(how.flags), how.mode);
		if (event_open_reads_mode(how.flags) || how.mode)
			strbuf_addf(d->out, ", mode=%#03llo", (unsigned long long)how.mode);
		strbuf_add(d->out, ", resolve=", 10);
		xlat_print_flags(d->out, &rc_xlat_open_resolve_flags, how.resolve, "RESOLVE_???");
		strbuf_addc(d->out, '}');
	}
	dec_sep(d);
	dec_ulong(d, 3);
}

void dec_creat(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	umode(d, d->call.args[1]);
}

/*
 * The stat family.
 */
static void stat_struct(struct dec *d, uint64_t addr)
{
	/* x86_64's struct stat is the kernel's. */
	struct stat st;

	if (!dec_umove(d, addr, &st, sizeof(st)))
		return;
	strbuf_add(d->out, "{st_mode=", 9);
	symbolic_mode(d, st.st_mode);
	switch (st.st_mode & S_IFMT) {
	case S_IFCHR:
	case S_IFBLK:
		strbuf_add(d->out, ", st_rdev=", 10);
		dev_t_val(d, st.st_rdev);
		break;
	default:
		strbuf_addf(d->out, ", st_size=%llu", (unsigned long long)st.st_size);
		event_stat_size_facts(d->e, d->call.rval == 0, st.st_size);
		break;
	}
	strbuf_add(d->out, ", ...}", 6);
}

void dec_stat(struct dec *d)
{
	if (!d->exiting) {
		dec_path_arg(d, 0);
		dec_sep(d);
	} else {
		stat_struct(d, d->call.args[1]);
	}
}

void dec_fstat(struct dec *d)
{
	if (!d->exiting) {
		file_fd_arg(d, 0);
		dec_sep(d);
	} else {
		stat_struct(d, d->call.args[1]);
	}
}

void dec_newfstatat(struct dec *d)
{
	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		dec_path_arg(d, 1);
		dec_sep(d);
	} else {
		stat_struct(d, d->call.args[2]);
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[3], "AT_???");
	}
}

void dec_statx(struct dec *d)
{
	struct statx stx;

	if (!d->exiting) {
		unsigned flags = (unsigned)d->call.args[2];
		dirfd_arg(d, 0);
		dec_sep(d);
		dec_path_arg(d, 1);
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_at_statx_sync_types, flags & AT_STATX_SYNC_TYPE, NULL);
		flags &= ~(unsigned)AT_STATX_SYNC_TYPE;
		if (flags) {
			strbuf_addc(d->out, '|');
			xlat_print_flags(d->out, &rc_xlat_at_flags, flags, NULL);
		}
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_statx_masks, (unsigned)d->call.args[3], "STATX_???");
		dec_sep(d);
		return;
	}
	if (!dec_umove(d, d->call.args[4], &stx, sizeof(stx)))
		return;
	strbuf_add(d->out, "{stx_mask=", 10);
	xlat_print_flags(d->out, &rc_xlat_statx_masks, stx.stx_mask, "STATX_???");
	strbuf_add(d->out, ", stx_attributes=", 17);
	xlat_print_flags(d->out, &rc_xlat_statx_attrs, stx.stx_attributes, "STATX_ATTR_???");
	if (stx.stx_mask & (STATX_TYPE | STATX_MODE)) {
		strbuf_add(d->out, ", stx_mode=", 11);
		symbolic_mode(d, stx.stx_mode);
	}
	if (stx.stx_mask & STATX_SIZE) {
		strbuf_addf(d->out, ", stx_size=%llu", (unsigned long long)stx.stx_size);
		event_stat_size_facts(d->e, d->call.rval == 0, (long long)stx.stx_size);
	}
	strbuf_add(d->out, ", ...}", 6);
}

static void statfs_struct(struct dec *d, uint64_t addr)
{
	/* x86_64's struct statfs is the kernel's. */
	struct statfs b;
	unsigned fsid[2];

	if (!dec_umove(d, addr, &b, sizeof(b)))
		return;
	memcpy(fsid, &b.f_fsid, sizeof(fsid));
	strbuf_add(d->out, "{f_type=", 8);
	xlat_print_val(d->out, &rc_xlat_fsmagic, (unsigned long long)b.f_type, NULL);
	strbuf_addf(d->out, ", f_bsize=%llu, f_blocks=%llu, f_bfree=%llu, f_bavail=%llu, f_files=%llu, f_ffree=%llu",
		    (unsigned long long)b.f_bsize, (unsigned long long)b.f_blocks,
		    (unsigned long long)b.f_bfree, (unsigned long long)b.f_bavail,
		    (unsigned long long)b.f_files, (unsigned long long)b.f_ffree);
	strbuf_add(d->out, ", f_fsid={val=[", 15);
	for (int i = 0; i < 2; i++)
		strbuf_addf(d->out, i ? ", %#x" : "%#x", fsid[i]);
	strbuf_addf(d->out, "]}, f_namelen=%llu, f_frsize=%llu", (unsigned long long)b.f_namelen,
		    (unsigned long long)b.f_frsize);
	if (b.f_flags & ST_VALID) {
		strbuf_add(d->out, ", f_flags=", 10);
		xlat_print_flags(d->out, &rc_xlat_statfs_flags, (unsigned long long)b.f_flags, "ST_???");
	}
	strbuf_addc(d->out, '}');
}

void dec_statfs(struct dec *d)
{
	if (!d->exiting) {
		dec_path_arg(d, 0);
		dec_sep(d);
	} else {
		statfs_struct(d, d->call.args[1]);
	}
}

void dec_fstatfs(struct dec *d)
{
	if (!d->exiting) {
		file_fd_arg(d, 0);
		dec_sep(d);
	} else {
		statfs_struct(d, d->call.args[1]);
	}
}

/*
 * Paths with a mode, flags or a second path.
 */
/* access's mode, printed by name ("R_OK|W_OK", "F_OK"); the MODE fact a
 * reader of the text gets is 0 then, and the number only when no name
 * covers any of its bits (printed in hex). */
static void access_mode(struct dec *d, uint64_t v)
{
	xlat_print_flags(d->out, &rc_xlat_access_modes, v, "?_OK");
	if (v & (R_OK | W_OK | X_OK))
		d->e->mode = 0;
	else	/* strtoll's reading of the hex: a huge one saturates */
		d->e->mode = v > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)v;
}

void dec_access(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	access_mode(d, d->call.args[1]);
}

void dec_faccessat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	access_mode(d, d->call.args[2]);
	if (d->call.nr == SYS_faccessat2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_faccessat_flags, d->call.args[3], "AT_???");
	}
}

/* readlink's buffer at exit: the text the call returned, not NUL-ended. */
static void readlink_tail(struct dec *d, int i)
{
	if (d->call.err)
		dec_ptr(d, d->call.args[i]);
	else
		dec_buf(d, d->call.args[i], (size_t)d->call.rval, false);
	dec_sep(d);
	dec_ulong(d, i + 1);
}

void dec_readlink(struct dec *d)
{
	if (!d->exiting) {
		dec_path_arg(d, 0);
		dec_sep(d);
	} else {
		readlink_tail(d, 1);
	}
}

void dec_readlinkat(struct dec *d)
{
	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		dec_path_arg(d, 1);
		dec_sep(d);
	} else {
		readlink_tail(d, 2);
	}
}

/* f(path): chdir, rmdir, unlink, chroot, acct, swapoff, uselib. */
void dec_path1(struct dec *d)
{
	if (!d->exiting)
		dec_path_arg(d, 0);
}

/* f(path, mode): mkdir, chmod. */
void dec_path_mode(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	umode(d, d->call.args[1]);
}

/* f(dirfd, path, mode): mkdirat, fchmodat. */
void dec_at_path_mode(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	umode(d, d->call.args[2]);
}

/* fchmodat2(dirfd, path, mode, flags): fchmodat with the flags it
 * lacked (Linux 6.6). */
void dec_fchmodat2(struct dec *d)
{
	if (d->exiting)
		return;
	dec_at_path_mode(d);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[3], "AT_???");
}

void dec_unlinkat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[2], "AT_???");
}

/* rename(old, new), link(old, new). */
void dec_path2(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
}

/* renameat(olddirfd, old, newdirfd, new[, flags]), linkat(..., flags). */
void dec_at_path2(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	other_dirfd(d, 2);
	dec_sep(d);
	dec_path_arg(d, 3);
	if (d->call.nr == SYS_renameat2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_rename_flags, d->call.args[4], "RENAME_??");
	} else if (d->call.nr == SYS_linkat) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[4], "AT_???");
	}
}

/* The link is what gets created (and fails): it is the path, the target
 * path2, as their roles say. */
void dec_symlink(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
}

void dec_symlinkat(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	dirfd_arg(d, 1);
	dec_sep(d);
	dec_path_arg(d, 2);
}

/* f(fd): close, fchdir, fsync, fdatasync, syncfs, dup. */
void dec_fd1(struct dec *d)
{
	if (!d->exiting)
		file_fd_arg(d, 0);
}

void dec_getcwd(struct dec *d)
{
	if (!d->exiting)
		return;
	if (d->call.err)
		dec_ptr(d, d->call.args[0]);
	else
		dec_path(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
}

void dec_fchmod(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	umode(d, d->call.args[1]);
}

/* chown/lchown(path, uid, gid). */
void dec_chown(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	uid_arg(d, d->call.args[1]);
	dec_sep(d);
	uid_arg(d, d->call.args[2]);
}

void dec_fchown(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	uid_arg(d, d->call.args[1]);
	dec_sep(d);
	uid_arg(d, d->call.args[2]);
}

void dec_fchownat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	uid_arg(d, d->call.args[2]);
	dec_sep(d);
	uid_arg(d, d->call.args[3]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[4], "AT_???");
}

void dec_truncate(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	dec_ulong(d, 1);
}

void dec_ftruncate(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	dec_ulong(d, 1);
}

/* getdents(64) at exit, abbreviated as strace prints it by default: the
 * buffer's address and how many entries the kernel put there. */
void dec_getdents(struct dec *d)
{
	/* The kernel's struct linux_dirent (getdents); getdents64's is
	 * glibc's struct dirent64. Both keep d_reclen at the same place. */
	struct k_dirent {
		unsigned long d_ino, d_off;
		unsigned short d_reclen;
		char d_name[];
	};
	const size_t reclen_off = offsetof(struct k_dirent, d_reclen);
	const size_t header = d->call.nr == SYS_getdents64 ? offsetof(struct dirent64, d_name)
						      : offsetof(struct k_dirent, d_name);
	uint64_t addr = d->call.args[1];
	unsigned count = (unsigned)d->call.args[2];

	if (!d->exiting) {
		file_fd_arg(d, 0);
		dec_sep(d);
		return;
	}
	if (d->call.err || (unsigned long long)d->call.rval > count) {
		dec_ptr(d, addr);
	} else {
		size_t len = (size_t)d->call.rval;
		unsigned n = 0;
		dec_ptr(d, addr);
		while (len >= header) {
			unsigned short reclen;
			if (mem_read(d->call.mem, addr + reclen_off, &reclen, sizeof(reclen)) != (ssize_t)sizeof(reclen))
				break;
			n++;
			if (reclen > len) {
				strbuf_addf(d->out, " /* d_reclen %zu bytes overflow */", reclen - len);
				reclen = (unsigned short)len;
			} else if (reclen < header) {
				/* strace stops walking here. */
				strbuf_addf(d->out, " /* d_reclen %zu bytes underflow */", header - reclen);
				len -= header;
				break;
			}
			len -= reclen;
			addr += reclen;
		}
		strbuf_addf(d->out, " /* %u%s entries */", n, len ? "+" : "");
	}
	dec_sep(d);
	strbuf_addf(d->out, "%u", count);
}

void dec_close_range(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%u, %u, ", (unsigned)d->call.args[0], (unsigned)d->call.args[1]);
	xlat_print_flags(d->out, &rc_xlat_close_range_flags, d->call.args[2], "CLOSE_RANGE_???");
}

/* dup2/dup3: the target is fd2 (its FD2 role). */
void dec_dup2(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	dec_fd(d, (int)d->call.args[1]);
	if (d->call.nr == SYS_dup3) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_open_mode_flags, d->call.args[2], "O_???");
	}
}

void dec_lseek(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, ", (long long)d->call.args[1]);
	xlat_print_val(d->out, &rc_xlat_file_whence_codes, d->call.args[2], "SEEK_???");
}

/*
 * Times.
 */
struct k_timespec {
	int64_t sec;
	int64_t nsec;
};

static void utime_pair(struct dec *d, uint64_t addr)
{
	struct k_timespec t[2];

	if (!dec_umove(d, addr, t, sizeof(t)))
		return;
	strbuf_addc(d->out, '[');
	for (int i = 0; i < 2; i++) {
		if (i)
			dec_sep(d);
		if (t[i].nsec == UTIME_NOW) {
			strbuf_adds(d->out, "UTIME_NOW");
		} else if (t[i].nsec == UTIME_OMIT) {
			strbuf_adds(d->out, "UTIME_OMIT");
		} else {
			strbuf_addf(d->out, "{tv_sec=%lld, tv_nsec=%llu}", (long long)t[i].sec,
				    (unsigned long long)t[i].nsec);
			time_comment(d, t[i].sec, (unsigned long long)t[i].nsec, 999999999, 9);
		}
	}
	strbuf_addc(d->out, ']');
}

static void timeval_pair(struct dec *d, uint64_t addr)
{
	struct k_timespec t[2];

	if (!dec_umove(d, addr, t, sizeof(t)))
		return;
	strbuf_addc(d->out, '[');
	for (int i = 0; i < 2; i++) {
		if (i)
			dec_sep(d);
		strbuf_addf(d->out, "{tv_sec=%lld, tv_usec=%llu}", (long long)t[i].sec,
			    (unsigned long long)t[i].nsec);
		time_comment(d, t[i].sec, (unsigned long long)t[i].nsec, 999999, 6);
	}
	strbuf_addc(d->out, ']');
}

void dec_utimensat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	utime_pair(d, d->call.args[2]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_at_flags, d->call.args[3], "AT_???");
}

void dec_utime(struct dec *d)
{
	int64_t u[2];

	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	if (!dec_umove(d, d->call.args[1], u, sizeof(u)))
		return;
	strbuf_addf(d->out, "{actime=%lld", (long long)u[0]);
	time_comment(d, u[0], 0, 0, 0);
	strbuf_addf(d->out, ", modtime=%lld", (long long)u[1]);
	time_comment(d, u[1], 0, 0, 0);
	strbuf_addc(d->out, '}');
}

void dec_utimes(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	timeval_pair(d, d->call.args[1]);
}

void dec_futimesat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	timeval_pair(d, d->call.args[2]);
}

/*
 * inotify, mknod, umask and the rest.
 */
void dec_inotify_add_watch(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_inotify_flags, (unsigned)d->call.args[2], "IN_???");
}

void dec_inotify_rm_watch(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	strbuf_addf(d->out, ", %d", (int)d->call.args[1]);
}

void dec_inotify_init1(struct dec *d)
{
	if (!d->exiting)
		xlat_print_flags(d->out, &rc_xlat_inotify_init_flags, d->call.args[0], "IN_???");
}

static void mknod_tail(struct dec *d, int i)
{
	unsigned mode = (unsigned short)d->call.args[i + 1];

	dec_path_arg(d, i);
	dec_sep(d);
	d->e->mode = symbolic_mode(d, mode);
	if ((mode & S_IFMT) == S_IFCHR || (mode & S_IFMT) == S_IFBLK) {
		dec_sep(d);
		dev_t_val(d, (unsigned)d->call.args[i + 2]);
	}
}

void dec_mknod(struct dec *d)
{
	if (!d->exiting)
		mknod_tail(d, 0);
}

void dec_mknodat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	mknod_tail(d, 1);
}

void dec_umask(struct dec *d)
{
	if (!d->exiting)
		umode(d, d->call.args[0]);
}

void dec_fallocate(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_falloc_flags, d->call.args[1], "FALLOC_FL_???");
	strbuf_addf(d->out, ", %lld, %lld", (long long)d->call.args[2], (long long)d->call.args[3]);
}

void dec_fadvise64(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %llu, ", (long long)d->call.args[1], (unsigned long long)d->call.args[2]);
	xlat_print_val(d->out, &rc_xlat_advise, d->call.args[3], "POSIX_FADV_???");
}

void dec_memfd_create(struct dec *d)
{
	unsigned flags = (unsigned)d->call.args[1];
	/* MFD_HUGE_MASK << MFD_HUGE_SHIFT (linux/memfd.h): a page size. */
	const unsigned huge_mask = 0x3fu << 26;
	unsigned huge = flags & huge_mask;

	if (d->exiting)
		return;
	dec_str(d, d->call.args[0]);
	dec_sep(d);
	if (!flags) {
		strbuf_addc(d->out, '0');
		return;
	}
	flags &= ~huge_mask;
	if (flags || !huge)
		xlat_print_flags(d->out, &rc_xlat_memfd_create_flags, flags, "MFD_???");
	if (huge)
		strbuf_addf(d->out, "%s%u<<MFD_HUGE_SHIFT", flags ? "|" : "", huge >> 26);
}

/* name_to_handle_at(dirfd, path, {handle_bytes=N => M, handle_type=T,
 * f_handle="\x.."}, [mount_id], flags): the struct opens at entry and is
 * finished at exit. priv[0] is 1 when it was opened, priv[1] the size the
 * caller offered. */
void dec_name_to_handle_at(struct dec *d)
{
	struct {
		unsigned handle_bytes;
		int handle_type;
	} h;
	uint64_t addr = d->call.args[2];

	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		dec_path_arg(d, 1);
		dec_sep(d);
		d->priv[0] = 0;
		if (!dec_umove(d, addr, &h, sizeof(h))) {
			dec_sep(d);
			dec_ptr(d, d->call.args[3]);
			dec_sep(d);
			xlat_print_flags(d->out, &rc_xlat_name_to_handle_at_flags, d->call.args[4], "AT_???");
			return;
		}
		strbuf_addf(d->out, "{handle_bytes=%u", h.handle_bytes);
		d->priv[0] = 1;
		d->priv[1] = h.handle_bytes;
		return;
	}
	if (!d->priv[0])
		return;
	if ((!d->call.err || d->call.err == EOVERFLOW) && mem_read(d->call.mem, addr, &h, sizeof(h)) == (ssize_t)sizeof(h)) {
		if (h.handle_bytes != d->priv[1])
			strbuf_addf(d->out, " => %u", h.handle_bytes);
		if (!d->call.err) {
			unsigned char fh[128];
			unsigned len = MIN(h.handle_bytes, (unsigned)sizeof(fh));
			strbuf_addf(d->out, ", handle_type=%d, f_handle=", h.handle_type);
			if (mem_read(d->call.mem, addr + sizeof(h), fh, len) == (ssize_t)len) {
				strbuf_addc(d->out, '"');
				for (unsigned i = 0; i < len; i++)
					strbuf_addf(d->out, "\\x%02x", fh[i]);
				strbuf_addc(d->out, '"');
				if (h.handle_bytes > len)
					strbuf_add(d->out, "...", 3);
			} else {
				strbuf_add(d->out, "???", 3);
			}
		}
	}
	strbuf_add(d->out, "}, ", 3);
	file_int_at(d, d->call.args[3]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_name_to_handle_at_flags, d->call.args[4], "AT_???");
}

void dec_open_by_handle_at(struct dec *d)
{
	struct {
		unsigned handle_bytes;
		int handle_type;
	} h;
	uint64_t addr = d->call.args[1];

	if (d->exiting)
		return;
	/* The table gives it no roles: the mount fd is not the event's fd. */
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	if (dec_umove(d, addr, &h, sizeof(h))) {
		unsigned char fh[128];
		unsigned len = MIN(h.handle_bytes, (unsigned)sizeof(fh));
		strbuf_addf(d->out, "{handle_bytes=%u, handle_type=%d, f_handle=", h.handle_bytes,
			    h.handle_type);
		if (mem_read(d->call.mem, addr + sizeof(h), fh, len) == (ssize_t)len) {
			strbuf_addc(d->out, '"');
			for (unsigned i = 0; i < len; i++)
				strbuf_addf(d->out, "\\x%02x", fh[i]);
			strbuf_addc(d->out, '"');
			if (h.handle_bytes > len)
				strbuf_add(d->out, "...", 3);
		} else {
			strbuf_add(d->out, "???", 3);
		}
		strbuf_addc(d->out, '}');
	}
	dec_sep(d);
	dec_open_flags(d, (unsigned)d->call.args[2]);
}

/* sync_file_range(fd, offset, nbytes, flags) and readahead(fd, offset,
 * count): their fd is their only role. */
void dec_sync_file_range(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %lld, ", (long long)d->call.args[1], (long long)d->call.args[2]);
	xlat_print_flags(d->out, &rc_xlat_sync_file_range_flags, d->call.args[3], "SYNC_FILE_RANGE_???");
}

void dec_readahead(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %llu", (long long)d->call.args[1], (unsigned long long)d->call.args[2]);
}
