/* The file family: paths, the stat family, directories, links, modes and
 * owners, and the fd housekeeping calls (close, dup, fcntl, ioctl, lseek),
 * as strace 6.1 prints them, with the facts strace/facts.c reads back from
 * that text: the raw path (the engine resolves it against dirfd or the
 * cwd), dirfd, fd, fd2, flags, mode, len, offset and st_size.
 *
 * Calls that write a result (stat buffers, readlink's and getcwd's text,
 * F_GETLK's lock, TCGETS's termios) print their first arguments at entry
 * and the rest at exit, as strace does. The constant tables are in
 * strace's order, which is the order flags print in; their values come
 * from the headers. Only x86_64's native layouts are decoded.
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
#include <sys/fanotify.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <termios.h>
#include <time.h>

#include "gen/tables.h"
#include "util/util.h"

/* The kernel's flag for statfs results that carry f_flags
 * (include/linux/statfs.h); no userspace header exports it. */
#ifndef ST_VALID
#define ST_VALID 0x0020
#endif

/* The kernel's __O_TMPFILE: glibc's O_TMPFILE includes O_DIRECTORY, and an
 * open of a directory alone prints no mode. */
#define O_TMPFILE_BIT (O_TMPFILE & ~O_DIRECTORY)

/*
 * Tables, in strace's order.
 */
static const struct dec_xl at_flags[] = {
	DEC_XL(AT_SYMLINK_NOFOLLOW), DEC_XL(AT_REMOVEDIR), DEC_XL(AT_SYMLINK_FOLLOW),
	DEC_XL(AT_NO_AUTOMOUNT), DEC_XL(AT_EMPTY_PATH), DEC_XL(AT_RECURSIVE),
};

static const struct dec_xl faccessat_flags[] = {
	DEC_XL(AT_SYMLINK_NOFOLLOW), DEC_XL(AT_EACCESS), DEC_XL(AT_EMPTY_PATH),
};

static const struct dec_xl name_to_handle_at_flags[] = {
	DEC_XL(AT_SYMLINK_FOLLOW), DEC_XL(AT_EMPTY_PATH),
};

static const struct dec_xl access_modes[] = {
	DEC_XL(F_OK), DEC_XL(R_OK), DEC_XL(W_OK), DEC_XL(X_OK),
};

static const struct dec_xl at_statx_sync_types[] = {
	DEC_XL(AT_STATX_SYNC_AS_STAT), DEC_XL(AT_STATX_FORCE_SYNC), DEC_XL(AT_STATX_DONT_SYNC),
};

static const struct dec_xl statx_masks[] = {
	DEC_XL(STATX_ALL), DEC_XL(STATX_BASIC_STATS), DEC_XL(STATX_TYPE), DEC_XL(STATX_MODE),
	DEC_XL(STATX_NLINK), DEC_XL(STATX_UID), DEC_XL(STATX_GID), DEC_XL(STATX_ATIME),
	DEC_XL(STATX_MTIME), DEC_XL(STATX_CTIME), DEC_XL(STATX_INO), DEC_XL(STATX_SIZE),
	DEC_XL(STATX_BLOCKS), DEC_XL(STATX_BTIME),
#ifdef STATX_MNT_ID
	DEC_XL(STATX_MNT_ID),
#endif
#ifdef STATX_DIOALIGN
	DEC_XL(STATX_DIOALIGN),
#endif
};

static const struct dec_xl statx_attrs[] = {
	DEC_XL(STATX_ATTR_COMPRESSED), DEC_XL(STATX_ATTR_IMMUTABLE), DEC_XL(STATX_ATTR_APPEND),
	DEC_XL(STATX_ATTR_NODUMP), DEC_XL(STATX_ATTR_ENCRYPTED), DEC_XL(STATX_ATTR_AUTOMOUNT),
#ifdef STATX_ATTR_MOUNT_ROOT
	DEC_XL(STATX_ATTR_MOUNT_ROOT),
#endif
#ifdef STATX_ATTR_VERITY
	DEC_XL(STATX_ATTR_VERITY),
#endif
#ifdef STATX_ATTR_DAX
	DEC_XL(STATX_ATTR_DAX),
#endif
};

static const struct dec_xl modetypes[] = {
	DEC_XL(S_IFREG), DEC_XL(S_IFSOCK), DEC_XL(S_IFIFO), DEC_XL(S_IFLNK),
	DEC_XL(S_IFDIR), DEC_XL(S_IFBLK), DEC_XL(S_IFCHR),
};

static const struct dec_xl rename_flags[] = {
	DEC_XL(RENAME_NOREPLACE), DEC_XL(RENAME_EXCHANGE), DEC_XL(RENAME_WHITEOUT),
};

static const struct dec_xl close_range_flags[] = {
	DEC_XL(CLOSE_RANGE_UNSHARE), DEC_XL(CLOSE_RANGE_CLOEXEC),
};

/* strace's open_mode_flags: open flags without the access mode (dup3). */
static const struct dec_xl open_mode_flags[] = {
	DEC_XL(O_CREAT), DEC_XL(O_EXCL), DEC_XL(O_NOCTTY), DEC_XL(O_TRUNC), DEC_XL(O_APPEND),
	DEC_XL(O_NONBLOCK), DEC_XL(O_SYNC), DEC_XL(O_DSYNC), DEC_XL(O_DIRECT),
	DEC_XL(O_NOFOLLOW), DEC_XL(O_NOATIME), DEC_XL(O_CLOEXEC), DEC_XL(O_PATH),
	DEC_XL(O_TMPFILE), DEC_XL(O_DIRECTORY), DEC_XL(FASYNC),
};

static const struct dec_xl open_resolve_flags[] = {
	DEC_XL(RESOLVE_NO_XDEV), DEC_XL(RESOLVE_NO_MAGICLINKS), DEC_XL(RESOLVE_NO_SYMLINKS),
	DEC_XL(RESOLVE_BENEATH), DEC_XL(RESOLVE_IN_ROOT),
#ifdef RESOLVE_CACHED
	DEC_XL(RESOLVE_CACHED),
#endif
};

static const struct dec_xl fcntlcmds[] = {
	DEC_XL(F_DUPFD), DEC_XL(F_GETFD), DEC_XL(F_SETFD), DEC_XL(F_GETFL), DEC_XL(F_SETFL),
	DEC_XL(F_GETLK), DEC_XL(F_SETLK), DEC_XL(F_SETLKW), DEC_XL(F_SETOWN), DEC_XL(F_GETOWN),
	DEC_XL(F_SETSIG), DEC_XL(F_GETSIG), DEC_XL(F_GETLK64), DEC_XL(F_SETLK64),
	DEC_XL(F_SETLKW64), DEC_XL(F_SETOWN_EX), DEC_XL(F_GETOWN_EX),
#ifdef F_GETOWNER_UIDS
	DEC_XL(F_GETOWNER_UIDS),
#endif
	DEC_XL(F_OFD_GETLK), DEC_XL(F_OFD_SETLK), DEC_XL(F_OFD_SETLKW), DEC_XL(F_SETLEASE),
	DEC_XL(F_GETLEASE), DEC_XL(F_NOTIFY),
#ifdef F_CANCELLK
	DEC_XL(F_CANCELLK),
#endif
	DEC_XL(F_DUPFD_CLOEXEC), DEC_XL(F_SETPIPE_SZ), DEC_XL(F_GETPIPE_SZ),
	DEC_XL(F_ADD_SEALS), DEC_XL(F_GET_SEALS),
};

static const struct dec_xl fdflags[] = {
	DEC_XL(FD_CLOEXEC),
};

static const struct dec_xl lockfcmds[] = {
	DEC_XL(F_RDLCK), DEC_XL(F_WRLCK), DEC_XL(F_UNLCK), DEC_XL(F_EXLCK), DEC_XL(F_SHLCK),
};

static const struct dec_xl f_seals[] = {
	DEC_XL(F_SEAL_SEAL), DEC_XL(F_SEAL_SHRINK), DEC_XL(F_SEAL_GROW), DEC_XL(F_SEAL_WRITE),
#ifdef F_SEAL_FUTURE_WRITE
	DEC_XL(F_SEAL_FUTURE_WRITE),
#endif
};

static const struct dec_xl notifyflags[] = {
	DEC_XL(DN_ACCESS), DEC_XL(DN_MODIFY), DEC_XL(DN_CREATE), DEC_XL(DN_DELETE),
	DEC_XL(DN_RENAME), DEC_XL(DN_ATTRIB), { (unsigned)DN_MULTISHOT, "DN_MULTISHOT" },
};

static const struct dec_xl f_owner_types[] = {
	DEC_XL(F_OWNER_TID), DEC_XL(F_OWNER_PID), DEC_XL(F_OWNER_PGRP),
};

static const struct dec_xl whence_codes[] = {
	DEC_XL(SEEK_SET), DEC_XL(SEEK_CUR), DEC_XL(SEEK_END), DEC_XL(SEEK_DATA), DEC_XL(SEEK_HOLE),
};

static const struct dec_xl flockcmds[] = {
	DEC_XL(LOCK_SH), DEC_XL(LOCK_EX), DEC_XL(LOCK_NB), DEC_XL(LOCK_UN),
	DEC_XL(LOCK_MAND), DEC_XL(LOCK_RW), DEC_XL(LOCK_READ), DEC_XL(LOCK_WRITE),
};

