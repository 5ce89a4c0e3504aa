/* Live look-ups (see lookup.h). Through a process's own root, a path is
 * opened with openat2's RESOLVE_IN_ROOT, so that an absolute symbolic
 * link inside it leads where it leads for that process, not on this
 * machine; this machine's own root is looked at with the plain calls. */
#include "lookup/lookup.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lookup/container.h"
#include "util/procfs.h"
#include "util/util.h"

/* The most of a root's /etc/passwd or /etc/group read for a name. */
#define NAMES_FILE_MAX (4 << 20)

void lookup_init(struct rc_lookup *lk, enum lookup_where where)
{
	memset(lk, 0, sizeof(*lk));
	lk->where = where;
}

void lookup_release(struct rc_lookup *lk)
{
	for (size_t i = 0; i < lk->nroots; i++) {
		if (lk->roots[i].fd >= 0)
			close(lk->roots[i].fd);
		if (lk->roots[i].ns_fd >= 0)
			close(lk->roots[i].ns_fd);
		free(lk->roots[i].mountinfo);
		free(lk->roots[i].uid_map);
		free(lk->roots[i].gid_map);
	}
	free(lk->pids);
	free(lk->cgroups);
	memset(lk, 0, sizeof(*lk));
}

/* Cgroups told apart at most: past it a process is named by none. */
#define LOOKUP_CGROUPS_MAX 64
/* A /proc/PID/cgroup or uid_map is a few lines: a cap for a hostile one. */
#define PROC_SMALL_MAX 8192
/* The most of a mount table kept (a host with thousands of mounts). */
#define MOUNTINFO_MAX (1 << 20)

/* /proc/WHAT ("self/cgroup", "PID/uid_map"), at most about MAX bytes, as
 * text; NULL when unreadable. */
