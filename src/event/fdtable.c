/* The process model's fd tables (procs.h): what each fd of a process is,
 * shared by threads and copied by fork, which of them are copies of the
 * stdout and stderr the program started with, and an fd learnt from what
 * a decoration said of it. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "event/procs-internal.h"
#include "util/util.h"

static void fd_free(void *p)
{
	struct rc_fd *f = p;

	if (!f)
		return;
	free(f->path);
	free(f->peer_host);
	free(f->connect_line);
	free(f);
}

void fdt_unref(struct rc_fdtable *t)
{
	if (t && --t->refs == 0) {
		hmap_release(&t->fds, fd_free);
		free(t);
	}
}

struct rc_fdtable *fdt_new(void)
{
	struct rc_fdtable *t = xcalloc(1, sizeof(*t));
	t->refs = 1;
	hmap_init(&t->fds);
	return t;
}

struct rc_fd *fd_dup(const struct rc_fd *f)
{
	struct rc_fd *n = xmalloc(sizeof(*n));
	*n = *f;
	n->path = f->path ? xstrdup(f->path) : NULL;
	n->peer_host = f->peer_host ? xstrdup(f->peer_host) : NULL;
	n->connect_line = f->connect_line ? xstrdup(f->connect_line) : NULL;
	return n;
}

struct rc_fdtable *fdt_copy(const struct rc_fdtable *t)
{
	struct rc_fdtable *n = fdt_new();
	struct hmap_iter it;

	if (!t)
		return n;
	for (struct hmap_node *node = hmap_first(&t->fds, &it); node; node = hmap_next(&t->fds, &it))
		*hmap_put(&n->fds, node->key, node->keylen, NULL) = fd_dup(node->value);
	n->std1 = t->std1;
	n->std2 = t->std2;
	n->other = t->other;
	return n;
}

void stream_mark(struct rc_fdtable *t, int fd, int stream)
{
	if (fd < 0 || fd >= 64)
		return;
	uint64_t b = (uint64_t)1 << fd;
	t->std1 &= ~b;
	t->std2 &= ~b;
	t->other &= ~b;
	if (stream == 1)
		t->std1 |= b;
	else if (stream == 2)
		t->std2 |= b;
	else if (stream == 0)
		t->other |= b;
}

int inherited_stream(const struct rc_proc *p, int fd)
{
	const struct rc_fdtable *t = p->fdt;

	if (t && fd >= 0 && fd < 64) {
		uint64_t b = (uint64_t)1 << fd;
		if (t->std1 & b)
			return 1;
		if (t->std2 & b)
			return 2;
		if (t->other & b)
			return 0;
	}
	return fd == 1 || fd == 2 ? fd : 0;
}

void fd_store(struct rc_proc *p, int fd, struct rc_fd *f)
{
	bool created;
	void **slot = hmap_put_int(&p->fdt->fds, fd, &created);

	stream_mark(p->fdt, fd, -1);
	if (!created)
		fd_free(*slot);
	*slot = f;
}

struct rc_fd *fd_put(struct rc_proc *p, int fd, enum rc_fd_kind kind)
{
	struct rc_fd *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->peer_port = -1;
	fd_store(p, fd, f);
	return f;
}

void fd_close(struct rc_proc *p, int fd)
{
	fd_free(hmap_del_int(&p->fdt->fds, fd));
	stream_mark(p->fdt, fd, 0);
}

void learn_fd_shown(struct rc_proc *p, int fd, const struct rc_fdfacts *h)
{
	if (fd < 0 || !h || hmap_get_int(&p->fdt->fds, fd))
		return;
	/* Whether it is a standard stream is known from before the decoration. */
	int stream = inherited_stream(p, fd);
	struct rc_fd *f = NULL;
	switch (h->kind) {
	case RC_FD_FILE:
		f = fd_put(p, fd, RC_FD_FILE);
		f->path = xstrdup(h->path);
		break;
	case RC_FD_PIPE:
		f = fd_put(p, fd, RC_FD_PIPE);
		break;
	case RC_FD_SOCKET:
		f = fd_put(p, fd, RC_FD_SOCKET);
		/* As the model has always had them: a socket that is neither
		 * unix nor IPv6 is taken for IPv4, and one that is not UDP
		 * for a stream. */
		f->family = h->family == AF_UNIX || h->family == AF_INET6 ? h->family : AF_INET;
		f->sock_type = h->sock_type == SOCK_DGRAM && h->family != AF_UNIX ? SOCK_DGRAM : SOCK_STREAM;
		if (h->peer.family && h->peer.host) {
			f->peer_host = xstrdup(h->peer.host);
			f->peer_port = h->peer.port;
		}
		break;
	default:
		break;
	}
	if (f)
		f->stream = stream;
}

int write_stream(const struct rc_proc *p, int fd, bool *to_null)
{
	void **slot = p->fdt ? hmap_get_int(&p->fdt->fds, fd) : NULL;
	const struct rc_fd *f = slot ? *slot : NULL;

	*to_null = f && f->path && strcmp(f->path, "/dev/null") == 0;
	if (f && f->stream)
		return f->stream;
	/* Stdout sent into a file the program writes ('cat > app.py <<EOF'
	 * in a start script) carries the file's contents. Stderr stays the
	 * program's words wherever it goes. */
	if (f && fd == 1 && f->file_out)
		return 0;
	if (f)
		return fd == 1 || fd == 2 ? fd : 0;
	return inherited_stream(p, fd);
}
