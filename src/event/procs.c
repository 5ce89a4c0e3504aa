#include "event/procs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "util/util.h"

/* Kept by the output ring per line: enough for any error message. */
#define OUTPUT_LINE_MAX 1024
/* Ancestors followed when asking whether a process failed. */
#define MAX_DEPTH 64

void procs_init(struct rc_procs *m)
{
	memset(m, 0, sizeof(*m));
	hmap_init(&m->procs);
	strbuf_init(&m->partial[0]);
	strbuf_init(&m->partial[1]);
	strbuf_init(&m->scratch);
}

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

static void fdt_unref(struct rc_fdtable *t)
{
	if (t && --t->refs == 0) {
		hmap_release(&t->fds, fd_free);
		free(t);
	}
}

static struct rc_fdtable *fdt_new(void)
{
	struct rc_fdtable *t = xcalloc(1, sizeof(*t));
	t->refs = 1;
	hmap_init(&t->fds);
	return t;
}

static struct rc_fd *fd_dup(const struct rc_fd *f)
{
	struct rc_fd *n = xmalloc(sizeof(*n));
	*n = *f;
	n->path = f->path ? xstrdup(f->path) : NULL;
	n->peer_host = f->peer_host ? xstrdup(f->peer_host) : NULL;
	n->connect_line = f->connect_line ? xstrdup(f->connect_line) : NULL;
	return n;
}

static struct rc_fdtable *fdt_copy(const struct rc_fdtable *t)
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

static void argv_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

static void proc_free(void *p)
{
	struct rc_proc *pr = p;

	argv_free(pr->argv, pr->argc);
	free(pr->exe);
	free(pr->cwd);
	fdt_unref(pr->fdt);
	free(pr);
}

void procs_release(struct rc_procs *m)
{
	hmap_release(&m->procs, proc_free);
	for (size_t i = 0; i < RC_OUTPUT_KEEP; i++) {
		free(m->out[i].text);
		free(m->out[i].exe);
	}
	strbuf_release(&m->partial[0]);
	strbuf_release(&m->partial[1]);
	strbuf_release(&m->scratch);
	memset(m, 0, sizeof(*m));
}

struct rc_proc *procs_get(const struct rc_procs *m, int pid)
{
	struct rc_procs *mut = (struct rc_procs *)m;

	if (m->cached && m->cached_pid == pid)
		return m->cached;
	void **slot = hmap_get_int(&m->procs, pid);
	if (!slot)
		return NULL;
	mut->cached_pid = pid;
	mut->cached = *slot;
	return *slot;
}

/* Drop PID from the model (an ended process the model no longer needs). */
static void proc_forget(struct rc_procs *m, int pid)
{
	struct rc_proc *p = hmap_del_int(&m->procs, pid);

	if (m->cached == p)
		m->cached = NULL;
	if (p) {
		proc_free(p);
		m->nforgotten++;
	}
}

/* Remember that PID ended; forget the oldest ended process past the cap. */
static void note_ended(struct rc_procs *m, int pid)
{
	if (m->ended_count == RC_PROCS_ENDED_KEEP) {
		int oldest = m->ended[m->ended_head];
		m->ended_head = (m->ended_head + 1) % RC_PROCS_ENDED_KEEP;
		m->ended_count--;
		struct rc_proc *p = procs_get(m, oldest);
		/* Still ended (its pid was not reused since) and not the root,
		 * whose outcome the report opens with. */
		if (p && p->ended && oldest != m->root && oldest != pid)
			proc_forget(m, oldest);
	}
	m->ended[(m->ended_head + m->ended_count) % RC_PROCS_ENDED_KEEP] = pid;
	m->ended_count++;
}

static struct rc_proc *proc_get_or_add(struct rc_procs *m, int pid)
{
	/* Most often the process just looked up (procs_apply of every
	 * event): no hashing. */
	if (m->cached && m->cached_pid == pid)
		return m->cached;
	bool created;
	void **slot = hmap_put_int(&m->procs, pid, &created);

	if (created) {
		struct rc_proc *p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->leader = pid;
		p->fdt = fdt_new();
		p->first_ts = -1;
		p->creds.uid = p->creds.gid = -1;
		p->creds.ngroups = -1;
		p->seccomp_mode = p->seccomp_filters = -1;
		*slot = p;
		m->nprocs++;
		if (m->nprocs == 1)
			m->root = pid;
	}
	return *slot;
}

struct rc_proc *procs_leader(const struct rc_procs *m, int pid)
{
	struct rc_proc *p = procs_get(m, pid);

	if (p && p->leader != p->pid) {
		struct rc_proc *l = procs_get(m, p->leader);
		if (l)
			return l;
	}
	return p;
}

