/* Live look-ups: what the machine says now, where a rule needs more than
 * the trace showed (what stands at a path, its owner and mode, a file's
 * first bytes, where symbolic links lead, a user's name). The one place
 * where a rule learns anything of the file system or the users: each
 * answer is read through the view of the process it is about, and a log
 * recorded on another machine is not judged by this one's files.
 *
 * Where the answers come from (struct rc_lookup's WHERE):
 *  - LOOKUP_LIVE: a trace taken here (run, attach). A process still
 *    running when the trace ended is looked at through its own root
 *    (/proc/PID/root, with symbolic links resolved inside it, and its
 *    /etc/passwd for user names: a chroot, a container); the others, and
 *    a process whose root is this machine's, through this machine's.
 *  - LOOKUP_HERE: a log that this machine's files agree with (see
 *    lookup_vantage): this machine's view.
 *  - LOOKUP_ELSEWHERE: a log recorded on another machine, or on this one
 *    since changed: every question is answered "unknown".
 * Either way an answer is about now, not about the time of the trace: a
 * finding that says what a look-up found names what it looked at
 * (finding_now, rules/finding.h), and the report says it was read now.
 *
 * Paths must be absolute (a trace's relative paths are resolved against
 * the process's cwd before a rule sees them); a relative one is unknown.
 */
#ifndef RC_LOOKUP_LOOKUP_H
#define RC_LOOKUP_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lookup/container.h"
#include "util/strbuf.h"

enum lookup_where {
	LOOKUP_HERE,
	LOOKUP_LIVE,
	LOOKUP_ELSEWHERE,
};

/* A process's root other than this machine's, held open. */
struct lookup_root {
	dev_t dev;
	ino_t ino;
	int fd;			/* O_PATH, of the root directory itself */
	/* In a mount namespace other than ours: that namespace's mount
	 * table (/proc/PID/mountinfo) as it was when the view was taken,
	 * to tell where its files are on this machine after it is gone;
	 * NULL when the namespace is ours (or the table could not be
	 * read). */
	char *mountinfo;
	bool other_ns;
	/* That namespace, held: a namespace whose last process is gone
	 * dissolves its mounts (a container's volumes, a bind over its
	 * root's directories), and the root alone would show what lies
	 * under them. -1 none. */
	int ns_fd;
	/* In a user namespace other than ours (a rootless container): its
	 * uid_map and gid_map ("INSIDE OUTSIDE COUNT" lines), read while the
	 * process ran; NULL when ours. */
	char *uid_map, *gid_map;
};

/* Roots told apart at most: past it a process is looked at through
 * this machine's root, as one whose root is gone. */
#define LOOKUP_ROOTS_MAX 16
/* Processes whose root is not this machine's, at most. */
#define LOOKUP_PIDS_MAX 4096

struct rc_lookup {
	enum lookup_where where;
	/* LOOKUP_ELSEWHERE: why, in words, for the report; "" otherwise. */
	char why[256];
	struct lookup_root roots[LOOKUP_ROOTS_MAX];
	size_t nroots;
	/* The processes whose view is not this machine's, or whose cgroup
	 * is not rootcause's own: ROOT, an index in ROOTS (-1 this
	 * machine's); CGROUP, an index in CGROUPS (-1 rootcause's). */
	struct lookup_pid {
		int pid;
		int root;
		int cgroup;
	} *pids;
	size_t npids;
	/* The cgroups seen that are not rootcause's, each as the container
	 * it names (lookup/container.h); and rootcause's own, read at the
	 * first look (OWN_READ 1), or unknown (-1: no process is named). */
	struct container *cgroups;
	size_t ncgroups;
	struct container own;
	int own_read;
};

void lookup_init(struct rc_lookup *lk, enum lookup_where where);
void lookup_release(struct rc_lookup *lk);

/* LOOKUP_LIVE: process (or thread) PID runs still; look at it through
 * its root from now on, when that is not this machine's, and through
 * this machine's when it is (again). Taken while the process lives: at
 * its first call, after each call that may change its root (chroot,
 * pivot_root, setns, unshare), and for those still running at the end;
 * a process that is gone keeps the view it had last. INHERIT: a new
 * process that could not be looked at (gone already) is given the view
 * of process INHERIT (its parent; 0 none). */
void lookup_view_of(struct rc_lookup *lk, int pid, int inherit);
/* LOOKUP_LIVE: CHILD shares PARENT's root and cwd (a thread, a clone
 * with CLONE_FS), so its view is PARENT's, and nothing is read. */
void lookup_view_share(struct rc_lookup *lk, int child, int parent);
/* Whether PID is looked at through a root of its own. */
bool lookup_in_own_root(const struct rc_lookup *lk, int pid);
/* For a process that is not traced (a core's, as the kernel hands it to
 * its handler): its root opened O_PATH when it is not this machine's
 * (another root or mount namespace), else -1, with *NS_FD its mount
 * namespace held (-1 none: ours), which keeps that namespace's mounts
 * (its volumes) after the process is gone; and the container its cgroup
 * names, when that is not rootcause's own (false otherwise). */
