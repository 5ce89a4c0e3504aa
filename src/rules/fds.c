/* What an fd is, in words (see fds.h). */
#include "rules/fds.h"

#include <stdlib.h>
#include <sys/socket.h>

char *rule_addr_format(int family, const char *host, int port, bool abstract)
{
	struct strbuf sb = STRBUF_INIT;

	if (!host)
		host = "?";
	if (family == AF_UNIX)
		strbuf_addf(&sb, "%s%s", abstract ? "@" : "", host);
	else if (family == AF_INET6 && port >= 0)
		strbuf_addf(&sb, "[%s]:%d", host, port);
	else if (port >= 0)
		strbuf_addf(&sb, "%s:%d", host, port);
	else
		strbuf_adds(&sb, host);
	return strbuf_detach(&sb);
}

char *rule_socket_peer(const struct rc_event *e, int fd, const struct rc_fdinfo *fi)
{
	if (fi->f && fi->f->peer_host)
		return rule_addr_format(fi->f->family, fi->f->peer_host, fi->f->peer_port, fi->f->abstract);
	if (fd == e->fd && e->sa.host &&
	    (e->sa.family == AF_INET || e->sa.family == AF_INET6 || e->sa.family == AF_UNIX))
		return rule_addr_format(e->sa.family, e->sa.host, e->sa.port, e->sa.abstract);
	return NULL;
}

void rule_add_end(struct strbuf *sb, const struct rc_sockaddr *sa)
{
	char *a = rule_addr_format(sa->family, sa->host, sa->port, sa->abstract);

	strbuf_adds(sb, a);
	free(a);
}

/* An inet socket whose decoration shows its ends or, with no address
 * yet, its inode. */
static bool inet_shown(const struct rc_fdfacts *h)
{
	return h && h->kind == RC_FD_SOCKET && (h->family == AF_INET || h->family == AF_INET6) &&
	       (h->local.family || h->inode);
}

void rule_fd_words(struct strbuf *sb, const struct rc_fdinfo *fi, const struct rc_fdfacts *shown, const char *peer)
{
	switch (fi->kind) {
	case RC_FD_FILE:
		strbuf_addf(sb, "'%s'", fi->path ? fi->path : "?");
		return;
	case RC_FD_PIPE:
		strbuf_adds(sb, shown && shown->kind == RC_FD_PIPE ? shown->desc : "a pipe");
		return;
	case RC_FD_SOCKET: {
		/* Both ends, as -yy showed them: "TCP 127.0.0.1:5000->...". */
		if (inet_shown(shown)) {
			strbuf_addf(sb, "%s ", shown->proto);
			if (!shown->local.family) {
				strbuf_addf(sb, "%llu", shown->inode);
				return;
			}
			rule_add_end(sb, &shown->local);
			if (shown->peer.family) {
				strbuf_adds(sb, "->");
				rule_add_end(sb, &shown->peer);
			}
			return;
		}
		bool unix_sock = fi->f ? fi->f->family == AF_UNIX : shown && shown->family == AF_UNIX;
		if (peer && unix_sock)
			strbuf_addf(sb, "unix socket %s", peer);
		else if (peer)
			strbuf_addf(sb, "%s socket to %s", fi->f && fi->f->sock_type == SOCK_DGRAM ? "UDP" : "TCP",
				    peer);
		else if (shown)
			strbuf_adds(sb, shown->desc);
		else
			strbuf_adds(sb, unix_sock ? "unix socket" : "socket");
		return;
	}
	default:
		strbuf_adds(sb, shown ? shown->desc : "an eventfd, timerfd or similar");
		return;
	}
}

uint64_t rule_fd_limit_near(uint64_t count, unsigned times_max, unsigned *times)
{
	if (!times_max)
		return count >= 1ULL << 16 && count <= 1ULL << 30 && !(count & (count - 1)) ? count : 0;
	for (int bits = 16; bits <= 30; bits++) {
		uint64_t limit = 1ULL << bits;
		for (unsigned k = 1; k <= times_max; k++) {
			uint64_t want = k * limit, slack = 64 + want / 1024;
			if (count + slack >= want && count <= want + slack) {
				if (times)
					*times = k;
				return limit;
			}
		}
	}
	return 0;
}
