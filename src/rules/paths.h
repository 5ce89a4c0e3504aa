/* Paths as the rules read them. Small helpers shared by the rules that
 * look at paths (missing-file, permission-denied, exec-failed,
 * missing-library, gpu-unavailable, the I/O rules) and the noise
 * classifier, so that each kind of path has exactly one owner: shared
 * objects belong to missing-library, NVIDIA devices and driver libraries
 * to gpu-unavailable. And a process looking for a directory to be in, and
 * the first directory missing on the way to a path now. */
#ifndef RC_RULES_PATHS_H
#define RC_RULES_PATHS_H

#include <stdbool.h>
#include <string.h>

#include "rules/rule.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The last component of PATH ("" for "dir/"). */
static inline const char *fp_base(const char *path)
{
	return path_base(path);
}

/* What a user calls the file at PATH: its last component, or PATH itself
 * when that is empty ("dir/"). */
static inline const char *fp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* The directory part of PATH ("." for a bare name, "/" for "/x"), into SB;
 * returns SB's contents. */
static inline const char *fp_dir(struct strbuf *sb, const char *path)
{
	const char *base = fp_base(path);

	strbuf_reset(sb);
	if (base == path)
		strbuf_adds(sb, ".");
	else if (base == path + 1)
		strbuf_adds(sb, "/");
	else
		strbuf_add(sb, path, (size_t)(base - path - 1));
	return strbuf_str(sb);
}

static inline bool fp_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Kernel interfaces and devices (/proc, /sys, /dev): no file's contents
 * live there, so how they are read or written says nothing about storage. */
static inline bool fp_pseudo(const char *path)
{
	return fp_has_prefix(path, "/proc/") || fp_has_prefix(path, "/sys/") ||
	       fp_has_prefix(path, "/dev/");
}

/* On the cgroup file system, where errnos stand for the kernel's cgroup
 * rules (rules/cgroup-refused.c): under its mount point, or one of its
 * core files (cgroup.procs, cgroup.subtree_control) wherever a runtime
 * mounted it; not a file of another name that starts so (slurm's
 * cgroup.conf). */
static inline bool fp_cgroup(const char *path)
{
	static const char *const core[] = {
		"procs", "threads", "subtree_control", "controllers", "type", "freeze", "kill", "events",
		"max.descendants", "max.depth", "stat", "clone_children", "pressure",
	};

	if (!path)
		return false;
	if (fp_has_prefix(path, "/sys/fs/cgroup/"))
		return true;
	const char *name = fp_name(path);
	if (!fp_has_prefix(name, "cgroup."))
		return false;
	for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		if (strcmp(name + 7, core[i]) == 0)
			return true;
	return false;
}

/* "libfoo.so", "libfoo.so.1.2", "_C.cpython-311-x86_64-linux-gnu.so". */
static inline bool fp_is_shared_object(const char *base)
{
	const char *p = base;

	while ((p = strstr(p, ".so")) != NULL) {
		const char *q = p + 3;
		if (*q == '.') {
			while (*q == '.' || (*q >= '0' && *q <= '9'))
				q++;
		}
		if (*q == '\0')
			return true;
		p += 3;
	}
	return false;
}

/* The NVIDIA driver's and CUDA's libraries: libcuda.so.1, libcudart.so.12,
 * libnvidia-ml.so.1 (NVML), libnvcuvid... */
static inline bool fp_gpu_library(const char *base)
{
	return fp_is_shared_object(base) &&
	       (strncmp(base, "libcuda", 7) == 0 || strncmp(base, "libnvidia-", 10) == 0 ||
		strncmp(base, "libnvcuvid", 10) == 0);
}

/* /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-caps/... and
 * the driver's /proc entries. */
static inline bool fp_gpu_device(const char *path)
{
	return strncmp(path, "/dev/nvidia", 11) == 0 || strncmp(path, "/proc/driver/nvidia", 19) == 0;
}

/* A process looking for a directory to be in: the shell's `cd` tried over
 * candidates, a program that tries its configured directory and then a
 * default. What it looks for is a place, not a name, so a later move
 * into any directory by the same process found one, as a later open of
 * the same name does for a file: the failed moves before it were probes.
 * The file rules keep the keys (a basename, a path) of their failed moves
 * here until the process moves somewhere: the last RULE_ENTER_PENDING,
 * older ones forgotten (they then stay failures, the safe side). */
#define RULE_ENTER_PENDING 32

struct rule_enter_pending {
	int pid[RULE_ENTER_PENDING];	/* the process (leader) that failed */
	char *key[RULE_ENTER_PENDING];
	size_t next;
};

/* A failed move by process LEADER, kept under KEY. */
void rule_enter_failed(struct rule_enter_pending *p, int leader, const char *key);
/* LEADER moved into a directory: FOUND(KEY, ARG) for each of its failed
 * moves, which are then forgotten. */
void rule_enter_worked(struct rule_enter_pending *p, int leader, void (*found)(const char *key, void *arg),
		       void *arg);
void rule_enter_release(struct rule_enter_pending *p);

/* The first directory on the way to PATH (absolute) that does not exist
 * now, as process PID sees the machine (ctx->lookup), into SB:
 * "/srv/app" for "/srv/app/run/x.sock" when /srv exists and /srv/app
 * does not. False when every directory above PATH exists, PATH is
 * relative, or the first missing one cannot be told (a file stands in
 * the way, a log recorded elsewhere). The finding that says so says it
 * read it now (finding_now). */
bool rule_missing_dir(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *path);

#endif