static char *read_proc(const char *what, size_t max)
{
	char path[96];
	struct strbuf sb = STRBUF_INIT;

	snprintf(path, sizeof(path), "/proc/%s", what);
	if (!procfs_read(path, &sb, max)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* PID's cgroup as an index in LK->CGROUPS, -1 for rootcause's own (or
 * unknown), -2 when PID is gone. */
static int cgroup_now(struct rc_lookup *lk, int pid)
{
	char who[32];

	if (!lk->own_read) {
		char *mine = read_proc("self/cgroup", PROC_SMALL_MAX);
		lk->own_read = mine && container_from_cgroup(mine, &lk->own) ? 1 : -1;
		free(mine);
	}
	if (lk->own_read < 0)
		return -1;
	snprintf(who, sizeof(who), "%d/cgroup", pid);
	char *text = read_proc(who, PROC_SMALL_MAX);
	struct container c;
	int r = text ? -1 : -2;
	/* Compared as what they name: a v1 controller's path may differ
	 * where the containers do not (a core handler, which the kernel
	 * starts in the root cgroup). */
	if (text && container_from_cgroup(text, &c) && strcmp(c.cgroup, lk->own.cgroup) != 0) {
		size_t i = 0;
		while (i < lk->ncgroups && strcmp(lk->cgroups[i].cgroup, c.cgroup) != 0)
			i++;
		if (i == lk->ncgroups && i < LOOKUP_CGROUPS_MAX) {
			lk->cgroups = xrealloc(lk->cgroups, (i + 1) * sizeof(*lk->cgroups));
			lk->cgroups[lk->ncgroups++] = c;
		}
		r = i < lk->ncgroups ? (int)i : -1;
	}
	free(text);
	return r;
}

/* The view PID has now: the index of its root in LK->ROOTS, -1 for this
 * machine's, -2 when it cannot be looked at (gone, or no room). */
static int root_now(struct rc_lookup *lk, int pid)
{
	char path[64];
	struct stat st, mine;

	snprintf(path, sizeof(path), "/proc/%d/root", pid);
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -2;
	if (fstat(fd, &st) != 0 || stat("/", &mine) != 0) {
		close(fd);
		return -2;
	}
	bool other_ns = !procfs_same_ns(pid, "mnt");
	if (st.st_dev == mine.st_dev && st.st_ino == mine.st_ino && !other_ns) {
		close(fd);
		return -1;
	}
	size_t r = 0;
	while (r < lk->nroots && !(lk->roots[r].dev == st.st_dev && lk->roots[r].ino == st.st_ino))
		r++;
	if (r < lk->nroots || r == LOOKUP_ROOTS_MAX) {
		close(fd);
		return r < lk->nroots ? (int)r : -2;
	}
	struct lookup_root *nr = &lk->roots[lk->nroots++];
	*nr = (struct lookup_root){ .dev = st.st_dev, .ino = st.st_ino, .fd = fd, .other_ns = other_ns, .ns_fd = -1 };
	/* Its ids, as its user namespace maps them. */
	if (!procfs_same_ns(pid, "user")) {
		char who[32];
		snprintf(who, sizeof(who), "%d/uid_map", pid);
		nr->uid_map = read_proc(who, PROC_SMALL_MAX);
		snprintf(who, sizeof(who), "%d/gid_map", pid);
		nr->gid_map = read_proc(who, PROC_SMALL_MAX);
	}
	/* Its mounts, while the process is there to show them. */
	if (other_ns) {
		char who[32];
		snprintf(who, sizeof(who), "%d/mountinfo", pid);
		nr->mountinfo = read_proc(who, MOUNTINFO_MAX);
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
		nr->ns_fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	return (int)r;
}

int lookup_open_root(int pid, int *ns_fd)
{
	struct rc_lookup lk;

	lookup_init(&lk, LOOKUP_LIVE);
	int r = root_now(&lk, pid), fd = -1;
	*ns_fd = -1;
	if (r >= 0) {
		fd = lk.roots[r].fd;
		*ns_fd = lk.roots[r].ns_fd;
		lk.roots[r].fd = lk.roots[r].ns_fd = -1;
	}
	lookup_release(&lk);
	return fd;
}

bool lookup_container_now(int pid, struct container *out)
{
	struct rc_lookup lk;

	lookup_init(&lk, LOOKUP_LIVE);
	int r = cgroup_now(&lk, pid);
	if (r >= 0)
		*out = lk.cgroups[r];
	lookup_release(&lk);
	return r >= 0;
}

static struct lookup_pid *pid_entry(const struct rc_lookup *lk, int pid)
{
	for (size_t i = 0; i < lk->npids; i++)
		if (lk->pids[i].pid == pid)
			return &lk->pids[i];
	return NULL;
}

void lookup_view_of(struct rc_lookup *lk, int pid, int inherit)
{
	if (lk->where != LOOKUP_LIVE || pid <= 0)
		return;
	struct lookup_pid *e = pid_entry(lk, pid);
	int r = root_now(lk, pid);
	int cg = r == -2 ? -2 : cgroup_now(lk, pid);
	if (r == -2 || cg == -2) {
		/* Gone before it could be looked at, or while: its parent's
		 * view. */
		const struct lookup_pid *pe = e || inherit <= 0 ? NULL : pid_entry(lk, inherit);
		if (!pe)
			return;
		r = pe->root;
		cg = pe->cgroup;
	}
	if (e) {
		e->root = r;
		e->cgroup = cg;
		return;
	}
	/* This machine's view, in rootcause's cgroup, is what a process
	 * without an entry has. */
	if ((r < 0 && cg < 0) || lk->npids >= LOOKUP_PIDS_MAX)
		return;
	lk->pids = xrealloc(lk->pids, (lk->npids + 1) * sizeof(*lk->pids));
	lk->pids[lk->npids++] = (struct lookup_pid){ pid, r, cg };
}

void lookup_view_share(struct rc_lookup *lk, int child, int parent)
{
	const struct lookup_pid *pe = pid_entry(lk, parent);

	if (lk->where != LOOKUP_LIVE || child <= 0 || pid_entry(lk, child) || !pe || lk->npids >= LOOKUP_PIDS_MAX)
		return;
	struct lookup_pid copy = *pe;
	copy.pid = child;
	lk->pids = xrealloc(lk->pids, (lk->npids + 1) * sizeof(*lk->pids));
	lk->pids[lk->npids++] = copy;
}

const struct container *lookup_container(const struct rc_lookup *lk, int pid)
{
	const struct lookup_pid *e = pid_entry(lk, pid);

	return e && e->cgroup >= 0 ? &lk->cgroups[e->cgroup] : NULL;
}

/* PID's root, held open, or NULL for this machine's. */
static const struct lookup_root *root_entry(const struct rc_lookup *lk, int pid)
{
	const struct lookup_pid *e = pid_entry(lk, pid);

	return e && e->root >= 0 ? &lk->roots[e->root] : NULL;
}

/* PID's root, held open, or -1 for this machine's. */
static int root_of(const struct rc_lookup *lk, int pid)
{
	const struct lookup_root *r = root_entry(lk, pid);

	return r ? r->fd : -1;
}

bool lookup_in_own_root(const struct rc_lookup *lk, int pid)
{
	return root_entry(lk, pid) != NULL;
}

/* Whether PATH can be looked at from here at all. */
static bool askable(const struct rc_lookup *lk, const char *path)
{
	return lk->where != LOOKUP_ELSEWHERE && path && path[0] == '/';
}

/* PATH opened with FLAGS inside ROOT, symbolic links resolved there. */
static int open_in(int root, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, root, path, &how, sizeof(how));
}

int lookup_stat(const struct rc_lookup *lk, int pid, const char *path, struct stat *st)
{
	if (!askable(lk, path))
		return -1;
	int root = root_of(lk, pid), r;
	if (root < 0) {
		r = stat(path, st);
	} else {
		int fd = open_in(root, path, O_PATH);
		r = fd < 0 ? -1 : fstat(fd, st);
		if (fd >= 0) {
			int e = errno;
			close(fd);
			errno = e;
		}
	}
	if (r == 0)
		return 1;
	return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
}

ssize_t lookup_read(const struct rc_lookup *lk, int pid, const char *path, uint64_t off, void *buf, size_t n)
{
	struct stat st;

	/* Only a regular file: opening a FIFO or a device could block, or do
	 * what the device does on open. */
	if (lookup_stat(lk, pid, path, &st) != 1 || !S_ISREG(st.st_mode))
		return -1;
	int root = root_of(lk, pid);
	int flags = O_RDONLY | O_NOCTTY | O_NONBLOCK;
	int fd = root < 0 ? open(path, flags | O_CLOEXEC) : open_in(root, path, flags);
	if (fd < 0)
		return -1;
	ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, buf, n, (off_t)off) : -1;
	close(fd);
	return got;
}

/* The target of /proc/self/fd/FD into OUT. */
static bool fd_path(int fd, struct strbuf *out)
{
	char link[64], buf[4096];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, sizeof(buf));
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return false;
	strbuf_reset(out);
	strbuf_add(out, buf, (size_t)n);
	return true;
}

