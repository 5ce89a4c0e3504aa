/* Containers from what /proc says (see container.h). The names are the
 * engines' own: systemd's cgroup driver makes "<engine>-<id>.scope"
 * (docker-, libpod-, cri-containerd-, crio-), cgroupfs drivers
 * "/docker/<id>", "/libpod_parent/libpod-<id>"; Kubernetes puts a pod's
 * containers under "kubepods...-pod<uid>.slice" (systemd, the uid's
 * dashes as underscores) or ".../pod<uid>/" (cgroupfs). */
#include "lookup/container.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

const char *container_kind_name(enum container_kind kind)
{
	switch (kind) {
	case CONTAINER_DOCKER: return "docker";
	case CONTAINER_PODMAN: return "podman";
	case CONTAINER_CONTAINERD: return "containerd";
	case CONTAINER_CRIO: return "cri-o";
	case CONTAINER_SYSTEMD: return "systemd";
	default: return "";
	}
}

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* A container id: 64 lowercase hex digits (every engine's). */
#define ID_LEN 64

/* Component C (N bytes) of a cgroup path named by an engine: PREFIX,
 * the id, then SUFFIX or its end. */
static bool engine_part(const char *c, size_t n, const char *prefix, const char *suffix, char *id)
{
	size_t p = strlen(prefix), s = strlen(suffix);

	if (n == p + ID_LEN + s && strncmp(c, prefix, p) == 0 && is_hex(c + p, ID_LEN) &&
	    strncmp(c + p + ID_LEN, suffix, s) == 0) {
		memcpy(id, c + p, ID_LEN);
		id[ID_LEN] = '\0';
		return true;
	}
	return false;
}

/* A pod's uid from "kubepods-burstable-pod<uid>.slice" (underscores for
 * its dashes) or "pod<uid>": 36 characters. */
static bool pod_part(const char *c, size_t n, char *pod)
{
	const char *at = NULL;

	for (size_t i = 0; i + 3 <= n; i++)
		if (strncmp(c + i, "pod", 3) == 0 && (i == 0 || c[i - 1] == '-'))
			at = c + i + 3;
	if (!at)
		return false;
	size_t len = (size_t)(c + n - at);
	if (len >= 6 && strncmp(at + len - 6, ".slice", 6) == 0)
		len -= 6;
	if (len != 36)
		return false;
	for (size_t i = 0; i < len; i++) {
		char ch = at[i] == '_' ? '-' : at[i];
		if (!(ch == '-' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')))
			return false;
		pod[i] = ch;
	}
	pod[len] = '\0';
	return true;
}

/* PATH (N bytes) as a container: true when an engine or a unit names it. */
static bool from_path(const char *path, size_t n, struct container *out)
{
	bool docker_dir = false, named = false;

	memset(out, 0, sizeof(*out));
	snprintf(out->cgroup, sizeof(out->cgroup), "%.*s", (int)MIN(n, sizeof(out->cgroup) - 1), path);
	for (size_t i = 0; i < n;) {
		while (i < n && path[i] == '/')
			i++;
		size_t j = i;
		while (j < n && path[j] != '/')
			j++;
		const char *c = path + i;
		size_t len = j - i;
		char id[ID_LEN + 1];
		if (!len)
			break;
		if (engine_part(c, len, "docker-", ".scope", id) || (docker_dir && engine_part(c, len, "", "", id))) {
			out->kind = CONTAINER_DOCKER;
			memcpy(out->id, id, sizeof(id));
			named = true;
		} else if (engine_part(c, len, "libpod-", ".scope", id) || engine_part(c, len, "libpod-", "", id)) {
			out->kind = CONTAINER_PODMAN;
			memcpy(out->id, id, sizeof(id));
			named = true;
		} else if (engine_part(c, len, "cri-containerd-", ".scope", id)) {
			out->kind = CONTAINER_CONTAINERD;
			memcpy(out->id, id, sizeof(id));
			named = true;
		} else if (engine_part(c, len, "crio-", ".scope", id)) {
			out->kind = CONTAINER_CRIO;
			memcpy(out->id, id, sizeof(id));
			named = true;
		} else if (pod_part(c, len, out->pod)) {
			named = true;
		} else if (!out->id[0] && len > 8 && strncmp(c + len - 8, ".service", 8) == 0 &&
			   len < sizeof(out->unit)) {
			out->kind = CONTAINER_SYSTEMD;
			memcpy(out->unit, c, len);
			out->unit[len] = '\0';
			named = true;
		} else if (out->pod[0] && !out->id[0] && engine_part(c, len, "", "", id)) {
			/* cgroupfs: a pod's containers are its children. */
			memcpy(out->id, id, sizeof(id));
		}
		docker_dir = len == 6 && strncmp(c, "docker", 6) == 0;
		i = j;
	}
	return named;
}

bool container_from_cgroup(const char *text, struct container *out)
{
	struct container v2;
	bool have_v2 = false, any = false;

	memset(&v2, 0, sizeof(v2));
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *next = end ? end + 1 : NULL;
		size_t n = end ? (size_t)(end - line) : strlen(line);
		/* "ID:CONTROLLERS:PATH" */
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', n - (size_t)(c1 + 1 - line)) : NULL;
		if (c2) {
			const char *path = c2 + 1;
			size_t plen = n - (size_t)(path - line);
			any = true;
			if (from_path(path, plen, out))
				return true;
			if (c1 == line + 1 && line[0] == '0' && c2 == c1 + 1) {
				v2 = *out;
				have_v2 = true;
			}
		}
		line = next;
	}
	if (!any)
		return false;
	if (have_v2)
		*out = v2;
	else
		memset(out, 0, sizeof(*out));
	out->kind = CONTAINER_NONE;
	if (!out->cgroup[0])
		snprintf(out->cgroup, sizeof(out->cgroup), "/");
	return true;
}

void container_describe(const struct container *c, struct strbuf *out)
{
	/* Engines' commands show the first 12 digits of an id. */
	if (c->pod[0]) {
		strbuf_addf(out, "Kubernetes pod %s", c->pod);
		if (c->id[0])
			strbuf_addf(out, " (%s%scontainer %.12s)", container_kind_name(c->kind),
				    c->kind != CONTAINER_NONE ? " " : "", c->id);
	} else if (c->id[0]) {
		strbuf_addf(out, "%s container %.12s", container_kind_name(c->kind), c->id);
	} else if (c->unit[0]) {
		strbuf_addf(out, "systemd unit %s", c->unit);
	} else {
		strbuf_addf(out, "cgroup %s", c->cgroup);
	}
}

bool mountinfo_find(const char *text, long id, unsigned maj, unsigned min, const char *fspath,
		    struct strbuf *root_out, struct strbuf *point_out)
{
	size_t best = 0;
	bool found = false;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		long mid, parent;
		unsigned ma, mi;
		char root[4096], point[4096];
		if (sscanf(line, "%ld %ld %u:%u %4095s %4095s", &mid, &parent, &ma, &mi, root, point) != 6)
			continue;
		if (id >= 0 ? mid != id : (ma != maj || mi != min))
			continue;
		size_t n = strlen(root);
		if (id < 0) {
			/* "/" holds every path; "/a" holds "/a" and "/a/b". */
			bool holds = strcmp(root, "/") == 0 ||
				     (fspath && strncmp(fspath, root, n) == 0 && (fspath[n] == '/' || !fspath[n]));
			if (!holds || (found && n <= best))
				continue;
		}
		best = n;
		found = true;
		strbuf_reset(root_out);
		strbuf_adds(root_out, root);
		strbuf_reset(point_out);
		strbuf_adds(point_out, point);
		if (id >= 0)
			break;
	}
	return found;
}
