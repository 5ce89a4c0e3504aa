/* Syscall decoders: a call (capture/call.h: its number, arguments,
 * outcome and memory, whichever source made it) -> strace-format
 * argument text and event facts, in one pass. Every read of the call's
 * memory goes through d->call.mem (mem_read, mem_read_str): a decoder
 * never knows whether that is a stopped tracee or copies the kernel made.
 *
 * A decoder is called twice per call: at entry (d->exiting false) it prints
 * the arguments the kernel reads, at exit (d->exiting true) the ones it
 * writes (read buffers, stat results, accepted addresses, pipe fds). The
 * framework prints "name(" before the entry half and ") = RET" after the
 * exit half, so a decoder prints only what sits between the parentheses,
 * including the ", " separators (strace prints "read(3, " at entry and
 * "\"data\"..., 1024" at exit).
 *
 * The event the rules read, d->e, gets the facts that event.h documents,
 * each argument as its role in event/syscalls.def says (the roles
 * strace/facts.c reads a log's text by), and mostly not from the
 * decoder: dec_call first has event/facts.c take the scalar roles from
 * the arguments (event_raw_arg_facts, event_raw_exit_facts), then reads
 * the memory roles of paths, data, socket addresses, timeouts and argv into
 * d->copy and the event (dec_read_roles), each in the half
 * event_arg_at_exit gives it; the decoder prints those copies. The
 * structs whose decoding is their printing (stat buffers, poll and
 * select sets, epoll events, iovecs, msghdrs, pipe fds, wait
 * status, open_how, clone_args, struct flock, futex timeouts...) stay
 * their decoders' facts. dec_call then adds the facts that follow from
 * the call's meaning (event/facts.c: accept's new fd, creat's
 * flags...). Strings kept in the event must come from dec_keep() or the
 * dec_* readers, which copy into the thread's arena: it lives from entry
 * until the event has been dispatched.
 *
 * A call's row in event/syscalls.def names its decoder (openat's is
 * dec_openat; decode/decoders.h declares them all from the rows), and
 * the decoders live one family a file under decode/: file (with fcntl,
 * ioctl and mount, which share file.h), net, process, memory, futex, io,
 * signal, and misc.
 */
#ifndef RC_CAPTURE_DECODE_H
#define RC_CAPTURE_DECODE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/call.h"
#include "event/event.h"
#include "event/syscalls.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xlat.h"

/* A thread's decoded arguments live in util/arena's bump allocator (the
 * strace parser's too); pointers stay valid until dec_arena_reset(). */
struct dec_arena {
	struct arena a;
};

static inline void dec_arena_reset(struct dec_arena *a)
{
	arena_reset(&a->a);
}

static inline void dec_arena_release(struct dec_arena *a)
{
	arena_release(&a->a);
}

struct dec_opts {
	int strsize;		/* -s: bytes of a data buffer printed (default 32) */
	bool decode_fds;	/* -y: print fds as 3</path> */
	bool hex_all;		/* -x: non-ASCII as \x.. (strace -x) */
	size_t preview_max;	/* bytes of written/read data kept in the event */
};

struct dec {
	pid_t tid;		/* the thread: -y's /proc/TID/fd and cwd */
	/* The call (capture/call.h): at entry its number, arguments and
	 * memory; at exit its outcome too, and the memory as it is then. */
	struct call_view call;
	bool exiting;

	struct rc_event *e;
	struct strbuf *out;
	struct dec_arena *arena;
	const struct dec_opts *opts;

	/* Private to the decoder of the call: set at entry, read at exit. */
	uint64_t priv[4];

	/* The arguments of the memory roles this half takes (PATH, PATH2,
	 * SOCKADDR, DATA_OUT, DATA_IN, TIMEOUT_TS, TIMEOUT_TV, ARGV), read
	 * by the framework before the decoder runs (dec_read_roles): the
	 * event has their facts, and the decoder prints them from here
	 * (dec_path_arg, dec_sockaddr_arg, dec_buf_arg, dec_timeout_arg,
	 * dec_argv_arg), so that the call's memory is read once. */
	struct dec_copy {
		bool taken;	/* read for this half */
		bool ok;	/* readable (else the address is printed) */
		bool cut;	/* longer than printed (PATH_MAX - 1, -s) */
		const char *s;	/* kept in the arena: the path, the data
				 * printed, or a socket address's text */
		size_t n;
	} copy[6];

	/* At exit, text printed after the return value: "(Timeout)",
	 * "([{fd=3, revents=POLLIN}])" for poll. Without the parentheses'
	 * leading space; the framework adds " ". */
	struct strbuf *rv_extra;
	/* At exit: print this call's return value in hex whatever the table
	 * says (fcntl F_GETFL, whose value is flags). */
	bool rv_hex;
};

typedef void (*dec_fn)(struct dec *d);

