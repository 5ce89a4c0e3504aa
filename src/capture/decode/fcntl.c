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
#include "gen/tables.h"
#include "util/util.h"

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
	xlat_print_val(d->out, &rc_xlat_lockfcmds, (unsigned short)fl.l_type, "F_???");
	strbuf_add(d->out, ", l_whence=", 11);
	xlat_print_val(d->out, &rc_xlat_file_whence_codes, (unsigned short)fl.l_whence, "SEEK_???");
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
	xlat_print_val(d->out, &rc_xlat_f_owner_types, (unsigned)owner.type, "F_OWNER_???");
	strbuf_addf(d->out, ", pid=%d}", owner.pid);
}

/* sprintflags with a prefix, as the text after fcntl's return value:
 * "(flags FD_CLOEXEC)"; nothing when no name and no bit. */
static void rv_flags(struct dec *d, const char *prefix, const struct rc_xlat *x, unsigned long long v)
{
	if (!v)
		return;
	strbuf_addf(d->rv_extra, "(%s", prefix);
	xlat_print_flags(d->rv_extra, x, v, NULL);
	strbuf_addc(d->rv_extra, ')');
}

/*
 * fcntl's F_GETFD, F_GETFL, F_GETLEASE and F_GET_SEALS return values are
 * printed in hex by strace ("= 0x1 (flags FD_CLOEXEC)"), with the flags
 * named in parentheses after it.
 */
void dec_fcntl(struct dec *d)
{
	unsigned cmd = (unsigned)d->call.args[1];
	uint64_t arg = d->call.args[2];

	if (!d->exiting) {
		file_fd_arg(d, 0);
		dec_sep(d);
		xlat_print_val(d->out, &rc_xlat_fcntlcmds, cmd, "F_???");
		switch (cmd) {
		case F_SETFD:
			dec_sep(d);
			xlat_print_flags(d->out, &rc_xlat_fdflags, arg, "FD_???");
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
			xlat_print_flags(d->out, &rc_xlat_notifyflags, arg, "DN_???");
			break;
		case F_SETLEASE:
			dec_sep(d);
			xlat_print_val(d->out, &rc_xlat_lockfcmds, arg, "F_???");
			break;
		case F_ADD_SEALS:
			dec_sep(d);
			xlat_print_flags(d->out, &rc_xlat_f_seals, arg, "F_SEAL_???");
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
	if (!d->call.err && (cmd == F_GETFD || cmd == F_GETFL || cmd == F_GETLEASE || cmd == F_GET_SEALS))
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
		if (!d->call.err)
			rv_flags(d, "flags ", &rc_xlat_fdflags, (unsigned long long)d->call.rval);
		break;
	case F_GETFL:
		if (!d->call.err) {
			struct strbuf *save = d->out;
			strbuf_add(d->rv_extra, "(flags ", 7);
			d->out = d->rv_extra;
			dec_open_flags(d, (unsigned long long)d->call.rval);
			d->out = save;
			strbuf_addc(d->rv_extra, ')');
		}
		break;
	case F_GETLEASE:
		if (!d->call.err) {
			const char *name = xlat_name(&rc_xlat_lockfcmds, d->call.rval);
			if (name)
				strbuf_addf(d->rv_extra, "(%s)", name);
		}
		break;
	case F_GET_SEALS:
		if (!d->call.err)
			rv_flags(d, "seals ", &rc_xlat_f_seals, (unsigned long long)d->call.rval);
		break;
	case F_GETSIG:
		if (!d->call.err && d->call.rval) {
			const char *name = dec_signame((int)d->call.rval);
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
	xlat_print_flags(d->out, &rc_xlat_flockcmds, d->call.args[1], "LOCK_???");
}