const struct rc_fd *procs_fd(const struct rc_procs *m, int pid, int fd)
{
	struct rc_proc *p = procs_get(m, pid);

	if (!p || !p->fdt || fd < 0)
		return NULL;
	void **slot = hmap_get_int(&p->fdt->fds, fd);
	return slot ? *slot : NULL;
}

static bool proc_failed(const struct rc_proc *p)
{
	return p->ended && ((p->exited && p->exit_code != 0) || (!p->exited && p->signo));
}

/* P's failure was survived by an ancestor: one that exited 0, or, when
 * BY_IMAGE, whose program image that started P's line went on to exec
 * another program. */
static bool handled_above(const struct rc_procs *m, const struct rc_proc *p, bool by_image)
{
	const struct rc_proc *l = p ? procs_leader(m, p->pid) : NULL;

	for (int depth = 0; l && l->has_parent && l->ppid != l->pid && depth < MAX_DEPTH; depth++) {
		unsigned img = l->parent_image;
		l = procs_leader(m, l->ppid);
		if (procs_succeeded(l) || (by_image && l && img < l->image))
			return true;
	}
	return false;
}

bool procs_handled(const struct rc_procs *m, const struct rc_proc *p)
{
	return handled_above(m, p, false);
}

/* PID or one of its ancestors failed, and no ancestor above that one
 * survived it. BY_IMAGE: only while the program image IMAGE of PID (and
 * then each ancestor's image that started the line below it) had not
 * handed over to another by exec. */
static bool failed_from(const struct rc_procs *m, int pid, bool by_image, unsigned image,
			const struct rc_proc **culprit)
{
	const struct rc_proc *p = procs_get(m, pid);
	unsigned img = image;

	for (int depth = 0; p && depth < MAX_DEPTH; depth++) {
		const struct rc_proc *l = procs_leader(m, p->pid);
		/* That program handed over: what failed later is another's. */
		if (by_image && l && img < l->image)
			return false;
		if (proc_failed(p) || (l && proc_failed(l))) {
			const struct rc_proc *f = proc_failed(p) ? p : l;
			/* An ancestor that went on to succeed dealt with it. */
			if (handled_above(m, f, by_image))
				return false;
			if (culprit)
				*culprit = f;
			return true;
		}
		if (!l || !l->has_parent || l->ppid == l->pid)
			break;
		img = l->parent_image;
		p = procs_get(m, l->ppid);
	}
	return false;
}

bool procs_failed(const struct rc_procs *m, int pid, const struct rc_proc **culprit)
{
	return failed_from(m, pid, false, 0, culprit);
}

bool procs_image_failed(const struct rc_procs *m, int pid, unsigned image, const struct rc_proc **culprit)
{
	return failed_from(m, pid, true, image, culprit);
}

unsigned procs_image(const struct rc_procs *m, int pid)
{
	const struct rc_proc *l = procs_leader(m, pid);

	return l ? l->image : 0;
}

bool procs_before_image(const struct rc_procs *m, int pid, uint64_t seq)
{
	const struct rc_proc *l = procs_leader(m, pid);

	return l && seq < l->image_seq;
}

bool procs_descends(const struct rc_procs *m, int pid, int ancestor)
{
	const struct rc_proc *a = procs_leader(m, ancestor);
	const struct rc_proc *l = procs_leader(m, pid);
	int want = a ? a->pid : ancestor;

	if (!l)
		return pid == ancestor;
	for (int depth = 0; l && depth < MAX_DEPTH; depth++) {
		if (l->pid == want)
			return true;
		if (!l->has_parent || l->ppid == l->pid)
			break;
		l = procs_leader(m, l->ppid);
	}
	return false;
}

bool procs_passed_on(const struct rc_procs *m, int pid, uint64_t seq)
{
	const struct rc_proc *p = procs_leader(m, pid);
	const struct rc_proc *last = NULL;
	struct hmap_iter it;

	if (!p || !p->ended || !p->exited || p->exit_code == 0)
		return false;
	for (struct hmap_node *n = hmap_first(&m->procs, &it); n; n = hmap_next(&m->procs, &it)) {
		const struct rc_proc *c = n->value;
		if (c->has_parent && c->ppid == p->pid && !c->is_thread && c->pid != p->pid && c->ended &&
		    c->end_seq <= p->end_seq && (!last || c->end_seq > last->end_seq))
			last = c;
	}
	if (!last || !proc_failed(last) || seq >= last->first_seq)
		return false;
	/* A shell reports a child killed by signal N as 128+N. */
	return last->exited ? last->exit_code == p->exit_code : 128 + last->signo == p->exit_code;
}