/* A call as the tracer prints it: its decoder, and from the syscall
 * table how many arguments, how the return value prints, its trace
 * classes. */
struct dec_syscall {
	long nr;		/* SYS_x */
	dec_fn fn;		/* NULL: print NARGS arguments generically */
	unsigned char nargs;
	unsigned char rv;	/* enum rc_sc_rv */
	unsigned classes;	/* TC_* */
};

/* The tracer's table (decode/table.c), indexed by syscall number: the
 * calls of event/syscalls.def the headers number, with the decoders
 * their rows name. */
const struct dec_syscall *dec_lookup(long nr);
/* The syscall's name, or NULL when the headers do not name NR. */
const char *dec_syscall_name(long nr);
/* NR's number by name; -1 when unknown. */
long dec_syscall_nr(const char *name, size_t len);
/* Highest syscall number + 1 known to the table. */
long dec_nr_max(void);

/* Run the decoder of d->call.nr (or the generic printer) for the current half. */
void dec_call(struct dec *d);
/* Read the arguments of SC's memory roles this half takes into d->copy
 * and their facts into the event (decode/read-roles.c; dec_call calls
 * it for the calls a decoder prints, before the decoder). */
void dec_read_roles(struct dec *d, const struct rc_syscall *sc);

/*
 * Helpers for decoders (decode/print.c; socket addresses in
 * decode/sockaddr.c, the arguments dec_read_roles reads in
 * decode/read-roles.c). Each prints one argument, with no separator, and
 * where it says so also returns what it read.
 */
/* ", " */
void dec_sep(struct dec *d);
void dec_ulong(struct dec *d, int argi);	/* as an unsigned long */
void dec_hex(struct dec *d, int argi);		/* 0x... */
void dec_ptr(struct dec *d, uint64_t addr);	/* NULL or 0x... */
/* An fd argument: "3", or "3</etc/x>" with -y. When FD is d->e->fd, what
 * the decoration says also becomes the event's fd_shown (set e->fd
 * first; strace/decoration.h reads it). dec_dirfd prints AT_FDCWD for
 * -100 ("AT_FDCWD</cwd>" with -y) and, when FD is d->e->dirfd (set it
 * first; event_clear leaves AT_FDCWD), sets the event's dir_shown with
 * -y. */
void dec_fd(struct dec *d, int fd);
void dec_dirfd(struct dec *d, int fd);
/* Open flags: the access mode, then the other flags in strace's order:
 * "O_RDONLY|O_CLOEXEC", "O_WRONLY|O_CREAT|O_TRUNC". The event's flags are
 * event_open_flags() of the same value. */
void dec_open_flags(struct dec *d, unsigned long long v);
/* A NUL-terminated path: printed quoted in full (up to PATH_MAX), kept and
 * returned; NULL (with the address printed) when unreadable. */
const char *dec_path(struct dec *d, uint64_t addr);
/* Path argument I, the same way: from d->copy when dec_read_roles read
 * it (a PATH or PATH2 role), else read now. */
const char *dec_path_arg(struct dec *d, int i);
/* A data buffer of LEN bytes: printed quoted up to -s with "..." after the
 * quote when cut; up to opts->preview_max bytes are copied into the event's
 * data preview when PREVIEW is true. */
void dec_buf(struct dec *d, uint64_t addr, size_t len, bool preview);
/* Data argument I (a DATA_OUT or DATA_IN role) the same way, with its
 * preview: from d->copy when dec_read_roles read it, else LEN bytes
 * read now. */
void dec_buf_arg(struct dec *d, int i, size_t len);
/* A NUL-terminated string printed up to -s ("..." when cut); returned kept. */
const char *dec_str(struct dec *d, uint64_t addr);
/* An envp-like array as strace prints it by default: its address and,
 * in a comment, how many strings it holds ("23 vars"). */
void dec_envp(struct dec *d, uint64_t addr);
/* N bytes already read, printed quoted as strace does (-x honoured), with
 * "..." after the closing quote when CUT. */
void dec_quote(struct dec *d, const void *p, size_t n, bool cut);
/* strace's print_array: COUNT elements of SIZE bytes (at most 64) at
 * ADDR as "[a, b, ...]", cut with "..." after -s elements. NULL prints
 * NULL, no elements "[]", an unreadable first element (or a range that
 * wraps) the address, a later one "..." and its address. ELEM prints the
 * element read into ITEM. Returns how many were printed, or -1 when no
 * bracketed array was (NULL, [], an address). */
typedef void (*dec_elem_fn)(struct dec *d, const void *item, void *ctx);
long dec_array(struct dec *d, uint64_t addr, uint64_t count, size_t size, dec_elem_fn elem, void *ctx);
/* A sockaddr of LEN bytes: printed as strace does and decoded into d->e->sa. */
void dec_sockaddr(struct dec *d, uint64_t addr, size_t len);
/* Socket address argument I (a SOCKADDR role: connect, bind, sendto),
 * whose length is argument I + 1 as an int (below 2 strace prints the
 * address): from d->copy when dec_read_roles read it, else read now. */
