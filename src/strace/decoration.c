/* The -y/-yy decoration text parsed into the facts an event carries (see
 * decoration.h); the forms are struct rc_fdfacts's (event/event.h). */
#include "strace/decoration.h"

#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>

#include "strace/args.h"

/* The number S (N bytes, digits only) into *V. */
static bool digits(const char *s, size_t n, unsigned long long *v)
{
	unsigned long long x = 0;

	if (n == 0 || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (unsigned)(s[i] - '0');
	}
	*v = x;
	return true;
}

/* A socket protocol as the kernel names it, which -yy prints: capitals,
 * digits, '-' and '/' ("UNIX-STREAM", "L2TP/IP"), "v6" at the end for
 * IPv6; "socket" when -y alone could not tell. */
static bool socket_proto(const char *s, size_t n)
{
	if (n == 6 && memcmp(s, "socket", 6) == 0)
		return true;
	if (n > 2 && s[n - 2] == 'v' && s[n - 1] == '6')
		n -= 2;
	if (n == 0 || s[0] < 'A' || s[0] > 'Z')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '/'))
			return false;
	return true;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One end of an inet socket, "127.0.0.1:80" or "[::1]:80" (N bytes at S,
 * which the host is cut out of in place), into SA. */
static bool inet_end(char *s, size_t n, int family, struct rc_sockaddr *sa)
{
	char *colon = NULL;
	unsigned long long port;

	for (size_t i = n; i > 0; i--)
		if (s[i - 1] == ':') {
			colon = s + i - 1;
			break;
		}
	if (!colon || !digits(colon + 1, (size_t)(s + n - colon - 1), &port) || port > 65535)
		return false;
	char *host = s, *host_end = colon;
	if (host[0] == '[') {
		if (host_end - host < 2 || host_end[-1] != ']')
			return false;
		host++;
		host_end--;
	}
	if (host_end == host)
		return false;
	*host_end = '\0';
	sa->family = family;
	sa->host = host;
	sa->port = (int)port;
	return true;
}

/* Inside the brackets of an inet socket (N bytes at S): "local->peer",
 * "local" (not connected) or the inode alone. */
static void inet_inner(struct rc_fdfacts *f, char *s, size_t n)
{
	char *arrow = memmem(s, n, "->", 2);
	size_t ln = arrow ? (size_t)(arrow - s) : n;

	if (!arrow && digits(s, n, &f->inode))
		return;
	if (!inet_end(s, ln, f->family, &f->local))
		return;
	if (arrow && !inet_end(arrow + 2, (size_t)(s + n - arrow - 2), f->family, &f->peer))
		memset(&f->local, 0, sizeof(f->local));
}

/* Inside the brackets of a unix socket: "INODE[->PEER][,"NAME"]", the
 * name abstract when it begins with '@' (strace prints the '@' before
 * the quotes, the tracer inside them, as /proc/net/unix has it). */
static void unix_inner(struct rc_fdfacts *f, char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (!digits(s, i, &f->inode))
		return;
	if (i + 2 < n && s[i] == '-' && s[i + 1] == '>') {
		size_t j = i + 2;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (!digits(s + i + 2, j - i - 2, &f->peer_inode))
			return;
		i = j;
	}
	if (i == n || s[i] != ',')
		return;
	char *name = s + i + 1, *end = s + n;
	bool abstract = name < end && *name == '@';
	if (abstract)
		name++;
	if (end - name < 2 || name[0] != '"' || end[-1] != '"')
		return;
	name++;
	end[-1] = '\0';
	if (name[0] == '@' && !abstract) {
		abstract = true;
		name++;
	}
	f->local.family = AF_UNIX;
	f->local.host = name;
	f->local.abstract = abstract;
}