bool procs_below(const struct rc_procs *m, int pid, int ancestor)
{
	const struct rc_proc *a = procs_leader(m, ancestor), *l = procs_leader(m, pid);

	return a && l && a->pid != l->pid && procs_descends(m, pid, ancestor);
}

bool procs_any_failed(const struct rc_procs *m)
{
	struct hmap_iter it;

	for (struct hmap_node *n = hmap_first(&m->procs, &it); n; n = hmap_next(&m->procs, &it))
		if (proc_failed(n->value))
			return true;
	return false;
}

/* Join BASE and a relative PATH, dropping "./" components. */
static const char *join(struct strbuf *sb, const char *base, const char *path)
{
	strbuf_reset(sb);
	strbuf_adds(sb, base);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (strcmp(path, ".") == 0)
		return strbuf_str(sb);
	if (sb->len == 0 || sb->buf[sb->len - 1] != '/')
		strbuf_addc(sb, '/');
	strbuf_adds(sb, path);
	return strbuf_str(sb);
}

/* PARENT's child CHILD: its parentage, and what a fork gives it (the fd
 * table, as shared or copied, the cwd, argv and exe). */
static void inherit(struct rc_procs *m, struct rc_proc *child, struct rc_proc *parent, bool thread,
		    bool share_files)
{
	child->is_thread = thread;
	child->leader = thread ? parent->leader : child->pid;
	child->ppid = thread ? parent->ppid : parent->leader;
	child->has_parent = thread ? parent->has_parent : true;
	fdt_unref(child->fdt);
	if (thread || share_files) {
		child->fdt = parent->fdt;
		parent->fdt->refs++;
	} else {
		child->fdt = fdt_copy(parent->fdt);
	}
	if (!child->cwd && parent->cwd)
		child->cwd = xstrdup(parent->cwd);
	if (!child->argv && parent->argv) {
		child->argv = xcalloc((size_t)parent->argc + 1, sizeof(char *));
		for (int i = 0; i < parent->argc; i++)
			child->argv[i] = xstrdup(parent->argv[i]);
		child->argc = parent->argc;
	}
	if (!child->exe && parent->exe)
		child->exe = xstrdup(parent->exe);
	/* A child runs as its parent and under its parent's filters. */
	const struct rc_proc *pl = procs_leader(m, parent->pid);
	if (!thread)
		child->parent_image = pl ? pl->image : parent->image;
	if (!thread && pl && !child->creds.live)
		child->creds = pl->creds;
	if (child->seccomp_mode < 0) {
		child->seccomp_mode = parent->seccomp_mode;
		child->seccomp_filters = parent->seccomp_filters;
	}
}

