/* Cgroups on this machine (see cgroups.h). */
#include "lookup/cgroups.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup/container.h"
#include "util/procfs.h"
#include "util/util.h"

/* How deep a search for a container's cgroup goes (Kubernetes' are five
 * levels down), and how many directories it reads at most. */
#define SEARCH_DEPTH 8
#define SEARCH_DIRS 20000

/* Where cgroup2 is mounted ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"). */
static bool cgroup2_root(struct strbuf *out)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], dir[4096], type[64];
	bool found = false;

	if (!f)
		return false;
	while (!found && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3)
		if (strcmp(type, "cgroup2") == 0) {
			strbuf_reset(out);
			strbuf_adds(out, dir);
			found = true;
		}
	fclose(f);
	return found;
}

static bool fill(const char *root, const char *dir, struct cgroup_dir *out)
{
	struct stat st;
	char procs[4200];

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(procs, R_OK) != 0 ||
	    strlen(dir) >= sizeof(out->path))
		return false;
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", dir);
	const char *rel = dir + strlen(root);
	snprintf(out->name, sizeof(out->name), "%s", *rel ? rel : "/");
	out->id = (uint64_t)st.st_ino;
	for (const char *p = out->name; *p; p++)
		if (*p == '/' && p[1])
			out->level++;
	return true;
}

bool cgroup_find(const char *path, struct cgroup_dir *out, struct strbuf *err)
{
	struct strbuf root = STRBUF_INIT, dir = STRBUF_INIT;
	bool ok = false;

	if (!cgroup2_root(&root)) {
		strbuf_adds(err, "no cgroup2 file system is mounted here");
		goto out;
	}
	/* A path under the mount as it is, else a cgroup's path from its
	 * root. */
	if (strncmp(path, root.buf, root.len) == 0 && (path[root.len] == '/' || !path[root.len]))
		strbuf_adds(&dir, path);
	else
		strbuf_addf(&dir, "%s%s%s", root.buf, path[0] == '/' ? "" : "/", path);
	while (dir.len > root.len && dir.buf[dir.len - 1] == '/')
		dir.buf[--dir.len] = '\0';
	ok = fill(root.buf, dir.buf, out);
	if (!ok)
		strbuf_addf(err, "no cgroup '%s' (looked in '%s')", path, dir.buf);
out:
	strbuf_release(&root);
	strbuf_release(&dir);
	return ok;
}

bool cgroup_to_come(const char *path, struct cgroup_dir *out, struct strbuf *err)
{
	const char *slash = strrchr(path, '/');
	char parent[sizeof(out->name)];
	struct cgroup_dir up;

	if (path[0] != '/' || !slash || !slash[1] || strlen(path) >= sizeof(parent)) {
		strbuf_addf(err, "no cgroup '%s'", path);
		return false;
	}
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	if (!cgroup_find(parent[0] ? parent : "/", &up, err))
		return false;
	if (strlen(up.path) + strlen(slash) >= sizeof(out->path)) {
		strbuf_addf(err, "no cgroup '%s'", path);
		return false;
	}
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s%s", up.path, slash);
	snprintf(out->name, sizeof(out->name), "%s", path);
	out->level = up.level + 1;
	return true;
}

bool cgroup_own(struct cgroup_dir *out, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	bool ok = false;

	if (!procfs_read("/proc/self/cgroup", &text, 65536)) {
		strbuf_addf(err, "cannot read '/proc/self/cgroup': %s", strerror(errno));
		goto out;
	}
	/* cgroup v2's line, "0::PATH", its path from the namespace's root. */
	const char *line = strncmp(text.buf, "0::", 3) == 0 ? text.buf : strstr(text.buf, "\n0::");
	if (!line) {
		strbuf_adds(err, "'/proc/self/cgroup' has no cgroup v2 line");
		goto out;
	}
	line += line[0] == '\n' ? 4 : 3;
	size_t len = strcspn(line, "\n");
	char path[sizeof(out->name)];
	snprintf(path, sizeof(path), "%.*s", (int)len, line);
	ok = cgroup_find(path, out, err);
out:
	strbuf_release(&text);
	return ok;
}

/* The id of the podman container named NAME, from its conmon's command
 * line ("-c ID ... -n NAME"), into ID; false when no conmon names it. */
static bool id_by_name(const char *name, char *id, size_t size)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct strbuf args = STRBUF_INIT;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || procfs_cmdline((pid_t)pid, &args) <= 0)
			continue;
		const char *argv0 = args.buf, *slash = strrchr(argv0, '/');
		if (strcmp(slash ? slash + 1 : argv0, "conmon") != 0)
			continue;
		const char *cid = NULL, *cname = NULL;
		for (const char *a = args.buf; a < args.buf + args.len; a += strlen(a) + 1) {
			const char *next = a + strlen(a) + 1;
			if (next >= args.buf + args.len)
				break;
			if (strcmp(a, "-c") == 0 || strcmp(a, "--cid") == 0)
				cid = next;
			else if (strcmp(a, "-n") == 0 || strcmp(a, "--name") == 0)
				cname = next;
		}
		if (cid && cname && strcmp(cname, name) == 0) {
			snprintf(id, size, "%s", cid);
			found = true;
		}
	}
	closedir(d);
	strbuf_release(&args);
	return found;
}