/* /proc/locks is read a line at a time; a line is short. */
#define LOCKS_LINE 256

int lookup_lock_holder(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *cmd)
{
	struct stat st;
	char line[LOCKS_LINE];
	int holder = 0;

	if (lk->where != LOOKUP_LIVE || lookup_stat(lk, pid, path, &st) != 1)
		return -1;
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return -1;
	/* "1: POSIX  ADVISORY  WRITE 6786 00:2a:123456 0 EOF", the device
	 * in hex; a waiter's line has "->" after the number. */
	while (!holder && fgets(line, sizeof(line), f)) {
		char kind[16], mode[16], rw[16];
		unsigned maj, min;
		unsigned long long ino;
		int who, n = 0;
		if (strstr(line, "->") ||
		    sscanf(line, "%*d: %15s %15s %15s %d %x:%x:%llu%n", kind, mode, rw, &who, &maj, &min, &ino, &n) < 7 ||
		    !n)
			continue;
		if (ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev) &&
		    who > 0 && who != pid)
			holder = who;
	}
	fclose(f);
	struct strbuf args = STRBUF_INIT;
	if (holder > 0 && procfs_cmdline(holder, &args) > 0) {
		for (size_t i = 0; i < args.len; i++)
			strbuf_addc(cmd, args.buf[i] ? args.buf[i] : ' ');
		while (cmd->len && cmd->buf[cmd->len - 1] == ' ')
			cmd->buf[--cmd->len] = '\0';
	}
	strbuf_release(&args);
	return holder;
}