void procs_resolve(struct rc_procs *m, struct rc_event *e)
{
	/* What a live capture read of the thread when its call failed is
	 * the state the call was made in: the rules judge the call by it. */
	if (e->live) {
		if (e->live->creds.uid >= 0)
			procs_set_creds(m, e->pid, &e->live->creds);
		if (e->live->seccomp_mode >= 0)
			procs_set_seccomp(m, e->pid, e->live->seccomp_mode, e->live->seccomp_filters);
	}
	/* A child seen before its parent's fork returned: a process of its
	 * own until the fork says otherwise (apply_clone). */
	struct rc_proc *known = e->forked_by > 0 ? procs_get(m, e->pid) : NULL;
	/* (Known only by facts read live before its first call: its
	 * credentials when that call failed.) */
	if (e->forked_by > 0 && e->forked_by != e->pid &&
	    (!known || (!known->has_parent && !known->nsyscalls && !known->ended && !known->argv))) {
		struct rc_proc *parent = procs_get(m, e->forked_by);
		if (parent && !parent->ended) {
			struct rc_proc *child = proc_get_or_add(m, e->pid);
			inherit(m, child, parent, false, false);
			child->forked_early = true;
		}
	}
	if (e->kind != RC_EV_SYSCALL || !e->path || e->path[0] == '/' || e->path[0] == '\0')
		return;
	const char *base = e->dir_shown ? e->dir_shown->path : NULL;
	if (!base) {
		struct rc_proc *p = procs_get(m, e->pid);
		if (e->dirfd == RC_AT_FDCWD) {
			base = p ? p->cwd : NULL;
		} else {
			const struct rc_fd *f = procs_fd(m, e->pid, e->dirfd);
			base = f && f->kind == RC_FD_FILE ? f->path : NULL;
			/* A directory opened by a relative name while the cwd was
			 * unknown: cp's openat(AT_FDCWD, "rodir/", O_PATH) then
			 * openat(3, "src.txt", O_CREAT) names rodir/src.txt, not
			 * src.txt. */
			if (base && base[0] && base[0] != '/')
				e->path = join(&m->scratch, base, e->path);
		}
	}
	if (base && base[0] == '/')
		e->path = join(&m->scratch, base, e->path);
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* Sets what fd FD with no entry is: stream 1 or 2, 0 for neither, -1
 * for what it was at the start. */
static void stream_mark(struct rc_fdtable *t, int fd, int stream)
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

/* The inherited stream (1 stdout, 2 stderr) fd FD of P with no entry
 * writes to; 0 when none. */
static int inherited_stream(const struct rc_proc *p, int fd)
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

/* Make F the entry of FD, replacing (and freeing) what was there. */
static void fd_store(struct rc_proc *p, int fd, struct rc_fd *f)
{
	bool created;
	void **slot = hmap_put_int(&p->fdt->fds, fd, &created);

	stream_mark(p->fdt, fd, -1);
	if (!created)
		fd_free(*slot);
	*slot = f;
}

static struct rc_fd *fd_put(struct rc_proc *p, int fd, enum rc_fd_kind kind)
{
	struct rc_fd *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->peer_port = -1;
	fd_store(p, fd, f);
	return f;
}

static void fd_close(struct rc_proc *p, int fd)
{
	fd_free(hmap_del_int(&p->fdt->fds, fd));
	stream_mark(p->fdt, fd, 0);
}

/* Learn an fd the model has not seen opened from what its -y/-yy
 * decoration showed, H (sockets opened before an attach are known only
 * this way). */
static void learn_fd_shown(struct rc_proc *p, int fd, const struct rc_fdfacts *h)
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

bool procs_fd_info(const struct rc_procs *m, const struct rc_event *e, int fd, struct rc_fdinfo *out)
{
	memset(out, 0, sizeof(*out));
	out->f = fd >= 0 ? procs_fd(m, e->pid, fd) : NULL;
	if (out->f) {
		out->kind = out->f->kind;
		out->path = out->f->kind == RC_FD_FILE ? out->f->path : NULL;
		return true;
	}
	const struct rc_fdfacts *h = procs_fd_shown(m, e, fd);
	if (!h)
		return false;
	out->kind = h->kind;
	out->path = h->path;
	return true;
}

void procs_adopt(struct rc_procs *m, int pid, int leader, const char *const *argv, int argc,
		 const char *exe, const char *cwd)
{
	struct rc_proc *l = proc_get_or_add(m, leader);
	struct rc_proc *p = proc_get_or_add(m, pid);

	if (p != l && !p->is_thread) {
		p->is_thread = true;
		p->leader = leader;
		p->ppid = l->ppid;
		p->has_parent = l->has_parent;
		fdt_unref(p->fdt);
		p->fdt = l->fdt;
		l->fdt->refs++;
	}
	if (argv && argc > 0 && !l->argv) {
		l->argv = xcalloc((size_t)argc + 1, sizeof(char *));
		for (int i = 0; i < argc; i++)
			l->argv[i] = xstrdup(argv[i] ? argv[i] : "");
		l->argc = argc;
	}
	if (exe && !l->exe)
		l->exe = xstrdup(exe);
	if (cwd && !l->cwd)
		l->cwd = xstrdup(cwd);
	if (cwd && !p->cwd)
		p->cwd = xstrdup(cwd);
}

void procs_learn_fd(struct rc_procs *m, int pid, int fd, const struct rc_fdfacts *shown)
{
	learn_fd_shown(proc_get_or_add(m, pid), fd, shown);
}

static void output_push(struct rc_procs *m, int pid, int fd, uint64_t seq, bool discarded, const char *s,
			size_t n, size_t cut_shown)
{
	if (n == 0)
		return;
	/* Lines are pushed as they end, by a write of the same process (or
	 * a flush): its image is the one that wrote them. */
	const struct rc_proc *w = procs_leader(m, pid);
	size_t slot = (m->out_head + m->out_count) % RC_OUTPUT_KEEP;
	if (m->out_count == RC_OUTPUT_KEEP) {
		slot = m->out_head;
		m->out_head = (m->out_head + 1) % RC_OUTPUT_KEEP;
	} else {
		m->out_count++;
	}
	free(m->out[slot].text);
	m->out[slot].text = xstrndup(s, MIN(n, OUTPUT_LINE_MAX));
	m->out[slot].pid = pid;
	m->out[slot].fd = fd;
	m->out[slot].seq = seq;
	m->out[slot].discarded = discarded;
	m->out[slot].cut = cut_shown > 0;
	m->out[slot].shown = cut_shown;
	m->out[slot].image = w ? w->image : 0;
	free(m->out[slot].exe);
	m->out[slot].exe = w && w->exe ? xstrdup(w->exe) : NULL;
}

/* CUT_SHOWN: the line ends where the source stopped showing a write of
 * which it showed that many bytes; 0 for a whole line. */
static void output_flush_cut(struct rc_procs *m, int i, size_t cut_shown)
{
	struct strbuf *sb = &m->partial[i];
	if (sb->len)
		output_push(m, m->partial_pid[i], i + 1, m->partial_seq[i], m->partial_discarded[i], sb->buf,
			    sb->len, cut_shown);
	strbuf_reset(sb);
}

static void output_flush_fd(struct rc_procs *m, int i)
{
	output_flush_cut(m, i, 0);
}

void procs_flush_output(struct rc_procs *m)
{
	output_flush_fd(m, 0);
	output_flush_fd(m, 1);
}

/* The stream (1 stdout, 2 stderr) a write on fd FD of P goes to, 0 for
 * neither: fds 1 and 2 whatever they were redirected to, and copies of
 * the streams the program started with. *TO_NULL: the fd is /dev/null (a
 * script's "2>/dev/null"), so nobody reads what goes there. */
static int write_stream(const struct rc_proc *p, int fd, bool *to_null)
{
	void **slot = p->fdt ? hmap_get_int(&p->fdt->fds, fd) : NULL;
	const struct rc_fd *f = slot ? *slot : NULL;

	*to_null = f && f->path && strcmp(f->path, "/dev/null") == 0;
	if (f && f->stream)
		return f->stream;
	if (f)
		return fd == 1 || fd == 2 ? fd : 0;
	return inherited_stream(p, fd);
}

/* N bytes of a write, split into lines. */
static void output_lines(struct rc_procs *m, const struct rc_event *e, int i, bool discarded, const char *s,
			 size_t n)
{
	struct strbuf *sb = &m->partial[i];

	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t take = nl ? (size_t)(nl - s) : n;
		if (sb->len == 0) {
			m->partial_pid[i] = e->pid;
			m->partial_seq[i] = e->seq;
			m->partial_discarded[i] = discarded;
		}
		if (sb->len < OUTPUT_LINE_MAX)
			strbuf_add(sb, s, MIN(take, OUTPUT_LINE_MAX - sb->len));
		if (!nl)
			break;
		output_flush_fd(m, i);
		s = nl + 1;
		n -= take + 1;
	}
}

