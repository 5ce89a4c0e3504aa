/* The process model's writer (procs.h): each event applied to the model,
 * and what an event says of the state its call was made in taken before
 * the rules see it. The model's parts are the other files procs-internal.h
 * names. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "event/procs-internal.h"
#include "event/syscalls.h"
#include "util/util.h"

void procs_init(struct rc_procs *m)
{
	memset(m, 0, sizeof(*m));
	hmap_init(&m->procs);
	strbuf_init(&m->partial[0]);
	strbuf_init(&m->partial[1]);
	strbuf_init(&m->scratch);
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

/* Join BASE and a relative PATH, dropping "./" components. */
static const char *path_join(struct strbuf *sb, const char *base, const char *path)
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

/* CHILD, a process (not a thread) PARENT's fork took early (E's first
 * event): kept among the early children a fork's return may name, and,
 * named by its pid in a pid namespace, its number there. */
static void early_process(struct rc_procs *m, struct rc_proc *child, const struct rc_proc *parent,
			  const struct rc_event *e)
{
	if (m->nearly == RC_PROCS_EARLY) {
		memmove(m->early, m->early + 1, sizeof(m->early) - sizeof(m->early[0]));
		m->nearly--;
	}
	m->early[m->nearly++] = e->pid;
	/* The fork named it by its pid in a pid namespace: that number,
	 * taken for a process of its own at the fork's return, was this one. */
	struct rc_proc *alias = e->forked_as > 0 ? procs_get(m, e->forked_as) : NULL;
	if (e->forked_as > 0 && e->forked_as != e->pid) {
		child->ns_pid = e->ns_pid > 0 ? e->ns_pid : e->forked_as;
		child->forked_early = false;
	}
	if (alias && alias->has_parent && alias->ppid == parent->leader && !alias->nsyscalls && !alias->ended &&
	    !alias->is_thread && e->forked_as != m->root)
		proc_forget(m, e->forked_as);
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
		/* A parent not known yet, which forked this child before its
		 * own first call ended (start-stop-daemon's first child, whose
		 * first call is the fork of the daemon): the capture knew
		 * whose child it was, and so is it taken now. */
		struct rc_proc *grand = !parent && e->forked_sure && e->parent_forked_by > 0 &&
						e->parent_forked_by != e->forked_by
					? procs_get(m, e->parent_forked_by) : NULL;
		if (grand) {
			parent = proc_get_or_add(m, e->forked_by);
			proc_inherit(m, parent, grand, false, false);
			parent->forked_early = true;
			parent->forked_sure = true;
		}
		/* A parent the capture saw fork it may have ended before the
		 * child's first call ended (start-stop-daemon's first child
		 * forks the daemon and exits at once); a log's guess is not
		 * taken from a process that had ended. */
		if (parent && (!parent->ended || e->forked_sure)) {
			struct rc_proc *child = proc_get_or_add(m, e->pid);
			/* A thread is its process's from its first call: the
			 * process's exit may end it before the clone returns,
			 * and its exit is then no process's. */
			proc_inherit(m, child, parent, e->forked_thread, e->forked_thread);
			child->forked_early = true;
			child->forked_sure = e->forked_sure;
			if (!e->forked_thread)
				early_process(m, child, parent, e);
		}
	}
	if (e->ns_pid > 0) {
		struct rc_proc *p = proc_get_or_add(m, e->pid);
		p->ns_pid = e->ns_pid;
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
				e->path = path_join(&m->scratch, base, e->path);
		}
	}
	if (base && base[0] == '/')
		e->path = path_join(&m->scratch, base, e->path);
}

static void set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/* The child PARENT's fork took early that still waits for the fork's
 * return, when the fork returned CHILD_PID, a pid the log never showed:
 * the child's pid in a pid namespace of its own. NULL when none. Only a
 * child taken surely (its parent's fork the only one then waiting): with
 * several waiting, the child may be another's (podman's thread shown
 * while conmon's fork of crun waited), and crun's pid, which the log
 * shows next, is no alias of it. */