bool lookup_realpath(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *out)
{
	if (!askable(lk, path))
		return false;
	int root = root_of(lk, pid);
	if (root < 0) {
		char *real = realpath(path, NULL);
		if (!real)
			return false;
		strbuf_reset(out);
		strbuf_adds(out, real);
		free(real);
		return true;
	}
	/* Named inside the root: the root's own path on this machine is
	 * cut off the front. */
	struct strbuf top = STRBUF_INIT;
	int fd = open_in(root, path, O_PATH);
	bool ok = fd >= 0 && fd_path(fd, out) && fd_path(root, &top);
	if (fd >= 0)
		close(fd);
	ok = ok && procfs_name_inside(out, top.buf);
	strbuf_release(&top);
	return ok;
}

/* The name of ID in FILE (/etc/passwd, /etc/group: "name:x:id:..."
 * lines) of process PID's root, added to OUT. */
static bool name_in(const struct rc_lookup *lk, int pid, const char *file, unsigned long id, struct strbuf *out)
{
	struct stat st;

	if (lookup_stat(lk, pid, file, &st) != 1 || !S_ISREG(st.st_mode) || st.st_size > NAMES_FILE_MAX)
		return false;
	char *text = xmalloc((size_t)st.st_size + 1);
	ssize_t n = lookup_read(lk, pid, file, 0, text, (size_t)st.st_size);
	bool found = false;
	if (n > 0) {
		text[n] = '\0';
		for (char *line = text, *next; line && *line && !found; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *end;
			if (!c2 || c1 == line)
				continue;
			unsigned long v = strtoul(c2 + 1, &end, 10);
			if (end != c2 + 1 && *end == ':' && v == id) {
				strbuf_add(out, line, (size_t)(c1 - line));
				found = true;
			}
		}
	}
	free(text);
	return found;
}

/* The name of user (USER) or group ID on this machine, through its name
 * service (NSS: files, LDAP, systemd's userdb...), added to OUT. */
static bool host_name(bool user, unsigned id, struct strbuf *out)
{
	long size = sysconf(user ? _SC_GETPW_R_SIZE_MAX : _SC_GETGR_R_SIZE_MAX);
	size_t bufsize = size > 0 ? (size_t)size : 16384;
	char *buf = xmalloc(bufsize);
	const char *name = NULL;

	if (user) {
		struct passwd pw, *res = NULL;
		if (getpwuid_r(id, &pw, buf, bufsize, &res) == 0 && res)
			name = res->pw_name;
	} else {
		struct group gr, *res = NULL;
		if (getgrgid_r(id, &gr, buf, bufsize, &res) == 0 && res)
			name = res->gr_name;
	}
	if (name)
		strbuf_adds(out, name);
	free(buf);
	return name != NULL;
}

/* HOST through MAP's "INSIDE OUTSIDE COUNT" lines (a user namespace's
 * uid_map), into *INSIDE; false when no line maps it. */
static bool map_id(const char *map, unsigned host, unsigned *inside)
{
	for (const char *line = map; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long long in, out, count;
		if (sscanf(line, "%llu %llu %llu", &in, &out, &count) == 3 && host >= out && host - out < count) {
			*inside = (unsigned)(in + (host - out));
			return true;
		}
	}
	return false;
}

bool lookup_id_inside(const struct rc_lookup *lk, int pid, bool user, unsigned host, unsigned *inside)
{
	const struct lookup_root *r = root_entry(lk, pid);
	const char *map = r ? (user ? r->uid_map : r->gid_map) : NULL;

	return map && map_id(map, host, inside) && *inside != host;
}

/* A process in a root of its own names its ids by that root's files,
 * as its user namespace numbers them. */
static bool id_name(const struct rc_lookup *lk, int pid, bool user, unsigned id, struct strbuf *out)
{
	unsigned inside;

	if (lk->where == LOOKUP_ELSEWHERE)
		return false;
	if (root_of(lk, pid) >= 0) {
		const struct lookup_root *r = root_entry(lk, pid);
		const char *map = user ? r->uid_map : r->gid_map;
		/* An id its namespace does not map is nobody's there. */
		if (map && !map_id(map, id, &inside))
			return false;
		return name_in(lk, pid, user ? "/etc/passwd" : "/etc/group", map ? inside : id, out);
	}
	return host_name(user, id, out);
}

bool lookup_user(const struct rc_lookup *lk, int pid, uid_t uid, struct strbuf *out)
{
	return id_name(lk, pid, true, uid, out);
}