static void output_add(struct rc_procs *m, const struct rc_event *e, int stream, bool discarded)
{
	int i = stream - 1;
	struct strbuf *sb = &m->partial[i];
	const char *s = (const char *)e->data;
	size_t gap = e->data_omitted && e->data_gap <= e->data_len ? e->data_gap : e->data_len;

	if (sb->len && (m->partial_pid[i] != e->pid || m->partial_discarded[i] != discarded))
		output_flush_fd(m, i);
	output_lines(m, e, i, discarded, s, gap);
	if (gap < e->data_len) {
		/* The middle of a long write was left out: the line it breaks
		 * ends "..." and what follows begins a fragment. */
		if (sb->len) {
			strbuf_adds(sb, "...");
			output_flush_fd(m, i);
		}
		m->partial_pid[i] = e->pid;
		m->partial_seq[i] = e->seq;
		m->partial_discarded[i] = discarded;
		strbuf_adds(sb, "...");
		output_lines(m, e, i, discarded, s + gap, e->data_len - gap);
	}
	/* A preview cut short by strace's -s is a line of its own, marked the
	 * way strace marks it. */
	if (e->data_truncated && sb->len) {
		strbuf_adds(sb, "...");
		output_flush_cut(m, i, e->data_len + (size_t)e->data_omitted);
	} else if (e->data_truncated && m->out_count) {
		/* Cut right after a newline: the line before is the last seen. */
		struct rc_output *last = &m->out[(m->out_head + m->out_count - 1) % RC_OUTPUT_KEEP];
		if (last->seq == e->seq && last->fd == stream) {
			last->cut = true;
			last->shown = e->data_len + (size_t)e->data_omitted;
		}
	}
}

/* Thread TID, taken for a process of its own while its clone had not
 * returned (procs_resolve), wrote lines then: they are its process's,
 * written by the program LEADER runs, not by a program of its own. */
static void restamp_thread_output(struct rc_procs *m, int tid, const struct rc_proc *leader)
{
	for (size_t i = 0; leader && i < m->out_count; i++) {
		struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->pid != tid)
			continue;
		o->image = leader->image;
		free(o->exe);
		o->exe = leader->exe ? xstrdup(leader->exe) : NULL;
	}
}

