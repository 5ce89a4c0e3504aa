/* The I/O family: reading and writing, vectors, pipes and splicing, event
 * and timer fds, and waiting for fds (poll, select, epoll), as strace 6.1
 * prints them, with the facts their arguments' roles in event/syscalls.def
 * give: fd, fd2, len, offset, the data written, the polled fds and the
 * timeout. What a struct's members mean is event/facts.h's, which the
 * strace parser calls with the same values read from the text.
 *
 * What the kernel writes (read buffers, ready fds, pipe fds, the time
 * left) is printed at exit; poll's and select's results go after the
 * return value, as strace prints them: "= 1 ([{fd=3, revents=POLLIN}])".
 * The constant tables (src/xlat/) are in strace's order, their values
 * from the headers. Only x86_64's native layouts are decoded.
 */
#include "capture/decode.h"
#include "event/facts.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>

#include "capture/decode/decoders.h"
#include "gen/tables.h"
#include "util/util.h"

/*
 * Small printers.
 */
static size_t strsize(const struct dec *d)
{
	return d->opts && d->opts->strsize >= 0 ? (size_t)d->opts->strsize : 32;
}

/* The fd argument I, printed; the event's fd is its FD role's (event_raw_arg_facts). */
static void fd_arg(struct dec *d, int i)
{
	dec_fd(d, (int)d->call.args[i]);
}

/* printnum_int64 / printnum_ulong: "[N]", NULL or the address. False
 * when nothing was read. */
static bool ll_at(struct dec *d, uint64_t addr, bool is_signed)
{
	int64_t v;

	if (!dec_umove(d, addr, &v, sizeof(v)))
		return false;
	if (is_signed)
		strbuf_addf(d->out, "[%lld]", (long long)v);
	else
		strbuf_addf(d->out, "[%llu]", (unsigned long long)v);
	return true;
}

/* The kernel's struct __kernel_timespec. */
struct k_timespec {
	int64_t sec;
	int64_t nsec;
};

/* sprint_timespec/sprint_timeval for the "left" of poll and select. */
static void left_time(struct dec *d, struct strbuf *sb, uint64_t addr, bool usec)
{
	struct k_timespec t;

	if (!addr)
		strbuf_add(sb, "NULL", 4);
	else if (mem_read(d->call.mem, addr, &t, sizeof(t)) != (ssize_t)sizeof(t))
		strbuf_addf(sb, "%#llx", (unsigned long long)addr);
	else
		strbuf_addf(sb, usec ? "{tv_sec=%lld, tv_usec=%llu}" : "{tv_sec=%lld, tv_nsec=%llu}",
			    (long long)t.sec, (unsigned long long)t.nsec);
}

/*
 * read and write.
 */
void dec_read(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		return;
	}
	if (d->call.err)
		dec_ptr(d, d->call.args[1]);
	else
		dec_buf(d, d->call.args[1], (size_t)d->call.rval, false);
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[2]);
	if (d->call.nr == SYS_pread64)
		strbuf_addf(d->out, ", %lld", (long long)d->call.args[3]);
}

void dec_write(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	dec_buf_arg(d, 1, (size_t)d->call.args[2]);
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[2]);
	if (d->call.nr == SYS_pwrite64)
		strbuf_addf(d->out, ", %lld", (long long)d->call.args[3]);
}

/*
 * Vectors: strace's tprint_iov_upto. Each element's data is printed up to
 * what is left of DATA_SIZE (a read's return value; all of it for a
 * write), at most -s elements. The event gets the sum of the printed
 * iov_len (the IOV roles) and, for writes, a preview of the data.
 */
struct k_iovec {
	uint64_t base;
	uint64_t len;
};

static void preview_add(struct dec *d, unsigned char *buf, size_t *have, size_t max, const struct k_iovec *v)
{
	size_t n = MIN((size_t)v->len, max - *have);

	if (n && v->base && mem_read(d->call.mem, v->base, buf + *have, n) == (ssize_t)n)
		*have += n;
}

struct iov_ctx {
	uint64_t data_size;	/* what is left to print of the data */
	bool addrs_only;
	unsigned long long sum, total;
	unsigned char *pbuf;	/* the preview, gathered; NULL without one */
	size_t have, pmax;
	uint64_t nelem;		/* elements seen */
};

