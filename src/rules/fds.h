/* What an fd is, as the rules say it: its path as the process model
 * knows it (or as -y showed it), a socket's peer, and an fd or an
 * address in words ("TCP 127.0.0.1:5000->127.0.0.1:8080", "[::1]:443",
 * "/run/x.sock"). */
#ifndef RC_RULES_FDS_H
#define RC_RULES_FDS_H

#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>

#include "event/event.h"
#include "event/procs.h"
#include "rules/rule.h"
#include "util/strbuf.h"

/* Port 53 belongs to dns-failure: the connection rules leave it alone. */
#define RULE_DNS_PORT 53

/* The path of E's fd as the process model knows it (NULL for a socket, a
 * pipe...), or, for an fd the model has not seen opened (strace -p), the
 * path strace -y printed for it. */
static inline const char *rule_fd_path(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;

	if (f)
		return f->kind == RC_FD_FILE ? f->path : NULL;
	const struct rc_fdfacts *shown = procs_fd_shown(ctx->procs, e, e->fd);
	return shown && shown->kind == RC_FD_FILE ? shown->path : NULL;
}

/* FD of E's process when the model has it as a socket, else NULL. */
static inline const struct rc_fd *rule_socket_fd(const struct rc_ctx *ctx, const struct rc_event *e,
						 int fd)
{
	const struct rc_fd *f = procs_fd(ctx->procs, e->pid, fd);

	return f && f->kind == RC_FD_SOCKET ? f : NULL;
}

/* Any file path known for E's fd: the model's when the model has it as a
 * file, else the one strace -y printed. Unlike rule_fd_path, -y wins over
 * a model that has the fd as something else. */
static inline const char *rule_fd_file(const struct rc_ctx *ctx, const struct rc_event *e)
{
	const struct rc_fd *f = e->fd >= 0 ? procs_fd(ctx->procs, e->pid, e->fd) : NULL;

	if (f && f->kind == RC_FD_FILE)
		return f->path;
	const struct rc_fdfacts *shown = procs_fd_shown(ctx->procs, e, e->fd);
	return shown && shown->kind == RC_FD_FILE ? shown->path : NULL;
}

/* A terminal: a read there waits for a person. The controlling terminal
 * (/dev/tty), a virtual console (/dev/tty1), a pseudo-terminal, the
 * console; not a serial line (/dev/ttyS0, /dev/ttyUSB0, /dev/ttyACM0),
 * where a device or a modem answers. */
static inline bool rule_terminal_path(const char *path)
{
	if (!path)
		return false;
	if (strncmp(path, "/dev/tty", 8) == 0)
		return path[8] == '\0' || (path[8] >= '0' && path[8] <= '9');
	return strncmp(path, "/dev/pts/", 9) == 0 || strcmp(path, "/dev/console") == 0;
}

/* The peer of socket FI (fd FD of E) as findings name it
 * ("127.0.0.1:8080", "/run/x.sock"), or NULL: the model's, else the
 * address E carries for its own fd (from its decoration, or the tracer's).
 * The caller frees it. */
char *rule_socket_peer(const struct rc_event *e, int fd, const struct rc_fdinfo *fi);

/* One end of a socket, as rule_addr_format has it, added to SB. */
void rule_add_end(struct strbuf *sb, const struct rc_sockaddr *sa);

/* FI in words, for a summary: "'/etc/x'", "pipe:[123]", "TCP
 * 127.0.0.1:5000->127.0.0.1:8080", "unix socket /run/x.sock", "TCP
 * socket to 10.0.0.2:80", "anon_inode:[eventfd]". SHOWN is what E's own
 * decoration of the fd says (procs_fd_shown; NULL none), PEER the
 * socket's peer (rule_socket_peer; NULL none). */
void rule_fd_words(struct strbuf *sb, const struct rc_fdinfo *fi, const struct rc_fdfacts *shown, const char *peer);

/* A peer as findings name it: "127.0.0.1:8080", "[::1]:443",
 * "/run/x.sock", "@abstract". The caller frees it. */
char *rule_addr_format(int family, const char *host, int port, bool abstract);

/* A peer the connection rules report: TCP/UDP or a unix socket, and not a
 * DNS server. */
static inline bool rule_connect_peer(int family, int port)
{
	if (family != AF_INET && family != AF_INET6 && family != AF_UNIX)
		return false;
	return family == AF_UNIX || port != RULE_DNS_PORT;
}

/* 127.0.0.1 and ::1: no word a program's message would make its own. */
static inline bool rule_loopback(const char *host)
{
	return strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0;
}

/* The open-files limit that COUNT calls are about TIMES calls for each
 * descriptor of, TIMES at most TIMES_MAX; 0: none. The limits are those
 * systems give (powers of two from 2^16: a container's or a systemd
 * unit's 2^20, the kernel's 2^30, 65536 and 524288 of limits.conf), and
 * a loop over them from descriptor 3, with a few calls besides, counts a
 * little more or less. With TIMES_MAX 0, COUNT is the limit itself. */
uint64_t rule_fd_limit_near(uint64_t count, unsigned times_max, unsigned *times);

#endif