void dec_sockaddr_arg(struct dec *d, int i);
/* Timeout argument I (a TIMEOUT_TS or TIMEOUT_TV role: ppoll, select,
 * pselect6, epoll_pwait2) printed, as a timespec or (TIMEOUT_TV) a
 * timeval, and the event's timeout_ms: from d->copy when
 * dec_read_roles read it, else read now. */
void dec_timeout_arg(struct dec *d, int i);
/* execve's argv, argument I (an ARGV role), printed as strace prints an
 * array of strings and kept as the event's argv: from d->copy when
 * dec_read_roles read it, else read now. */
void dec_argv_arg(struct dec *d, int i);
/* An errno value's name, for SO_ERROR and the like. */
void dec_errno_name(struct dec *d, int err);

/* Copy N bytes into the arena and NUL-terminate; NULL when out of memory. */
char *dec_keep(struct dec *d, const void *p, size_t n);

/*
 * Printers the families share (decode/print.c; the signal ones in
 * signal.c); the tracer prints its signal-delivery lines with
 * dec_signame and dec_siginfo.
 *
 * strace walks its value tables in its own order, which is not always the
 * order of the bits (MAP_NORESERVE before MAP_GROWSDOWN): such a table is
 * a file of src/xlat/, written in strace's order, which the generator
 * makes into rc_xlat_NAME (gen/tables.h), printed with xlat_print_flags
 * and xlat_print_val (util/xlat.h).
 */
/* strace's umove_or_printaddr: read LEN bytes at ADDR into BUF, or print
 * NULL or the address and return false, also at the exit of a failed call
 * (the kernel wrote nothing). */
bool dec_umove(struct dec *d, uint64_t addr, void *buf, size_t len);
/* A struct timespec at ADDR: "{tv_sec=1, tv_nsec=0}" (NULL or the address
 * when it cannot be read). *SEC gets its value in seconds when read (SEC
 * may be NULL). */
bool dec_timespec(struct dec *d, uint64_t addr, double *sec);
/* A struct timeval: "{tv_sec=1, tv_usec=0}". */
void dec_timeval(struct dec *d, uint64_t addr);
/* The kernel's struct __kernel_timespec, and timeval, on x86_64. */
struct dec_ktime {
	int64_t sec;
	int64_t nsec;		/* tv_usec in a timeval */
};
/* A timeval already read. */
void dec_timeval_val(struct dec *d, const struct dec_ktime *t);
/* A clock_t count of ticks as strace prints it, the seconds in a
 * comment when not 0: 123 ticks of 100 Hz print as 123 and "1.23 s". */
void dec_clock_t(struct strbuf *out, unsigned long long ticks);
/* A clock id: "CLOCK_MONOTONIC", or its number in hex with a
 * CLOCK_??? comment. */
void dec_clockid(struct dec *d, unsigned id);

/* A signal's name as strace prints it: "SIGSEGV", "SIGRTMIN", "SIGRT_3";
 * NULL when SIG has none. */
const char *dec_signame(int sig);
/* A signal number argument: its name, or the number. */
void dec_signal(struct dec *d, int sig);
/* A sigset of LEN bytes at ADDR: "[INT TERM]", or "~[RTMIN RT_1]" when
 * two thirds or more of the signals are in it. */
void dec_sigset(struct dec *d, uint64_t addr, uint64_t len);
/* A siginfo as strace prints it: "{si_signo=SIGSEGV, si_code=SEGV_MAPERR,
 * si_addr=0x10}", "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=123,
 * si_uid=0, si_status=0, si_utime=0, si_stime=0}". */
void dec_siginfo(struct strbuf *out, const siginfo_t *si);
/* The lines a trace shows besides calls, into OUT (reset first), for the
 * tracer and the kernel records alike: a signal delivered, "--- SIGSEGV
 * {si_signo=...} ---"; a stop, "--- stopped by SIGTSTP ---"; a thread's
 * end as E (RC_EV_EXIT) has it, "+++ exited with 1 +++", "+++ killed by
 * SIGKILL (core dumped) +++". A signal the tables lack is its number. */
void dec_signal_line(struct strbuf *out, const siginfo_t *si);
void dec_stop_line(struct strbuf *out, int sig);
void dec_exit_line(struct strbuf *out, const struct rc_event *e);
/* A failed call's return as strace prints it: "-1 ENOENT (No such file or
 * directory)", "? ERESTARTSYS (To be restarted if SA_RESTART is set)". */
void dec_error_rv(struct strbuf *out, int err);
/* The siginfo at ADDR, or NULL or the address. */
void dec_siginfo_at(struct dec *d, uint64_t addr);

#endif