static const struct dec_xl falloc_flags[] = {
	DEC_XL(FALLOC_FL_KEEP_SIZE), DEC_XL(FALLOC_FL_PUNCH_HOLE), DEC_XL(FALLOC_FL_NO_HIDE_STALE),
	DEC_XL(FALLOC_FL_COLLAPSE_RANGE), DEC_XL(FALLOC_FL_ZERO_RANGE),
	DEC_XL(FALLOC_FL_INSERT_RANGE), DEC_XL(FALLOC_FL_UNSHARE_RANGE),
};

static const struct dec_xl advise[] = {
	DEC_XL(POSIX_FADV_NORMAL), DEC_XL(POSIX_FADV_RANDOM), DEC_XL(POSIX_FADV_SEQUENTIAL),
	DEC_XL(POSIX_FADV_WILLNEED), DEC_XL(POSIX_FADV_DONTNEED), DEC_XL(POSIX_FADV_NOREUSE),
};

static const struct dec_xl memfd_create_flags[] = {
	DEC_XL(MFD_CLOEXEC), DEC_XL(MFD_ALLOW_SEALING), DEC_XL(MFD_HUGETLB),
};

static const struct dec_xl inotify_flags[] = {
	DEC_XL(IN_ACCESS), DEC_XL(IN_MODIFY), DEC_XL(IN_ATTRIB), DEC_XL(IN_CLOSE_WRITE),
	DEC_XL(IN_CLOSE_NOWRITE), DEC_XL(IN_OPEN), DEC_XL(IN_MOVED_FROM), DEC_XL(IN_MOVED_TO),
	DEC_XL(IN_CREATE), DEC_XL(IN_DELETE), DEC_XL(IN_DELETE_SELF), DEC_XL(IN_MOVE_SELF),
	DEC_XL(IN_UNMOUNT), DEC_XL(IN_Q_OVERFLOW), DEC_XL(IN_IGNORED), DEC_XL(IN_ONLYDIR),
	DEC_XL(IN_DONT_FOLLOW), DEC_XL(IN_EXCL_UNLINK),
#ifdef IN_MASK_CREATE
	DEC_XL(IN_MASK_CREATE),
#endif
	DEC_XL(IN_MASK_ADD), DEC_XL(IN_ISDIR), DEC_XL(IN_ONESHOT),
};

static const struct dec_xl inotify_init_flags[] = {
	DEC_XL(IN_NONBLOCK), DEC_XL(IN_CLOEXEC),
};

static const struct dec_xl xattrflags[] = {
	DEC_XL(XATTR_CREATE), DEC_XL(XATTR_REPLACE),
};

/* MS_NOUSER is 1 << 31 in an int: keep it from sign-extending. */
static const struct dec_xl mount_flags[] = {
	DEC_XL(MS_RDONLY), DEC_XL(MS_NOSUID), DEC_XL(MS_NODEV), DEC_XL(MS_NOEXEC),
	DEC_XL(MS_SYNCHRONOUS), DEC_XL(MS_REMOUNT), DEC_XL(MS_MANDLOCK), DEC_XL(MS_DIRSYNC),
#ifdef MS_NOSYMFOLLOW
	DEC_XL(MS_NOSYMFOLLOW),
#endif
	DEC_XL(MS_NOATIME), DEC_XL(MS_NODIRATIME), DEC_XL(MS_BIND), DEC_XL(MS_MOVE),
	DEC_XL(MS_REC), DEC_XL(MS_SILENT), DEC_XL(MS_POSIXACL), DEC_XL(MS_UNBINDABLE),
	DEC_XL(MS_PRIVATE), DEC_XL(MS_SLAVE), DEC_XL(MS_SHARED), DEC_XL(MS_RELATIME),
	DEC_XL(MS_KERNMOUNT), DEC_XL(MS_I_VERSION), DEC_XL(MS_STRICTATIME), DEC_XL(MS_LAZYTIME),
	DEC_XL(MS_SUBMOUNT), DEC_XL(MS_NOREMOTELOCK), DEC_XL(MS_NOSEC), DEC_XL(MS_BORN),
	DEC_XL(MS_ACTIVE), { (unsigned)MS_NOUSER, "MS_NOUSER" },
};

static const struct dec_xl umount_flags[] = {
	DEC_XL(MNT_FORCE), DEC_XL(MNT_DETACH), DEC_XL(MNT_EXPIRE), DEC_XL(UMOUNT_NOFOLLOW),
};

static const struct dec_xl swap_flags[] = {
	DEC_XL(SWAP_FLAG_PREFER), DEC_XL(SWAP_FLAG_DISCARD),
#ifdef SWAP_FLAG_DISCARD_ONCE
	DEC_XL(SWAP_FLAG_DISCARD_ONCE),
#endif
#ifdef SWAP_FLAG_DISCARD_PAGES
	DEC_XL(SWAP_FLAG_DISCARD_PAGES),
#endif
};

/* strace's fsmagic, as far as linux/magic.h names them (ascending). */
static const struct dec_xl fsmagic[] = {
	DEC_XL(AUTOFS_SUPER_MAGIC), DEC_XL(DEVPTS_SUPER_MAGIC), DEC_XL(MSDOS_SUPER_MAGIC),
	DEC_XL(NFS_SUPER_MAGIC), DEC_XL(ISOFS_SUPER_MAGIC), DEC_XL(PROC_SUPER_MAGIC),
	DEC_XL(EXT2_SUPER_MAGIC), DEC_XL(ECRYPTFS_SUPER_MAGIC), DEC_XL(CGROUP_SUPER_MAGIC),
	DEC_XL(TMPFS_MAGIC), DEC_XL(ANON_INODE_FS_MAGIC), DEC_XL(CRAMFS_MAGIC),
	DEC_XL(BINFMTFS_MAGIC), DEC_XL(PIPEFS_MAGIC), DEC_XL(SOCKFS_MAGIC), DEC_XL(XFS_SUPER_MAGIC),
	DEC_XL(PSTOREFS_MAGIC), DEC_XL(SYSFS_MAGIC), DEC_XL(CGROUP2_SUPER_MAGIC),
	DEC_XL(DEBUGFS_MAGIC), DEC_XL(NSFS_MAGIC), DEC_XL(SECURITYFS_MAGIC), DEC_XL(SQUASHFS_MAGIC),
	DEC_XL(TRACEFS_MAGIC), DEC_XL(OVERLAYFS_SUPER_MAGIC), DEC_XL(RAMFS_MAGIC),
	DEC_XL(BTRFS_SUPER_MAGIC), DEC_XL(HUGETLBFS_MAGIC), DEC_XL(BPF_FS_MAGIC),
	DEC_XL(EFIVARFS_MAGIC), DEC_XL(F2FS_SUPER_MAGIC), DEC_XL(SELINUX_MAGIC),
};

static const struct dec_xl statfs_flags[] = {
	DEC_XL(ST_VALID), DEC_XL(ST_RDONLY), DEC_XL(ST_NOSUID), DEC_XL(ST_NODEV),
	DEC_XL(ST_NOEXEC), DEC_XL(ST_SYNCHRONOUS), DEC_XL(ST_MANDLOCK), DEC_XL(ST_NOATIME),
	DEC_XL(ST_NODIRATIME), DEC_XL(ST_RELATIME),
#ifdef ST_NOSYMFOLLOW
	DEC_XL(ST_NOSYMFOLLOW),
#endif
};

static const struct dec_xl fan_classes[] = {
	DEC_XL(FAN_CLASS_NOTIF), DEC_XL(FAN_CLASS_CONTENT), DEC_XL(FAN_CLASS_PRE_CONTENT),
};

static const struct dec_xl fan_init_flags[] = {
	DEC_XL(FAN_CLOEXEC), DEC_XL(FAN_NONBLOCK), DEC_XL(FAN_UNLIMITED_QUEUE),
	DEC_XL(FAN_UNLIMITED_MARKS), DEC_XL(FAN_ENABLE_AUDIT),
#ifdef FAN_REPORT_PIDFD
	DEC_XL(FAN_REPORT_PIDFD),
#endif
	DEC_XL(FAN_REPORT_TID), DEC_XL(FAN_REPORT_FID),
#ifdef FAN_REPORT_DIR_FID
	DEC_XL(FAN_REPORT_DIR_FID), DEC_XL(FAN_REPORT_NAME),
#endif
#ifdef FAN_REPORT_TARGET_FID
	DEC_XL(FAN_REPORT_TARGET_FID),
#endif
};

static const struct dec_xl fan_mark_flags[] = {
	DEC_XL(FAN_MARK_ADD), DEC_XL(FAN_MARK_REMOVE), DEC_XL(FAN_MARK_DONT_FOLLOW),
	DEC_XL(FAN_MARK_ONLYDIR), DEC_XL(FAN_MARK_MOUNT), DEC_XL(FAN_MARK_IGNORED_MASK),
	DEC_XL(FAN_MARK_IGNORED_SURV_MODIFY), DEC_XL(FAN_MARK_FLUSH),
#ifdef FAN_MARK_FILESYSTEM
	DEC_XL(FAN_MARK_FILESYSTEM),
#endif
#ifdef FAN_MARK_EVICTABLE
	DEC_XL(FAN_MARK_EVICTABLE),
#endif
#ifdef FAN_MARK_IGNORE
	DEC_XL(FAN_MARK_IGNORE),
#endif
};

