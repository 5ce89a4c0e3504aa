/* /proc readers (see procfs.h). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/procfs.h"
#include "util/hmap.h"
#include "util/util.h"

/* /proc files are small; a cap keeps a hostile namespace's huge socket
 * table from costing more than a moment. */
#define NET_TABLE_MAX (8u << 20)

bool procfs_read(const char *path, struct strbuf *out, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	strbuf_reset(out);
	for (;;) {
		strbuf_grow(out, 8192);
		ssize_t n = read(fd, out->buf + out->len, 8192);
		if (n <= 0)
			break;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (out->len >= max)
			break;
	}
	close(fd);
	return true;
}

/* A small file read in one read(2), NUL-terminated; its length or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

bool procfs_status(pid_t pid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return read_small(path, buf, size) > 0;
}

long procfs_status_long(const char *status, const char *key)
{
	const char *p = strstr(status, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

bool procfs_status_hex(const char *status, const char *key, uint64_t *out)
{
	const char *p = strstr(status, key);
	char *end;

	if (!p)
		return false;
	p += strlen(key);
	unsigned long long v = strtoull(p, &end, 16);
	if (end == p)
		return false;
	*out = v;
	return true;
}

bool procfs_gone(pid_t pid)
{
	char status[512];

	if (!procfs_status(pid, status, sizeof(status)))
		return true;
	const char *s = strstr(status, "\nState:");
	if (!s)
		return false;
	s += 7;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == 'Z' || *s == 'X';
}

bool procfs_same_ns(pid_t pid, const char *ns)
{
	char path[64];
	struct stat theirs, ours;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns);
	if (stat(path, &theirs) != 0)
		return true;
	snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	return stat(path, &ours) != 0 || (theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino);
}

bool procfs_own_view(pid_t pid)
{
	char path[64];
	struct stat theirs, ours;

	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	if (stat(path, &theirs) != 0 || stat("/", &ours) != 0)
		return false;
	return theirs.st_dev != ours.st_dev || theirs.st_ino != ours.st_ino || !procfs_same_ns(pid, "mnt");
}

/* How deep PID's pid namespace is (NSpid's entries), with its numbers
 * from the outermost into OUT (up to MAX); 0 when unknown. */
static int ns_pids(pid_t pid, long long *out, int max)
{
	char status[4096];

	if (!procfs_status(pid, status, sizeof(status)))
		return 0;
	return procfs_status_list(status, "\nNSpid:", out, max);
}

/* Pid namespaces nest 32 deep at most (the kernel's MAX_PID_NS_LEVEL). */
#define PID_NS_DEPTH 33

/* Entry I of V (N of them) as a pid; 0 when there is none. */
static int ns_entry(const long long *v, int n, int i)
{
	return i >= 0 && i < n && v[i] > 0 && v[i] <= INT32_MAX ? (int)v[i] : 0;
}

int procfs_ns_pid(pid_t pid, pid_t other, int *seen_by)
{
	long long mine[PID_NS_DEPTH], theirs[PID_NS_DEPTH];
	int n = ns_pids(pid, mine, PID_NS_DEPTH);

	if (other > 0)
		*seen_by = ns_entry(mine, n, ns_pids(other, theirs, PID_NS_DEPTH) - 1);
	int inner = n > 1 ? ns_entry(mine, n, n - 1) : 0;
	return inner != pid ? inner : 0;
}

/* /proc/PID/limits: a heading, then a line per resource in RLIMIT_*
 * order, its name in the first 26 columns, then the soft and the hard
 * limit ("unlimited" or a number) and the unit. */
#define LIMITS_NAME_COLS 26

bool procfs_limit_hard(pid_t tid, int res, uint64_t *out)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)tid);
	if (res < 0 || read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	const char *line = buf;
	for (int i = 0; i <= res && line; i++) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	const char *eol = line ? strchr(line, '\n') : NULL;
	if (!line || !eol || eol - line <= LIMITS_NAME_COLS)
		return false;
	char soft[32], hard[32];
	if (sscanf(line + LIMITS_NAME_COLS, "%31s %31s", soft, hard) != 2)
		return false;
	if (strcmp(hard, "unlimited") == 0) {
		*out = UINT64_MAX;
		return true;
	}
	char *end;
	unsigned long long v = strtoull(hard, &end, 10);
	if (end == hard || *end)
		return false;
	*out = v;
	return true;
}

