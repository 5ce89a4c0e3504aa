/* fcntl and flock, as strace 6.1 prints them: the commands, fd flags,
 * record locks (struct flock, with the lock facts of the lock asked
 * for), owners and seals; F_DUPFD's copy is the event's fd2. Part of the
 * file family (file.h).
 */
#include "capture/decode.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>

#include "capture/decode/decoders.h"
#include "capture/decode/file.h"
#include "util/util.h"

/*
 * Tables, in strace's order.
 */
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

static const struct dec_xl flockcmds[] = {
	DEC_XL(LOCK_SH), DEC_XL(LOCK_EX), DEC_XL(LOCK_NB), DEC_XL(LOCK_UN),
	DEC_XL(LOCK_MAND), DEC_XL(LOCK_RW), DEC_XL(LOCK_READ), DEC_XL(LOCK_WRITE),
};

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
	XL_VAL(d, file_whence_codes, (unsigned short)fl.l_whence, "SEEK_???");
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
void dec_fcntl(struct dec *d)
{
	unsigned cmd = (unsigned)d->args[1];
	uint64_t arg = d->args[2];

	if (!d->exiting) {
		file_fd_arg(d, 0);
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

void dec_flock(struct dec *d)
{
	if (d->exiting)
		return;
	file_fd_arg(d, 0);
	dec_sep(d);
	XL_FLAGS(d, flockcmds, d->args[1], "LOCK_???");
}