/* The last N bytes of the buffers of the first CNT elements of the iovec
 * array at ADDR, TOTAL bytes in all, into OUT; false when unreadable. */
static bool iov_tail(struct dec *d, uint64_t addr, uint64_t cnt, unsigned long long total, unsigned char *out,
		     size_t n)
{
	unsigned long long from = total - n, off = 0;
	size_t got = 0;

	for (uint64_t i = 0; i < cnt && got < n; i++) {
		struct k_iovec v;
		if (mem_read(d->call.mem, addr + i * sizeof(v), &v, sizeof(v)) != (ssize_t)sizeof(v))
			return false;
		unsigned long long end = off + v.len;
		if (end > from && v.len) {
			unsigned long long at = MAX(from, off);
			size_t k = (size_t)MIN(end - at, (unsigned long long)(n - got));
			if (mem_read(d->call.mem, v.base + (at - off), out + got, k) != (ssize_t)k)
				return false;
			got += k;
		}
		off = end;
	}
	return got == n;
}

static void iov_elem(struct dec *d, const void *item, void *ctx)
{
	struct iov_ctx *c = ctx;
	struct k_iovec v;

	memcpy(&v, item, sizeof(v));
	uint64_t len = MIN(v.len, c->data_size);
	if (c->data_size != UINT64_MAX)
		c->data_size -= len;
	strbuf_add(d->out, "{iov_base=", 10);
	if (c->addrs_only)
		dec_ptr(d, v.base);
	else
		dec_buf(d, v.base, (size_t)len, false);
	strbuf_addf(d->out, ", iov_len=%llu}", (unsigned long long)v.len);
	c->sum += v.len;
	c->nelem++;
	if (c->pbuf) {
		c->total += v.len;
		preview_add(d, c->pbuf, &c->have, c->pmax, &v);
	}
}

static void iov_print(struct dec *d, uint64_t addr, uint64_t cnt, uint64_t data_size, bool addrs_only, bool preview)
{
	struct iov_ctx c = { .data_size = data_size, .addrs_only = addrs_only };

	c.pmax = preview && d->opts ? d->opts->preview_max : 0;
	/* Gathered here, kept in the arena at the end. */
	if (c.pmax && addr && cnt)
		c.pbuf = malloc(c.pmax);
	if (dec_array(d, addr, cnt, sizeof(struct k_iovec), iov_elem, &c) < 0) {
		free(c.pbuf);
		return;
	}
	d->e->len = c.sum;
	if (c.pbuf) {
		/* More than the preview holds: the tail is read apart. */
		size_t head = c.have, tail = 0;
		if (c.have < c.total && c.have == c.pmax) {
			size_t h, t;
			event_data_ends(c.total, c.pmax, &h, &t);
			unsigned char *tb = malloc(t);
			if (tb && iov_tail(d, addr, c.nelem, c.total, tb, t)) {
				memcpy(c.pbuf + h, tb, t);
				head = h;
				tail = t;
			}
			free(tb);
		}
		event_data_facts(d->e, (const unsigned char *)dec_keep(d, c.pbuf, head + tail), head, tail, c.total);
		free(c.pbuf);
	}
}

/* readv/preadv/preadv2 print everything but the fd at exit. */
void dec_readv(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		return;
	}
	iov_print(d, d->call.args[1], d->call.args[2], d->call.err ? UINT64_MAX : (uint64_t)d->call.rval, d->call.err != 0, false);
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[2]);
	if (d->call.nr != SYS_readv)
		strbuf_addf(d->out, ", %lld", (long long)d->call.args[3]);
	if (d->call.nr == SYS_preadv2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_rwf_flags, d->call.args[5], "RWF_???");
	}
}

void dec_writev(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	iov_print(d, d->call.args[1], d->call.args[2], UINT64_MAX, false, true);
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[2]);
	if (d->call.nr != SYS_writev)
		strbuf_addf(d->out, ", %lld", (long long)d->call.args[3]);
	if (d->call.nr == SYS_pwritev2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_rwf_flags, d->call.args[5], "RWF_???");
	}
}