static const struct dec_xl fan_event_flags[] = {
	DEC_XL(FAN_ACCESS), DEC_XL(FAN_MODIFY), DEC_XL(FAN_ATTRIB), DEC_XL(FAN_CLOSE_WRITE),
	DEC_XL(FAN_CLOSE_NOWRITE), DEC_XL(FAN_OPEN),
#ifdef FAN_MOVED_FROM
	DEC_XL(FAN_MOVED_FROM), DEC_XL(FAN_MOVED_TO), DEC_XL(FAN_CREATE), DEC_XL(FAN_DELETE),
	DEC_XL(FAN_DELETE_SELF), DEC_XL(FAN_MOVE_SELF),
#endif
#ifdef FAN_OPEN_EXEC
	DEC_XL(FAN_OPEN_EXEC),
#endif
	DEC_XL(FAN_Q_OVERFLOW),
#ifdef FAN_FS_ERROR
	DEC_XL(FAN_FS_ERROR),
#endif
	DEC_XL(FAN_OPEN_PERM), DEC_XL(FAN_ACCESS_PERM),
#ifdef FAN_OPEN_EXEC_PERM
	DEC_XL(FAN_OPEN_EXEC_PERM),
#endif
#ifdef FAN_DIR_MODIFY
	DEC_XL(FAN_DIR_MODIFY),
#endif
	DEC_XL(FAN_ONDIR), DEC_XL(FAN_EVENT_ON_CHILD),
#ifdef FAN_RENAME
	DEC_XL(FAN_RENAME),
#endif
};

#define XL_FLAGS(d, tab, v, dflt) dec_xl_flags(d, tab, DEC_XL_N(tab), v, dflt)
#define XL_VAL(d, tab, v, dflt) dec_xl_val(d, tab, DEC_XL_N(tab), v, dflt)

/*
 * Small printers.
 */
static const char *arg_str(struct dec *d, int i)
{
	return dec_path(d, d->args[i]);
}

/* What the parser reads back from the text printed since START when it
 * takes a number there (facts.c's num_or(..., 0)): a mode printed as
 * "R_OK|W_OK" or "S_IFIFO|0644" is 0 to it. */
static long long printed_num(const struct dec *d, size_t start)
{
	const char *s = d->out->buf ? d->out->buf + start : "";

	if (*s < '0' || *s > '9')
		return 0;
	return strtoll(s, NULL, 0);
}

/* strace's print_numeric_umode_t: the mode as an unsigned short. */
static unsigned umode(struct dec *d, uint64_t v)
{
	unsigned m = (unsigned short)v;

	strbuf_addf(d->out, "%#03o", m);
	return m;
}

/* strace's print_symbolic_mode_t: "S_IFREG|0644", "S_ISUID|0755", "0600". */
static void symbolic_mode(struct dec *d, unsigned mode)
{
	const char *ifmt = "";

	if (mode & S_IFMT)
		ifmt = dec_xl_name(modetypes, DEC_XL_N(modetypes), mode & S_IFMT);
	if (!ifmt) {
		strbuf_addf(d->out, "%#03o", mode);
		return;
	}
	strbuf_addf(d->out, "%s%s%s%s%s%#03o", ifmt, ifmt[0] ? "|" : "",
		    (mode & S_ISUID) ? "S_ISUID|" : "", (mode & S_ISGID) ? "S_ISGID|" : "",
		    (mode & S_ISVTX) ? "S_ISVTX|" : "",
		    mode & ~(unsigned)(S_IFMT | S_ISUID | S_ISGID | S_ISVTX));
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

static void int_at(struct dec *d, uint64_t addr)
{
	int v;

	if (dec_umove(d, addr, &v, sizeof(v)))
		strbuf_addf(d->out, "[%d]", v);
}

/* The fd argument I as the event's fd. */
static void fd_arg(struct dec *d, int i)
{
	d->e->fd = (int)d->args[i];
	dec_fd(d, d->e->fd);
}

/* The dirfd argument I as the event's dirfd. */
static void dirfd_arg(struct dec *d, int i)
{
	d->e->dirfd = (int)d->args[i];
	dec_dirfd(d, d->e->dirfd);
}

/* A dirfd that is not the event's (the second one of renameat). */
static void other_dirfd(struct dec *d, int i)
{
	int fd = (int)d->args[i];
	const char *hint = d->e->dir_hint;

	dec_dirfd(d, fd);
	d->e->dir_hint = hint;
}

/* Open flags V, printed, and as the event's flags what a log reader gets
 * from the same text. */
static void open_flags(struct dec *d, uint64_t v)
{
	d->e->flags = (long long)dec_open_flags(d, v);
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
	d->e->path = arg_str(d, i);
	dec_sep(d);
	open_flags(d, d->args[i + 1]);
	if (d->args[i + 1] & (O_CREAT | O_TMPFILE_BIT)) {
		dec_sep(d);
		d->e->mode = umode(d, d->args[i + 2]);
	}
}

static void dec_open(struct dec *d)
{
	if (!d->exiting)
		open_tail(d, 0);
}

static void dec_openat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	open_tail(d, 1);
}

static void dec_openat2(struct dec *d)
{
	struct open_how how;
	uint64_t addr = d->args[2], size = d->args[3];

	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	/* OPEN_HOW_SIZE_VER0: smaller is EINVAL and printed as an address. */
	memset(&how, 0, sizeof(how));
	if (size < 24)
		dec_ptr(d, addr);
	else if (dec_umove(d, addr, &how, MIN(size, sizeof(how)))) {
		strbuf_add(d->out, "{flags=", 7);
		open_flags(d, how.flags);
		if ((how.flags & (O_CREAT | O_TMPFILE_BIT)) || how.mode) {
			strbuf_addf(d->out, ", mode=%#03llo", (unsigned long long)how.mode);
			d->e->mode = (long long)how.mode;
		}
		strbuf_add(d->out, ", resolve=", 10);
		XL_FLAGS(d, open_resolve_flags, how.resolve, "RESOLVE_???");
		strbuf_addc(d->out, '}');
	}
	dec_sep(d);
	dec_ulong(d, 3);
}

static void dec_creat(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	d->e->mode = umode(d, d->args[1]);
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
		if (d->rval == 0)
			d->e->st_size = st.st_size;
		break;
	}
	strbuf_add(d->out, ", ...}", 6);
}

static void dec_stat(struct dec *d)
{
	if (!d->exiting) {
		d->e->path = arg_str(d, 0);
		dec_sep(d);
	} else {
		stat_struct(d, d->args[1]);
	}
}

static void dec_fstat(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
	} else {
		stat_struct(d, d->args[1]);
	}
}

static void dec_newfstatat(struct dec *d)
{
	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		d->e->path = arg_str(d, 1);
		dec_sep(d);
	} else {
		stat_struct(d, d->args[2]);
		dec_sep(d);
		XL_FLAGS(d, at_flags, d->args[3], "AT_???");
	}
}

static void dec_statx(struct dec *d)
{
	struct statx stx;

	if (!d->exiting) {
		unsigned flags = (unsigned)d->args[2];
		dirfd_arg(d, 0);
		dec_sep(d);
		d->e->path = arg_str(d, 1);
		dec_sep(d);
		XL_FLAGS(d, at_statx_sync_types, flags & AT_STATX_SYNC_TYPE, NULL);
		flags &= ~(unsigned)AT_STATX_SYNC_TYPE;
		if (flags) {
			strbuf_addc(d->out, '|');
			XL_FLAGS(d, at_flags, flags, NULL);
		}
		dec_sep(d);
		XL_FLAGS(d, statx_masks, (unsigned)d->args[3], "STATX_???");
		dec_sep(d);
		return;
	}
	if (!dec_umove(d, d->args[4], &stx, sizeof(stx)))
		return;
	strbuf_add(d->out, "{stx_mask=", 10);
	XL_FLAGS(d, statx_masks, stx.stx_mask, "STATX_???");
	strbuf_add(d->out, ", stx_attributes=", 17);
	XL_FLAGS(d, statx_attrs, stx.stx_attributes, "STATX_ATTR_???");
	if (stx.stx_mask & (STATX_TYPE | STATX_MODE)) {
		strbuf_add(d->out, ", stx_mode=", 11);
		symbolic_mode(d, stx.stx_mode);
	}
	if (stx.stx_mask & STATX_SIZE) {
		strbuf_addf(d->out, ", stx_size=%llu", (unsigned long long)stx.stx_size);
		if (d->rval == 0)
			d->e->st_size = (long long)stx.stx_size;
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
	XL_VAL(d, fsmagic, (unsigned long long)b.f_type, NULL);
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
		XL_FLAGS(d, statfs_flags, (unsigned long long)b.f_flags, "ST_???");
	}
	strbuf_addc(d->out, '}');
}

static void dec_statfs(struct dec *d)
{
	if (!d->exiting) {
		d->e->path = arg_str(d, 0);
		dec_sep(d);
	} else {
		statfs_struct(d, d->args[1]);
	}
}

static void dec_fstatfs(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
	} else {
		statfs_struct(d, d->args[1]);
	}
}

/*
 * Paths with a mode, flags or a second path.
 */
static void access_mode(struct dec *d, uint64_t v)
{
	size_t start = d->out->len;

	XL_FLAGS(d, access_modes, v, "?_OK");
	d->e->mode = printed_num(d, start);
}

static void dec_access(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	access_mode(d, d->args[1]);
}

static void dec_faccessat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	access_mode(d, d->args[2]);
	if (d->nr == SYS_faccessat2) {
		dec_sep(d);
		XL_FLAGS(d, faccessat_flags, d->args[3], "AT_???");
	}
}

