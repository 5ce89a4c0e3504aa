/* The network family: sockets, addresses, messages and socket options, as
 * strace 6.1 prints them, and the facts their arguments' roles give (fd,
 * the peer address, the data sent, SO_ERROR...).
 *
 * Calls that write results (accept's address, recvfrom's data, recvmsg's
 * message, getsockopt's value) print their first arguments at entry and
 * the rest at exit, as strace does; what was read at entry (the address
 * length the caller offered) is kept in d->priv.
 *
 * The constant tables (src/xlat/) are in strace's order (by value),
 * which is the order flags are printed in; their values come from the
 * headers.
 * Only x86_64's native layouts are decoded (no 32-bit compat structs),
 * and netlink messages in buffers are shown as strings where strace
 * decodes them.
 *
 * Where facts.c cannot read a fact back from strace's text (a protocol
 * or option name its tables lack, an optval printed as an address) the
 * event holds the real value, or no value, rather than its reading.
 */
#include "capture/decode.h"
#include "event/facts.h"

#include <arpa/inet.h>
#include <limits.h>
/* Before the linux/ headers: linux/icmp.h pulls linux/if.h, which then
 * leaves out what glibc's net/if.h already defined. */
#include <net/if.h>
#include <linux/errqueue.h>
#include <linux/icmp.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>

#include "capture/decode/decoders.h"
#include "gen/tables.h"
#include "util/util.h"

/* The kernel's SOCK_TYPE_MASK (include/linux/net.h), not exported. */
#define SOCK_TYPE_MASK 0xf

static void print_msg_flags(struct dec *d, unsigned long long v)
{
	xlat_print_flags(d->out, &rc_xlat_msg_flags, v, "MSG_???");
}

/* The generated family table also holds AF_LOCAL and AF_FILE for 1, and
 * AF_MAX, which strace does not name. */
static void print_family(struct dec *d, unsigned long long v)
{
	const char *name = NULL;

	if (v == AF_UNIX)
		name = "AF_UNIX";
	else if (v != AF_MAX && v <= INT_MAX)
		name = xlat_name(&rc_xlat_family, (long long)v);
	if (name)
		strbuf_adds(d->out, name);
	else
		strbuf_addf(d->out, "%#llx /* AF_??? */", v);
}

/* SOCK_STREAM|SOCK_CLOEXEC: the type, then its flags. */
static void print_sock_type(struct dec *d, unsigned int v)
{
	const char *type = xlat_name(&rc_xlat_socktypes, v & SOCK_TYPE_MASK);

	if (type) {
		strbuf_adds(d->out, type);
		v &= ~(unsigned int)SOCK_TYPE_MASK;
		if (!v)
			return;
		strbuf_addc(d->out, '|');
	}
	xlat_print_flags(d->out, &rc_xlat_sock_type_flags, v, "SOCK_???");
}

/* Bytes in \xNN notation, strace's QUOTE_FORCE_HEX. */
static void put_hex_string(struct dec *d, const void *p, size_t n)
{
	const unsigned char *b = p;

	strbuf_addc(d->out, '"');
	for (size_t i = 0; i < n; i++)
		strbuf_addf(d->out, "\\x%02x", b[i]);
	strbuf_addc(d->out, '"');
}