static void apply_clone(struct rc_procs *m, struct rc_proc *parent, const struct rc_event *e)
{
	int child_pid = (int)e->ret;
	bool thread = (e->flags & CLONE_THREAD) != 0;

	/* A log can claim a process cloned itself; there is nothing to learn
	 * from that, and unsharing its fd table from itself would free it. */
	if (child_pid == parent->pid)
		return;
	/* A child taken early as this process's own (procs_resolve) keeps
	 * the fds and cwd it has changed since, and may even have ended: a
	 * vfork returns only once the child has exec'd or exited. */
	bool share = thread || (e->flags & CLONE_FILES);
	struct rc_proc *old = procs_get(m, child_pid);
	if (old && old->forked_early && !share && old->ppid == parent->leader && !old->is_thread) {
		old->forked_early = false;
		return;
	}
	/* A pid that ended earlier and comes back is a new process. */
	if (old && old->ended && child_pid != m->root)
		proc_forget(m, child_pid);
	struct rc_proc *child = proc_get_or_add(m, child_pid);

	/* The child may already have shown up in the log before the parent's
	 * clone resumed; its parentage is set now either way. */
	if (child->forked_early && thread)
		restamp_thread_output(m, child_pid, procs_leader(m, parent->pid));
	child->forked_early = false;
	inherit(m, child, parent, thread, share);
}

/* A credentials call that worked (or a get*id answer): what P's process
 * now runs as. The effective ids are what file access is checked
 * against; getuid's answer stands in for them only while they are
 * unknown (real and effective differ only in set-user-ID programs). */
static void apply_creds(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e)
{
	struct rc_proc *l = procs_leader(m, p->pid);
	struct rc_creds *c = l ? &l->creds : &p->creds;
	long nr = e->nr;
	bool uid_call = nr == SYS_setuid || nr == SYS_setreuid || nr == SYS_setresuid;
	bool gid_call = nr == SYS_setgid || nr == SYS_setregid || nr == SYS_setresgid;

	if (uid_call || gid_call) {
		/* setuid(id); setreuid(r, e) and setresuid(r, e, s): the second. */
		int i = nr == SYS_setuid || nr == SYS_setgid ? 0 : 1;
		if (e->nids > i && e->ids[i] >= 0) {
			if (uid_call)
				c->uid = e->ids[i];
			else
				c->gid = e->ids[i];
			c->live = false;
		}
	} else if (nr == SYS_setgroups || nr == SYS_getgroups) {
		if (nr == SYS_getgroups && e->nids == 0 && e->ret != 0)
			return;	/* getgroups(0, NULL) only counts them */
		c->ngroups = e->ids_truncated ? -1 : e->nids;
		for (int i = 0; i < e->nids && i < RC_PROC_MAX_GROUPS; i++)
			c->groups[i] = (unsigned)e->ids[i];
	} else if (nr == SYS_geteuid || (nr == SYS_getuid && c->uid < 0)) {
		c->uid = e->ret;
	} else if (nr == SYS_getegid || (nr == SYS_getgid && c->gid < 0)) {
		c->gid = e->ret;
	}
}

void procs_set_creds(struct rc_procs *m, int pid, const struct rc_creds *c)
{
	struct rc_proc *p = proc_get_or_add(m, pid);
	struct rc_proc *l = procs_leader(m, pid);

	(l ? l : p)->creds = *c;
}

void procs_set_seccomp(struct rc_procs *m, int pid, int mode, int filters)
{
	struct rc_proc *p = proc_get_or_add(m, pid);

	p->seccomp_mode = mode;
	p->seccomp_filters = filters;
}

const struct rc_creds *procs_creds(const struct rc_procs *m, int pid)
{
	const struct rc_proc *l = procs_leader(m, pid);

	return l ? &l->creds : NULL;
}

static void apply_exec(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e)
{
	/* A line the old program left unterminated was its own. */
	for (int i = 0; i < 2; i++)
		if (m->partial[i].len && procs_leader(m, m->partial_pid[i]) == procs_leader(m, p->pid))
			output_flush_fd(m, i);
	struct rc_proc *l = procs_leader(m, p->pid);
	(l ? l : p)->image++;
	(l ? l : p)->image_seq = e->seq;
	argv_free(p->argv, p->argc);
	p->argv = xcalloc((size_t)e->argc + 1, sizeof(char *));
	for (int i = 0; i < e->argc; i++)
		p->argv[i] = xstrdup(e->argv[i] ? e->argv[i] : "");
	p->argc = e->argc;
	set_str(&p->exe, e->path);

	/* O_CLOEXEC descriptors do not survive exec. */
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(&p->fdt->fds, &it);
	while (n) {
		struct hmap_node *next = hmap_next(&p->fdt->fds, &it);
		struct rc_fd *f = n->value;
		if (f->cloexec)
			fd_close(p, (int)hmap_node_int(n));
		n = next;
	}
}