int lookup_open_root(int pid, int *ns_fd);
bool lookup_container_now(int pid, struct container *out);
/* The cgroup PID was in when it was looked at, as the container it names,
 * when not rootcause's own; NULL otherwise (or unknown). */
const struct container *lookup_container(const struct rc_lookup *lk, int pid);
/* Where PATH, as process PID names it inside its own root, is on this
 * machine ("/srv/models/x.pt" -> "/var/lib/containers/.../merged/srv/
 * models/x.pt"), into OUT: through the mount that holds it, in the
 * process's mount namespace, and where this machine mounts the same file
 * system. A part of PATH that is not there is appended as it is (a
 * missing file's place). False when PID has no root of its own, or the
 * file system is not mounted here. */
bool lookup_host_path(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *out);

/* What stands at PATH now, as process PID sees it: 1 with *ST, 0 when
 * nothing does (ENOENT, or a file where a directory should be), -1 when
 * that cannot be told from here (recorded elsewhere, a relative path,
 * no permission to look). */
int lookup_stat(const struct rc_lookup *lk, int pid, const char *path, struct stat *st);
/* Up to N bytes at offset OFF of the regular file at PATH (no device,
 * FIFO or socket is opened), as PID sees it: how many, or -1. */
ssize_t lookup_read(const struct rc_lookup *lk, int pid, const char *path, uint64_t off, void *buf, size_t n);
/* PATH, a directory, without symbolic links (as PID's root resolves
 * them, and named inside that root), into OUT; false when unknown. */
bool lookup_realpath(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *out);
/* The uid (group) this machine calls HOST as PID's user namespace calls
 * it (a rootless container's 0 for this machine's 100000), in *INSIDE:
 * true when the namespace has a map and it differs. */
bool lookup_id_inside(const struct rc_lookup *lk, int pid, bool user, unsigned host, unsigned *inside);
/* The name of user UID (group GID), this machine's id, as PID's system
 * knows it (through its user namespace's map, in its root's files),
 * added to OUT; false when unknown. */
bool lookup_user(const struct rc_lookup *lk, int pid, uid_t uid, struct strbuf *out);
bool lookup_group(const struct rc_lookup *lk, int pid, gid_t gid, struct strbuf *out);
/* Which process holds a lock (flock, fcntl's record and OFD locks) on
 * the file at PATH, as PID sees the path, now: /proc/locks, by the file's
 * device and inode. Its pid (a process other than PID), 0 when none
 * holds one, -1 when that cannot be told: only a live trace's processes
 * are asked (a lock of a log's time is long gone), and only while the
 * file is there. Its command line (arguments joined by spaces) is added
 * to CMD when /proc has it. */
int lookup_lock_holder(const struct rc_lookup *lk, int pid, const char *path, struct strbuf *cmd);

/*
 * Whether a log was recorded here: the programs it ran and the shared
 * libraries it opened from a distribution's directories (/usr, /lib,
 * /bin, /sbin; not /usr/local), and their sizes as its stat calls told
 * them, against this machine's now. Data files are not asked: a locale
 * or a timezone file is the same in every release.
 */
#define LOOKUP_VANTAGE_MAX 32
/* Libraries just opened, whose fd a stat may tell the size of next (the
 * dynamic loader's open, read, fstat), at most. */
#define LOOKUP_VANTAGE_OPEN 8

struct lookup_vantage {
	struct lookup_seen {
		char *path;
		long long size;		/* -1 unknown */
	} seen[LOOKUP_VANTAGE_MAX];
	size_t n;
	struct lookup_opened {
		int pid, fd;
		size_t seen;		/* its index in SEEN */
	} open[LOOKUP_VANTAGE_OPEN];
	size_t next_open;
};

/* What a log shows of a distribution's programs and shared libraries:
 * PATH run (a successful exec), a file at PATH opened as fd FD of thread
 * PID (every open: it ends what FD was), and a size a stat told of PATH,
 * or when PATH is NULL of fd FD of PID, the first stat after a library's
 * open. The first LOOKUP_VANTAGE_MAX are kept, each once. Cheap
 * for what is not one: a log opens thousands of files (a Python
 * program's modules). */
void lookup_vantage_ran(struct lookup_vantage *v, const char *path);
void lookup_vantage_opened(struct lookup_vantage *v, int pid, int fd, const char *path);
void lookup_vantage_sized(struct lookup_vantage *v, int pid, int fd, const char *path, long long size);
/* Judges the log by V: LK becomes LOOKUP_ELSEWHERE, with why, when at
 * least half of what tells (a file missing here, or one whose size the
 * log gave) differs from this machine's now; else LOOKUP_HERE (a log
 * that showed none of them too: nothing says it was not). */
void lookup_vantage_judge(struct rc_lookup *lk, const struct lookup_vantage *v);
void lookup_vantage_release(struct lookup_vantage *v);

#endif