/* LEN bytes at ADDR in hex notation, or the address when unreadable. */
static void print_hex_mem(struct dec *d, uint64_t addr, size_t len)
{
	unsigned char buf[sizeof(int)];

	if (!addr) {
		strbuf_adds(d->out, "NULL");
		return;
	}
	len = MIN(len, sizeof(buf));
	if (mem_read(d->call.mem, addr, buf, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return;
	}
	put_hex_string(d, buf, len);
}

/* The int at ADDR as "[N]"; false (the address printed) when unreadable. */
static bool print_int_at(struct dec *d, uint64_t addr, int *out)
{
	int v;

	if (!addr || mem_read(d->call.mem, addr, &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		dec_ptr(d, addr);
		return false;
	}
	strbuf_addf(d->out, "[%d]", v);
	if (out)
		*out = v;
	return true;
}

static void print_id(struct dec *d, const char *field, unsigned int id)
{
	if (id == (unsigned int)-1)
		strbuf_addf(d->out, "%s=-1", field);
	else
		strbuf_addf(d->out, "%s=%u", field, id);
}

static void print_ifindex(struct dec *d, unsigned int idx)
{
	char name[IF_NAMESIZE + 1];

	if (idx && if_indextoname(idx, name)) {
		strbuf_adds(d->out, "if_nametoindex(");
		dec_quote(d, name, strlen(name), false);
		strbuf_addc(d->out, ')');
	} else {
		strbuf_addf(d->out, "%u", idx);
	}
}

static void print_inet_addr(struct dec *d, const char *field, const struct in_addr *a)
{
	char host[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, a, host, sizeof(host));
	strbuf_addf(d->out, "%s=inet_addr(\"%s\")", field, host);
}

/* The first argument, the socket, printed (the event's fd by its role). */
static void sock_fd(struct dec *d)
{
	dec_fd(d, (int)d->call.args[0]);
}

/* A socket address of LEN bytes (an int: strace prints the address when
 * it is below 2). Decoded into the event unless KEEP_SA is false: the
 * event describes the first message of sendmmsg/recvmmsg only, and the
 * addresses inside control messages are not the peer's. */
static void print_sockaddr(struct dec *d, uint64_t addr, int len, bool keep_sa)
{
	struct rc_sockaddr saved = d->e->sa;

	if (len < 2)
		dec_ptr(d, addr);
	else
		dec_sockaddr(d, addr, (size_t)len);
	if (!keep_sa)
		d->e->sa = saved;
}

/* The data an event keeps of several buffers (an iovec array): each
 * buffer's preview appended while there is room. */
struct preview {
	struct strbuf buf;
	bool any;
	bool truncated;
};

static void preview_take(struct dec *d, struct preview *p)
{
	size_t max = d->opts ? d->opts->preview_max : 0;

	if (!d->e->data)
		return;
	size_t room = max > p->buf.len ? max - p->buf.len : 0;
	/* A message's buffers keep their head only (DNS reads them as one
	 * packet): a buffer's own tail would not follow its head. */
	size_t have = d->e->data_omitted ? d->e->data_gap : d->e->data_len;
	size_t n = MIN(room, have);
	strbuf_add(&p->buf, d->e->data, n);
	p->any = true;
	if (n < d->e->data_len || d->e->data_truncated)
		p->truncated = true;
}

static void preview_finish(struct dec *d, struct preview *p)
{
	const unsigned char *kept = p->any ? (const unsigned char *)dec_keep(d, strbuf_str(&p->buf), p->buf.len) : NULL;

	/* The total is not known: whether a buffer was cut is. */
	event_data_facts(d->e, kept, kept ? p->buf.len : 0, 0, kept ? p->buf.len : 0);
	d->e->data_truncated = kept && p->truncated;
	strbuf_release(&p->buf);
}

/* What a message's printing puts into the event (only the first message
 * of sendmmsg/recvmmsg does, as the MMSGHDR roles take only that one). */
struct msg_facts {
	bool data;		/* keep the data of msg_iov */
	uint64_t len;		/* the printed iov_len summed */
	bool have_len;
};

/* Elements of an array strace shows before "...": -s of them. */
static uint64_t array_max(const struct dec *d)
{
	return d->opts && d->opts->strsize >= 0 ? (uint64_t)d->opts->strsize : 32;
}

/* An iovec array of N elements at ADDR, as strace's tprint_iov_upto: at
 * most DATA_SIZE bytes shown over all buffers (UINT64_MAX: no limit). */
static void print_iov(struct dec *d, uint64_t addr, uint64_t n, uint64_t data_size, struct msg_facts *f)
{
	struct preview pv = { STRBUF_INIT, false, false };
	uint64_t shown = MIN(n, array_max(d));
	bool data = f && f->data;
	uint64_t i;

	if (!addr) {
		strbuf_adds(d->out, "NULL");
		return;
	}
	if (!n) {
		strbuf_adds(d->out, "[]");
		return;
	}
	if (n > UINT64_MAX / sizeof(struct iovec) || addr + n * sizeof(struct iovec) <= addr) {
		dec_ptr(d, addr);
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t at = addr + i * sizeof(struct iovec);
		struct iovec iov;
		if (i)
			dec_sep(d);
		if (mem_read(d->call.mem, at, &iov, sizeof(iov)) != (ssize_t)sizeof(iov)) {
			if (i == 0) {
				dec_ptr(d, addr);
				return;
			}
			strbuf_addf(d->out, "... /* %#llx */", (unsigned long long)at);
			pv.truncated = true;
			break;
		}
		if (i == 0)
			strbuf_addc(d->out, '[');
		if (i >= shown) {
			strbuf_adds(d->out, "...");
			pv.truncated = true;
			break;
		}
		uint64_t len = MIN((uint64_t)iov.iov_len, data_size);
		if (data_size != UINT64_MAX)
			data_size -= len;
		strbuf_adds(d->out, "{iov_base=");
		if (data)
			d->e->data = NULL;
		dec_buf(d, (uint64_t)(uintptr_t)iov.iov_base, (size_t)len, data);
		if (data)
			preview_take(d, &pv);
		strbuf_addf(d->out, ", iov_len=%llu}", (unsigned long long)iov.iov_len);
		if (f) {
			f->len += iov.iov_len;
			f->have_len = true;
		}
	}
	strbuf_addc(d->out, ']');
	if (data)
		preview_finish(d, &pv);
	else
		strbuf_release(&pv.buf);
}

/*
 * Control messages (msg_control), as strace's decode_msg_control: the
 * fds of SCM_RIGHTS, the credentials of SCM_CREDENTIALS, timestamps and
 * the IP level's ancillary data; others show their type only.
 */
static void print_timeval_data(struct dec *d, const unsigned char *p, size_t len)
{
	struct timeval tv;

	if (len < sizeof(tv)) {
		strbuf_adds(d->out, "???");
		return;
	}
	memcpy(&tv, p, sizeof(tv));
	strbuf_addf(d->out, "{tv_sec=%lld, tv_usec=%llu}", (long long)tv.tv_sec,
		    (unsigned long long)tv.tv_usec);
}

static void print_timespecs_data(struct dec *d, const unsigned char *p, size_t len, unsigned n)
{
	struct timespec ts;

	if (n > len / sizeof(ts)) {
		strbuf_adds(d->out, "???");
		return;
	}
	if (n > 1)
		strbuf_addc(d->out, '[');
	for (unsigned i = 0; i < n; i++) {
		memcpy(&ts, p + i * sizeof(ts), sizeof(ts));
		strbuf_addf(d->out, "%s{tv_sec=%lld, tv_nsec=%llu}", i ? ", " : "", (long long)ts.tv_sec,
			    (unsigned long long)ts.tv_nsec);
	}
	if (n > 1)
		strbuf_addc(d->out, ']');
}

/* Before element I of an array already in memory: the separator, and
 * false (with "..." printed) past the -s elements strace shows. */
static bool local_elem(struct dec *d, size_t i)
{
	if (i)
		dec_sep(d);
	if (i >= array_max(d)) {
		strbuf_adds(d->out, "...");
		return false;
	}
	return true;
}

/* The sockaddr inside a control message at tracee address ADDR. */
static void print_cmsg_sockaddr(struct dec *d, uint64_t addr, size_t len)
{
	print_sockaddr(d, addr, (int)MIN(len, sizeof(struct sockaddr_storage)), false);
}

/* One control message's type and data; DATA_ADDR is where the data lives
 * in the tracee. */
static void print_cmsg_data(struct dec *d, int level, int type, const unsigned char *p, size_t len,
			    uint64_t data_addr)
{
	unsigned int utype = (unsigned int)type;

	if (level == SOL_SOCKET) {
		xlat_print_val(d->out, &rc_xlat_scmvals, utype, "SCM_???");
		if (utype == SCM_RIGHTS && len >= sizeof(int)) {
			strbuf_adds(d->out, ", cmsg_data=[");
			for (size_t i = 0; i < len / sizeof(int) && local_elem(d, i); i++) {
				int fd;
				memcpy(&fd, p + i * sizeof(int), sizeof(fd));
				dec_fd(d, fd);
			}
			strbuf_addc(d->out, ']');
		} else if (utype == SCM_CREDENTIALS && len >= sizeof(struct ucred)) {
			struct ucred uc;
			memcpy(&uc, p, sizeof(uc));
			strbuf_addf(d->out, ", cmsg_data={pid=%d, ", (int)uc.pid);
			print_id(d, "uid", uc.uid);
			strbuf_adds(d->out, ", ");
			print_id(d, "gid", uc.gid);
			strbuf_addc(d->out, '}');
		} else if ((utype == SO_TIMESTAMP_OLD || utype == SO_TIMESTAMP_NEW) && len >= 1) {
			strbuf_adds(d->out, ", cmsg_data=");
			print_timeval_data(d, p, len);
		} else if ((utype == SO_TIMESTAMPNS_OLD || utype == SO_TIMESTAMPNS_NEW) && len >= 1) {
			strbuf_adds(d->out, ", cmsg_data=");
			print_timespecs_data(d, p, len, 1);
		} else if ((utype == SO_TIMESTAMPING_OLD || utype == SO_TIMESTAMPING_NEW) && len >= 1) {
			strbuf_adds(d->out, ", cmsg_data=");
			print_timespecs_data(d, p, len, 3);
		}
		return;
	}
	if (level == SOL_IP) {
		xlat_print_val(d->out, &rc_xlat_ip_cmsg_types, utype, "IP_???");
		if ((utype == IP_TTL || utype == IP_CHECKSUM) && len >= sizeof(unsigned int)) {
			strbuf_adds(d->out, ", cmsg_data=[");
			for (size_t i = 0; i < len / sizeof(unsigned int) && local_elem(d, i); i++) {
				unsigned int v;
				memcpy(&v, p + i * sizeof(v), sizeof(v));
				strbuf_addf(d->out, "%u", v);
			}
			strbuf_addc(d->out, ']');
		} else if ((utype == IP_TOS || utype == IP_RECVOPTS || utype == IP_RETOPTS) && len >= 1) {
			strbuf_adds(d->out, ", cmsg_data=[");
			for (size_t i = 0; i < len && local_elem(d, i); i++)
				strbuf_addf(d->out, "%#x", p[i]);
			strbuf_addc(d->out, ']');
		} else if (utype == IP_PKTINFO && len >= sizeof(struct in_pktinfo)) {
			struct in_pktinfo pi;
			memcpy(&pi, p, sizeof(pi));
			strbuf_adds(d->out, ", cmsg_data={ipi_ifindex=");
			print_ifindex(d, (unsigned int)pi.ipi_ifindex);
			strbuf_adds(d->out, ", ");
			print_inet_addr(d, "ipi_spec_dst", &pi.ipi_spec_dst);
			strbuf_adds(d->out, ", ");
			print_inet_addr(d, "ipi_addr", &pi.ipi_addr);
			strbuf_addc(d->out, '}');
		} else if (utype == IP_RECVERR && len >= sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in)) {
			struct sock_extended_err ee;
			memcpy(&ee, p, sizeof(ee));
			strbuf_addf(d->out, ", cmsg_data={ee_errno=%u, ee_origin=%u, ee_type=%u, ee_code=%u, "
				    "ee_info=%u, ee_data=%u, offender=", ee.ee_errno, ee.ee_origin,
				    ee.ee_type, ee.ee_code, ee.ee_info, ee.ee_data);
			print_cmsg_sockaddr(d, data_addr + sizeof(ee), sizeof(struct sockaddr_in));
			strbuf_addc(d->out, '}');
		} else if (utype == IP_ORIGDSTADDR && len >= sizeof(struct sockaddr_in)) {
			strbuf_adds(d->out, ", cmsg_data=");
			print_cmsg_sockaddr(d, data_addr, len);
		}
		return;
	}
	strbuf_addf(d->out, "%#x", utype);
}

/* strace reads at most net.core.optmem_max bytes of control data. */
static size_t optmem_max(void)
{
	static size_t cached;

	if (!cached) {
		FILE *f = fopen("/proc/sys/net/core/optmem_max", "re");
		long v = 0;
		if (f) {
			if (fscanf(f, "%ld", &v) != 1)
				v = 0;
			fclose(f);
		}
		if (v > 0)
			cached = ((size_t)v + sizeof(long long) - 1) & ~(sizeof(long long) - 1);
		else
			cached = sizeof(long long) * (2 * IOV_MAX + 512);
	}
	return cached;
}

static void print_msg_control(struct dec *d, uint64_t addr, uint64_t in_len)
{
	const size_t hdr = sizeof(struct cmsghdr);
	size_t control_len, left;
	unsigned char *buf;

	if (!in_len)
		return;
	strbuf_adds(d->out, ", msg_control=");
	control_len = (size_t)MIN(in_len, (uint64_t)optmem_max());
	buf = control_len < hdr ? NULL : malloc(control_len);
	if (!buf || mem_read(d->call.mem, addr, buf, control_len) != (ssize_t)control_len) {
		dec_ptr(d, addr);
		free(buf);
		return;
	}
	strbuf_addc(d->out, '[');
	size_t off = 0;
	left = control_len;
	while (left >= hdr) {
		struct cmsghdr c;
		memcpy(&c, buf + off, hdr);
		if (off)
			dec_sep(d);
		strbuf_addf(d->out, "{cmsg_len=%llu, cmsg_level=", (unsigned long long)c.cmsg_len);
		xlat_print_val(d->out, &rc_xlat_socketlayers, (unsigned int)c.cmsg_level, "SOL_???");
		strbuf_adds(d->out, ", cmsg_type=");
		size_t len = c.cmsg_len > left ? left : (size_t)c.cmsg_len;
		print_cmsg_data(d, c.cmsg_level, c.cmsg_type, buf + off + hdr, len > hdr ? len - hdr : 0,
				addr + off + hdr);
		strbuf_addc(d->out, '}');
		if (len < hdr) {
			left -= hdr;
			break;
		}
		uint64_t next = ((uint64_t)c.cmsg_len + sizeof(long) - 1) & ~(uint64_t)(sizeof(long) - 1);
		if (next < c.cmsg_len || next >= left) {
			left = 0;
			break;
		}
		off += (size_t)next;
		left -= (size_t)next;
	}
	if (left)
		strbuf_addf(d->out, ", ... /* %#llx */", (unsigned long long)(addr + (control_len - left)));
	else if (control_len < in_len)
		strbuf_adds(d->out, ", ...");
	strbuf_addc(d->out, ']');
	free(buf);
}

/* A struct msghdr already read. USER_NAMELEN is recvmsg's msg_namelen as
 * offered at entry (NULL for sendmsg); DATA_SIZE limits the data shown
 * (recvmsg's return value). F receives the facts, or NULL. */
static void print_msghdr(struct dec *d, const struct msghdr *m, const int *user_namelen, uint64_t data_size,
			 struct msg_facts *f)
{
	int namelen = (int)m->msg_namelen;

	if (user_namelen && namelen > *user_namelen)
		namelen = *user_namelen;
	strbuf_adds(d->out, "{msg_name=");
	print_sockaddr(d, (uint64_t)(uintptr_t)m->msg_name, namelen, f != NULL);
	strbuf_adds(d->out, ", msg_namelen=");
	if (user_namelen && *user_namelen != (int)m->msg_namelen)
		strbuf_addf(d->out, "%d => ", *user_namelen);
	strbuf_addf(d->out, "%d", (int)m->msg_namelen);
	strbuf_adds(d->out, ", msg_iov=");
	print_iov(d, (uint64_t)(uintptr_t)m->msg_iov, m->msg_iovlen, data_size, f);
	strbuf_addf(d->out, ", msg_iovlen=%llu", (unsigned long long)m->msg_iovlen);
	print_msg_control(d, (uint64_t)(uintptr_t)m->msg_control, m->msg_controllen);
	strbuf_addf(d->out, ", msg_controllen=%llu, msg_flags=", (unsigned long long)m->msg_controllen);
	print_msg_flags(d, (unsigned int)m->msg_flags);
	strbuf_addc(d->out, '}');
}

static void msg_facts_apply(struct dec *d, const struct msg_facts *f)
{
	if (f->have_len)
		d->e->len = f->len;
}

static void print_msghdr_at(struct dec *d, uint64_t addr, const int *user_namelen, uint64_t data_size,
			    bool data)
{
	struct msg_facts f = { .data = data };
	struct msghdr m;

	if (!addr || mem_read(d->call.mem, addr, &m, sizeof(m)) != (ssize_t)sizeof(m)) {
		dec_ptr(d, addr);
		return;
	}
	print_msghdr(d, &m, user_namelen, data_size, &f);
	msg_facts_apply(d, &f);
}

/*
 * The decoders.
 */
void dec_socket(struct dec *d)
{
	if (d->exiting)
		return;
	print_family(d, d->call.args[0]);
	dec_sep(d);
	print_sock_type(d, (unsigned int)d->call.args[1]);
	dec_sep(d);
	switch (d->call.args[0]) {
	case AF_INET:
	case AF_INET6:
		xlat_print_val(d->out, &rc_xlat_inet_protocols, d->call.args[2], "IPPROTO_???");
		break;
	case AF_NETLINK:
		xlat_print_val(d->out, &rc_xlat_netlink_protocols, d->call.args[2], "NETLINK_???");
		break;
	case AF_PACKET:
		strbuf_adds(d->out, "htons(");
		xlat_print_val(d->out, &rc_xlat_ethernet_protocols, ntohs((uint16_t)d->call.args[2]), "ETH_P_???");
		strbuf_addc(d->out, ')');
		break;
	default:
		strbuf_addf(d->out, "%llu", (unsigned long long)d->call.args[2]);
		break;
	}
}

void dec_socketpair(struct dec *d)
{
	if (!d->exiting) {
		print_family(d, d->call.args[0]);
		dec_sep(d);
		print_sock_type(d, (unsigned int)d->call.args[1]);
		strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[2]);
		return;
	}
	int sv[2];
	uint64_t addr = d->call.args[3];
	if (!addr || d->call.err || mem_read(d->call.mem, addr, &sv[0], sizeof(int)) != (ssize_t)sizeof(int)) {
		dec_ptr(d, addr);
		return;
	}
	strbuf_addc(d->out, '[');
	dec_fd(d, sv[0]);
	dec_sep(d);
	event_add_fd(d->e, sv[0]);
	if (mem_read(d->call.mem, addr + sizeof(int), &sv[1], sizeof(int)) == (ssize_t)sizeof(int)) {
		dec_fd(d, sv[1]);
		event_add_fd(d->e, sv[1]);
	} else {
		strbuf_addf(d->out, "... /* %#llx */", (unsigned long long)(addr + sizeof(int)));
	}
	strbuf_addc(d->out, ']');
}

