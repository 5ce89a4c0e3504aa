/* The journal's native protocol (see journal.h). */
#include "watch/journal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/strbuf.h"

/* One datagram of LEN bytes to the socket at PATH; a PATH that begins
 * with '@' is in the abstract namespace (as NOTIFY_SOCKET may be). */
static bool datagram_to(const char *path, const char *buf, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t plen = strlen(path);

	if (!plen || plen >= sizeof(sa.sun_path))
		return false;
	memcpy(sa.sun_path, path, plen);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	bool sent = fd >= 0 && sendto(fd, buf, len, MSG_NOSIGNAL, (struct sockaddr *)&sa,
				      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + (path[0] != '@'))) ==
		(ssize_t)len;
	if (fd >= 0)
		close(fd);
	return sent;
}

bool journal_send_to(const char *path, const struct journal_field *v, size_t n)
{
	struct strbuf msg = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].value)
			continue;
		size_t len = strlen(v[i].value);
		strbuf_adds(&msg, v[i].key);
		if (!memchr(v[i].value, '\n', len)) {
			strbuf_addc(&msg, '=');
		} else {
			/* KEY, newline, its length (64 bits, little-endian), the bytes. */
			unsigned char le[8];
			strbuf_addc(&msg, '\n');
			for (int b = 0; b < 8; b++)
				le[b] = (unsigned char)((uint64_t)len >> (8 * b));
			strbuf_add(&msg, (const char *)le, sizeof(le));
		}
		strbuf_add(&msg, v[i].value, len);
		strbuf_addc(&msg, '\n');
	}
	bool sent = datagram_to(path, msg.buf, msg.len);
	strbuf_release(&msg);
	return sent;
}

bool journal_send(const struct journal_field *v, size_t n)
{
	if (access(JOURNAL_SOCKET, W_OK) < 0)
		return false;
	return journal_send_to(JOURNAL_SOCKET, v, n);
}

bool systemd_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");

	return path && datagram_to(path, state, strlen(state));
}

bool journal_is_stderr(void)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	char tail;

	if (!v || sscanf(v, "%llu:%llu%c", &dev, &ino, &tail) != 2 || fstat(2, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}