/* E copied its fd to the fd it returned. */
static void apply_dup(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e)
{
	const struct rc_fd *old = procs_fd(m, e->pid, e->fd);
	if (e->ret >= 0 && e->ret != e->fd) {
		if (old) {
			struct rc_fd *copy = fd_dup(old);
			copy->cloexec = (e->flags & O_CLOEXEC) != 0;
			fd_store(p, (int)e->ret, copy);
		} else {
			/* A copy of stdout or stderr, or of an fd the
			 * trace never saw opened: then the new fd is
			 * taken for what it was at the start, which
			 * keeps fd 1 stdout when a log lacks the F_DUPFD
			 * that saved it. */
			int from = inherited_stream(p, e->fd);
			fd_close(p, (int)e->ret);
			stream_mark(p->fdt, (int)e->ret, from ? from : -1);
		}
	}
}

static void apply_syscall(struct rc_procs *m, struct rc_proc *p, const struct rc_event *e)
{
	long nr = e->nr;

	/* Most fds shown are ones the model has. */
	if (e->fd_shown && e->fd >= 0 && !hmap_get_int(&p->fdt->fds, e->fd))
		learn_fd_shown(p, e->fd, e->fd_shown);
	if (e->dir_shown && e->dir_shown->path && e->dirfd == RC_AT_FDCWD && !p->cwd)
		p->cwd = xstrdup(e->dir_shown->path);
	/* A signal sent by a traced process: who it was, for a death by a
	 * signal no siginfo shows (SIGKILL). kill(0, ...) names the sender's
	 * own group, itself with it. */
	if (e->has_kill_target && e->signo > 0 && !e->err && e->kill_target >= 0) {
		struct rc_proc *v = e->kill_target ? procs_leader(m, e->kill_target) : procs_leader(m, e->pid);
		if (v) {
			v->signalled_by = p->leader;
			v->signalled_with = e->signo;
		}
	}

	if (nr == SYS_connect && e->fd >= 0) {
		struct rc_fd *f = (struct rc_fd *)procs_fd(m, e->pid, e->fd);
		if (!f) {
			f = fd_put(p, e->fd, RC_FD_SOCKET);
			f->family = e->sa.family;
		}
		if (e->sa.family) {
			set_str(&f->peer_host, e->sa.host);
			f->peer_port = e->sa.port;
			f->abstract = e->sa.abstract;
		}
		f->connecting = e->err == EINPROGRESS;
		if (f->connecting) {
			f->connect_ts = e->ts;
			f->connect_seq = e->seq;
			free(f->connect_line);
			event_quoted(e);
			f->connect_line = e->line ? xstrndup(e->line, e->line_len) : NULL;
		}
		return;
	}
	/* Program output is text; binary data written to a redirected fd 1
	 * (dd of=, a pipe of images) is not. */
	bool to_null = false;
	int stream = nr == SYS_write || nr == SYS_writev ? write_stream(p, e->fd, &to_null) : 0;
	if (stream && e->data_len && !memchr(e->data, '\0', e->data_len))
		output_add(m, e, stream, to_null);
	if (!e->ret_known || e->err)
		return;
	unsigned long long cl = syscall_classes(nr);
	/* A pending non-blocking connect has an outcome once SO_ERROR was read
	 * or data moved on it; rules see it "connecting" until then. */
	if (e->fd >= 0 && (nr == SYS_getsockopt || (cl & CL_SOCK_IO))) {
		struct rc_fd *f = (struct rc_fd *)procs_fd(m, e->pid, e->fd);
		if (f && f->connecting && (nr != SYS_getsockopt || (e->sockopt_level == SOL_SOCKET &&
								    e->sockopt_name == SO_ERROR)))
			f->connecting = false;
	}

	if (cl & CL_OPEN) {
		if (e->ret >= 0) {
			struct rc_fd *f = fd_put(p, (int)e->ret, RC_FD_FILE);
			f->path = e->path ? xstrdup(e->path) : NULL;
			f->cloexec = (e->flags & O_CLOEXEC) != 0;
			f->nonblocking = (e->flags & O_NONBLOCK) != 0;
		}
		return;
	}
	if (cl & CL_ACCEPT) {
		if (e->ret >= 0) {
			struct rc_fd *f = fd_put(p, (int)e->ret, RC_FD_SOCKET);
			f->family = e->sa.family;
			f->peer_host = e->sa.host ? xstrdup(e->sa.host) : NULL;
			f->peer_port = e->sa.port;
		}
		return;
	}
	if (cl & CL_EXEC) {
		apply_exec(m, p, e);
		return;
	}
	if (cl & CL_IDS) {
		apply_creds(m, p, e);
		return;
	}
	if (cl & CL_FORK) {
		if (e->ret > 0)
			apply_clone(m, p, e);
		return;
	}
	/* A copy of an fd: the dup calls, and fcntl's F_DUPFD* (which set fd2). */
	if ((cl & CL_DUP) || (nr == SYS_fcntl && e->fd2 >= 0)) {
		apply_dup(m, p, e);
		return;
	}
	/* Two fds at once: pipe, pipe2, socketpair. Only calls that filled
	 * fds (these, and the poll and epoll waits) look at the table's row. */
	const struct rc_syscall *sc = e->nfds ? syscall_by_nr(nr) : NULL;
	if (sc && syscall_has_role(sc, ROLE_FD_PAIR)) {
		bool sockets = nr == SYS_socketpair;
		for (int i = 0; i < e->nfds && i < 2; i++) {
			struct rc_fd *f = fd_put(p, e->fds[i], sockets ? RC_FD_SOCKET : RC_FD_PIPE);
			f->family = sockets ? AF_UNIX : 0;
			f->cloexec = (e->flags & O_CLOEXEC) != 0;
		}
		return;
	}
	/* The rest each change the model in their own way. */
	switch (nr) {
	case SYS_socket:
		if (e->ret >= 0) {
			struct rc_fd *f = fd_put(p, (int)e->ret, RC_FD_SOCKET);
			f->family = e->sa.family;
			f->sock_type = (int)(e->flags & 0xf);
			f->nonblocking = (e->flags & SOCK_NONBLOCK) != 0;
			f->cloexec = (e->flags & SOCK_CLOEXEC) != 0;
		}
		break;
	case SYS_close:
		fd_close(p, e->fd);
		break;
	case SYS_chdir:
		if (e->path && e->path[0] == '/')
			set_str(&p->cwd, e->path);
		break;
	case SYS_fchdir: {
		const struct rc_fd *f = procs_fd(m, e->pid, e->fd);
		if (f && f->path)
			set_str(&p->cwd, f->path);
		break;
	}
	default:
		break;
	}
}