/* connect, bind: (fd, addr, addrlen). */
void dec_connect(struct dec *d)
{
	if (d->exiting)
		return;
	sock_fd(d);
	dec_sep(d);
	dec_sockaddr_arg(d, 1);
	strbuf_addf(d->out, ", %d", (int)d->call.args[2]);
}

void dec_listen(struct dec *d)
{
	if (d->exiting)
		return;
	sock_fd(d);
	strbuf_addf(d->out, ", %d", (int)d->call.args[1]);
}

void dec_shutdown(struct dec *d)
{
	if (d->exiting)
		return;
	sock_fd(d);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_shutdown_modes, d->call.args[1], "SHUT_???");
}

/* An address length the caller offers (accept, recvfrom): read at entry
 * when both pointers are set. */
static bool fetch_socklen(struct dec *d, uint64_t addr, uint64_t lenp, int *len)
{
	return addr && lenp && mem_read(d->call.mem, lenp, len, sizeof(*len)) == (ssize_t)sizeof(*len);
}

/* "[16]", or "[128 => 16]" when the kernel changed it. */
static void print_socklen_change(struct dec *d, int ulen, int rlen)
{
	if (ulen != rlen)
		strbuf_addf(d->out, "[%d => %d]", ulen, rlen);
	else
		strbuf_addf(d->out, "[%d]", rlen);
}