/* The family and type a protocol name says. */
static void socket_kind(struct rc_fdfacts *f, const char *proto, size_t n)
{
	bool v6 = n > 2 && proto[n - 2] == 'v' && proto[n - 1] == '6';

	if (has_prefix(proto, "UNIX")) {
		f->family = AF_UNIX;
		/* The kernel names a datagram unix socket "UNIX". */
		f->sock_type = strcmp(proto, "UNIX-STREAM") == 0 ? SOCK_STREAM :
			       strcmp(proto, "UNIX-SEQPACKET") == 0 ? SOCK_SEQPACKET : SOCK_DGRAM;
	} else if (strcmp(proto, "NETLINK") == 0) {
		f->family = AF_NETLINK;
	} else if (strcmp(proto, "socket") != 0) {
		/* Every other protocol strace names is an inet one. */
		f->family = v6 ? AF_INET6 : AF_INET;
		if (has_prefix(proto, "TCP"))
			f->sock_type = SOCK_STREAM;
		else if (has_prefix(proto, "UDP"))
			f->sock_type = SOCK_DGRAM;
	}
}


/* New facts of the decoration TEXT (N bytes, no NUL among them): F->text
 * holds TEXT and a NUL, and SIZE makes room for a second copy a socket's
 * pieces are cut out of. */
static struct rc_fdfacts *facts_new(const char *text, size_t n, size_t size, struct arena *a)
{
	struct rc_fdfacts *f = arena_try_alloc(a, sizeof(*f) + size);

	if (!f)
		return NULL;
	*f = (struct rc_fdfacts){ .kind = RC_FD_OTHER, .desc = f->text, .size = size };
	f->local.port = f->peer.port = -1;
	memcpy(f->text, text, n);
	f->text[n] = '\0';
	return f;
}

/* The facts of the decoration TEXT, N bytes (at least one, no NUL among
 * them, and nothing read past them: in a line, a '>' follows). */
static const struct rc_fdfacts *facts_read(const char *text, size_t n, struct arena *a)
{
	struct rc_fdfacts *f;

	if (text[0] == '/') {
		f = facts_new(text, n, n + 1, a);
		if (f) {
			f->kind = RC_FD_FILE;
			f->path = f->desc;
		}
		return f;
	}
	/* NAME:[INNER] */
	const char *colon = memchr(text, ':', n);
	size_t nl = colon ? (size_t)(colon - text) : n;
	bool bracketed = colon && nl + 1 < n && text[nl + 1] == '[' && n >= nl + 3 && text[n - 1] == ']';
	if (nl == 4 && memcmp(text, "pipe", 4) == 0) {
		f = facts_new(text, n, n + 1, a);
		if (f) {
			f->kind = RC_FD_PIPE;
			if (bracketed)
				digits(text + nl + 2, n - nl - 3, &f->inode);
		}
		return f;
	}
	if (!bracketed || !socket_proto(text, nl))
		return facts_new(text, n, n + 1, a);
	f = facts_new(text, n, 2 * n + 2, a);
	if (!f)
		return NULL;
	char *w = f->text + n + 1;
	memcpy(w, f->text, n + 1);
	f->kind = RC_FD_SOCKET;
	w[nl] = '\0';
	w[n - 1] = '\0';
	f->proto = w;
	socket_kind(f, w, nl);
	char *inner = w + nl + 2;
	size_t in = n - nl - 3;
	if (f->family == AF_INET || f->family == AF_INET6)
		inet_inner(f, inner, in);
	else if (f->family == AF_UNIX)
		unix_inner(f, inner, in);
	else if (f->family == 0)
		digits(inner, in, &f->inode);
	return f;
}

const struct rc_fdfacts *decoration_facts(const char *text, struct arena *a)
{
	return text && text[0] ? facts_read(text, strlen(text), a) : NULL;
}

const struct rc_fdfacts *decoration_at(const char *p, const char *end, struct arena *a)
{
	size_t n;

	/* A plain one is read where it is: no copy on the way. */
	if (decoration_plain(p, end, &n))
		return n ? facts_read(p + 1, n, a) : NULL;
	return decoration_facts(parse_decoration(p, end, a, NULL), a);
}