/* A process or thread found running (E->found): what the trace showed of
 * a process first stays. */
static void apply_found(struct rc_procs *m, const struct rc_event *e)
{
	const struct rc_found *f = e->found;

	if (f->process && !procs_get(m, f->leader)) {
		procs_adopt(m, f->leader, f->leader, f->argc ? f->argv : NULL, f->argc, f->exe, f->cwd);
		for (size_t i = 0; i < f->nfds; i++)
			procs_learn_fd(m, f->leader, f->fds[i].fd, f->fds[i].shown);
	}
	if (e->pid != f->leader)
		procs_adopt(m, e->pid, f->leader, NULL, 0, NULL, NULL);
}

void procs_apply(struct rc_procs *m, const struct rc_event *e)
{
	/* No event of the trace's: it begins nothing, and is no call. */
	if (e->kind == RC_EV_FOUND) {
		if (e->found)
			apply_found(m, e);
		return;
	}
	struct rc_proc *p = proc_get_or_add(m, e->pid);

	if (p->first_ts < 0)
		p->first_ts = e->ts;
	if (!p->first_seq)
		p->first_seq = e->seq;
	if (e->ts >= 0)
		p->last_ts = e->ts;
	p->last_seq = e->seq;

	switch (e->kind) {
	case RC_EV_SYSCALL:
		p->nsyscalls++;
		apply_syscall(m, p, e);
		break;
	case RC_EV_EXIT:
		if (!p->ended)
			note_ended(m, e->pid);
		p->ended = true;
		p->exited = e->exited;
		p->exit_code = e->exit_code;
		p->signo = e->exited ? 0 : e->signo;
		p->core_dumped = e->core_dumped;
		p->end_seq = e->seq;
		p->end_ts = e->ts;
		break;
	case RC_EV_SIGNAL:
	case RC_EV_FOUND:	/* above */
		break;
	case RC_EV_SUM:
		p->nsyscalls += e->sum->calls;
		break;
	}
}

static int cmp_pid(const void *a, const void *b)
{
	const struct rc_proc *x = *(struct rc_proc *const *)a, *y = *(struct rc_proc *const *)b;
	if (x->first_seq != y->first_seq)
		return x->first_seq < y->first_seq ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

struct rc_proc **procs_sorted(const struct rc_procs *m, size_t *count)
{
	struct rc_proc **v = xcalloc(m->procs.count + 1, sizeof(*v));
	struct hmap_iter it;
	size_t n = 0;

	for (struct hmap_node *node = hmap_first(&m->procs, &it); node; node = hmap_next(&m->procs, &it))
		v[n++] = node->value;
	qsort(v, n, sizeof(*v), cmp_pid);
	*count = n;
	return v;
}
