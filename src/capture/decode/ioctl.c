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

void dec_ioctl(struct dec *d)
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
	file_fd_arg(d, 0);
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