static struct rc_proc *early_child(struct rc_procs *m, const struct rc_proc *parent, int child_pid)
{
	size_t n = 0;
	struct rc_proc *found = NULL;

	for (size_t i = 0; i < m->nearly; i++) {
		struct rc_proc *c = procs_get(m, m->early[i]);
		if (!c || !c->forked_early)
			continue;
		m->early[n++] = m->early[i];
		if (c->ppid == parent->leader && !c->is_thread && c->forked_sure && c->pid != child_pid)
			found = c;
	}
	m->nearly = n;
	return found;
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
	struct rc_proc *named = !old && !share ? early_child(m, parent, child_pid) : NULL;
	if (named) {
		named->forked_early = false;
		named->ns_pid = named->ns_pid > 0 ? named->ns_pid : child_pid;
		return;
	}
	/* A pid that ended earlier and comes back is a new process; one taken
	 * early for another fork's child (a log's guess, of a thread's clone)
	 * is this one's, ended before its parent's vfork returned. */
	if (old && old->ended && !old->forked_early && child_pid != m->root)
		proc_forget(m, child_pid);
	struct rc_proc *child = proc_get_or_add(m, child_pid);

	/* The child may already have shown up in the log before the parent's
	 * clone resumed; its parentage is set now either way. */
	if (child->forked_early && thread)
		restamp_thread_output(m, child_pid, procs_leader(m, parent->pid));
	child->forked_early = false;
	proc_inherit(m, child, parent, thread, share);
}

const char *procs_program(const struct rc_procs *m, int pid)
{
	const struct rc_proc *p = procs_leader(m, pid);

	if (p && p->exe && p->exe[0])
		return path_base(p->exe);
	if (p && p->argc > 0 && p->argv[0] && p->argv[0][0])
		return path_base(p->argv[0]);
	return NULL;
}

/* An exec of a descriptor (fexecve: "/dev/fd/3", "/proc/self/fd/3", an
 * empty path with AT_EMPTY_PATH) runs whatever file it is, often a copy
 * of the program in a memfd (crun's, runc's guard against overwriting
 * it): such a program goes by the name it gave itself, its argv[0]. */
static const char *exec_name(const struct rc_event *e)
{
	const char *path = e->path;

	if (e->argc > 0 && e->argv[0] && e->argv[0][0] &&
	    (!path || !path[0] || strncmp(path, "/dev/fd/", 8) == 0 || strncmp(path, "/proc/self/fd/", 14) == 0))
		return e->argv[0];
	return path;
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
	set_str(&p->exe, exec_name(e));

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

/* Whether what is written to PATH, opened for writing without O_APPEND,
 * is the file's contents: not a device, a kernel file or a terminal, and
 * not a log by its name ("app.log", "/var/log/...", "logs/"), which a
 * service truncates at start and then writes its complaints into. */
static bool contents_path(const char *path)
{
	static const char *const not_files[] = { "/dev/", "/proc/", "/sys/" };
	size_t n = strlen(path);

	for (size_t i = 0; i < ARRAY_SIZE(not_files); i++)
		if (strncmp(path, not_files[i], strlen(not_files[i])) == 0)
			return false;
	if ((n >= 4 && strcmp(path + n - 4, ".log") == 0) || strstr(path, "/log/") || strstr(path, "/logs/") ||
	    strncmp(path, "log/", 4) == 0 || strncmp(path, "logs/", 5) == 0)
		return false;
	return true;
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
		f->connected_seq = e->seq;
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
			f->file_out = ((e->flags & O_ACCMODE) != O_RDONLY || (cl & CL_CREATES)) &&
				      !(e->flags & O_APPEND) && e->path && contents_path(e->path);
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
		creds_apply(m, p, e);
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
		if (e->nr == SYS_exit_group) {
			struct rc_proc *l = procs_leader(m, p->pid);
			l = l ? l : p;
			if (!l->left_seq) {
				l->left_seq = e->seq;
				l->left_ts = e->ts;
			}
		}
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

void procs_learn_fd(struct rc_procs *m, int pid, int fd, const struct rc_fdfacts *shown)
{
	learn_fd_shown(proc_get_or_add(m, pid), fd, shown);
}