/* accept, accept4, getsockname, getpeername: (fd, addr, addrlen[, flags]).
 * priv[0]: the length was read at entry (priv[1]); the exit half prints
 * the address then. */
static void decode_sockname(struct dec *d, bool flags)
{
	int ulen, rlen;

	if (!d->exiting) {
		sock_fd(d);
		dec_sep(d);
		if (fetch_socklen(d, d->call.args[1], d->call.args[2], &ulen)) {
			d->priv[0] = 1;
			d->priv[1] = (uint32_t)ulen;
			return;
		}
		d->priv[0] = 0;
		dec_ptr(d, d->call.args[1]);
		dec_sep(d);
		dec_ptr(d, d->call.args[2]);
		if (flags) {
			dec_sep(d);
			xlat_print_flags(d->out, &rc_xlat_sock_type_flags, d->call.args[3], "SOCK_???");
		}
		return;
	}
	if (!d->priv[0])
		return;
	ulen = (int)(uint32_t)d->priv[1];
	if (d->call.err || mem_read(d->call.mem, d->call.args[2], &rlen, sizeof(rlen)) != (ssize_t)sizeof(rlen)) {
		dec_ptr(d, d->call.args[1]);
		strbuf_addf(d->out, ", [%d]", ulen);
	} else {
		print_sockaddr(d, d->call.args[1], ulen > rlen ? rlen : ulen, true);
		dec_sep(d);
		print_socklen_change(d, ulen, rlen);
	}
	if (flags) {
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_sock_type_flags, d->call.args[3], "SOCK_???");
	}
}