/*
 * Splicing and copying.
 */
/* sendfile(out_fd, in_fd, [offset] => [new offset], count); priv[0] is 1
 * when the offset was printed at entry and the exit half goes on. */
void dec_sendfile(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		dec_fd(d, (int)d->call.args[1]);
		dec_sep(d);
		d->priv[0] = ll_at(d, d->call.args[2], false);
		if (!d->priv[0])
			strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[3]);
		return;
	}
	if (!d->priv[0])
		return;
	if (!d->call.err && d->call.rval) {
		strbuf_add(d->out, " => ", 4);
		ll_at(d, d->call.args[2], false);
	}
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[3]);
}

/* splice and copy_file_range(fd_in, off_in, fd_out, off_out, len, flags):
 * fd_out is fd2, as their roles say. */
void dec_splice(struct dec *d)
{
	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	ll_at(d, d->call.args[1], true);
	dec_sep(d);
	dec_fd(d, (int)d->call.args[2]);
	dec_sep(d);
	ll_at(d, d->call.args[3], true);
	strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[4]);
	if (d->call.nr == SYS_splice)
		xlat_print_flags(d->out, &rc_xlat_splice_flags, d->call.args[5], "SPLICE_F_???");
	else
		strbuf_addf(d->out, "%u", (unsigned)d->call.args[5]);
}

/* tee and vmsplice have no roles: their fds are not the event's. */
void dec_tee(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	dec_fd(d, (int)d->call.args[1]);
	strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[2]);
	xlat_print_flags(d->out, &rc_xlat_splice_flags, d->call.args[3], "SPLICE_F_???");
}

void dec_vmsplice(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	dec_sep(d);
	/* The vector is printed as writev's, but its length is not a fact of
	 * this call. */
	iov_print(d, d->call.args[1], d->call.args[2], UINT64_MAX, false, false);
	d->e->len = 0;
	strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[2]);
	xlat_print_flags(d->out, &rc_xlat_splice_flags, d->call.args[3], "SPLICE_F_???");
}

/*
 * Pipes, eventfd, timerfd.
 */
void dec_pipe(struct dec *d)
{
	int fds[2];

	if (!d->exiting)
		return;
	if (dec_umove(d, d->call.args[0], fds, sizeof(fds))) {
		strbuf_addc(d->out, '[');
		dec_fd(d, fds[0]);
		dec_sep(d);
		dec_fd(d, fds[1]);
		strbuf_addc(d->out, ']');
		if (!d->call.err) {
			event_add_fd(d->e, fds[0]);
			event_add_fd(d->e, fds[1]);
		}
	}
	if (d->call.nr == SYS_pipe2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_open_mode_flags, d->call.args[1], "O_???");
	}
}

void dec_eventfd(struct dec *d)
{
	if (d->exiting)
		return;
	strbuf_addf(d->out, "%u", (unsigned)d->call.args[0]);
	if (d->call.nr == SYS_eventfd2) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_efd_flags, d->call.args[1], "EFD_???");
	}
}

static void itimerspec_at(struct dec *d, uint64_t addr)
{
	struct k_timespec t[2];

	if (dec_umove(d, addr, t, sizeof(t)))
		strbuf_addf(d->out,
			    "{it_interval={tv_sec=%lld, tv_nsec=%llu}, it_value={tv_sec=%lld, tv_nsec=%llu}}",
			    (long long)t[0].sec, (unsigned long long)t[0].nsec, (long long)t[1].sec,
			    (unsigned long long)t[1].nsec);
}

void dec_timerfd_create(struct dec *d)
{
	if (d->exiting)
		return;
	dec_clockid(d, (unsigned)d->call.args[0]);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_timerfdflags, d->call.args[1], "TFD_???");
}

/* The timer calls have no roles: the fd is printed, not the event's. */
void dec_timerfd_settime(struct dec *d)
{
	if (!d->exiting) {
		dec_fd(d, (int)d->call.args[0]);
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_timerfdflags, d->call.args[1], "TFD_???");
		dec_sep(d);
		itimerspec_at(d, d->call.args[2]);
		dec_sep(d);
	} else {
		itimerspec_at(d, d->call.args[3]);
	}
}

