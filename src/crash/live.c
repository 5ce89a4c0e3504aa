/* Crashes caught alive, and /proc's description of a process. */
#include "crash/live.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crash/python.h"
#include "crash/unwind.h"
#include "util/procfs.h"
#include "util/util.h"

static void read_maps(struct rc_crash *c, pid_t pid)
{
	char path[64], line[4096 + 256];

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	size_t alloc = 0;
	while (fgets(line, sizeof(line), f) && c->nmaps < RC_CRASH_MAX_MAPPINGS) {
		uint64_t start, end, off;
		char perms[5];
		int name_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s %" SCNx64 " %*s %*s %n", &start, &end, perms, &off,
			   &name_at) < 4)
			continue;
		if (c->nmaps == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			c->maps = xrealloc(c->maps, alloc * sizeof(*c->maps));
		}
		struct rc_mapping *m = &c->maps[c->nmaps++];
		memset(m, 0, sizeof(*m));
		m->start = start;
		m->end = end;
		m->offset = off;
		m->read = perms[0] == 'r';
		m->write = perms[1] == 'w';
		m->exec = perms[2] == 'x';
		m->file_size = -1;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		if (name[0] == '/') {
			size_t n = strlen(name);
			bool gone = path_cut_deleted(name, &n);
			m->path = xstrdup(name);
			struct stat st;
			if (!gone && stat(m->path, &st) == 0)
				m->file_size = st.st_size;
		}
	}
	fclose(f);
}

void crash_describe_pid(struct rc_crash *c, pid_t pid)
{
	struct strbuf sb = STRBUF_INIT;

	if (!c->exe && procfs_link(pid, "exe", &sb))
		c->exe = strbuf_detach(&sb);
	strbuf_reset(&sb);
	int n = c->argv ? 0 : procfs_cmdline(pid, &sb);
	if (n > 0) {
		if (n > RC_CRASH_MAX_ARGS)
			n = RC_CRASH_MAX_ARGS;
		c->argv = xcalloc((size_t)n + 1, sizeof(*c->argv));
		const char *s = sb.buf;
		for (int i = 0; i < n && s < sb.buf + sb.len; i++) {
			c->argv[i] = xstrdup(s);
			c->argc++;
			s += strlen(s) + 1;
		}
	}
	strbuf_release(&sb);
	if (!c->nmaps)
		read_maps(c, pid);
}

int crash_capture_live(struct rc_crash *c, pid_t tgid, pid_t tid, const siginfo_t *si, struct strbuf *err)
{
	c->signo = si->si_signo;
	c->si_code = si->si_code;
	c->has_siginfo = true;
	c->fault_addr = (uint64_t)(uintptr_t)si->si_addr;
	c->sender_pid = si->si_code <= 0 ? si->si_pid : 0;
	c->pid = (int)tgid;
	c->crashed_tid = (int)tid;
	c->live_pid = tgid;
	crash_describe_pid(c, tgid);
	if (crash_unwind_pid(c, tgid, err) < 0)
		return -1;
	struct strbuf pyerr = STRBUF_INIT;
	if (crash_python_frames(c, &pyerr) < 0)
		crash_problem(c, "%s", pyerr.buf);
	strbuf_release(&pyerr);
	/* The crashed thread first, as in a core. */
	for (size_t i = 0; i < c->nthreads; i++) {
		if (c->threads[i].tid != (int)tid)
			continue;
		c->threads[i].crashed = true;
		c->threads[i].cursig = si->si_signo;
		if (i) {
			struct rc_thread t = c->threads[i];
			memmove(&c->threads[1], &c->threads[0], i * sizeof(t));
			c->threads[0] = t;
		}
		break;
	}
	/* The process is still there, so its memory is: the rules read it
	 * (__abort_msg) until we let it die, which is after they ran. */
	return 0;
}