int procfs_status_list(const char *status, const char *key, long long *out, int max)
{
	const char *p = strstr(status, key);
	int n = 0;

	if (!p)
		return 0;
	p += strlen(key);
	while (n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		char *end;
		out[n++] = strtoll(p, &end, 10);
		p = end;
	}
	return n;
}

/* A hex mask line of /proc/PID/status ("SigCgt:\t0000000000004a02"). */
static bool status_mask(const char *status, const char *key, uint64_t *mask)
{
	const char *p = strstr(status, key);

	if (!p)
		return false;
	*mask = strtoull(p + strlen(key), NULL, 16);
	return true;
}

bool procfs_signal_is_fatal(pid_t tgid, int sig)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGABRT: case SIGSYS: case SIGTRAP:
		break;
	default:
		return false;
	}
	char buf[4096];
	if (!procfs_status(tgid, buf, sizeof(buf)))
		return false;
	uint64_t caught = 0, ignored = 0, bit = 1ULL << (sig - 1);
	if (!status_mask(buf, "\nSigCgt:", &caught) || !status_mask(buf, "\nSigIgn:", &ignored))
		return false;
	/* An ignored fault still kills (the kernel forces it); abort()
	 * resets an ignored SIGABRT itself. */
	return !(caught & bit);
}

char *procfs_comm(pid_t pid, pid_t tid)
{
	char path[64], buf[64];

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	ssize_t n = read_small(path, buf, sizeof(buf));
	if (n <= 0)
		return NULL;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	return xstrndup(buf, (size_t)n);
}

int procfs_cmdline(pid_t pid, struct strbuf *out)
{
	char path[64];
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (!procfs_read(path, out, 1 << 16))
		return -1;
	for (size_t i = 0; i < out->len; i++)
		n += out->buf[i] == '\0';
	return n;
}

bool procfs_link(pid_t pid, const char *link, struct strbuf *out)
{
	char path[96];
	char buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, link);
	ssize_t n = readlink(path, buf, sizeof(buf));
	if (n < 0 || n == (ssize_t)sizeof(buf))
		return false;
	strbuf_reset(out);
	strbuf_add(out, buf, (size_t)n);
	return true;
}

bool procfs_name_inside(struct strbuf *path, const char *root)
{
	const char *inside = path_within(path->buf, root);

	if (!inside)
		return false;
	if (inside != path->buf) {
		size_t n = strlen(inside);
		memmove(path->buf, inside, n + 1);
		path->len = n;
	}
	return true;
}

bool procfs_link_inside(pid_t pid, const char *link, struct strbuf *out)
{
	struct strbuf root = STRBUF_INIT;

	if (!procfs_link(pid, link, out))
		return false;
	if (procfs_link(pid, "root", &root))
		procfs_name_inside(out, root.buf);
	strbuf_release(&root);
	return true;
}

struct procfs_socks {
	struct hmap by_inode;	/* inode -> char* description */
};

/* "0100007F:1F90" (v4, little-endian words) or 32 hex digits (v6). */
static bool inet_text(const char *hex, size_t hexlen, bool v6, char *out, size_t size)
{
	unsigned char a[16];
	size_t n = v6 ? 16 : 4;

	if (hexlen != n * 2)
		return false;
	for (size_t w = 0; w < n / 4; w++) {
		unsigned word;
		char tmp[9];
		memcpy(tmp, hex + w * 8, 8);
		tmp[8] = '\0';
		if (sscanf(tmp, "%x", &word) != 1)
			return false;
		/* The kernel prints each 32-bit word in host order. */
		memcpy(a + w * 4, &word, 4);
	}
	return inet_ntop(v6 ? AF_INET6 : AF_INET, a, out, (socklen_t)size) != NULL;
}