void dec_timerfd_gettime(struct dec *d)
{
	if (!d->exiting) {
		dec_fd(d, (int)d->call.args[0]);
		dec_sep(d);
	} else {
		itimerspec_at(d, d->call.args[1]);
	}
}

/*
 * poll and ppoll. The entry prints the array (at most -s elements) and
 * takes the fds into the event; the exit puts the ready ones after the
 * return value.
 */
static void pollfd_elem(struct dec *d, const void *item, void *ctx)
{
	struct pollfd p;

	(void)ctx;
	memcpy(&p, item, sizeof(p));
	strbuf_add(d->out, "{fd=", 4);
	dec_fd(d, p.fd);
	if (p.fd >= 0) {
		strbuf_add(d->out, ", events=", 9);
		xlat_print_flags(d->out, &rc_xlat_pollflags, (unsigned short)p.events, "POLL???");
	}
	strbuf_addc(d->out, '}');
	event_add_fd(d->e, p.fd);
}

static void pollfds_at(struct dec *d, uint64_t addr, unsigned nfds)
{
	dec_array(d, addr, nfds, sizeof(struct pollfd), pollfd_elem, NULL);
}

/* strace's decode_poll_exiting: "(Timeout)", or the fds with revents and
 * for ppoll the time left, into rv_extra. */
#define POLL_SCAN_MAX (1u << 20)

static void poll_result(struct dec *d, uint64_t pts)
{
	struct strbuf *sb = d->rv_extra;
	uint64_t addr = d->call.args[0];
	unsigned nfds = (unsigned)d->call.args[1];
	size_t printed = 0, body;
	struct pollfd p;

	if (d->call.err)
		return;
	if (d->call.rval == 0) {
		strbuf_add(sb, "(Timeout)", 9);
		return;
	}
	/* No array: nothing at all, not even the time left. */
	if (!addr || !nfds || addr + (uint64_t)nfds * sizeof(p) <= addr)
		return;
	strbuf_addc(sb, '(');
	body = sb->len;
	/* Read the array a chunk at a time, and stop once as many entries as
	 * the call said were ready have been seen: NFDS comes from the
	 * tracee, and one read per entry of a huge array would hold it
	 * stopped for seconds. */
	struct pollfd chunk[256];
	unsigned have = 0, first = 0, ready = 0;
	/* A tracee may claim any NFDS (the kernel refuses more than its fd
	 * limit, but the decoder cannot know that limit): scan at most
	 * POLL_SCAN_MAX entries for the ready ones, as many as an fd table
	 * of a million holds. fuzz_decode found a 2^32 array of idle entries
	 * in readable memory taking minutes. */
	unsigned scan = nfds < POLL_SCAN_MAX ? nfds : POLL_SCAN_MAX;
	for (unsigned i = 0; i < scan && ready < (unsigned long long)d->call.rval; i++) {
		uint64_t at = addr + (uint64_t)i * sizeof(p);
		bool ok;
		if (i - first >= have) {
			unsigned n = nfds - i < 256 ? nfds - i : 256;
			first = i;
			have = mem_read(d->call.mem, at, chunk, n * sizeof(p)) == (ssize_t)(n * sizeof(p)) ? n : 0;
		}
		if (have) {
			p = chunk[i - first];
			ok = true;
		} else {
			/* The chunk crosses into unreadable memory: entry by entry. */
			ok = mem_read(d->call.mem, at, &p, sizeof(p)) == (ssize_t)sizeof(p);
			first = i + 1;
		}
		if (ok && !p.revents)
			continue;
		ready++;
		strbuf_adds(sb, sb->len == body ? "[" : ", ");
		if (!ok) {
			strbuf_addf(sb, "%#llx", (unsigned long long)at);
			break;
		}
		if (printed >= strsize(d)) {
			strbuf_add(sb, "...", 3);
			break;
		}
		strbuf_addf(sb, "{fd=%d, revents=", p.fd);
		struct strbuf *save = d->out;
		d->out = sb;
		xlat_print_flags(d->out, &rc_xlat_pollflags, (unsigned short)p.revents, NULL);
		d->out = save;
		strbuf_addc(sb, '}');
		printed++;
	}
	if (ready < (unsigned long long)d->call.rval && scan < nfds && printed < strsize(d))
		strbuf_adds(sb, sb->len == body ? "[..." : ", ...");
	if (sb->len != body)
		strbuf_addc(sb, ']');
	if (pts) {
		strbuf_adds(sb, sb->len == body ? "left " : ", left ");
		left_time(d, sb, pts, false);
	}
	if (sb->len == body) {
		/* Nothing ready was readable and no time: no text. */
		sb->len = body - 1;
		sb->buf[sb->len] = '\0';
	} else {
		strbuf_addc(sb, ')');
	}
}