struct search {
	const char *root;
	const char *prefix;	/* of the id */
	const char *unit;	/* else a cgroup of this name (a unit's) */
	size_t dirs;
	struct cgroup_dir found;
	char found_id[CONTAINER_ID_MAX + 1];
	int matches;		/* distinct containers */
};

static void search(struct search *s, const char *dir, int depth)
{
	DIR *d = depth <= SEARCH_DEPTH && s->dirs < SEARCH_DIRS ? opendir(dir) : NULL;
	struct dirent *de;

	if (!d)
		return;
	s->dirs++;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		char sub[4096], line[4200];
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= sizeof(sub))
			continue;
		if (s->unit) {
			if (strcmp(de->d_name, s->unit) != 0)
				search(s, sub, depth + 1);
			else if (s->matches || fill(s->root, sub, &s->found))
				s->matches++;
			continue;
		}
		/* Named as its engine names it: the cgroup file's form. */
		snprintf(line, sizeof(line), "0::%s\n", sub + strlen(s->root));
		struct container c;
		if (container_from_cgroup(line, &c) && c.id[0] && strncmp(c.id, s->prefix, strlen(s->prefix)) == 0) {
			/* The container's own cgroup, not one below it
			 * (podman's "container" child): the first found. */
			if (!s->matches || strcmp(c.id, s->found_id) != 0) {
				s->matches++;
				snprintf(s->found_id, sizeof(s->found_id), "%s", c.id);
				fill(s->root, sub, &s->found);
			}
			continue;
		}
		search(s, sub, depth + 1);
	}
	closedir(d);
}

bool cgroup_find_container(const char *what, struct cgroup_dir *out, struct strbuf *err)
{
	struct strbuf root = STRBUF_INIT;
	char id[CONTAINER_ID_MAX + 1];
	bool hex = strlen(what) >= 4 && strlen(what) <= CONTAINER_ID_MAX;
	bool ok = false;

	for (const char *p = what; *p && hex; p++)
		hex = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f');
	if (!cgroup2_root(&root)) {
		strbuf_adds(err, "no cgroup2 file system is mounted here");
		goto out;
	}
	if (hex)
		snprintf(id, sizeof(id), "%s", what);
	else if (!id_by_name(what, id, sizeof(id))) {
		strbuf_addf(err, "no container '%s': not an id (4 to 64 hex digits), and no podman container "
			    "of that name runs (docker's: give its id, docker ps shows it)", what);
		goto out;
	}
	struct search s = { .root = root.buf, .prefix = id };
	search(&s, root.buf, 0);
	if (s.matches == 1) {
		*out = s.found;
		ok = true;
	} else if (s.matches > 1) {
		strbuf_addf(err, "'%s' names more than one container: give more of its id", what);
	} else {
		strbuf_addf(err, "no running container '%s' (no cgroup under '%s' names it)", what, root.buf);
	}
out:
	strbuf_release(&root);
	return ok;
}

int cgroup_find_unit(const char *unit, struct cgroup_dir *out, struct strbuf *err)
{
	struct strbuf root = STRBUF_INIT;
	int ok = 0;

	if (!cgroup2_root(&root)) {
		strbuf_adds(err, "no cgroup2 file system is mounted here");
		goto out;
	}
	struct search s = { .root = root.buf, .unit = unit };
	search(&s, root.buf, 0);
	if (s.matches == 1) {
		*out = s.found;
		ok = 1;
	} else if (s.matches > 1) {
		strbuf_addf(err, "unit '%s' has a cgroup in %d places (a user's manager, or a container's "
			    "systemd, has one too): name one with --cgroup", unit, s.matches);
		ok = -1;
	} else {
		strbuf_addf(err, "no cgroup of unit '%s' under '%s'", unit, root.buf);
	}
out:
	strbuf_release(&root);
	return ok;
}

static void procs_of(const char *dir, pid_t **pids, size_t *n, size_t max, int depth)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if ((f = fopen(path, "re"))) {
		long pid;
		while (*n < max && fscanf(f, "%ld", &pid) == 1)
			if (pid > 0 && pid <= INT32_MAX) {
				*pids = xrealloc(*pids, (*n + 1) * sizeof(**pids));
				(*pids)[(*n)++] = (pid_t)pid;
			}
		fclose(f);
	}
	DIR *d = depth < SEARCH_DEPTH ? opendir(dir) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (de->d_type == DT_DIR && de->d_name[0] != '.') {
			char sub[4200];
			if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) < sizeof(sub))
				procs_of(sub, pids, n, max, depth + 1);
		}
	if (d)
		closedir(d);
}

size_t cgroup_procs(const struct cgroup_dir *cg, pid_t **pids, size_t max)
{
	size_t n = 0;

	*pids = NULL;
	procs_of(cg->path, pids, &n, max, 0);
	return n;
}
