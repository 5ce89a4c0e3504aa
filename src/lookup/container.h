/* What /proc says of a process's container, parsed: its cgroup file
 * (/proc/PID/cgroup) named as the engine that made it names it, and a
 * mount table (/proc/PID/mountinfo) searched for the mount that holds a
 * file. Pure text in, facts out: lookup.c reads the files, while the
 * process lives, and these never touch the machine (fuzz/fuzz_procinfo).
 */
#ifndef RC_LOOKUP_CONTAINER_H
#define RC_LOOKUP_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/strbuf.h"

/* Who made the cgroup a process is in. */
enum container_kind {
	CONTAINER_NONE,		/* a cgroup of no engine's: only its path */
	CONTAINER_DOCKER,	/* docker-<id>.scope, /docker/<id> */
	CONTAINER_PODMAN,	/* libpod-<id>.scope, /libpod_parent/libpod-<id> */
	CONTAINER_CONTAINERD,	/* cri-containerd-<id>.scope (Kubernetes' containerd) */
	CONTAINER_CRIO,		/* crio-<id>.scope */
	CONTAINER_SYSTEMD,	/* a systemd unit: <name>.service */
};

#define CONTAINER_ID_MAX 64

struct container {
	enum container_kind kind;
	char id[CONTAINER_ID_MAX + 1];	/* the engine's container id; "" none */
	char pod[40];		/* a Kubernetes pod's uid, dashes restored; "" none */
	char unit[256];		/* a systemd unit's name; "" none */
	char cgroup[512];	/* the cgroup path it was named from ("/" the root) */
};

/* The container named by TEXT, a /proc/PID/cgroup (cgroup v2's "0::PATH"
 * line, and v1's "N:controllers:PATH" lines: the first path that names
 * an engine's container or a unit wins, else v2's path). False when TEXT
 * has no cgroup line at all. */
bool container_from_cgroup(const char *text, struct container *out);
/* "podman container 1a2b3c4d5e6f", "docker container ...", "Kubernetes
 * pod 8c5e... (containerd container ...)", "systemd unit nginx.service",
 * "cgroup /x/y", into OUT. */
void container_describe(const struct container *c, struct strbuf *out);
/* The engine's name for KIND ("podman"; "" for none). */
const char *container_kind_name(enum container_kind kind);

/* In mount table TEXT (mountinfo's lines: "ID PARENT MAJ:MIN ROOT POINT
 * ..."): with ID >= 0 the mount with that id; else the mount of device
 * MAJ:MIN whose ROOT (the place in its file system it shows) holds
 * FSPATH, the longest such. Its ROOT and POINT into ROOT_OUT and
 * POINT_OUT. Paths with mountinfo's octal escapes (a space) are left as
 * they are, so never match a real path. */
bool mountinfo_find(const char *text, long id, unsigned maj, unsigned min, const char *fspath,
		    struct strbuf *root_out, struct strbuf *point_out);

#endif