/* readlink's buffer at exit: the text the call returned, not NUL-ended. */
static void readlink_tail(struct dec *d, int i)
{
	if (d->err)
		dec_ptr(d, d->args[i]);
	else
		dec_buf(d, d->args[i], (size_t)d->rval, false);
	dec_sep(d);
	dec_ulong(d, i + 1);
}

static void dec_readlink(struct dec *d)
{
	if (!d->exiting) {
		d->e->path = arg_str(d, 0);
		dec_sep(d);
	} else {
		readlink_tail(d, 1);
	}
}

static void dec_readlinkat(struct dec *d)
{
	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		d->e->path = arg_str(d, 1);
		dec_sep(d);
	} else {
		readlink_tail(d, 2);
	}
}

/* f(path): chdir, rmdir, unlink, chroot, acct, swapoff, uselib. */
static void dec_path1(struct dec *d)
{
	if (!d->exiting)
		d->e->path = arg_str(d, 0);
}

/* f(path, mode): mkdir, chmod. */
static void dec_path_mode(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	d->e->mode = umode(d, d->args[1]);
}

/* f(dirfd, path, mode): mkdirat, fchmodat. */
static void dec_at_path_mode(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	d->e->mode = umode(d, d->args[2]);
}

static void dec_unlinkat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	XL_FLAGS(d, at_flags, d->args[2], "AT_???");
}

/* rename(old, new), link(old, new). */
static void dec_path2(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	d->e->path2 = arg_str(d, 1);
}

/* renameat(olddirfd, old, newdirfd, new[, flags]), linkat(..., flags). */
static void dec_at_path2(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	other_dirfd(d, 2);
	dec_sep(d);
	d->e->path2 = arg_str(d, 3);
	if (d->nr == SYS_renameat2) {
		dec_sep(d);
		XL_FLAGS(d, rename_flags, d->args[4], "RENAME_??");
	} else if (d->nr == SYS_linkat) {
		dec_sep(d);
		XL_FLAGS(d, at_flags, d->args[4], "AT_???");
	}
}

/* The link is what gets created (and fails): it is the path, the target
 * path2, as facts.c has it. */