static void load_inet(struct procfs_socks *s, pid_t pid, const char *file, const char *proto, bool v6,
		      struct strbuf *buf)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/net/%s", (int)pid, file);
	if (!procfs_read(path, buf, NET_TABLE_MAX))
		return;
	char *line = strchr(buf->buf, '\n');	/* skip the header */
	while (line && *++line) {
		char *next = strchr(line, '\n');
		if (next)
			*next = '\0';
		char local[64], remote[64];
		unsigned long inode;
		unsigned st;
		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*s %63s %63s %x %*s %*s %*s %*s %*s %lu", local, remote, &st, &inode) == 4 &&
		    inode) {
			char *lc = strchr(local, ':'), *rc = strchr(remote, ':');
			char lh[INET6_ADDRSTRLEN], rh[INET6_ADDRSTRLEN];
			if (lc && rc && inet_text(local, (size_t)(lc - local), v6, lh, sizeof(lh)) &&
			    inet_text(remote, (size_t)(rc - remote), v6, rh, sizeof(rh))) {
				unsigned lp = (unsigned)strtoul(lc + 1, NULL, 16);
				unsigned rp = (unsigned)strtoul(rc + 1, NULL, 16);
				struct strbuf d = STRBUF_INIT;
				const char *lo = v6 ? "[" : "", *lc_ = v6 ? "]" : "";
				if (rp)
					strbuf_addf(&d, "%s%s:[%s%s%s:%u->%s%s%s:%u]", proto, v6 ? "v6" : "",
						    lo, lh, lc_, lp, lo, rh, lc_, rp);
				else
					strbuf_addf(&d, "%s%s:[%s%s%s:%u]", proto, v6 ? "v6" : "", lo, lh, lc_, lp);
				bool created;
				void **slot = hmap_put_int(&s->by_inode, (long long)inode, &created);
				if (created)
					*slot = strbuf_detach(&d);
				strbuf_release(&d);
			}
		}
		line = next;
	}
}

static void load_unix(struct procfs_socks *s, pid_t pid, struct strbuf *buf)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/net/unix", (int)pid);
	if (!procfs_read(path, buf, NET_TABLE_MAX))
		return;
	char *line = strchr(buf->buf, '\n');
	while (line && *++line) {
		char *next = strchr(line, '\n');
		if (next)
			*next = '\0';
		unsigned type;
		unsigned long inode;
		int used = 0;
		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %*s %x %*s %lu%n", &type, &inode, &used) == 2 && inode) {
			const char *p = line + used;
			while (*p == ' ')
				p++;
			struct strbuf d = STRBUF_INIT;
			strbuf_addf(&d, "UNIX-%s:[%lu", type == 2 ? "DGRAM" : type == 5 ? "SEQPACKET" : "STREAM", inode);
			if (*p)
				strbuf_addf(&d, ",\"%s\"", p);
			strbuf_addc(&d, ']');
			bool created;
			void **slot = hmap_put_int(&s->by_inode, (long long)inode, &created);
			if (created)
				*slot = strbuf_detach(&d);
			strbuf_release(&d);
		}
		line = next;
	}
}

struct procfs_socks *procfs_socks_load(pid_t pid)
{
	struct procfs_socks *s = xcalloc(1, sizeof(*s));
	struct strbuf buf = STRBUF_INIT;

	hmap_init(&s->by_inode);
	load_inet(s, pid, "tcp", "TCP", false, &buf);
	load_inet(s, pid, "tcp6", "TCP", true, &buf);
	load_inet(s, pid, "udp", "UDP", false, &buf);
	load_inet(s, pid, "udp6", "UDP", true, &buf);
	load_unix(s, pid, &buf);
	strbuf_release(&buf);
	return s;
}

void procfs_socks_free(struct procfs_socks *s)
{
	if (!s)
		return;
	hmap_release(&s->by_inode, free);
	free(s);
}

bool procfs_fd_desc(pid_t pid, int fd, const struct procfs_socks *socks, struct strbuf *out)
{
	char link[32];

	snprintf(link, sizeof(link), "fd/%d", fd);
	if (!procfs_link(pid, link, out))
		return false;
	/* strace prints an unlinked file's suffix outside the decoration
	 * ("3</tmp/x>(deleted)"): the path is what comes before it. */
	if (out->buf[0] == '/')
		path_cut_deleted(out->buf, &out->len);
	unsigned long inode;
	if (socks && sscanf(out->buf, "socket:[%lu]", &inode) == 1) {
		void **slot = hmap_get_int(&socks->by_inode, (long long)inode);
		if (slot) {
			strbuf_reset(out);
			strbuf_adds(out, *slot);
		}
	}
	return true;
}
