/* Socket addresses, printed as strace prints them, and their facts put
 * in the event (event_sockaddr_facts). */
#include "capture/decode.h"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "event/facts.h"
#include "gen/tables.h"
#include "util/util.h"

/* VALUE's name as strace prints it. The generated tables mark aliases
 * defined through another constant of the group, but glibc defines a few
 * old names through the PF_ constants (AF_FILE is PF_FILE is PF_LOCAL), so
 * they come out as names of their own; strace prints the modern one. */
static const char *value_name(const struct rc_xlat *x, long long v)
{
	static const char *const old_names[] = { "AF_FILE", "AF_LOCAL", "AF_ROUTE" };

	for (size_t i = 0; i < x->count; i++) {
		const struct rc_xlat_entry *r = &x->rows[i];
		if (r->value != v || r->alias)
			continue;
		size_t k = 0;
		while (k < ARRAY_SIZE(old_names) && strcmp(r->name, old_names[k]) != 0)
			k++;
		if (k == ARRAY_SIZE(old_names))
			return r->name;
	}
	return xlat_name(x, v);
}

/*
 * Socket addresses, as strace's print_sockaddr: the family, then the
 * family's fields when the length holds them, else the raw sa_data.
 */
static void sa_raw(struct dec *d, const unsigned char *buf, size_t len)
{
	size_t off = offsetof(struct sockaddr, sa_data);

	strbuf_add(d->out, ", sa_data=", 10);
	dec_quote(d, buf + off, len > off ? len - off : 0, false);
}

static void print_ifindex(struct dec *d, unsigned idx)
{
	char name[IF_NAMESIZE + 1];

	if (idx && if_indextoname(idx, name)) {
		strbuf_add(d->out, "if_nametoindex(", 15);
		dec_quote(d, name, strlen(name), false);
		strbuf_addc(d->out, ')');
	} else {
		strbuf_addf(d->out, "%u", idx);
	}
}

/* The printers of the families event_sockaddr_facts reads; HOST is what
 * it made of the address. */
static void sa_in(struct dec *d, const unsigned char *buf, const char *host)
{
	struct sockaddr_in sin;

	memcpy(&sin, buf, sizeof(sin));
	strbuf_addf(d->out, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")", ntohs(sin.sin_port), host);
}

/* The part of sockaddr_in6 before sin6_scope_id. */
#define SIN6_MIN_LEN offsetof(struct sockaddr_in6, sin6_scope_id)

static void sa_in6(struct dec *d, const unsigned char *buf, size_t len, const char *host)
{
	struct sockaddr_in6 sin6;

	memset(&sin6, 0, sizeof(sin6));
	memcpy(&sin6, buf, MIN(len, sizeof(sin6)));
	strbuf_addf(d->out, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", &sin6_addr)",
		    ntohs(sin6.sin6_port), ntohl(sin6.sin6_flowinfo), host);
	if (len > SIN6_MIN_LEN) {
		strbuf_add(d->out, ", sin6_scope_id=", 16);
		print_ifindex(d, sin6.sin6_scope_id);
	}
}

static void sa_un(struct dec *d, const unsigned char *buf, const char *host, size_t n)
{
	strbuf_add(d->out, ", sun_path=", 11);
	if (!buf[offsetof(struct sockaddr_un, sun_path)])
		strbuf_addc(d->out, '@');
	dec_quote(d, host, n, false);
}

static void sa_nl(struct dec *d, const unsigned char *buf)
{
	struct sockaddr_nl nl;

	memcpy(&nl, buf, sizeof(nl));
	if (nl.nl_pad)
		strbuf_addf(d->out, ", nl_pad=%#x", nl.nl_pad);
	strbuf_addf(d->out, ", nl_pid=%u, nl_groups=%08x", nl.nl_pid, nl.nl_groups);
}

void dec_sockaddr(struct dec *d, uint64_t addr, size_t len)
{
	/* One more than the largest address, so every printer can rely on
	 * zeroes past LEN. */
	union {
		struct sockaddr_storage ss;
		unsigned char b[sizeof(struct sockaddr_storage) + 1];
	} u;
	sa_family_t family;
	const size_t famlen = sizeof(family);
	struct rc_sockaddr none = { 0, -1, NULL, false };
	struct rc_sockaddr *sa = d->e ? &d->e->sa : &none;
	char host[RC_SOCKADDR_HOST_MAX];
	ssize_t hn;

	if (!addr) {
		strbuf_add(d->out, "NULL", 4);
		return;
	}
	if (len < famlen) {
		dec_ptr(d, addr);
		return;
	}
	if (len > sizeof(u.ss))
		len = sizeof(u.ss);
	memset(&u, 0, sizeof(u));
	if (mem_read(d->call.mem, addr, u.b, len) != (ssize_t)len) {
		dec_ptr(d, addr);
		return;
	}
	memcpy(&family, u.b, famlen);
	hn = event_sockaddr_facts(sa, u.b, len, host);
	if (hn >= 0)
		sa->host = dec_keep(d, host, (size_t)hn);
	strbuf_add(d->out, "{sa_family=", 11);
	const char *name = value_name(&rc_xlat_family, family);
	if (name)
		strbuf_adds(d->out, name);
	else
		strbuf_addf(d->out, "%#x /* AF_??? */", family);
	if (len > famlen) {
		if (hn >= 0 && family == AF_INET)
			sa_in(d, u.b, host);
		else if (hn >= 0 && family == AF_INET6)
			sa_in6(d, u.b, len, host);
		else if (hn >= 0 && family == AF_UNIX)
			sa_un(d, u.b, host, (size_t)hn);
		else if (family == AF_NETLINK && len >= sizeof(struct sockaddr_nl))
			sa_nl(d, u.b);
		else
			sa_raw(d, u.b, len);
	}
	strbuf_addc(d->out, '}');
}