/* The new connection's fd is fd2 (event/facts.c). */
void dec_accept(struct dec *d)
{
	decode_sockname(d, false);
}

void dec_accept4(struct dec *d)
{
	decode_sockname(d, true);
}

void dec_getsockname(struct dec *d)
{
	decode_sockname(d, false);
}

/* sendto(fd, buf, len, flags, addr, addrlen); send without the last two. */
static void decode_send(struct dec *d, bool to)
{
	if (d->exiting)
		return;
	sock_fd(d);
	dec_sep(d);
	dec_buf_arg(d, 1, (size_t)d->call.args[2]);
	strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[2]);
	print_msg_flags(d, d->call.args[3]);
	if (!to)
		return;
	dec_sep(d);
	dec_sockaddr_arg(d, 4);
	strbuf_addf(d->out, ", %d", (int)d->call.args[5]);
}

void dec_sendto(struct dec *d)
{
	decode_send(d, true);
}

/* recvfrom(fd, buf, len, flags, addr, addrlen): all but the fd at exit.
 * priv[1]: the address length offered (0 when unreadable, as strace). */
static void decode_recv(struct dec *d, bool from)
{
	int ulen = 0, rlen;

	if (!d->exiting) {
		sock_fd(d);
		dec_sep(d);
		d->priv[1] = from && fetch_socklen(d, d->call.args[4], d->call.args[5], &ulen) ? (uint32_t)ulen : 0;
		return;
	}
	if (d->call.err)
		dec_ptr(d, d->call.args[1]);
	else
		dec_buf_arg(d, 1, (size_t)MIN((uint64_t)d->call.rval, d->call.args[2]));
	strbuf_addf(d->out, ", %llu, ", (unsigned long long)d->call.args[2]);
	print_msg_flags(d, d->call.args[3]);
	if (!from)
		return;
	dec_sep(d);
	ulen = (int)(uint32_t)d->priv[1];
	if (!fetch_socklen(d, d->call.args[4], d->call.args[5], &rlen)) {
		dec_ptr(d, d->call.args[4]);
		dec_sep(d);
		dec_ptr(d, d->call.args[5]);
	} else if (d->call.err) {
		dec_ptr(d, d->call.args[4]);
		strbuf_addf(d->out, ", [%d]", ulen);
	} else {
		print_sockaddr(d, d->call.args[4], ulen > rlen ? rlen : ulen, true);
		dec_sep(d);
		print_socklen_change(d, ulen, rlen);
	}
}

void dec_recvfrom(struct dec *d)
{
	decode_recv(d, true);
}

/* send and recv are calls of other architectures (x86_64 has sendto and
 * recvfrom): where the headers do not number them, the table leaves them
 * out and nothing calls these. */
void dec_send(struct dec *d)
{
	decode_send(d, false);
}

void dec_recv(struct dec *d)
{
	decode_recv(d, false);
}

void dec_sendmsg(struct dec *d)
{
	if (d->exiting)
		return;
	sock_fd(d);
	dec_sep(d);
	print_msghdr_at(d, d->call.args[1], NULL, UINT64_MAX, true);
	dec_sep(d);
	print_msg_flags(d, d->call.args[2]);
}

/* recvmsg(fd, msg, flags): the message at exit. priv[0]: the message was
 * readable at entry, priv[1] its msg_namelen then. */
