/* watch's stall detector (see stall.h). */
#include "watch/stall.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/util.h"

/* /proc/TID/syscall: the number, six arguments, sp and pc. */
#define SYSCALL_LINE_MAX 256

struct look {
	pid_t tgid;
	uint64_t call;		/* a hash of the syscall line */
	unsigned long long cpu_ns;
	double since;
	bool told;
	unsigned round;
};

struct stall {
	double threshold;
	struct hmap threads;	/* tid -> struct look */
	unsigned round;
};

struct stall *stall_new(double threshold)
{
	struct stall *s = xcalloc(1, sizeof(*s));

	s->threshold = threshold;
	hmap_init(&s->threads);
	return s;
}

void stall_free(struct stall *s)
{
	if (!s)
		return;
	hmap_release(&s->threads, free);
	free(s);
}

static uint64_t fnv(const char *p)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

/* FILE under /proc/TGID/task/TID, its first line into BUF. */
static bool first_line(pid_t tgid, pid_t tid, const char *file, char *buf, size_t size)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)tgid, (int)tid, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	return ok;
}

bool stall_parse(const char *syscall, const char *schedstat, uint64_t *call, unsigned long long *cpu_ns)
{
	char *end;

	/* "running", or "-1 sp pc" outside a call. */
	if (syscall[0] < '0' || syscall[0] > '9' || schedstat[0] < '0' || schedstat[0] > '9')
		return false;
	errno = 0;
	*cpu_ns = strtoull(schedstat, &end, 10);
	if (errno || end == schedstat || (*end && *end != ' ' && *end != '\n'))
		return false;
	*call = fnv(syscall);
	return true;
}

/* Thread TID inside a call now: its line's hash, and its CPU time. */
static bool in_call(pid_t tgid, pid_t tid, uint64_t *call, unsigned long long *cpu_ns)
{
	char line[SYSCALL_LINE_MAX], sched[128];

	return first_line(tgid, tid, "syscall", line, sizeof(line)) && (line[0] >= '0' && line[0] <= '9') &&
	       first_line(tgid, tid, "schedstat", sched, sizeof(sched)) && stall_parse(line, sched, call, cpu_ns);
}

size_t stall_look(struct stall *s, pid_t tgid, double now,
		  void (*fn)(void *user, pid_t tgid, pid_t tid, double since), void *user)
{
	char path[64];
	size_t looked = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || tid <= 0)
			continue;
		looked++;
		uint64_t call;
		unsigned long long cpu_ns;
		bool inside = in_call(tgid, (pid_t)tid, &call, &cpu_ns);
		bool created = false;
		void **slot = hmap_put_int(&s->threads, tid, &created);
		if (created)
			*slot = xcalloc(1, sizeof(struct look));
		struct look *l = *slot;
		l->tgid = tgid;
		l->round = s->round + 1;
		if (!inside) {
			l->call = 0;
			continue;
		}
		if (created || l->call != call || l->cpu_ns != cpu_ns) {
			l->call = call;
			l->cpu_ns = cpu_ns;
			l->since = now;
			l->told = false;
			continue;
		}
		if (!l->told && now - l->since >= s->threshold) {
			l->told = true;
			fn(user, tgid, (pid_t)tid, l->since);
		}
	}
	closedir(d);
	return looked;
}

void stall_sweep(struct stall *s)
{
	struct hmap_iter it;
	long long *gone = NULL;
	size_t n = 0, alloc = 0;

	s->round++;
	for (struct hmap_node *nd = hmap_first(&s->threads, &it); nd; nd = hmap_next(&s->threads, &it)) {
		struct look *l = nd->value;
		if (l->round == s->round)
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			gone = xrealloc(gone, alloc * sizeof(*gone));
		}
		gone[n++] = hmap_node_int(nd);
	}
	for (size_t i = 0; i < n; i++)
		free(hmap_del_int(&s->threads, gone[i]));
	free(gone);
}

void stall_others(struct stall *s, pid_t tgid, double now, double min,
		  void (*fn)(void *user, pid_t tgid, pid_t tid, double since), void *user)
{
	struct hmap_iter it;

	for (struct hmap_node *nd = hmap_first(&s->threads, &it); nd; nd = hmap_next(&s->threads, &it)) {
		struct look *l = nd->value;
		if (l->tgid != tgid || !l->call || l->told || now - l->since < min)
			continue;
		l->told = true;
		fn(user, tgid, (pid_t)hmap_node_int(nd), l->since);
	}
}