void dec_poll(struct dec *d)
{
	if (d->exiting) {
		poll_result(d, 0);
		return;
	}
	pollfds_at(d, d->call.args[0], (unsigned)d->call.args[1]);
	strbuf_addf(d->out, ", %u, %d", (unsigned)d->call.args[1], (int)d->call.args[2]);
}

void dec_ppoll(struct dec *d)
{
	if (d->exiting) {
		poll_result(d, d->call.args[2]);
		return;
	}
	pollfds_at(d, d->call.args[0], (unsigned)d->call.args[1]);
	strbuf_addf(d->out, ", %u, ", (unsigned)d->call.args[1]);
	dec_timeout_arg(d, 2);
	dec_sep(d);
	dec_sigset(d, d->call.args[3], d->call.args[4]);
	strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[4]);
}

/*
 * select and pselect6. The sets are printed at entry (with -y
 * decorations) and their fds are the event's; the exit puts the ready
 * ones after the return value, as strace's decode_select.
 */
static size_t fdset_size(int nfds)
{
	return (size_t)((((nfds + 7) / 8) + 7) & -8);
}

static int select_nfds(const struct dec *d)
{
	int nfds = (int)d->call.args[0];

	if (nfds < 0)
		nfds = 0;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	return nfds;
}

static bool bit_set(const unsigned char *set, int i)
{
	return set[i / 8] & (1u << (i % 8));
}

static void select_entry(struct dec *d)
{
	int nfds = select_nfds(d);
	size_t size = fdset_size(nfds);
	unsigned char *set = size ? malloc(size) : NULL;

	strbuf_addf(d->out, "%d", (int)d->call.args[0]);
	for (int i = 0; i < 3; i++) {
		uint64_t addr = d->call.args[i + 1];
		dec_sep(d);
		if (!set) {
			dec_ptr(d, addr);
			continue;
		}
		if (!dec_umove(d, addr, set, size))
			continue;
		strbuf_addc(d->out, '[');
		bool first = true;
		for (int j = 0; j < nfds; j++) {
			if (!bit_set(set, j))
				continue;
			if (!first)
				strbuf_addc(d->out, ' ');
			first = false;
			dec_fd(d, j);
			event_add_fd(d->e, j);
		}
		strbuf_addc(d->out, ']');
	}
	free(set);
	dec_sep(d);
	dec_timeout_arg(d, 4);	/* a timeval for select, a timespec for pselect6 */
}

static void select_exit(struct dec *d)
{
	static const char *const names[] = { "in", "out", "except" };
	struct strbuf *sb = d->rv_extra;
	int nfds = select_nfds(d);
	size_t size = fdset_size(nfds);
	unsigned char *set;
	long long ready = d->call.rval;
	const char *sep = "";

	if (d->call.err)
		return;
	if (ready == 0) {
		strbuf_add(sb, "(Timeout)", 9);
		return;
	}
	set = size ? malloc(size) : NULL;
	strbuf_addc(sb, '(');
	size_t body = sb->len;
	for (int i = 0; i < 3 && ready > 0; i++) {
		uint64_t addr = d->call.args[i + 1];
		bool first = true;
		if (!addr || !set || mem_read(d->call.mem, addr, set, size) != (ssize_t)size)
			continue;
		for (int j = 0; j < nfds; j++) {
			if (!bit_set(set, j))
				continue;
			if (first) {
				strbuf_addf(sb, "%s%s [%d", sep, names[i], j);
				first = false;
				sep = ", ";
			} else {
				strbuf_addf(sb, " %d", j);
			}
			if (--ready == 0)
				break;
		}
		/* As strace: a set with nothing ready still closes a bracket
		 * when an earlier one printed. */
		if (sb->len != body)
			strbuf_addc(sb, ']');
	}
	free(set);
	if (d->call.args[4]) {
		strbuf_addf(sb, "%sleft ", sep);
		left_time(d, sb, d->call.args[4], d->call.nr == SYS_select);
	}
	strbuf_addc(sb, ')');
}

