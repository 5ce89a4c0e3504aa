/* The journal's native protocol (see journal.h). */
#include "watch/journal.h"

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/strbuf.h"

bool journal_send_to(const char *path, const struct journal_field *v, size_t n)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct strbuf msg = STRBUF_INIT;

	if (strlen(path) >= sizeof(sa.sun_path))
		return false;
	strcpy(sa.sun_path, path);
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
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	bool sent = fd >= 0 && sendto(fd, msg.buf, msg.len, MSG_NOSIGNAL, (struct sockaddr *)&sa, sizeof(sa)) ==
		(ssize_t)msg.len;
	if (fd >= 0)
		close(fd);
	strbuf_release(&msg);
	return sent;
}

bool journal_send(const struct journal_field *v, size_t n)
{
	if (access(JOURNAL_SOCKET, W_OK) < 0)
		return false;
	return journal_send_to(JOURNAL_SOCKET, v, n);
}