void dec_recvmsg(struct dec *d)
{
	struct msghdr m;

	if (!d->exiting) {
		sock_fd(d);
		dec_sep(d);
		if (d->call.args[1] && mem_read(d->call.mem, d->call.args[1], &m, sizeof(m)) == (ssize_t)sizeof(m)) {
			d->priv[0] = 1;
			d->priv[1] = (uint32_t)m.msg_namelen;
			return;
		}
		d->priv[0] = 0;
		dec_ptr(d, d->call.args[1]);
		dec_sep(d);
		print_msg_flags(d, d->call.args[2]);
		return;
	}
	if (!d->priv[0])
		return;
	int namelen = (int)(uint32_t)d->priv[1];
	if (d->call.err)
		strbuf_addf(d->out, "{msg_namelen=%d}", namelen);
	else
		print_msghdr_at(d, d->call.args[1], &namelen, (uint64_t)d->call.rval, true);
	dec_sep(d);
	print_msg_flags(d, d->call.args[2]);
}

/*
 * sendmmsg and recvmmsg: arrays of struct mmsghdr, printed at exit like
 * strace's decode_mmsgvec. The event describes the first message.
 */
struct mmsg_print {
	uint64_t addr, vlen;
	bool readable;			/* false: strace's fetch refuses (a failed recvmmsg) */
	unsigned int msg_len_vlen;	/* how many entries show msg_len */
	bool use_msg_len;		/* msg_len limits the data shown */
	const int *namelens;		/* recvmmsg: msg_namelen offered at entry */
	size_t count;			/* entries strace prints at most */
};

static void print_mmsgvec(struct dec *d, struct mmsg_print *c)
{
	struct mmsghdr mm;
	uint64_t shown = MIN(c->vlen, array_max(d));

	if (!c->addr) {
		strbuf_adds(d->out, "NULL");
		return;
	}
	if (!c->vlen) {
		strbuf_adds(d->out, "[]");
		return;
	}
	if (c->vlen > UINT64_MAX / sizeof(mm) || c->addr + c->vlen * sizeof(mm) <= c->addr) {
		dec_ptr(d, c->addr);
		return;
	}
	for (uint64_t i = 0; i < c->vlen; i++) {
		uint64_t at = c->addr + i * sizeof(mm);
		if (i)
			dec_sep(d);
		if (!c->readable || mem_read(d->call.mem, at, &mm, sizeof(mm)) != (ssize_t)sizeof(mm)) {
			if (i == 0) {
				dec_ptr(d, c->addr);
				return;
			}
			strbuf_addf(d->out, "... /* %#llx */", (unsigned long long)at);
			break;
		}
		if (i == 0)
			strbuf_addc(d->out, '[');
		if (i >= shown || i >= c->count) {
			strbuf_adds(d->out, "...");
			break;
		}
		struct msg_facts f = { .data = true };
		strbuf_adds(d->out, "{msg_hdr=");
		print_msghdr(d, &mm.msg_hdr, c->namelens ? &c->namelens[i] : NULL,
			     c->use_msg_len ? mm.msg_len : UINT64_MAX, i == 0 ? &f : NULL);
		if (i == 0)
			msg_facts_apply(d, &f);
		if (c->msg_len_vlen) {
			strbuf_addf(d->out, ", msg_len=%u", mm.msg_len);
			c->msg_len_vlen--;
		}
		strbuf_addc(d->out, '}');
	}
	strbuf_addc(d->out, ']');
}

void dec_sendmmsg(struct dec *d)
{
	if (!d->exiting) {
		sock_fd(d);
		dec_sep(d);
		return;
	}
	struct mmsg_print c = {
		.addr = d->call.args[1],
		.vlen = (unsigned int)d->call.args[2],
		.readable = true,
		.msg_len_vlen = d->call.err ? 0 : (unsigned int)d->call.rval,
		.count = IOV_MAX,
	};
	print_mmsgvec(d, &c);
	strbuf_addf(d->out, ", %u, ", (unsigned int)d->call.args[2]);
	print_msg_flags(d, d->call.args[3]);
}

/* A struct timespec argument, as strace's sprint_timespec, into SB. */
static void timespec_text(struct dec *d, struct strbuf *sb, uint64_t addr)
{
	struct timespec ts;

	if (!addr)
		strbuf_adds(sb, "NULL");
	else if (mem_read(d->call.mem, addr, &ts, sizeof(ts)) != (ssize_t)sizeof(ts))
		strbuf_addf(sb, "%#llx", (unsigned long long)addr);
	else
		strbuf_addf(sb, "{tv_sec=%lld, tv_nsec=%llu}", (long long)ts.tv_sec,
			    (unsigned long long)ts.tv_nsec);
}

/* recvmmsg(fd, msgvec, vlen, flags, timeout). At entry the msg_namelen of
 * each message (priv[0], priv[1] of them) and the timeout's text (priv[2])
 * are kept in the arena for the exit half. */
void dec_recvmmsg(struct dec *d)
{
	if (!d->exiting) {
		struct strbuf sb = STRBUF_INIT;
		size_t n = (size_t)MIN((uint64_t)(unsigned int)d->call.args[2], (uint64_t)IOV_MAX), i;
		int *lens = n ? malloc(n * sizeof(int)) : NULL;

		sock_fd(d);
		dec_sep(d);
		for (i = 0; lens && i < n; i++) {
			struct mmsghdr mm;
			if (mem_read(d->call.mem, d->call.args[1] + i * sizeof(mm), &mm, sizeof(mm)) != (ssize_t)sizeof(mm))
				break;
			lens[i] = (int)mm.msg_hdr.msg_namelen;
		}
		const char *kept = lens ? dec_keep(d, lens, i * sizeof(int)) : NULL;
		d->priv[0] = (uint64_t)(uintptr_t)kept;
		d->priv[1] = kept ? i : 0;
		free(lens);
		timespec_text(d, &sb, d->call.args[4]);
		d->priv[2] = (uint64_t)(uintptr_t)dec_keep(d, strbuf_str(&sb), sb.len);
		strbuf_release(&sb);
		return;
	}
	struct mmsg_print c = {
		.addr = d->call.args[1],
		.vlen = d->call.err ? (unsigned int)-1 : (unsigned int)d->call.rval,
		.readable = !d->call.err,
		.msg_len_vlen = d->call.err ? 0 : (unsigned int)d->call.rval,
		.use_msg_len = true,
		.namelens = (const int *)(uintptr_t)d->priv[0],
		.count = IOV_MAX,
	};
	if (c.namelens)
		c.count = MIN((size_t)d->priv[1], c.count);
	print_mmsgvec(d, &c);
	strbuf_addf(d->out, ", %u, ", (unsigned int)d->call.args[2]);
	print_msg_flags(d, d->call.args[3]);
	dec_sep(d);
	const char *ts = (const char *)(uintptr_t)d->priv[2];
	strbuf_adds(d->out, ts ? ts : "NULL");
	if (d->call.err)
		return;
	if (d->call.rval == 0) {
		strbuf_adds(d->rv_extra, "(Timeout)");
	} else if (d->call.args[4]) {
		strbuf_adds(d->rv_extra, "(left ");
		timespec_text(d, d->rv_extra, d->call.args[4]);
		strbuf_addc(d->rv_extra, ')');
	}
}