static void dec_symlink(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path2 = arg_str(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
}

static void dec_symlinkat(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path2 = arg_str(d, 0);
	dec_sep(d);
	dirfd_arg(d, 1);
	dec_sep(d);
	d->e->path = arg_str(d, 2);
}

/* f(fd): close, fchdir, fsync, fdatasync, syncfs, dup. */
static void dec_fd1(struct dec *d)
{
	if (!d->exiting)
		fd_arg(d, 0);
}

static void dec_getcwd(struct dec *d)
{
	if (!d->exiting)
		return;
	if (d->err)
		dec_ptr(d, d->args[0]);
	else
		dec_path(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
}

static void dec_fchmod(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	umode(d, d->args[1]);
}

/* chown/lchown(path, uid, gid). */
static void dec_chown(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	uid_arg(d, d->args[1]);
	dec_sep(d);
	uid_arg(d, d->args[2]);
}

static void dec_fchown(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	uid_arg(d, d->args[1]);
	dec_sep(d);
	uid_arg(d, d->args[2]);
}

static void dec_fchownat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	uid_arg(d, d->args[2]);
	dec_sep(d);
	uid_arg(d, d->args[3]);
	dec_sep(d);
	XL_FLAGS(d, at_flags, d->args[4], "AT_???");
}

static void dec_truncate(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	dec_ulong(d, 1);
	if ((long long)d->args[1] >= 0)
		d->e->len = d->args[1];
}

static void dec_ftruncate(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	dec_ulong(d, 1);
	if ((long long)d->args[1] >= 0)
		d->e->len = d->args[1];
}

/* getdents(64) at exit, abbreviated as strace prints it by default: the
 * buffer's address and how many entries the kernel put there. */
static void dec_getdents(struct dec *d)
{
	/* The kernel's struct linux_dirent (getdents); getdents64's is
	 * glibc's struct dirent64. Both keep d_reclen at the same place. */
	struct k_dirent {
		unsigned long d_ino, d_off;
		unsigned short d_reclen;
		char d_name[];
	};
	const size_t reclen_off = offsetof(struct k_dirent, d_reclen);
	const size_t header = d->nr == SYS_getdents64 ? offsetof(struct dirent64, d_name)
						      : offsetof(struct k_dirent, d_name);
	uint64_t addr = d->args[1];
	unsigned count = (unsigned)d->args[2];

	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		return;
	}
	if (d->err || (unsigned long long)d->rval > count) {
		dec_ptr(d, addr);
	} else {
		size_t len = (size_t)d->rval;
		unsigned n = 0;
		dec_ptr(d, addr);
		while (len >= header) {
			unsigned short reclen;
			if (mem_read(d->tid, addr + reclen_off, &reclen, sizeof(reclen)) != (ssize_t)sizeof(reclen))
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

static void dec_close_range(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%u, %u, ", (unsigned)d->args[0], (unsigned)d->args[1]);
	XL_FLAGS(d, close_range_flags, d->args[2], "CLOSE_RANGE_???");
}

/* dup2/dup3: the target is fd2, as facts.c has it. */
static void dec_dup2(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	d->e->fd2 = (int)d->args[1];
	dec_fd(d, d->e->fd2);
	if (d->nr == SYS_dup3) {
		dec_sep(d);
		XL_FLAGS(d, open_mode_flags, d->args[2], "O_???");
	}
}

/*
 * fcntl.
 */
/* The struct flock at ADDR; for a lock asked for with CMD (not getlk),
 * its lock facts too. */
static void flock_at(struct dec *d, uint64_t addr, bool getlk, unsigned cmd)
{
	/* x86_64's struct flock is struct flock64. */
	struct flock fl;

	if (!dec_umove(d, addr, &fl, sizeof(fl)))
		return;
	if (!getlk)
		event_fcntl_lock_facts(d->e, cmd, fl.l_type);
	strbuf_add(d->out, "{l_type=", 8);
	XL_VAL(d, lockfcmds, (unsigned short)fl.l_type, "F_???");
	strbuf_add(d->out, ", l_whence=", 11);
	XL_VAL(d, whence_codes, (unsigned short)fl.l_whence, "SEEK_???");
	strbuf_addf(d->out, ", l_start=%lld, l_len=%lld", (long long)fl.l_start, (long long)fl.l_len);
	if (getlk)
		strbuf_addf(d->out, ", l_pid=%d", fl.l_pid);
	strbuf_addc(d->out, '}');
}

static void f_owner_ex_at(struct dec *d, uint64_t addr)
{
	struct f_owner_ex owner;

	if (!dec_umove(d, addr, &owner, sizeof(owner)))
		return;
	strbuf_add(d->out, "{type=", 6);
	XL_VAL(d, f_owner_types, (unsigned)owner.type, "F_OWNER_???");
	strbuf_addf(d->out, ", pid=%d}", owner.pid);
}

/* sprintflags with a prefix, as the text after fcntl's return value:
 * "(flags FD_CLOEXEC)"; nothing when no name and no bit. */
static void rv_flags(struct dec *d, const char *prefix, const struct dec_xl *x, size_t n, unsigned long long v)
{
	struct strbuf *save = d->out;

	if (!v)
		return;
	strbuf_addf(d->rv_extra, "(%s", prefix);
	d->out = d->rv_extra;
	dec_xl_flags(d, x, n, v, NULL);
	d->out = save;
	strbuf_addc(d->rv_extra, ')');
}

/*
 * fcntl's F_GETFD, F_GETFL, F_GETLEASE and F_GET_SEALS return values are
 * printed in hex by strace ("= 0x1 (flags FD_CLOEXEC)"), with the flags
 * named in parentheses after it.
 */
static void dec_fcntl(struct dec *d)
{
	unsigned cmd = (unsigned)d->args[1];
	uint64_t arg = d->args[2];

	/* F_DUPFD's copy is fd2, as the parser has it. */
	if (d->exiting && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {
		d->e->fd2 = !d->err && d->rval >= 0 && d->rval <= INT_MAX ? (int)d->rval : -1;
		if (cmd == F_DUPFD_CLOEXEC)
			d->e->flags |= O_CLOEXEC;
	}

	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		XL_VAL(d, fcntlcmds, cmd, "F_???");
		switch (cmd) {
		case F_SETFD:
			dec_sep(d);
			XL_FLAGS(d, fdflags, arg, "FD_???");
			break;
		case F_SETOWN:
			strbuf_addf(d->out, ", %d", (int)arg);
			break;
		case F_SETPIPE_SZ:
		case F_DUPFD:
		case F_DUPFD_CLOEXEC:
			strbuf_addf(d->out, ", %lld", (long long)arg);
			break;
		case F_SETFL:
			dec_sep(d);
			dec_open_flags(d, (unsigned)arg);
			break;
		case F_SETLK:
		case F_SETLKW:
		case F_OFD_SETLK:
		case F_OFD_SETLKW:
			dec_sep(d);
			flock_at(d, arg, false, cmd);
			break;
		case F_SETOWN_EX:
			dec_sep(d);
			f_owner_ex_at(d, arg);
			break;
		case F_NOTIFY:
			dec_sep(d);
			XL_FLAGS(d, notifyflags, arg, "DN_???");
			break;
		case F_SETLEASE:
			dec_sep(d);
			XL_VAL(d, lockfcmds, arg, "F_???");
			break;
		case F_ADD_SEALS:
			dec_sep(d);
			XL_FLAGS(d, f_seals, arg, "F_SEAL_???");
			break;
		case F_SETSIG:
			dec_sep(d);
			dec_signal(d, (int)arg);
			break;
		case F_GETOWN:
		case F_GETPIPE_SZ:
		case F_GETFD:
		case F_GETFL:
		case F_GETLK:
		case F_OFD_GETLK:
		case F_GETOWN_EX:
		case F_GETLEASE:
		case F_GET_SEALS:
		case F_GETSIG:
			break;
		default:
			dec_sep(d);
			strbuf_addf(d->out, "%#llx", (unsigned long long)arg);
			break;
		}
		return;
	}
	if (!d->err && (cmd == F_GETFD || cmd == F_GETFL || cmd == F_GETLEASE || cmd == F_GET_SEALS))
		d->rv_hex = true;
	switch (cmd) {
	case F_GETLK:
	case F_OFD_GETLK:
		dec_sep(d);
		flock_at(d, arg, true, 0);
		break;
	case F_GETOWN_EX:
		dec_sep(d);
		f_owner_ex_at(d, arg);
		break;
	case F_GETFD:
		if (!d->err)
			rv_flags(d, "flags ", fdflags, DEC_XL_N(fdflags), (unsigned long long)d->rval);
		break;
	case F_GETFL:
		if (!d->err) {
			struct strbuf *save = d->out;
			strbuf_add(d->rv_extra, "(flags ", 7);
			d->out = d->rv_extra;
			dec_open_flags(d, (unsigned long long)d->rval);
			d->out = save;
			strbuf_addc(d->rv_extra, ')');
		}
		break;
	case F_GETLEASE:
		if (!d->err) {
			const char *name = dec_xl_name(lockfcmds, DEC_XL_N(lockfcmds), (unsigned long long)d->rval);
			if (name)
				strbuf_addf(d->rv_extra, "(%s)", name);
		}
		break;
	case F_GET_SEALS:
		if (!d->err)
			rv_flags(d, "seals ", f_seals, DEC_XL_N(f_seals), (unsigned long long)d->rval);
		break;
	case F_GETSIG:
		if (!d->err && d->rval) {
			const char *name = dec_signame((int)d->rval);
			if (name)
				strbuf_addf(d->rv_extra, "(%s)", name);
		}
		break;
	default:
		break;
	}
}

/*
 * ioctl: the terminal and FIO requests strace decodes (its term.c), and
 * every other request as _IOC(dir, type, nr, size) with its argument in
 * hex. strace names thousands of requests from the kernel's headers; the
 * ones a failing program typically makes (isatty's TCGETS, TIOCGWINSZ,
 * FIONBIO, FIONREAD...) are named here.
 */
enum ioc_arg {
	IOC_NONE,		/* no argument */
	IOC_HEX,		/* the argument in hex */
	IOC_INT,		/* an int: "[1]" */
	IOC_INT_OUT,		/* an int the kernel writes */
	IOC_DEC,		/* the argument itself, as an int */
	IOC_TERMIOS,		/* struct termios */
	IOC_TERMIOS_OUT,
	IOC_WINSZ,		/* struct winsize */
	IOC_WINSZ_OUT,
	IOC_MODEM,		/* int of TIOCM_* */
	IOC_MODEM_OUT,
	IOC_CHAR,		/* one byte: "\"x\"" */
	IOC_TCXONC,
	IOC_TCFLSH,
};

static const struct {
	unsigned code;
	const char *name;	/* as strace prints it, "A or B" for shared codes */
	unsigned char arg;	/* enum ioc_arg */
} ioctls[] = {
	{ TCGETS, "TCGETS", IOC_TERMIOS_OUT },
	{ TCSETS, "SNDCTL_TMR_START or TCSETS", IOC_TERMIOS },
	{ TCSETSW, "SNDCTL_TMR_STOP or TCSETSW", IOC_TERMIOS },
	{ TCSETSF, "SNDCTL_TMR_CONTINUE or TCSETSF", IOC_TERMIOS },
	{ TCSBRK, "TCSBRK", IOC_DEC },
	{ TCXONC, "TCXONC", IOC_TCXONC },
	{ TCFLSH, "TCFLSH", IOC_TCFLSH },
	{ TIOCEXCL, "TIOCEXCL", IOC_NONE },
	{ TIOCNXCL, "TIOCNXCL", IOC_NONE },
	{ TIOCSCTTY, "TIOCSCTTY", IOC_DEC },
	{ TIOCGPGRP, "TIOCGPGRP", IOC_INT_OUT },
	{ TIOCSPGRP, "TIOCSPGRP", IOC_INT },
	{ TIOCOUTQ, "TIOCOUTQ", IOC_INT_OUT },
	{ TIOCSTI, "TIOCSTI", IOC_CHAR },
	{ TIOCGWINSZ, "TIOCGWINSZ", IOC_WINSZ_OUT },
	{ TIOCSWINSZ, "TIOCSWINSZ", IOC_WINSZ },
	{ TIOCMGET, "TIOCMGET", IOC_MODEM_OUT },
	{ TIOCMBIS, "TIOCMBIS", IOC_MODEM },
	{ TIOCMBIC, "TIOCMBIC", IOC_MODEM },
	{ TIOCMSET, "TIOCMSET", IOC_MODEM },
	{ TIOCGSOFTCAR, "TIOCGSOFTCAR", IOC_INT_OUT },
	{ TIOCSSOFTCAR, "TIOCSSOFTCAR", IOC_INT },
	{ FIONREAD, "FIONREAD", IOC_INT_OUT },
	{ TIOCCONS, "TIOCCONS", IOC_NONE },
	{ TIOCPKT, "TIOCPKT", IOC_INT },
	{ FIONBIO, "FIONBIO", IOC_INT },
	{ TIOCNOTTY, "TIOCNOTTY", IOC_NONE },
	{ TIOCSETD, "TIOCSETD", IOC_INT },
	{ TIOCGETD, "TIOCGETD", IOC_INT_OUT },
	{ TCSBRKP, "TCSBRKP", IOC_DEC },
	{ TIOCSBRK, "TIOCSBRK", IOC_NONE },
	{ TIOCCBRK, "TIOCCBRK", IOC_NONE },
	{ TIOCGSID, "TIOCGSID", IOC_INT_OUT },
	{ TIOCGPTN, "TIOCGPTN", IOC_INT_OUT },
	{ TIOCSPTLCK, "TIOCSPTLCK", IOC_INT },
#ifdef TIOCGDEV
	{ TIOCGDEV, "TIOCGDEV", IOC_INT_OUT },
#endif
#ifdef TIOCVHANGUP
	{ TIOCVHANGUP, "TIOCVHANGUP", IOC_NONE },
#endif
#ifdef TIOCGEXCL
	{ TIOCGEXCL, "TIOCGEXCL", IOC_INT_OUT },
#endif
#ifdef TIOCGPTPEER
	{ TIOCGPTPEER, "TIOCGPTPEER", IOC_HEX },
#endif
	{ FIONCLEX, "FIONCLEX", IOC_NONE },
	{ FIOCLEX, "FIOCLEX", IOC_NONE },
	{ FIOASYNC, "FIOASYNC", IOC_INT },
};

static const struct dec_xl ioctl_dirs[] = {
	DEC_XL(_IOC_NONE), DEC_XL(_IOC_READ), DEC_XL(_IOC_WRITE),
};

static const struct dec_xl tcxonc_options[] = {
	DEC_XL(TCOOFF), DEC_XL(TCOON), DEC_XL(TCIOFF), DEC_XL(TCION),
};

static const struct dec_xl tcflsh_options[] = {
	DEC_XL(TCIFLUSH), DEC_XL(TCOFLUSH), DEC_XL(TCIOFLUSH),
};

static const struct dec_xl modem_flags[] = {
	DEC_XL(TIOCM_LE), DEC_XL(TIOCM_DTR), DEC_XL(TIOCM_RTS), DEC_XL(TIOCM_ST),
	DEC_XL(TIOCM_SR), DEC_XL(TIOCM_CTS), DEC_XL(TIOCM_CAR), DEC_XL(TIOCM_RNG),
	DEC_XL(TIOCM_DSR),
#ifdef TIOCM_OUT1
	DEC_XL(TIOCM_OUT1), DEC_XL(TIOCM_OUT2), DEC_XL(TIOCM_LOOP),
#endif
};

/* The termios flag tables of strace's term.c, x86's values. */
static const struct dec_xl term_iflags[] = {
	DEC_XL(IGNBRK), DEC_XL(BRKINT), DEC_XL(IGNPAR), DEC_XL(PARMRK), DEC_XL(INPCK),
	DEC_XL(ISTRIP), DEC_XL(INLCR), DEC_XL(IGNCR), DEC_XL(ICRNL), DEC_XL(IUCLC),
	DEC_XL(IXON), DEC_XL(IXANY), DEC_XL(IXOFF), DEC_XL(IMAXBEL), DEC_XL(IUTF8),
};

static const struct dec_xl term_oflags_nldly[] = { DEC_XL(NL0), DEC_XL(NL1) };
static const struct dec_xl term_oflags_crdly[] = {
	DEC_XL(CR0), DEC_XL(CR1), DEC_XL(CR2), DEC_XL(CR3),
};
static const struct dec_xl term_oflags_tabdly[] = {
	DEC_XL(XTABS), DEC_XL(TAB0), DEC_XL(TAB1), DEC_XL(TAB2), DEC_XL(TAB3),
};
static const struct dec_xl term_oflags_bsdly[] = { DEC_XL(BS1), DEC_XL(BS0) };
static const struct dec_xl term_oflags_vtdly[] = { DEC_XL(VT0), DEC_XL(VT1) };
static const struct dec_xl term_oflags_ffdly[] = { DEC_XL(FF0), DEC_XL(FF1) };

static const struct dec_xl term_oflags[] = {
	DEC_XL(OPOST), DEC_XL(OLCUC), DEC_XL(ONLCR), DEC_XL(OCRNL), DEC_XL(ONOCR),
	DEC_XL(ONLRET), DEC_XL(OFILL), DEC_XL(OFDEL),
};

static const struct dec_xl baud_options[] = {
	DEC_XL(B0), DEC_XL(B50), DEC_XL(B75), DEC_XL(B110), DEC_XL(B134), DEC_XL(B150),
	DEC_XL(B200), DEC_XL(B300), DEC_XL(B600), DEC_XL(B1200), DEC_XL(B1800), DEC_XL(B2400),
	DEC_XL(B4800), DEC_XL(B9600), DEC_XL(B19200), DEC_XL(B38400), DEC_XL(B57600),
	DEC_XL(B115200), DEC_XL(B230400), DEC_XL(B460800), DEC_XL(B500000), DEC_XL(B576000),
	DEC_XL(B921600), DEC_XL(B1000000), DEC_XL(B1152000), DEC_XL(B1500000),
	DEC_XL(B2000000), DEC_XL(B2500000), DEC_XL(B3000000), DEC_XL(B3500000),
	DEC_XL(B4000000),
};

static const struct dec_xl term_cflags_csize[] = {
	DEC_XL(CS5), DEC_XL(CS6), DEC_XL(CS7), DEC_XL(CS8),
};

static const struct dec_xl term_cflags[] = {
	DEC_XL(CSTOPB), DEC_XL(CREAD), DEC_XL(PARENB), DEC_XL(PARODD), DEC_XL(HUPCL),
	DEC_XL(CLOCAL), DEC_XL(CMSPAR), DEC_XL(CRTSCTS),
};

static const struct dec_xl term_lflags[] = {
	DEC_XL(ISIG), DEC_XL(ICANON), DEC_XL(XCASE), DEC_XL(ECHO), DEC_XL(ECHOE),
	DEC_XL(ECHOK), DEC_XL(ECHONL), DEC_XL(NOFLSH), DEC_XL(IEXTEN), DEC_XL(ECHOCTL),
	DEC_XL(ECHOPRT), DEC_XL(ECHOKE), DEC_XL(FLUSHO), DEC_XL(PENDIN), DEC_XL(TOSTOP),
	DEC_XL(EXTPROC),
};

/* The kernel's struct termios (not glibc's, which is longer). */
struct k_termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[19];
};

static void termios_at(struct dec *d, uint64_t addr)
{
	static const struct {
		const struct dec_xl *x;
		size_t n;
		unsigned mask;
		const char *dflt;
	} odelays[] = {
		{ term_oflags_nldly, DEC_XL_N(term_oflags_nldly), NLDLY, "NL?" },
		{ term_oflags_crdly, DEC_XL_N(term_oflags_crdly), CRDLY, "CR?" },
		{ term_oflags_tabdly, DEC_XL_N(term_oflags_tabdly), TABDLY, "TAB?" },
		{ term_oflags_bsdly, DEC_XL_N(term_oflags_bsdly), BSDLY, "BS?" },
		{ term_oflags_vtdly, DEC_XL_N(term_oflags_vtdly), VTDLY, "VT?" },
		{ term_oflags_ffdly, DEC_XL_N(term_oflags_ffdly), FFDLY, "FF?" },
	};
	/* IBSHIFT (asm/termbits.h): where CIBAUD keeps the input speed. */
	const int ibshift = __builtin_ctz(CIBAUD);
	struct k_termios t;

	if (!dec_umove(d, addr, &t, sizeof(t)))
		return;
	strbuf_add(d->out, "{c_iflag=", 9);
	XL_FLAGS(d, term_iflags, t.c_iflag, NULL);
	strbuf_add(d->out, ", c_oflag=", 10);
	unsigned v = t.c_oflag;
	for (size_t i = 0; i < ARRAY_SIZE(odelays); i++) {
		dec_xl_val(d, odelays[i].x, odelays[i].n, v & odelays[i].mask, odelays[i].dflt);
		strbuf_addc(d->out, '|');
		v &= ~odelays[i].mask;
	}
	XL_FLAGS(d, term_oflags, v, NULL);
	strbuf_add(d->out, ", c_cflag=", 10);
	v = t.c_cflag;
	XL_VAL(d, baud_options, v & CBAUD, "B???");
	strbuf_addc(d->out, '|');
	if (v & CIBAUD) {
		XL_VAL(d, baud_options, (v & CIBAUD) >> ibshift, "B???");
		strbuf_add(d->out, "<<IBSHIFT|", 10);
	}
	XL_VAL(d, term_cflags_csize, v & CSIZE, "CS?");
	strbuf_addc(d->out, '|');
	XL_FLAGS(d, term_cflags, v & ~(unsigned)(CBAUD | CIBAUD | CSIZE), NULL);
	strbuf_add(d->out, ", c_lflag=", 10);
	XL_FLAGS(d, term_lflags, t.c_lflag, NULL);
	strbuf_add(d->out, ", ...}", 6);
}

static void winsize_at(struct dec *d, uint64_t addr)
{
	struct winsize ws;

	if (dec_umove(d, addr, &ws, sizeof(ws)))
		strbuf_addf(d->out, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}", ws.ws_row,
			    ws.ws_col, ws.ws_xpixel, ws.ws_ypixel);
}

static void modem_at(struct dec *d, uint64_t addr)
{
	int v;

	if (!dec_umove(d, addr, &v, sizeof(v)))
		return;
	strbuf_addc(d->out, '[');
	XL_FLAGS(d, modem_flags, (unsigned)v, "TIOCM_???");
	strbuf_addc(d->out, ']');
}

/* The argument of a request the kernel reads (entry) or writes (exit). */
static void ioctl_arg(struct dec *d, enum ioc_arg kind, uint64_t arg)
{
	switch (kind) {
	case IOC_NONE:
		return;
	case IOC_HEX:
		strbuf_addf(d->out, ", %#llx", (unsigned long long)arg);
		return;
	case IOC_DEC:
		strbuf_addf(d->out, ", %d", (int)arg);
		return;
	default:
		break;
	}
	dec_sep(d);
	switch (kind) {
	case IOC_INT:
	case IOC_INT_OUT:
		int_at(d, arg);
		break;
	case IOC_TERMIOS:
	case IOC_TERMIOS_OUT:
		termios_at(d, arg);
		break;
	case IOC_WINSZ:
	case IOC_WINSZ_OUT:
		winsize_at(d, arg);
		break;
	case IOC_MODEM:
	case IOC_MODEM_OUT:
		modem_at(d, arg);
		break;
	case IOC_CHAR:
		dec_buf(d, arg, 1, false);
		break;
	case IOC_TCXONC:
		XL_VAL(d, tcxonc_options, arg, "TC???");
		break;
	case IOC_TCFLSH:
		XL_VAL(d, tcflsh_options, arg, "TC???");
		break;
	default:
		break;
	}
}

static bool ioc_is_out(enum ioc_arg kind)
{
	return kind == IOC_INT_OUT || kind == IOC_TERMIOS_OUT || kind == IOC_WINSZ_OUT ||
	       kind == IOC_MODEM_OUT;
}

static void dec_ioctl(struct dec *d)
{
	unsigned code = (unsigned)d->args[1];
	int known = -1;

	for (size_t i = 0; i < ARRAY_SIZE(ioctls); i++)
		if (ioctls[i].code == code) {
			known = (int)i;
			break;
		}
	if (d->exiting) {
		/* Unknown requests print their argument last, in hex. */
		if (known < 0)
			strbuf_addf(d->out, ", %#llx", (unsigned long long)d->args[2]);
		else if (ioc_is_out(ioctls[known].arg))
			ioctl_arg(d, (enum ioc_arg)ioctls[known].arg, d->args[2]);
		return;
	}
	fd_arg(d, 0);
	dec_sep(d);
	if (known >= 0) {
		strbuf_adds(d->out, ioctls[known].name);
		if (!ioc_is_out(ioctls[known].arg))
			ioctl_arg(d, (enum ioc_arg)ioctls[known].arg, d->args[2]);
		return;
	}
	strbuf_add(d->out, "_IOC(", 5);
	XL_FLAGS(d, ioctl_dirs, _IOC_DIR(code), "_IOC_???");
	strbuf_addf(d->out, ", %#x, %#x, %#x)", _IOC_TYPE(code), _IOC_NR(code), _IOC_SIZE(code));
}

static void dec_lseek(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, ", (long long)d->args[1]);
	d->e->offset = (long long)d->args[1];
	XL_VAL(d, whence_codes, d->args[2], "SEEK_???");
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

static void dec_utimensat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	utime_pair(d, d->args[2]);
	dec_sep(d);
	XL_FLAGS(d, at_flags, d->args[3], "AT_???");
}

static void dec_utime(struct dec *d)
{
	int64_t u[2];

	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	if (!dec_umove(d, d->args[1], u, sizeof(u)))
		return;
	strbuf_addf(d->out, "{actime=%lld", (long long)u[0]);
	time_comment(d, u[0], 0, 0, 0);
	strbuf_addf(d->out, ", modtime=%lld", (long long)u[1]);
	time_comment(d, u[1], 0, 0, 0);
	strbuf_addc(d->out, '}');
}

static void dec_utimes(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	timeval_pair(d, d->args[1]);
}

static void dec_futimesat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	timeval_pair(d, d->args[2]);
}

