/* ioctl, as strace 6.1 prints it, with the terminal's structs (termios,
 * winsize, the modem lines). Part of the file family (file.h).
 */
#include "capture/decode.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>

#include "capture/decode/decoders.h"
#include "capture/decode/file.h"
#include "gen/tables.h"
#include "util/util.h"

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

/* The kernel's struct termios (not glibc's, which is longer). */
struct k_termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[19];
};

static void termios_at(struct dec *d, uint64_t addr)
{
	static const struct {
		const struct rc_xlat *x;
		unsigned mask;
		const char *dflt;
	} odelays[] = {
		{ &rc_xlat_term_oflags_nldly, NLDLY, "NL?" },
		{ &rc_xlat_term_oflags_crdly, CRDLY, "CR?" },
		{ &rc_xlat_term_oflags_tabdly, TABDLY, "TAB?" },
		{ &rc_xlat_term_oflags_bsdly, BSDLY, "BS?" },
		{ &rc_xlat_term_oflags_vtdly, VTDLY, "VT?" },
		{ &rc_xlat_term_oflags_ffdly, FFDLY, "FF?" },
	};
	/* IBSHIFT (asm/termbits.h): where CIBAUD keeps the input speed. */
	const int ibshift = __builtin_ctz(CIBAUD);
	struct k_termios t;

	if (!dec_umove(d, addr, &t, sizeof(t)))
		return;
	strbuf_add(d->out, "{c_iflag=", 9);
	xlat_print_flags(d->out, &rc_xlat_term_iflags, t.c_iflag, NULL);
	strbuf_add(d->out, ", c_oflag=", 10);
	unsigned v = t.c_oflag;
	for (size_t i = 0; i < ARRAY_SIZE(odelays); i++) {
		xlat_print_val(d->out, odelays[i].x, v & odelays[i].mask, odelays[i].dflt);
		strbuf_addc(d->out, '|');
		v &= ~odelays[i].mask;
	}
	xlat_print_flags(d->out, &rc_xlat_term_oflags, v, NULL);
	strbuf_add(d->out, ", c_cflag=", 10);
	v = t.c_cflag;
	xlat_print_val(d->out, &rc_xlat_baud_options, v & CBAUD, "B???");
	strbuf_addc(d->out, '|');
	if (v & CIBAUD) {
		xlat_print_val(d->out, &rc_xlat_baud_options, (v & CIBAUD) >> ibshift, "B???");
		strbuf_add(d->out, "<<IBSHIFT|", 10);
	}
	xlat_print_val(d->out, &rc_xlat_term_cflags_csize, v & CSIZE, "CS?");
	strbuf_addc(d->out, '|');
	xlat_print_flags(d->out, &rc_xlat_term_cflags, v & ~(unsigned)(CBAUD | CIBAUD | CSIZE), NULL);
	strbuf_add(d->out, ", c_lflag=", 10);
	xlat_print_flags(d->out, &rc_xlat_term_lflags, t.c_lflag, NULL);
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
	xlat_print_flags(d->out, &rc_xlat_modem_flags, (unsigned)v, "TIOCM_???");
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
		file_int_at(d, arg);
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
		xlat_print_val(d->out, &rc_xlat_tcxonc_options, arg, "TC???");
		break;
	case IOC_TCFLSH:
		xlat_print_val(d->out, &rc_xlat_tcflsh_options, arg, "TC???");
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

void dec_ioctl(struct dec *d)
{
	unsigned code = (unsigned)d->call.args[1];
	int known = -1;

	for (size_t i = 0; i < ARRAY_SIZE(ioctls); i++)
		if (ioctls[i].code == code) {
			known = (int)i;
			break;
		}
	if (d->exiting) {
		/* Unknown requests print their argument last, in hex. */
		if (known < 0)
			strbuf_addf(d->out, ", %#llx", (unsigned long long)d->call.args[2]);
		else if (ioc_is_out(ioctls[known].arg))
			ioctl_arg(d, (enum ioc_arg)ioctls[known].arg, d->call.args[2]);
		return;
	}
	file_fd_arg(d, 0);
	dec_sep(d);
	if (known >= 0) {
		strbuf_adds(d->out, ioctls[known].name);
		if (!ioc_is_out(ioctls[known].arg))
			ioctl_arg(d, (enum ioc_arg)ioctls[known].arg, d->call.args[2]);
		return;
	}
	strbuf_add(d->out, "_IOC(", 5);
	xlat_print_flags(d->out, &rc_xlat_ioctl_dirs, _IOC_DIR(code), "_IOC_???");
	strbuf_addf(d->out, ", %#x, %#x, %#x)", _IOC_TYPE(code), _IOC_NR(code), _IOC_SIZE(code));
}