bool lookup_group(const struct rc_lookup *lk, int pid, gid_t gid, struct strbuf *out)
{
	return id_name(lk, pid, false, gid, out);
}

/* Where a distribution installs: the same on every machine of one
 * release (/usr/local is the machine's own). */
static bool distribution_top(const char *path)
{
	static const char *const tops[] = { "/usr/", "/lib/", "/lib64/", "/lib32/", "/libx32/", "/bin/", "/sbin/" };

	if (strncmp(path, "/usr/local/", 11) == 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(tops); i++)
		if (strncmp(path, tops[i], strlen(tops[i])) == 0)
			return true;
	return false;
}

/* A shared object by its name: "libc.so.6", "_ssl.cpython-311-x86_64-
 * linux-gnu.so". Looked at from the end, where a module's ".py" fails
 * at once. */
static bool shared_object(const char *path)
{
	size_t n = strlen(path);

	while (n && ((path[n - 1] >= '0' && path[n - 1] <= '9') || path[n - 1] == '.'))
		n--;
	return n >= 4 && memcmp(path + n - 3, ".so", 3) == 0 && path[n - 4] != '/';
}

/* PATH's place in V, kept now if it is not yet and there is room; -1
 * when it is not kept. */
static long keep(struct lookup_vantage *v, const char *path)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->seen[i].path, path) == 0)
			return (long)i;
	if (v->n >= LOOKUP_VANTAGE_MAX)
		return -1;
	v->seen[v->n] = (struct lookup_seen){ xstrdup(path), -1 };
	return (long)v->n++;
}

void lookup_vantage_ran(struct lookup_vantage *v, const char *path)
{
	if (path && path[0] == '/' && distribution_top(path))
		keep(v, path);
}

void lookup_vantage_opened(struct lookup_vantage *v, int pid, int fd, const char *path)
{
	/* The fd is another file's now. */
	for (size_t k = 0; k < LOOKUP_VANTAGE_OPEN; k++)
		if (v->open[k].pid == pid && v->open[k].fd == fd)
			v->open[k].fd = -1;
	if (!path || path[0] != '/' || fd < 0 || !shared_object(path) || !distribution_top(path))
		return;
	long i = keep(v, path);
	if (i < 0)
		return;
	v->open[v->next_open++ % LOOKUP_VANTAGE_OPEN] = (struct lookup_opened){ pid, fd, (size_t)i };
}

void lookup_vantage_sized(struct lookup_vantage *v, int pid, int fd, const char *path, long long size)
{
	if (size < 0)
		return;
	if (path) {
		if (path[0] == '/' && shared_object(path) && distribution_top(path)) {
			long i = keep(v, path);
			if (i >= 0)
				v->seen[i].size = size;
		}
		return;
	}
	/* The first stat of it after its open tells its size. */
	for (size_t k = 0; k < LOOKUP_VANTAGE_OPEN && k < v->next_open; k++)
		if (v->open[k].pid == pid && v->open[k].fd == fd && fd >= 0) {
			v->seen[v->open[k].seen].size = size;
			v->open[k].fd = -1;
			return;
		}
}

void lookup_vantage_judge(struct rc_lookup *lk, const struct lookup_vantage *v)
{
	size_t differ = 0, told = 0;
	char first[sizeof(lk->why)] = "";

	lk->where = LOOKUP_HERE;
	for (size_t i = 0; i < v->n; i++) {
		const struct lookup_seen *s = &v->seen[i];
		struct stat st;
		/* What is missing here tells; what is here tells only by its
		 * size, when the log gave one. */
		if (stat(s->path, &st) != 0) {
			told++;
			if (!differ++)
				snprintf(first, sizeof(first), "'%s' is not on this machine", s->path);
		} else if (s->size >= 0 && S_ISREG(st.st_mode)) {
			told++;
			if ((long long)st.st_size != s->size && !differ++)
				snprintf(first, sizeof(first), "'%s' had %lld bytes there, %lld here", s->path,
					 s->size, (long long)st.st_size);
		}
	}
	if (!differ || differ * 2 < told)
		return;
	lk->where = LOOKUP_ELSEWHERE;
	snprintf(lk->why, sizeof(lk->why), "%zu of the %zu programs and libraries it shows differ from this "
		 "machine's (%s)", differ, told, first);
}

