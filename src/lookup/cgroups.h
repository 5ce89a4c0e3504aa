/* A cgroup on this machine, for attach --cgroup and attach CONTAINER: the
 * directory under the cgroup2 mount, its processes, and the kernel's id
 * for it (what the eBPF capture compares). Containers are found by the
 * cgroup their engine made (lookup/container.h), by id or id prefix, or
 * by name through the process that supervises them (podman's conmon
 * carries both on its command line). */
#ifndef RC_LOOKUP_CGROUPS_H
#define RC_LOOKUP_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

struct cgroup_dir {
	char path[4096];	/* the directory, under the cgroup2 mount */
	char name[4096];	/* the cgroup's path from the root ("/x/y") */
	uint64_t id;		/* the kernel's id (the directory's inode) */
	unsigned level;		/* its depth below the root (0: the root) */
};

/* The cgroup PATH names: a directory under the cgroup2 mount, or a
 * cgroup's path from the root ("/machine.slice/x.scope"). False with one
 * line in ERR. */
bool cgroup_find(const char *path, struct cgroup_dir *out, struct strbuf *err);
/* The cgroup whose path from the root PATH ("/system.slice/x.service")
 * names, which is not made yet (a unit not started): its ID is 0, and its
 * parent must be there. False with one line in ERR. */
bool cgroup_to_come(const char *path, struct cgroup_dir *out, struct strbuf *err);
/* The cgroup (v2) this process is in. False with one line in ERR. */
bool cgroup_own(struct cgroup_dir *out, struct strbuf *err);
/* The cgroup of the container WHAT, an id (at least 4 of its hex
 * digits) or a name: false with one line in ERR when there is none, or
 * more than one. */
bool cgroup_find_container(const char *what, struct cgroup_dir *out, struct strbuf *err);
/* The cgroup of systemd's unit UNIT ("x.service"), wherever its slice
 * put it ("/system.slice/x.service", "/gpu.slice/x.service", a user's
 * manager's): 1; 0 when there is none, -1 when there are more than one,
 * with one line in ERR. */
int cgroup_find_unit(const char *unit, struct cgroup_dir *out, struct strbuf *err);
/* The processes in CG and the cgroups below it (cgroup.procs), at most
 * MAX, into *PIDS (allocated; NULL when none): how many. */
size_t cgroup_procs(const struct cgroup_dir *cg, pid_t **pids, size_t max);

#endif