void dec_select(struct dec *d)
{
	if (d->exiting)
		select_exit(d);
	else
		select_entry(d);
}

void dec_pselect6(struct dec *d)
{
	struct {
		uint64_t addr;
		uint64_t len;
	} sas;

	if (d->exiting) {
		select_exit(d);
		return;
	}
	select_entry(d);
	dec_sep(d);
	if (dec_umove(d, d->call.args[5], &sas, sizeof(sas))) {
		strbuf_add(d->out, "{sigmask=", 9);
		dec_sigset(d, sas.addr, sas.len);
		strbuf_addf(d->out, ", sigsetsize=%llu}", (unsigned long long)sas.len);
	}
}

/*
 * epoll.
 */
static void epoll_event_val(struct dec *d, const struct epoll_event *ev)
{
	strbuf_add(d->out, "{events=", 8);
	xlat_print_flags(d->out, &rc_xlat_epollevents, ev->events, "EPOLL???");
	strbuf_addf(d->out, ", data={u32=%u, u64=%llu}}", (unsigned)ev->data.u64,
		    (unsigned long long)ev->data.u64);
}

void dec_epoll_create(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%d", (int)d->call.args[0]);
}

void dec_epoll_create1(struct dec *d)
{
	if (!d->exiting)
		xlat_print_flags(d->out, &rc_xlat_epollflags, d->call.args[0], "EPOLL_???");
}

void dec_epoll_ctl(struct dec *d)
{
	struct epoll_event ev;
	unsigned op = (unsigned)d->call.args[1];

	if (d->exiting)
		return;
	fd_arg(d, 0);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_epollctls, op, "EPOLL_CTL_???");
	dec_sep(d);
	dec_fd(d, (int)d->call.args[2]);
	dec_sep(d);
	if (op == EPOLL_CTL_DEL)
		dec_ptr(d, d->call.args[3]);
	else if (dec_umove(d, d->call.args[3], &ev, sizeof(ev)))
		epoll_event_val(d, &ev);
}

static void epoll_elem(struct dec *d, const void *item, void *ctx)
{
	struct epoll_event ev;

	(void)ctx;
	memcpy(&ev, item, sizeof(ev));
	epoll_event_val(d, &ev);
	event_add_fd(d->e, (unsigned)ev.data.u64);
}

/* The ready events (at most -s of them); their data.u32 is the fd most
 * programs store there, and the event's fds (the EPOLL_EVENTS role). */
static void epoll_events_at(struct dec *d, uint64_t addr)
{
	/* A failed call wrote nothing: its array is just an address. */
	if (d->call.err && addr) {
		dec_ptr(d, addr);
		return;
	}
	dec_array(d, addr, (uint64_t)d->call.rval, sizeof(struct epoll_event), epoll_elem, NULL);
}

/* epoll_wait, epoll_pwait, epoll_pwait2: the epfd at entry, the rest
 * (the events the kernel wrote, the timeout) at exit. */
void dec_epoll_wait(struct dec *d)
{
	if (!d->exiting) {
		fd_arg(d, 0);
		dec_sep(d);
		return;
	}
	epoll_events_at(d, d->call.args[1]);
	strbuf_addf(d->out, ", %d, ", (int)d->call.args[2]);
	if (d->call.nr == SYS_epoll_pwait2) {
		/* strace prints it at exit, so a failed call shows its
		 * address (and the parser finds no timeout in that). */
		dec_timeout_arg(d, 3);
	} else {
		strbuf_addf(d->out, "%d", (int)d->call.args[3]);
	}
	if (d->call.nr != SYS_epoll_wait) {
		dec_sep(d);
		dec_sigset(d, d->call.args[4], d->call.args[5]);
		strbuf_addf(d->out, ", %llu", (unsigned long long)d->call.args[5]);
	}
}