/*
 * Socket options. The name is printed against its level's table; the
 * value as strace's print_getsockopt/print_setsockopt do for the options
 * whose layout they know, else an int when the length is an int's, else
 * the bytes.
 */
static void print_sockopt_name(struct dec *d, unsigned int level, unsigned int name, bool get)
{
	const char *s = NULL;

	switch (level) {
	case SOL_SOCKET:
		s = xlat_name(&rc_xlat_sock_options, name);
		if (!s)
			s = get ? xlat_name(&rc_xlat_getsock_options, name) : xlat_name(&rc_xlat_setsock_options, name);
		if (!s)
			strbuf_addf(d->out, "%#x /* SO_??? */", name);
		break;
	case SOL_IP:
		s = xlat_name(&rc_xlat_sock_ip_options, name);
		if (!s)
			strbuf_addf(d->out, "%#x /* IP_??? */", name);
		break;
	case SOL_IPV6:
		s = xlat_name(&rc_xlat_sock_ipv6_options, name);
		if (!s)
			strbuf_addf(d->out, "%#x /* IPV6_??? */", name);
		break;
	case SOL_TCP:
		xlat_print_val(d->out, &rc_xlat_sock_tcp_options, name, "TCP_???");
		return;
	case SOL_UDP:
		xlat_print_val(d->out, &rc_xlat_sock_udp_options, name, "UDP_???");
		return;
	case SOL_RAW:
		xlat_print_val(d->out, &rc_xlat_sock_raw_options, name, "RAW_???");
		return;
	case SOL_NETLINK:
		xlat_print_val(d->out, &rc_xlat_sock_netlink_options, name, "NETLINK_???");
		return;
	case SOL_PACKET:
		xlat_print_val(d->out, &rc_xlat_sock_packet_options, name, "PACKET_???");
		return;
	default:
		strbuf_addf(d->out, "%u", name);
		return;
	}
	if (s)
		strbuf_adds(d->out, s);
}

/* (fd, level, name, ": the first three arguments. */
static void print_sockopt_head(struct dec *d, bool get)
{
	unsigned int level = (unsigned int)d->call.args[1], name = (unsigned int)d->call.args[2];

	sock_fd(d);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_socketlayers, level, "SOL_??");
	dec_sep(d);
	print_sockopt_name(d, level, name, get);
	dec_sep(d);
}

/* SOL_SOCKET options whose value is an int (strace's list). */
static bool so_int_like(unsigned int name)
{
	switch (name) {
	case SO_DEBUG: case SO_REUSEADDR: case SO_DONTROUTE: case SO_BROADCAST:
	case SO_SNDBUF: case SO_RCVBUF: case SO_KEEPALIVE: case SO_OOBINLINE:
	case SO_NO_CHECK: case SO_PRIORITY: case SO_BSDCOMPAT: case SO_REUSEPORT:
	case SO_PASSCRED: case SO_RCVLOWAT: case SO_SNDLOWAT: case SO_DETACH_FILTER:
	case SO_TIMESTAMP_OLD: case SO_ACCEPTCONN: case SO_SNDBUFFORCE:
	case SO_RCVBUFFORCE: case SO_PASSSEC: case SO_TIMESTAMPNS_OLD: case SO_MARK:
	case SO_TIMESTAMPING_OLD: case SO_RXQ_OVFL: case SO_WIFI_STATUS:
	case SO_PEEK_OFF: case SO_NOFCS: case SO_LOCK_FILTER: case SO_SELECT_ERR_QUEUE:
	case SO_BUSY_POLL: case SO_INCOMING_CPU: case SO_CNX_ADVICE:
	case SO_INCOMING_NAPI_ID: case SO_ZEROCOPY: case SO_TIMESTAMP_NEW:
	case SO_TIMESTAMPNS_NEW: case SO_TIMESTAMPING_NEW: case SO_DETACH_REUSEPORT_BPF:
	case SO_PREFER_BUSY_POLL: case SO_BUSY_POLL_BUDGET: case SO_RESERVE_MEM:
	case SO_RCVMARK:
		return true;
	default:
		return false;
	}
}

/* An int value read: the event's sockopt_value. */
static void print_sockopt_int(struct dec *d, uint64_t addr)
{
	int v;

	if (print_int_at(d, addr, &v))
		d->e->sockopt_value = v;
}

/* Fields of a struct as far as LEN reaches, a cut field in hex: strace's
 * MAYBE_PRINT_FIELD_LEN. */
static bool field_fits(struct dec *d, const char *sep, const char *field, const void *base, size_t start,
		       size_t size, size_t len)
{
	if (len <= start)
		return false;
	strbuf_adds(d->out, sep);
	if (len >= start + size)
		return true;
	strbuf_addf(d->out, "%s=", field);
	put_hex_string(d, (const char *)base + start, len - start);
	return false;
}