/*
 * inotify, mknod, umask and the rest.
 */
static void dec_inotify_add_watch(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	d->e->path = arg_str(d, 1);
	dec_sep(d);
	XL_FLAGS(d, inotify_flags, (unsigned)d->args[2], "IN_???");
}

static void dec_inotify_rm_watch(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	strbuf_addf(d->out, ", %d", (int)d->args[1]);
}

static void dec_inotify_init1(struct dec *d)
{
	if (!d->exiting)
		XL_FLAGS(d, inotify_init_flags, d->args[0], "IN_???");
}

static void mknod_tail(struct dec *d, int i)
{
	unsigned mode = (unsigned short)d->args[i + 1];
	size_t start;

	d->e->path = arg_str(d, i);
	dec_sep(d);
	start = d->out->len;
	symbolic_mode(d, mode);
	d->e->mode = printed_num(d, start);
	if ((mode & S_IFMT) == S_IFCHR || (mode & S_IFMT) == S_IFBLK) {
		dec_sep(d);
		dev_t_val(d, (unsigned)d->args[i + 2]);
	}
}

static void dec_mknod(struct dec *d)
{
	if (!d->exiting)
		mknod_tail(d, 0);
}

static void dec_mknodat(struct dec *d)
{
	if (d->exiting)
		return;
	dirfd_arg(d, 0);
	dec_sep(d);
	mknod_tail(d, 1);
}