void lookup_vantage_release(struct lookup_vantage *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->seen[i].path);
	v->n = 0;
}

/* A + B as paths, B absolute: "/" + "/x" is "/x", "/a" + "/" is "/a". */
static void path_join(struct strbuf *out, const char *a, const char *b)
{
	strbuf_reset(out);
	if (strcmp(a, "/") != 0)
		strbuf_adds(out, a);
	if (strcmp(b, "/") != 0 || !out->len)
		strbuf_adds(out, b);
}

/* The mount id of the file FD is, from /proc/self/fdinfo; -1 unknown. */
static long mount_id(int fd)
{
	char path[64], buf[1024];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	int f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return -1;
	ssize_t n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *p = strstr(buf, "mnt_id:");
	return p ? strtol(p + 7, NULL, 10) : -1;
}

/* Whether the file at HOST on this machine is ST's. */
static bool same_file(const char *host, const struct stat *st)
{
	struct stat here;

	return stat(host, &here) == 0 && here.st_dev == st->st_dev && here.st_ino == st->st_ino;
}

/* Where the file FD (ST), at INSIDE in root RT, is on this machine, into
 * OUT. Each guess is checked: the file there must be the same file. */
static bool host_of(const struct lookup_root *rt, int fd, const struct stat *st, const char *inside,
		    struct strbuf *out)
{
	struct strbuf theirs = STRBUF_INIT, root = STRBUF_INIT, point = STRBUF_INIT, fs = STRBUF_INIT;
	bool ok = false;

	/* A chroot, or a namespace that copied ours: the kernel's name of
	 * it from here is where it is. */
	if (fd_path(fd, &theirs) && theirs.buf[0] == '/' && same_file(theirs.buf, st)) {
		strbuf_reset(out);
		strbuf_add(out, theirs.buf, theirs.len);
		ok = true;
	}
	/* A mount of its namespace's own: the place in the file system that
	 * mount shows, and where this machine mounts that file system. */
	const char *rest;
	long id = mount_id(fd);
	char *ours = ok || !rt->mountinfo || id < 0 ? NULL : read_proc("self/mountinfo", MOUNTINFO_MAX);
	if (ours && mountinfo_find(rt->mountinfo, id, 0, 0, NULL, &root, &point) &&
	    (rest = path_within(inside, point.buf)) != NULL) {
		path_join(&fs, root.buf, rest);
		if (mountinfo_find(ours, -1, major(st->st_dev), minor(st->st_dev), fs.buf, &root, &point) && (rest = path_within(fs.buf, root.buf))) {
			path_join(out, point.buf, rest);
			ok = same_file(out->buf, st);
				}
	}
	free(ours);
	strbuf_release(&theirs);
	strbuf_release(&root);
	strbuf_release(&point);
	strbuf_release(&fs);
	return ok;
}

bool lookup_host_path(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *out)
{
	const struct lookup_root *rt = root_entry(lk, pid);

	if (!rt || !askable(lk, path))
		return false;
	/* The deepest part of PATH that is there; the rest is appended. */
	struct strbuf have = STRBUF_INIT, inside = STRBUF_INIT;
	strbuf_adds(&have, path);
	size_t cut = have.len;
	int fd;
	while ((fd = open_in(rt->fd, have.buf, O_PATH)) < 0) {
		char *slash = strrchr(have.buf, '/');
		if (!slash || slash == have.buf) {
			if (have.len > 1 && (fd = open_in(rt->fd, "/", O_PATH)) >= 0) {
				have.len = 1;
				have.buf[1] = '\0';
			}
			break;
		}
		*slash = '\0';
		have.len = (size_t)(slash - have.buf);
	}
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && lookup_realpath(lk, pid, have.buf, &inside) &&
		  host_of(rt, fd, &st, inside.buf, out);
	if (fd >= 0)
		close(fd);
	if (ok && have.len < cut) {
		const char *tail = path + (strcmp(have.buf, "/") == 0 ? 0 : have.len);
		if (strcmp(out->buf, "/") == 0)
			strbuf_reset(out);
		strbuf_adds(out, tail);
	}
	strbuf_release(&have);
	strbuf_release(&inside);
	return ok;
}