static void print_get_linger(struct dec *d, uint64_t addr, size_t len)
{
	struct linger l;

	len = MIN(len, sizeof(l));
	if (mem_read(d->call.mem, addr, &l, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return;
	}
	if (field_fits(d, "{", "l_onoff", &l, offsetof(struct linger, l_onoff), sizeof(l.l_onoff), len))
		strbuf_addf(d->out, "l_onoff=%d", l.l_onoff);
	if (field_fits(d, ", ", "l_linger", &l, offsetof(struct linger, l_linger), sizeof(l.l_linger), len))
		strbuf_addf(d->out, "l_linger=%d", l.l_linger);
	strbuf_addc(d->out, '}');
}

static void print_get_ucred(struct dec *d, uint64_t addr, size_t len)
{
	struct ucred uc;

	len = MIN(len, sizeof(uc));
	if (mem_read(d->call.mem, addr, &uc, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return;
	}
	if (field_fits(d, "{", "pid", &uc, offsetof(struct ucred, pid), sizeof(uc.pid), len))
		strbuf_addf(d->out, "pid=%d", (int)uc.pid);
	if (field_fits(d, ", ", "uid", &uc, offsetof(struct ucred, uid), sizeof(uc.uid), len))
		print_id(d, "uid", uc.uid);
	if (field_fits(d, ", ", "gid", &uc, offsetof(struct ucred, gid), sizeof(uc.gid), len))
		print_id(d, "gid", uc.gid);
	strbuf_addc(d->out, '}');
}

/* SO_ERROR: "[ECONNREFUSED]", "[0]"; the errno becomes sockopt_value,
 * which connect-failed and connect-timeout read. */
static void print_get_error(struct dec *d, uint64_t addr, size_t len)
{
	int err;

	if (len < sizeof(err)) {
		print_hex_mem(d, addr, len);
		return;
	}
	if (mem_read(d->call.mem, addr, &err, sizeof(err)) != (ssize_t)sizeof(err)) {
		dec_ptr(d, addr);
		return;
	}
	strbuf_addc(d->out, '[');
	dec_errno_name(d, err);
	strbuf_addc(d->out, ']');
	d->e->sockopt_value = err;
}

static void print_getsockopt_value(struct dec *d, unsigned int level, unsigned int name, uint64_t addr,
				   int ulen, int rlen)
{
	if (ulen <= 0 || rlen <= 0) {
		dec_ptr(d, addr);
		return;
	}
	if (addr && level == SOL_SOCKET) {
		switch (name) {
		case SO_LINGER:
			print_get_linger(d, addr, (size_t)rlen);
			return;
		case SO_PEERCRED:
			print_get_ucred(d, addr, (size_t)rlen);
			return;
		case SO_ERROR:
			print_get_error(d, addr, (size_t)rlen);
			return;
		default:
			if (!so_int_like(name))
				break;
			if (rlen >= (int)sizeof(int))
				print_sockopt_int(d, addr);
			else
				print_hex_mem(d, addr, (size_t)rlen);
			return;
		}
	} else if (addr && level == SOL_NETLINK && name != NETLINK_LIST_MEMBERSHIPS) {
		print_sockopt_int(d, addr);
		return;
	}
	if (rlen == (int)sizeof(int))
		print_sockopt_int(d, addr);
	else
		dec_buf(d, addr, (size_t)rlen, false);
}

/* getsockopt(fd, level, name, optval, optlen): the value at exit.
 * priv[0]: the length was read at entry (priv[1]). */
void dec_getsockopt(struct dec *d)
{
	int ulen, rlen;

	if (!d->exiting) {
		print_sockopt_head(d, true);
		if (d->call.args[4] && mem_read(d->call.mem, d->call.args[4], &ulen, sizeof(ulen)) == (ssize_t)sizeof(ulen)) {
			d->priv[0] = 1;
			d->priv[1] = (uint32_t)ulen;
			return;
		}
		d->priv[0] = 0;
		dec_ptr(d, d->call.args[3]);
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
		return;
	}
	if (!d->priv[0])
		return;
	ulen = (int)(uint32_t)d->priv[1];
	if (d->call.err || mem_read(d->call.mem, d->call.args[4], &rlen, sizeof(rlen)) != (ssize_t)sizeof(rlen)) {
		dec_ptr(d, d->call.args[3]);
		strbuf_addf(d->out, ", [%d]", ulen);
		return;
	}
	print_getsockopt_value(d, (unsigned int)d->call.args[1], (unsigned int)d->call.args[2], d->call.args[3], ulen, rlen);
	dec_sep(d);
	print_socklen_change(d, ulen, rlen);
}

static void print_set_linger(struct dec *d, uint64_t addr, int len)
{
	struct linger l;

	if (len < (int)sizeof(l) || mem_read(d->call.mem, addr, &l, sizeof(l)) != (ssize_t)sizeof(l)) {
		dec_ptr(d, addr);
		return;
	}
	strbuf_addf(d->out, "{l_onoff=%d, l_linger=%d}", l.l_onoff, l.l_linger);
}

static void print_setsockopt_value(struct dec *d, unsigned int level, unsigned int name, uint64_t addr,
				   int len)
{
	if (addr && level == SOL_SOCKET) {
		if (name == SO_LINGER) {
			print_set_linger(d, addr, len);
			return;
		}
		if (so_int_like(name)) {
			if (len < (int)sizeof(int))
				dec_ptr(d, addr);
			else
				print_sockopt_int(d, addr);
			return;
		}
	} else if (addr && level == SOL_NETLINK) {
		if (len < (int)sizeof(int))
			dec_ptr(d, addr);
		else
			print_sockopt_int(d, addr);
		return;
	}
	if (len == (int)sizeof(int))
		print_sockopt_int(d, addr);
	else
		dec_buf(d, addr, (size_t)(unsigned int)len, false);
}

void dec_setsockopt(struct dec *d)
{
	if (d->exiting)
		return;
	print_sockopt_head(d, false);
	print_setsockopt_value(d, (unsigned int)d->call.args[1], (unsigned int)d->call.args[2], d->call.args[3],
			       (int)d->call.args[4]);
	strbuf_addf(d->out, ", %d", (int)d->call.args[4]);
}
