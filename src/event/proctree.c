/* The process model's processes and threads (procs.h): each found by its
 * pid, its leader and parent, what a child takes from its parent, the
 * processes that ended (the oldest forgotten past a cap), which process
 * descends from which, and a process's fd FD looked up. */
#include <stdlib.h>
#include <string.h>

#include "event/procs-internal.h"
#include "util/util.h"

void argv_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

void proc_free(void *p)
{
	struct rc_proc *pr = p;

	argv_free(pr->argv, pr->argc);
	free(pr->exe);
	free(pr->cwd);
	fdt_unref(pr->fdt);
	free(pr);
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

void proc_forget(struct rc_procs *m, int pid)
{
	struct rc_proc *p = hmap_del_int(&m->procs, pid);

	if (m->cached == p)
		m->cached = NULL;
	if (p) {
		proc_free(p);
		m->nforgotten++;
	}
}

void note_ended(struct rc_procs *m, int pid)
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

struct rc_proc *proc_get_or_add(struct rc_procs *m, int pid)
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

bool procs_fd_info(const struct rc_procs *m, const struct rc_event *e, int fd, struct rc_fdinfo *out)
{
	memset(out, 0, sizeof(*out));
	out->f = fd >= 0 ? procs_fd(m, e->pid, fd) : NULL;
	if (out->f) {
		out->kind = out->f->kind;
		out->path = out->f->kind == RC_FD_FILE ? out->f->path : NULL;
		return true;
	}
	/* What E's decoration of it said (procs_fd_shown). */
	const struct rc_fdfacts *h = fd == e->fd ? e->fd_shown : NULL;
	if (!h)
		return false;
	out->kind = h->kind;
	out->path = h->path;
	return true;
}

void proc_inherit(struct rc_procs *m, struct rc_proc *child, struct rc_proc *parent, bool thread,
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

bool procs_below(const struct rc_procs *m, int pid, int ancestor)
{
	const struct rc_proc *a = procs_leader(m, ancestor), *l = procs_leader(m, pid);

	return a && l && a->pid != l->pid && procs_descends(m, pid, ancestor);
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