static void dec_umask(struct dec *d)
{
	if (!d->exiting)
		umode(d, d->args[0]);
}

static void dec_flock(struct dec *d)
{
	if (d->exiting)
		return;
	event_flock_facts(d->e, (long long)d->args[1]);
	fd_arg(d, 0);
	dec_sep(d);
	XL_FLAGS(d, flockcmds, d->args[1], "LOCK_???");
}

static void dec_fallocate(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	XL_FLAGS(d, falloc_flags, d->args[1], "FALLOC_FL_???");
	strbuf_addf(d->out, ", %lld, %lld", (long long)d->args[2], (long long)d->args[3]);
	d->e->offset = (long long)d->args[2];
	if ((long long)d->args[3] >= 0)
		d->e->len = d->args[3];
}

static void dec_fadvise64(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %llu, ", (long long)d->args[1], (unsigned long long)d->args[2]);
	d->e->offset = (long long)d->args[1];
	/* facts.c reads the length as a signed number. */
	if ((long long)d->args[2] >= 0)
		d->e->len = d->args[2];
	XL_VAL(d, advise, d->args[3], "POSIX_FADV_???");
}

static void dec_memfd_create(struct dec *d)
{
	unsigned flags = (unsigned)d->args[1];
	/* MFD_HUGE_MASK << MFD_HUGE_SHIFT (linux/memfd.h): a page size. */
	const unsigned huge_mask = 0x3fu << 26;
	unsigned huge = flags & huge_mask;

	if (d->exiting)
		return;
	dec_str(d, d->args[0]);
	dec_sep(d);
	if (!flags) {
		strbuf_addc(d->out, '0');
		return;
	}
	flags &= ~huge_mask;
	if (flags || !huge)
		XL_FLAGS(d, memfd_create_flags, flags, "MFD_???");
	if (huge)
		strbuf_addf(d->out, "%s%u<<MFD_HUGE_SHIFT", flags ? "|" : "", huge >> 26);
}

/* name_to_handle_at(dirfd, path, {handle_bytes=N => M, handle_type=T,
 * f_handle="\x.."}, [mount_id], flags): the struct opens at entry and is
 * finished at exit. priv[0] is 1 when it was opened, priv[1] the size the
 * caller offered. */
