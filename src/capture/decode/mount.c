/* Extended attributes, mounts, swap and fanotify, as strace 6.1 prints
 * them. Their paths are the event's path (path2 for pivot_root's old
 * root); mount's source and target are not (no rule reads them). Part
 * of the file family (file.h).
 */
#include "capture/decode.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#include "capture/decode/decoders.h"
#include "capture/decode/file.h"
#include "gen/tables.h"
#include "util/util.h"

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
		if (!buf || mem_read(d->call.mem, addr, buf, n) != (ssize_t)n) {
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
void dec_setxattr(struct dec *d)
{
	if (d->exiting)
		return;
	if (d->call.nr == SYS_fsetxattr)
		file_fd_arg(d, 0);
	else
		dec_path_arg(d, 0);
	dec_sep(d);
	dec_str(d, d->call.args[1]);
	dec_sep(d);
	xattr_val(d, d->call.args[2], d->call.args[3], d->call.args[3]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_xattrflags, d->call.args[4], "XATTR_???");
}

void dec_getxattr(struct dec *d)
{
	if (!d->exiting) {
		if (d->call.nr == SYS_fgetxattr)
			file_fd_arg(d, 0);
		else
			dec_path_arg(d, 0);
		dec_sep(d);
		dec_str(d, d->call.args[1]);
		dec_sep(d);
	} else {
		xattr_val(d, d->call.args[2], d->call.args[3], (uint64_t)d->call.rval);
	}
}

void dec_listxattr(struct dec *d)
{
	if (!d->exiting) {
		if (d->call.nr == SYS_flistxattr)
			file_fd_arg(d, 0);
		else
			dec_path_arg(d, 0);
		dec_sep(d);
		return;
	}
	if (!d->call.args[2] || d->call.err)
		dec_ptr(d, d->call.args[1]);
	else
		dec_buf(d, d->call.args[1], (size_t)d->call.rval, false);
	dec_sep(d);
	dec_ulong(d, 2);
}

void dec_removexattr(struct dec *d)
{
	if (d->exiting)
		return;
	/* fremovexattr has no roles: its fd is not the event's. */
	if (d->call.nr == SYS_fremovexattr)
		dec_fd(d, (int)d->call.args[0]);
	else
		dec_path_arg(d, 0);
	dec_sep(d);
	dec_str(d, d->call.args[1]);
}

/*
 * Mounts and swap.
 */
void dec_mount(struct dec *d)
{
	unsigned long long flags = d->call.args[3];
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
	/* mount has no roles (neither the source nor the
	 * target), so neither is the event's. */
	dec_path(d, d->call.args[0]);
	dec_sep(d);
	dec_path(d, d->call.args[1]);
	dec_sep(d);
	if (ignore_type)
		dec_ptr(d, d->call.args[2]);
	else
		dec_str(d, d->call.args[2]);
	dec_sep(d);
	if (old_magic) {
		strbuf_adds(d->out, "MS_MGC_VAL");
		if (flags)
			strbuf_addc(d->out, '|');
	}
	if (flags || !old_magic)
		xlat_print_flags(d->out, &rc_xlat_mount_flags, flags, "MS_???");
	dec_sep(d);
	if (ignore_data)
		dec_ptr(d, d->call.args[4]);
	else
		dec_str(d, d->call.args[4]);
}

/* pivot_root(new_root, put_old): the new root is the event's path, the
 * old root's place its path2, as their roles say. */
void dec_pivot_root(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	dec_path_arg(d, 1);
}

void dec_umount2(struct dec *d)
{
	if (d->exiting)
		return;
	dec_path_arg(d, 0);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_umount_flags, d->call.args[1], "MNT_???");
}

void dec_swapon(struct dec *d)
{
	unsigned flags = (unsigned)d->call.args[1];
	unsigned prio = flags & SWAP_FLAG_PRIO_MASK;

	if (d->exiting)
		return;
	flags &= ~(unsigned)SWAP_FLAG_PRIO_MASK;
	dec_path_arg(d, 0);
	dec_sep(d);
	if (flags) {
		xlat_print_flags(d->out, &rc_xlat_swap_flags, flags, "SWAP_FLAG_???");
		strbuf_addc(d->out, '|');
	}
	strbuf_addf(d->out, "%u", prio);
}

/* fanotify has no roles: nothing is the event's. */
void dec_fanotify_init(struct dec *d)
{
	unsigned flags = (unsigned)d->call.args[0];
	const unsigned class_bits = FAN_CLASS_NOTIF | FAN_CLASS_CONTENT | FAN_CLASS_PRE_CONTENT;

	if (d->exiting)
		return;
	xlat_print_val(d->out, &rc_xlat_fan_classes, flags & class_bits, "FAN_CLASS_???");
	flags &= ~class_bits;
	if (flags) {
		strbuf_addc(d->out, '|');
		xlat_print_flags(d->out, &rc_xlat_fan_init_flags, flags, "FAN_???");
	}
	dec_sep(d);
	dec_open_flags(d, (unsigned)d->call.args[1]);
}

void dec_fanotify_mark(struct dec *d)
{
	int dirfd = (int)d->call.args[3];

	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_fan_mark_flags, (unsigned)d->call.args[1], "FAN_MARK_???");
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_fan_event_flags, d->call.args[2], "FAN_???");
	dec_sep(d);
	if (dirfd == FAN_NOFD) {
		strbuf_adds(d->out, "FAN_NOFD");
	} else {
		const struct rc_fdfacts *shown = d->e->dir_shown;
		dec_dirfd(d, dirfd);
		d->e->dir_shown = shown;
	}
	dec_sep(d);
	dec_path(d, d->call.args[4]);
}