static void dec_name_to_handle_at(struct dec *d)
{
	struct {
		unsigned handle_bytes;
		int handle_type;
	} h;
	uint64_t addr = d->args[2];

	if (!d->exiting) {
		dirfd_arg(d, 0);
		dec_sep(d);
		d->e->path = arg_str(d, 1);
		dec_sep(d);
		d->priv[0] = 0;
		if (!dec_umove(d, addr, &h, sizeof(h))) {
			dec_sep(d);
			dec_ptr(d, d->args[3]);
			dec_sep(d);
			XL_FLAGS(d, name_to_handle_at_flags, d->args[4], "AT_???");
			return;
		}
		strbuf_addf(d->out, "{handle_bytes=%u", h.handle_bytes);
		d->priv[0] = 1;
		d->priv[1] = h.handle_bytes;
		return;
	}
	if (!d->priv[0])
		return;
	if ((!d->err || d->err == EOVERFLOW) && mem_read(d->tid, addr, &h, sizeof(h)) == (ssize_t)sizeof(h)) {
		if (h.handle_bytes != d->priv[1])
			strbuf_addf(d->out, " => %u", h.handle_bytes);
		if (!d->err) {
			unsigned char fh[128];
			unsigned len = MIN(h.handle_bytes, (unsigned)sizeof(fh));
			strbuf_addf(d->out, ", handle_type=%d, f_handle=", h.handle_type);
			if (mem_read(d->tid, addr + sizeof(h), fh, len) == (ssize_t)len) {
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
	int_at(d, d->args[3]);
	dec_sep(d);
	XL_FLAGS(d, name_to_handle_at_flags, d->args[4], "AT_???");
}

static void dec_open_by_handle_at(struct dec *d)
{
	struct {
		unsigned handle_bytes;
		int handle_type;
	} h;
	uint64_t addr = d->args[1];

	if (d->exiting)
		return;
	/* Not one of facts.c's calls: the mount fd is not the event's fd. */
	dec_fd(d, (int)d->args[0]);
	dec_sep(d);
	if (dec_umove(d, addr, &h, sizeof(h))) {
		unsigned char fh[128];
		unsigned len = MIN(h.handle_bytes, (unsigned)sizeof(fh));
		strbuf_addf(d->out, "{handle_bytes=%u, handle_type=%d, f_handle=", h.handle_bytes,
			    h.handle_type);
		if (mem_read(d->tid, addr + sizeof(h), fh, len) == (ssize_t)len) {
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
	dec_open_flags(d, (unsigned)d->args[2]);
}

/*
 * Extended attributes.
 */
/* strace's print_xattr_val: the value up to -s, a trailing NUL of the
 * printed part dropped; a size beyond XATTR_SIZE_MAX (a failed call's -1)
 * prints the address. */
static void xattr_val(struct dec *d, uint64_t addr, uint64_t insize, uint64_t size)
{
	int strsize = d->opts && d->opts->strsize >= 0 ? d->opts->strsize : 32;

	if (size > 65536 || !addr) {
		dec_ptr(d, addr);
	} else {
		size_t n = MIN((size_t)size, (size_t)strsize);
		char *buf = malloc(n + 1);
		if (!buf || mem_read(d->tid, addr, buf, n) != (ssize_t)n) {
			dec_ptr(d, addr);
		} else {
			size_t shown = n;
			if (shown && buf[shown - 1] == '\0')
				shown--;
			dec_quote(d, buf, shown, size > (uint64_t)strsize);
		}
		free(buf);
	}
	dec_sep(d);
	strbuf_addf(d->out, "%llu", (unsigned long long)insize);
}

/* setxattr/lsetxattr(path, ...) and fsetxattr(fd, ...). */
static void dec_setxattr(struct dec *d)
{
	if (d->exiting)
		return;
	if (d->nr == SYS_fsetxattr)
		fd_arg(d, 0);
	else
		d->e->path = arg_str(d, 0);
	dec_sep(d);
	dec_str(d, d->args[1]);
	dec_sep(d);
	xattr_val(d, d->args[2], d->args[3], d->args[3]);
	dec_sep(d);
	XL_FLAGS(d, xattrflags, d->args[4], "XATTR_???");
}

static void dec_getxattr(struct dec *d)
{
	if (!d->exiting) {
		if (d->nr == SYS_fgetxattr)
			fd_arg(d, 0);
		else
			d->e->path = arg_str(d, 0);
		dec_sep(d);
		dec_str(d, d->args[1]);
		dec_sep(d);
	} else {
		xattr_val(d, d->args[2], d->args[3], (uint64_t)d->rval);
	}
}

static void dec_listxattr(struct dec *d)
{
	if (!d->exiting) {
		if (d->nr == SYS_flistxattr)
			fd_arg(d, 0);
		else
			d->e->path = arg_str(d, 0);
		dec_sep(d);
		return;
	}
	if (!d->args[2] || d->err)
		dec_ptr(d, d->args[1]);
	else
		dec_buf(d, d->args[1], (size_t)d->rval, false);
	dec_sep(d);
	dec_ulong(d, 2);
}

static void dec_removexattr(struct dec *d)
{
	if (d->exiting)
		return;
	/* facts.c does not know fremovexattr: its fd is not the event's. */
	if (d->nr == SYS_fremovexattr)
		dec_fd(d, (int)d->args[0]);
	else
		d->e->path = arg_str(d, 0);
	dec_sep(d);
	dec_str(d, d->args[1]);
}

/*
 * Mounts and swap.
 */
static void dec_mount(struct dec *d)
{
	unsigned long long flags = d->args[3];
	bool ignore_type = false, ignore_data = false, old_magic = false;

	if (d->exiting)
		return;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL) {
		flags &= ~(unsigned long long)MS_MGC_MSK;
		old_magic = true;
	}
	if (flags & MS_REMOUNT)
		ignore_type = true;
	else if (flags & (MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE))
		ignore_type = ignore_data = true;
	/* facts.c takes no path from mount (neither the source nor the
	 * target), so neither is the event's. */
	dec_path(d, d->args[0]);
	dec_sep(d);
	dec_path(d, d->args[1]);
	dec_sep(d);
	if (ignore_type)
		dec_ptr(d, d->args[2]);
	else
		dec_str(d, d->args[2]);
	dec_sep(d);
	if (old_magic) {
		strbuf_adds(d->out, "MS_MGC_VAL");
		if (flags)
			strbuf_addc(d->out, '|');
	}
	if (flags || !old_magic)
		XL_FLAGS(d, mount_flags, flags, "MS_???");
	dec_sep(d);
	if (ignore_data)
		dec_ptr(d, d->args[4]);
	else
		dec_str(d, d->args[4]);
}

/* pivot_root(new_root, put_old): the new root is the event's path, the
 * old root's place its path2, as facts.c reads them. */
static void dec_pivot_root(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = dec_path(d, d->args[0]);
	dec_sep(d);
	d->e->path2 = dec_path(d, d->args[1]);
}

static void dec_umount2(struct dec *d)
{
	if (d->exiting)
		return;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	XL_FLAGS(d, umount_flags, d->args[1], "MNT_???");
}

static void dec_swapon(struct dec *d)
{
	unsigned flags = (unsigned)d->args[1];
	unsigned prio = flags & SWAP_FLAG_PRIO_MASK;

	if (d->exiting)
		return;
	flags &= ~(unsigned)SWAP_FLAG_PRIO_MASK;
	d->e->path = arg_str(d, 0);
	dec_sep(d);
	if (flags) {
		XL_FLAGS(d, swap_flags, flags, "SWAP_FLAG_???");
		strbuf_addc(d->out, '|');
	}
	strbuf_addf(d->out, "%u", prio);
}

/* fanotify is not one of facts.c's calls: nothing is the event's. */
static void dec_fanotify_init(struct dec *d)
{
	unsigned flags = (unsigned)d->args[0];
	const unsigned class_bits = FAN_CLASS_NOTIF | FAN_CLASS_CONTENT | FAN_CLASS_PRE_CONTENT;

	if (d->exiting)
		return;
	XL_VAL(d, fan_classes, flags & class_bits, "FAN_CLASS_???");
	flags &= ~class_bits;
	if (flags) {
		strbuf_addc(d->out, '|');
		XL_FLAGS(d, fan_init_flags, flags, "FAN_???");
	}
	dec_sep(d);
	dec_open_flags(d, (unsigned)d->args[1]);
}

static void dec_fanotify_mark(struct dec *d)
{
	int dirfd = (int)d->args[3];

	if (d->exiting)
		return;
	dec_fd(d, (int)d->args[0]);
	dec_sep(d);
	XL_FLAGS(d, fan_mark_flags, (unsigned)d->args[1], "FAN_MARK_???");
	dec_sep(d);
	XL_FLAGS(d, fan_event_flags, d->args[2], "FAN_???");
	dec_sep(d);
	if (dirfd == FAN_NOFD) {
		strbuf_adds(d->out, "FAN_NOFD");
	} else {
		const char *hint = d->e->dir_hint;
		dec_dirfd(d, dirfd);
		d->e->dir_hint = hint;
	}
	dec_sep(d);
	dec_path(d, d->args[4]);
}

/* sync_file_range(fd, offset, nbytes, flags) and readahead(fd, offset,
 * count): their fd is all facts.c takes. */
static void dec_sync_file_range(struct dec *d)
{
	static const struct dec_xl sync_file_range_flags[] = {
		DEC_XL(SYNC_FILE_RANGE_WAIT_BEFORE), DEC_XL(SYNC_FILE_RANGE_WRITE),
		DEC_XL(SYNC_FILE_RANGE_WAIT_AFTER),
	};

	if (d->exiting)
		return;
	fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %lld, ", (long long)d->args[1], (long long)d->args[2]);
	XL_FLAGS(d, sync_file_range_flags, d->args[3], "SYNC_FILE_RANGE_???");
}

static void dec_readahead(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	strbuf_addf(d->out, ", %lld, %llu", (long long)d->args[1], (unsigned long long)d->args[2]);
}

#define TF TC_FILE
#define TD TC_DESC
#define R(nr, fn) { nr, fn }

/* Classes as strace 6.1's x86_64 syscallent: %stat is stat alone. */
const struct dec_entry dec_file_calls[] = {
	R(SYS_open, dec_open),
	R(SYS_openat, dec_openat),
#ifdef SYS_openat2
	R(SYS_openat2, dec_openat2),
#endif
	R(SYS_creat, dec_creat),
	R(SYS_close, dec_fd1),
#ifdef SYS_close_range
	R(SYS_close_range, dec_close_range),
#endif
	R(SYS_stat, dec_stat),
	R(SYS_lstat, dec_stat),
	R(SYS_fstat, dec_fstat),
	R(SYS_newfstatat, dec_newfstatat),
	R(SYS_statx, dec_statx),
	R(SYS_statfs, dec_statfs),
	R(SYS_fstatfs, dec_fstatfs),
	R(SYS_access, dec_access),
	R(SYS_faccessat, dec_faccessat),
#ifdef SYS_faccessat2
	R(SYS_faccessat2, dec_faccessat),
#endif
	R(SYS_readlink, dec_readlink),
	R(SYS_readlinkat, dec_readlinkat),
	R(SYS_mkdir, dec_path_mode),
	R(SYS_mkdirat, dec_at_path_mode),
	R(SYS_rmdir, dec_path1),
	R(SYS_unlink, dec_path1),
	R(SYS_unlinkat, dec_unlinkat),
	R(SYS_rename, dec_path2),
	R(SYS_renameat, dec_at_path2),
	R(SYS_renameat2, dec_at_path2),
	R(SYS_link, dec_path2),
	R(SYS_linkat, dec_at_path2),
	R(SYS_symlink, dec_symlink),
	R(SYS_symlinkat, dec_symlinkat),
	R(SYS_chdir, dec_path1),
	R(SYS_fchdir, dec_fd1),
	R(SYS_getcwd, dec_getcwd),
	R(SYS_chroot, dec_path1),
	R(SYS_chmod, dec_path_mode),
	R(SYS_fchmod, dec_fchmod),
	R(SYS_fchmodat, dec_at_path_mode),
	R(SYS_chown, dec_chown),
	R(SYS_lchown, dec_chown),
	R(SYS_fchown, dec_fchown),
	R(SYS_fchownat, dec_fchownat),
	R(SYS_truncate, dec_truncate),
	R(SYS_ftruncate, dec_ftruncate),
	R(SYS_getdents, dec_getdents),
	R(SYS_getdents64, dec_getdents),
	R(SYS_dup, dec_fd1),
	R(SYS_dup2, dec_dup2),
	R(SYS_dup3, dec_dup2),
	R(SYS_fcntl, dec_fcntl),
	R(SYS_ioctl, dec_ioctl),
	R(SYS_lseek, dec_lseek),
	R(SYS_utimensat, dec_utimensat),
	R(SYS_utime, dec_utime),
	R(SYS_utimes, dec_utimes),
	R(SYS_futimesat, dec_futimesat),
	R(SYS_inotify_init1, dec_inotify_init1),
	R(SYS_inotify_add_watch, dec_inotify_add_watch),
	R(SYS_inotify_rm_watch, dec_inotify_rm_watch),
	R(SYS_mknod, dec_mknod),
	R(SYS_mknodat, dec_mknodat),
	R(SYS_umask, dec_umask),
	R(SYS_fsync, dec_fd1),
	R(SYS_fdatasync, dec_fd1),
	R(SYS_syncfs, dec_fd1),
	R(SYS_sync_file_range, dec_sync_file_range),
	R(SYS_readahead, dec_readahead),
	R(SYS_flock, dec_flock),
	R(SYS_fallocate, dec_fallocate),
	R(SYS_fadvise64, dec_fadvise64),
	R(SYS_memfd_create, dec_memfd_create),
	R(SYS_name_to_handle_at, dec_name_to_handle_at),
	R(SYS_open_by_handle_at, dec_open_by_handle_at),
	R(SYS_setxattr, dec_setxattr),
	R(SYS_lsetxattr, dec_setxattr),
	R(SYS_fsetxattr, dec_setxattr),
	R(SYS_getxattr, dec_getxattr),
	R(SYS_lgetxattr, dec_getxattr),
	R(SYS_fgetxattr, dec_getxattr),
	R(SYS_listxattr, dec_listxattr),
	R(SYS_llistxattr, dec_listxattr),
	R(SYS_flistxattr, dec_listxattr),
	R(SYS_removexattr, dec_removexattr),
	R(SYS_lremovexattr, dec_removexattr),
	R(SYS_fremovexattr, dec_removexattr),
	R(SYS_mount, dec_mount),
	R(SYS_umount2, dec_umount2),
	R(SYS_pivot_root, dec_pivot_root),
	R(SYS_swapon, dec_swapon),
	R(SYS_swapoff, dec_path1),
	R(SYS_acct, dec_path1),
	R(SYS_uselib, dec_path1),
	R(SYS_fanotify_init, dec_fanotify_init),
	R(SYS_fanotify_mark, dec_fanotify_mark),
};

const size_t dec_file_ncalls = ARRAY_SIZE(dec_file_calls);
