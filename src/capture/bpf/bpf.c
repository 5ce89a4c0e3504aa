/* The eBPF capture's loader (see bpf.h). */
#include <errno.h>
#include <limits.h>
#include <linux/types.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "capture/bpf/bpf.h"
#include "capture/bpf/record.h"
#include "capture/bpf/capture.skel.h"
#include "capture/bpf/kernel-btf.h"
#include "event/syscalls.h"
#include "lookup/cgroups.h"

#define RING_DEFAULT (16u << 20)
/* include/linux/proc_ns.h */
#define PROC_PID_INIT_INO 0xEFFFFFFCU
/* And of the kernel's own cgroup namespace. */
#define PROC_CGROUP_INIT_INO 0xEFFFFFFBU
#define WAKEUP_DEFAULT (256u << 10)
/* Slots for the sums in progress (diagnosis mode; a power of two): two
 * sums of one slot take turns, each written out as the other comes. */
#define SUMS_MAX 4096u

struct bpf_capture {
	struct capture_bpf *skel;
	/* Attached one by one, so that close can detach in its own order
	 * (ENTER: the entry hook, or diagnosis mode's switch hook). */
	struct bpf_link *enter, *exit, *fork, *task_exit, *exec, *signal, *generate;
	struct bpf_link *mkdir;		/* watch: the cgroup made anew; NULL none */
	/* watch: the call hooks may be detached (bpf_capture_record_calls);
	 * whether they are is the program's calls_paused. */
	bool pausable;
	void (*on_wake)(void *arg);	/* bpf_capture_on_wake */
	void *wake_arg;
	uint64_t starts_told;		/* the kernel's starts at its last */
	struct ring_buffer *rb;
	bpf_record_fn fn;
	void *user;
	int stop;		/* the callback asked to stop */
	double epoch;		/* CLOCK_REALTIME - CLOCK_MONOTONIC at open */
	int wake_fd;		/* an eventfd: bpf_capture_wake ends a poll's wait */
};

/* libbpf's own messages would go to stderr: the last warning is kept for
 * the one line a failure says instead. */
static char last_warning[256];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN) {
		vsnprintf(last_warning, sizeof(last_warning), fmt, ap);
		size_t n = strlen(last_warning);
		while (n && (last_warning[n - 1] == '\n' || last_warning[n - 1] == ' '))
			last_warning[--n] = '\0';
	}
	return 0;
}

static int fail(struct strbuf *err, int e, const char *what)
{
	/* As root, EACCES is the verifier's refusal, not a privilege. */
	if (e == EACCES && geteuid() == 0 && last_warning[0])
		strbuf_addf(err, "cannot %s: the kernel's verifier refused it (%s)", what, last_warning);
	else if (e == EPERM || e == EACCES)
		strbuf_addf(err, "cannot %s: %s (eBPF needs root, or CAP_BPF with CAP_PERFMON)", what,
			    strerror(e));
	else if (last_warning[0])
		strbuf_addf(err, "cannot %s: %s (%s)", what, strerror(e), last_warning);
	else
		strbuf_addf(err, "cannot %s: %s", what, strerror(e));
	return -1;
}

static bool chosen(const struct bpf_capture_opts *o, __u32 nr)
{
	const struct rc_syscall *sc = syscall_by_nr(nr);

	if (!o || !o->select || (sc && (sc->classes & CL_EXEC)))
		return true;
	return (long)nr < o->nbits && (o->select[nr / 8] >> (nr % 8) & 1);
}

/* The calls a busy server makes for each request, which watch's quiet
 * mode counts when they ran through (close, whose plan closes its first
 * argument's fd, besides). */
#define QUIET_CLASSES (CL_READ | CL_WRITE | CL_SOCK_IO | CL_POLL | CL_EPOLL | CL_FUTEX | CL_ACCEPT)
/* And those on a path, past the first of them on each (record.h,
 * RCB_PLAN_REPEAT). */
#define REPEAT_CLASSES (CL_OPEN | CL_STAT | CL_LOOK)

static int fill_plan(struct bpf_capture *c, const struct bpf_capture_opts *o)
{
	int fd = bpf_map__fd(c->skel->maps.plan);
	size_t print_bytes = o ? o->print_bytes : 0;

	for (__u32 nr = 0; nr < RCB_NR_MAX; nr++) {
		const struct rc_syscall *sc = syscall_by_nr(nr);
		struct rcb_plan pl;
		if (!sc)
			continue;
		bpf_plan_of(sc, print_bytes, &pl);
		if (chosen(o, nr))
			pl.flags |= RCB_PLAN_WANTED;
		if (o && o->quiet && ((sc->classes & QUIET_CLASSES) || pl.closes == 1))
			pl.flags |= RCB_PLAN_QUIET;
		if (o && o->quiet_repeats && (sc->classes & REPEAT_CLASSES))
			pl.flags |= RCB_PLAN_REPEAT | ((sc->classes & CL_OPEN) ? RCB_PLAN_OPENS : 0);
		if ((pl.item[0].kind != RCB_P_NONE || pl.flags) && bpf_map_update_elem(fd, &nr, &pl, BPF_ANY) != 0)
			return -errno;
	}
	return 0;
}

/* watch: the followed cgroup is looked for when made anew. */
static bool refind_cgroup(const struct bpf_capture_opts *o)
{
	return o && o->cgroup_path && o->cgroup_parent && o->cgroup_path[0] &&
	       strlen(o->cgroup_path) < RCB_CGROUP_PATH_MAX;
}

/* O follows a cgroup from inside a cgroup namespace, whose levels are not
 * the kernel's (capture.bpf.c's level_base). */
static bool cgroup_levels_differ(const struct bpf_capture_opts *o)
{
	struct stat ns;

	return o && (o->cgroup_id || refind_cgroup(o)) && stat("/proc/self/ns/cgroup", &ns) == 0 &&
	       ns.st_ino != PROC_CGROUP_INIT_INO;
}

/* P attached; unless KEEP (to be attached again), unloaded. */
static struct bpf_link *attach_as(struct bpf_program *p, bool keep)
{
	struct bpf_link *l = bpf_program__attach(p);

	if (libbpf_get_error(l))
		return NULL;
	/* The link holds the program now: its own descriptor is one fewer
	 * of the few that a low RLIMIT_NOFILE leaves (ulimit -n 32, whose
	 * hard limit root without CAP_SYS_RESOURCE cannot raise). */
	if (!keep)
		bpf_program__unload(p);
	return l;
}

static struct bpf_link *attach(struct bpf_program *p)
{
	return attach_as(p, false);
}

/* The skeleton opened against KB's cut of the kernel's types, set for
 * O and loaded: 0, or a negative errno. */
static int load(struct bpf_capture *c, const struct bpf_capture_opts *o, const struct kernel_btf *kb)
{
	bool sums = o && o->sums;	/* diagnosis mode */
	size_t ring = o && o->ring_bytes ? o->ring_bytes : RING_DEFAULT;
	struct bpf_object_open_opts oo;
	int e;

	memset(&oo, 0, sizeof(oo));
	oo.sz = sizeof(oo);
	oo.btf_custom_path = kb->path[0] ? kb->path : NULL;
	c->skel = capture_bpf__open_opts(&oo);
	if (!c->skel)
		return -errno;
	c->skel->rodata->wakeup_bytes = o && o->wakeup_bytes ? o->wakeup_bytes : WAKEUP_DEFAULT;
	c->skel->rodata->filter_calls = o && o->select;
	c->skel->rodata->summing = sums;
	c->skel->rodata->stacks = o && o->stacks;
	c->skel->rodata->quiet = o && o->quiet && sums;
	c->skel->rodata->pausable = o && o->pausable && sums;
	c->skel->rodata->follow_cgroup = o ? o->cgroup_id : 0;
	c->skel->rodata->follow_cgroup_level = o ? o->cgroup_level : 0;
	c->skel->rodata->cgroup_only = o && o->cgroup_only && (o->cgroup_id || refind_cgroup(o));
	if (refind_cgroup(o)) {
		/* Its name under its parent (capture.bpf.c's on_cgroup_mkdir). */
		const char *name = strrchr(o->cgroup_path, '/');
		name = name ? name + 1 : o->cgroup_path;
		size_t plen = strlen(name);
		memcpy((char *)c->skel->rodata->follow_cgroup_name, name, plen);
		c->skel->rodata->follow_cgroup_name_len = (__u32)plen;
		c->skel->rodata->follow_cgroup_parent = o->cgroup_parent;
	} else {
		bpf_program__set_autoload(c->skel->progs.on_cgroup_mkdir, false);
	}
	c->skel->rodata->sigreturn_nr = SYS_rt_sigreturn;
	c->skel->rodata->task_struct_btf_id = kb->task_struct_id;
	c->skel->rodata->file_btf_id = kb->file_id;
	/* Our pid namespace, for the ids the records give our user. */
	struct stat ns;
	/* In the kernel's own namespace (its inode is PROC_PID_INIT_INO) the
	 * ids are the kernel's: no look-up per record. */
	if (stat("/proc/self/ns/pid", &ns) == 0 && ns.st_ino != PROC_PID_INIT_INO) {
		c->skel->rodata->pidns_dev = ns.st_dev;
		c->skel->rodata->pidns_ino = ns.st_ino;
	}
	/* In the kernel's own namespaces no pid and no cgroup level needs
	 * the iterator (bpf_capture_follow, level_base): one descriptor
	 * fewer. */
	if (!c->skel->rodata->pidns_ino && !cgroup_levels_differ(o))
		bpf_program__set_autoload(c->skel->progs.kernel_tgid, false);
	/* Diagnosis mode's switch hook stands for the entry hook: one is
	 * loaded, not both. */
	bpf_program__set_autoload(sums ? c->skel->progs.on_sys_enter : c->skel->progs.on_switch, false);
	/* The sums' slots are only as many as are used. */
	c->skel->rodata->sums_mask = sums ? SUMS_MAX - 1 : 0;
	if ((e = -bpf_map__set_max_entries(c->skel->maps.sums, sums ? SUMS_MAX : 1)) != 0 ||
	    (e = -bpf_map__set_max_entries(c->skel->maps.events, (__u32)ring)) != 0 ||
	    (e = -capture_bpf__load(c->skel)) != 0) {
		capture_bpf__destroy(c->skel);
		c->skel = NULL;
	}
	return -e;
}

/* The kernel's tgid of the process PIDFD names, and the level of its
 * cgroup as the kernel counts it, through the task iterator attached to
 * that process alone. */
static int kernel_tgid(struct bpf_capture *c, int pidfd, __u32 *out, __u32 *level)
{
	union bpf_iter_link_info linfo;
	struct bpf_iter_attach_opts opts;

	memset(&opts, 0, sizeof(opts));
	opts.sz = sizeof(opts);
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	memset(&linfo, 0, sizeof(linfo));
	linfo.task.pid_fd = (__u32)pidfd;
	struct bpf_link *l = bpf_program__attach_iter(c->skel->progs.kernel_tgid, &opts);
	if (libbpf_get_error(l))
		return -errno;
	int fd = bpf_iter_create(bpf_link__fd(l));
	int r = fd < 0 ? -errno : 0;
	if (fd >= 0) {
		__u32 got[2];
		ssize_t n = read(fd, got, sizeof(got));
		r = n == (ssize_t)sizeof(got) ? 0 : n < 0 ? -errno : -ESRCH;
		if (r == 0) {
			*out = got[0];
			*level = got[1];
		}
		close(fd);
	}
	bpf_link__destroy(l);
	return r;
}

/* In a cgroup namespace, the levels above its root (capture.bpf.c's
 * level_base): our own cgroup's level as the kernel counts it, less its
 * level from the namespace's root. 0, or a negative errno, with ERR. */
static int cgroup_level_base(struct bpf_capture *c, __u32 *out, struct strbuf *err)
{
	struct cgroup_dir own;
	__u32 tgid, level;

	if (!cgroup_own(&own, err))
		return -ENOENT;
	int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	int r = pidfd < 0 ? -errno : kernel_tgid(c, pidfd, &tgid, &level);
	if (pidfd >= 0)
		close(pidfd);
	if (r < 0)
		return fail(err, -r, "find this cgroup namespace's depth");
	*out = level >= own.level ? level - own.level : 0;
	return 0;
}

int bpf_capture_open(struct bpf_capture **out, const struct bpf_capture_opts *o, struct strbuf *err)
{
	struct bpf_capture *c = calloc(1, sizeof(*c));
	bool sums = o && o->sums;	/* diagnosis mode */
	struct kernel_btf kb;
	size_t elf_size;
	const void *elf = capture_bpf__elf_bytes(&elf_size);
	int e;

	*out = NULL;
	if (!c)
		return fail(err, ENOMEM, "load the eBPF capture");
	c->wake_fd = -1;
	last_warning[0] = '\0';
	libbpf_set_print(libbpf_print);
	if ((e = -kernel_btf_get(&kb, elf, elf_size, NULL)) != 0) {
		free(c);
		strbuf_addf(err, "cannot read the kernel's types '%s': %s (the eBPF capture needs a kernel with BTF)",
			    KERNEL_BTF_PATH, strerror(e));
		return -1;
	}
	e = -load(c, o, &kb);
	/* A cut that does not load (the cache is a file, and files go
	 * wrong) gives way to the kernel's whole BTF, and is made again
	 * next time. Not for a refused privilege, which no BTF changes. */
	if (e && e != EPERM && kb.path[0]) {
		if (kb.cached)
			unlink(kb.path);
		kernel_btf_release(&kb);
		last_warning[0] = '\0';
		e = -load(c, o, &kb);
	}
	kernel_btf_release(&kb);
	if (e || (e = -fill_plan(c, o)) != 0) {
		bpf_capture_close(c);
		return fail(err, e, "load the eBPF capture");
	}
	__u32 base = 0;
	if (cgroup_levels_differ(o) && cgroup_level_base(c, &base, err) < 0) {
		bpf_capture_close(c);
		return -1;
	}
	c->skel->bss->level_base = base;
	/* Exit before entry would see calls end that never began; entry
	 * first sees at most calls begun and not yet ended. */
	struct bpf_program *first = sums ? c->skel->progs.on_switch : c->skel->progs.on_sys_enter;
	c->pausable = c->skel->rodata->pausable;
	if (!(c->enter = attach_as(first, c->pausable)) ||
	    !(c->exit = attach_as(c->skel->progs.on_sys_exit, c->pausable)) ||
	    !(c->fork = attach(c->skel->progs.on_fork)) || !(c->task_exit = attach(c->skel->progs.on_task_exit)) ||
	    !(c->exec = attach(c->skel->progs.on_exec)) || !(c->signal = attach(c->skel->progs.on_signal)) ||
	    !(c->generate = attach(c->skel->progs.on_signal_generate)) ||
	    (refind_cgroup(o) && !(c->mkdir = attach(c->skel->progs.on_cgroup_mkdir)))) {
		e = errno;
		bpf_capture_close(c);
		return fail(err, e, "attach the eBPF capture");
	}
	/* Last, as it is the least needed: without it (no descriptor left)
	 * another thread's wake-up waits for the reader's next time-out. */
	c->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	struct timespec mono, real;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	c->epoch = ((double)real.tv_sec + (double)real.tv_nsec / 1e9) - ((double)mono.tv_sec + (double)mono.tv_nsec / 1e9);
	*out = c;
	return 0;
}

double bpf_capture_epoch(const struct bpf_capture *c)
{
	return c->epoch;
}

int bpf_capture_follow(struct bpf_capture *c, pid_t pid, struct strbuf *err)
{
	__u32 k;
	__u8 one = 1;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (pidfd < 0) {
		strbuf_addf(err, "cannot follow process %d: %s", (int)pid, strerror(errno));
		return -1;
	}
	/* In the kernel's own namespace our ids are the kernel's: no
	 * iterator (two descriptors fewer, for a loader under a low fd
	 * limit). */
	int r = 0;
	__u32 level;
	if (c->skel->rodata->pidns_ino)
		r = kernel_tgid(c, pidfd, &k, &level);
	else
		k = (__u32)pid;
	close(pidfd);
	if (r < 0) {
		strbuf_addf(err, "cannot follow process %d: %s", (int)pid, strerror(-r));
		return -1;
	}
	if (bpf_map_update_elem(bpf_map__fd(c->skel->maps.followed), &k, &one, BPF_ANY) != 0) {
		strbuf_addf(err, "cannot follow process %d: %s", (int)pid, strerror(errno));
		return -1;
	}
	return 0;
}

/* The call hooks are detached now (bpf_capture_record_calls). */
static bool calls_paused(const struct bpf_capture *c)
{
	return __atomic_load_n(&c->skel->bss->calls_paused, __ATOMIC_ACQUIRE) != 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct bpf_capture *c = ctx;

	/* A process started while the calls are not recorded: told now,
	 * not after a backlog the reader has yet to hand on. */
	if (c->on_wake && calls_paused(c) && bpf_capture_starts(c) != c->starts_told) {
		c->starts_told = bpf_capture_starts(c);
		c->on_wake(c->wake_arg);
	}
	if (c->fn(c->user, data, size) != 0) {
		c->stop = 1;
		return -ECANCELED;	/* ends this poll (libbpf stops at a negative) */
	}
	return 0;
}

int bpf_capture_poll(struct bpf_capture *c, int timeout_ms, bpf_record_fn fn, void *user, struct strbuf *err)
{
	if (!c->rb) {
		c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), on_record, c, NULL);
		if (!c->rb)
			return fail(err, errno, "read the eBPF ring buffer");
	}
	c->fn = fn;
	c->user = user;
	c->stop = 0;
	/* The ring's own wake-ups, or another thread's (bpf_capture_wake). */
	struct pollfd p[2] = {
		{ .fd = ring_buffer__epoll_fd(c->rb), .events = POLLIN },
		{ .fd = c->wake_fd, .events = POLLIN },
	};
	/* A wait longer than the reader's busy pace: a stack record wakes
	 * it (capture.bpf.c's reader_waits). */
	bool long_wait = timeout_ms > RCB_BUSY_POLL_MS;
	if (long_wait)
		__atomic_store_n(&c->skel->bss->reader_waits, 1, __ATOMIC_SEQ_CST);
	int woke = poll(p, c->wake_fd >= 0 ? 2 : 1, timeout_ms);
	if (long_wait)
		__atomic_store_n(&c->skel->bss->reader_waits, 0, __ATOMIC_SEQ_CST);
	if (woke > 0 && (p[1].revents & POLLIN)) {
		uint64_t v;
		(void)!read(c->wake_fd, &v, sizeof(v));
	}
	if (woke > 0 && c->on_wake && calls_paused(c))
		c->on_wake(c->wake_arg);
	/* The kernel half wakes the reader only once enough is queued
	 * (capture.bpf.c's wake_flags): a quiet process's records wait in
	 * the ring with no wake-up. Whatever is there is read, woken or
	 * not: at a time-out, an interrupted wait, another thread's wake. */
	int n = ring_buffer__consume(c->rb);
	if (n < 0 && n != -EINTR && !c->stop)
		return fail(err, -n, "read the eBPF ring buffer");
	return n < 0 ? 0 : n;
}

void bpf_capture_hold_calls(struct bpf_capture *c, bool on)
{
	struct rcb_mark_key key = { .kind = RCB_MARK_HOLDING };
	__u64 one = 1;

	if (on)
		bpf_map_update_elem(bpf_map__fd(c->skel->maps.marks), &key, &one, BPF_ANY);
	else
		bpf_map_delete_elem(bpf_map__fd(c->skel->maps.marks), &key);
}

bool bpf_capture_held(struct bpf_capture *c, pid_t tid, int sig)
{
	struct rcb_mark_key key = { .a = (__u64)tid, .kind = RCB_MARK_HOLD };

	return sig == RCB_HOLD_SIGNAL && bpf_map_delete_elem(bpf_map__fd(c->skel->maps.marks), &key) == 0;
}

size_t bpf_capture_held_frames(struct bpf_capture *c, pid_t tid, pid_t *tgid, uint64_t *mm, struct rc_py_raw *py,
			       size_t max)
{
	int fd = bpf_map__fd(c->skel->maps.held_frames);
	__u32 key = (__u32)tid;
	struct rcb_held h;
	size_t n = 0;

	if (bpf_map_lookup_elem(fd, &key, &h) != 0)
		return 0;
	bpf_map_delete_elem(fd, &key);
	*tgid = (pid_t)h.tgid;
	*mm = h.mm;
	for (; n < h.npy && n < RCB_PY_FRAMES && n < max; n++)
		py[n] = bpf_py_raw(&h.py[n]);
	return n;
}

uint64_t bpf_capture_copies(struct bpf_capture *c, pid_t tgid)
{
	struct rcb_mark_key key = { .a = (__u64)tgid, .kind = RCB_MARK_COPIES };
	__u64 n = 0;

	bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.marks), &key, &n);
	return n;
}

void bpf_capture_python_named(struct bpf_capture *c, pid_t tgid, const struct rc_py_raw *py, const uint64_t *marks,
			      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rcb_mark_key key = { .a = py[i].code, .b = (__u32)tgid, .kind = RCB_MARK_CODE };
		bpf_map_update_elem(bpf_map__fd(c->skel->maps.marks), &key, &marks[i], BPF_ANY);
	}
}

void bpf_capture_on_wake(struct bpf_capture *c, void (*fn)(void *arg), void *arg)
{
	c->on_wake = fn;
	c->wake_arg = arg;
}

void bpf_capture_wake(struct bpf_capture *c)
{
	uint64_t one = 1;

	if (c->wake_fd >= 0)
		(void)!write(c->wake_fd, &one, sizeof(one));
}

/* What a record that is no call was, as event/loss.h says it. */
static long loss_what(__s32 what)
{
	switch (-what) {
	case RCB_SIGNAL: return RC_LOSS_SIGNAL;
	case RCB_FORK: return RC_LOSS_FORK;
	case RCB_EXIT: return RC_LOSS_EXIT;
	case RCB_STACK: return RC_LOSS_STACK;
	case RCB_SUM: return RC_LOSS_SUM;
	default: return RC_LOSS_OTHER;
	}
}

/* The kernel's count of refused records by thread and what they were,
 * the most of them into OUT. */
static void losses_by_whom(const struct bpf_capture *c, struct bpf_capture_losses *out)
{
	int fd = bpf_map__fd(c->skel->maps.marks);
	struct rcb_mark_key k, next;
	__u64 n;
	bool first = true;

	while (bpf_map_get_next_key(fd, first ? NULL : &k, &next) == 0) {
		first = false;
		k = next;
		if (k.kind != RCB_MARK_LOST || bpf_map_lookup_elem(fd, &k, &n) != 0 || !n)
			continue;
		__s32 what = (__s32)k.b;
		loss_keep(out->who, &out->nwho, (int)k.a, what >= 0 ? (long)what : loss_what(what), (uint64_t)n);
	}
}

bool bpf_capture_backlog_high(const struct bpf_capture *c)
{
	return __atomic_load_n(&c->skel->bss->backlog_high, __ATOMIC_RELAXED) != 0;
}

/* The kernel's counters (enum rcb_counter), summed over the CPUs into
 * SUM. */
static void counters(const struct bpf_capture *c, uint64_t sum[RCB_NCOUNTERS])
{
	int ncpu = libbpf_num_possible_cpus();

	memset(sum, 0, RCB_NCOUNTERS * sizeof(sum[0]));
	if (ncpu <= 0)
		return;
	/* The counters begin each CPU's scratch value (capture.bpf.c); a
	 * per-CPU value is read for every CPU, each rounded up to 8. */
	size_t each = ((size_t)bpf_map__value_size(c->skel->maps.scratch) + 7) & ~(size_t)7;
	unsigned char *v = calloc((size_t)ncpu, each);
	__u32 zero = 0;
	if (!v)
		return;
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.scratch), &zero, v) == 0) {
		for (int i = 0; i < ncpu; i++) {
			__u64 cpu[RCB_NCOUNTERS];
			memcpy(cpu, v + (size_t)i * each, sizeof(cpu));
			for (int k = 0; k < RCB_NCOUNTERS; k++)
				sum[k] += cpu[k];
		}
	}
	free(v);
}

uint64_t bpf_capture_calls_seen(const struct bpf_capture *c)
{
	uint64_t sum[RCB_NCOUNTERS];

	counters(c, sum);
	return sum[RCB_CALLS];
}

uint64_t bpf_capture_starts(const struct bpf_capture *c)
{
	return __atomic_load_n(&c->skel->bss->starts, __ATOMIC_ACQUIRE);
}

void bpf_capture_losses(const struct bpf_capture *c, struct bpf_capture_losses *out)
{
	uint64_t sum[RCB_NCOUNTERS];

	memset(out, 0, sizeof(*out));
	counters(c, sum);
	out->reserve = sum[RCB_LOST_RESERVE];
	out->entry = sum[RCB_LOST_ENTRY];
	out->follow = sum[RCB_LOST_FOLLOW];
	out->stacks = sum[RCB_SKIPPED_STACK];
	out->held = sum[RCB_HELD_FOR_ROOM];
	out->quiet = sum[RCB_QUIET];
	if (out->reserve)
		losses_by_whom(c, out);
}

void bpf_capture_flush_sums(struct bpf_capture *c, bpf_record_fn fn, void *user)
{
	int fd = bpf_map__fd(c->skel->maps.sums);
	__u32 n = bpf_map__max_entries(c->skel->maps.sums);
	struct rcb_sum_state st;
	struct timespec ts;

	/* Written now, as the kernel writes the time of a sum. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (__u32 i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &i, &st) != 0 || !st.used || !st.s.calls)
			continue;
		st.s.last_ns = (__u64)ts.tv_sec * 1000000000u + (__u64)ts.tv_nsec;
		fn(user, &st.s, sizeof(st.s));
	}
}

bool bpf_capture_following(const struct bpf_capture *c)
{
	__u32 key;

	return bpf_map_get_next_key(bpf_map__fd(c->skel->maps.followed), NULL, &key) == 0;
}

/* Widens [*LO, *HI) to hold a field of N bytes at OFF (-1: none). */
static void span(int *lo, int *hi, int off, int n)
{
	if (off < 0)
		return;
	*lo = off < *lo ? off : *lo;
	*hi = off + n > *hi ? off + n : *hi;
}

/* Where the field at OFF (-1: none) is in bytes read from LO on. */
static __u8 in_span(int off, int lo)
{
	return off < 0 ? RCB_FRAME_SPAN : (__u8)(off - lo);
}

/* W in the kernel's terms, for process memory MM; false when its fields
 * lie further apart than the kernel reads in one piece. */
static bool kernel_walk(const struct rc_py_walk *w, uint64_t mm, struct rcb_py_walk *out)
{
	int flo = INT_MAX, fhi = 0, clo = INT_MAX, chi = 0;

	span(&flo, &fhi, w->frame_code, 8);
	span(&flo, &fhi, w->frame_back, 8);
	span(&flo, &fhi, w->frame_instr, w->instr_size == 4 ? 4 : 8);
	span(&flo, &fhi, w->frame_owner, 1);
	span(&flo, &fhi, w->frame_entry, 1);
	span(&flo, &fhi, w->frame_tlbc, 4);
	span(&clo, &chi, w->code_name, 8);
	span(&clo, &chi, w->code_file, 8);
	if (fhi - flo > RCB_FRAME_SPAN || (chi && chi - clo > RCB_CODE_SPAN))
		return false;
	*out = (struct rcb_py_walk){
		.mm = mm,
		.probe_gap_ns = RCB_PROBE_MAX_NS,
		.runtime = w->runtime,
		.interp_head = w->interp_head,
		.threads_head = w->threads_head,
		.tstate_next = w->tstate_next,
		.tstate_native_tid = w->tstate_native_tid,
		.tstate_thread_id = w->tstate_thread_id,
		.first_hop = w->first_hop,
		.second_hop = w->second_hop,
		.frame_code = w->frame_code,
		.frame_back = w->frame_back,
		.frame_instr = w->frame_instr,
		.frame_owner = w->frame_owner,
		.frame_entry = w->frame_entry,
		.frame_tlbc = w->frame_tlbc,
		.code_name = w->code_name,
		.code_file = w->code_file,
		.instr_size = w->instr_size,
		.holds_left = RCB_HOLDS,
		.frame_lo = (__u16)flo,
		.frame_len = (__u16)(fhi - flo),
		.code_lo = (__u16)(chi ? clo : 0),
		.code_len = (__u16)(chi ? chi - clo : 0),
		.in_code = in_span(w->frame_code, flo),
		.in_back = in_span(w->frame_back, flo),
		.in_instr = in_span(w->frame_instr, flo),
		.in_owner = in_span(w->frame_owner, flo),
		.in_entry = in_span(w->frame_entry, flo),
		.in_tlbc = in_span(w->frame_tlbc, flo),
		.in_name = in_span(chi ? w->code_name : -1, clo),
		.in_file = in_span(chi ? w->code_file : -1, clo),
		.str_length = w->str_length,
		.str_state = w->str_state,
		.str_ascii_data = w->str_length >= 0 && w->str_state >= 0 ? w->str_ascii_data : -1,
		.str_compact_bit = w->str_compact_bit,
		.str_ascii_bit = w->str_ascii_bit,
	};
	return true;
}

void bpf_capture_python(struct bpf_capture *c, pid_t tgid, uint64_t mm, const struct rc_py_walk *w)
{
	struct rcb_py_walk v;
	__u32 key = (__u32)tgid;

	if (!kernel_walk(w, mm, &v))
		return;

	/* A full map drops its least recently used walk: that process's
	 * stacks go without Python frames, and say so. */
	bpf_map_update_elem(bpf_map__fd(c->skel->maps.pywalks), &key, &v, BPF_ANY);
}

_Static_assert((int)RCB_PY_BASE_CODE == (int)RC_PY_BASE_CODE && (int)RCB_PY_BASE_FILE == (int)RC_PY_BASE_FILE,
	       "record.h's rcb_py_base is event/stack.h's rc_py_base");

void bpf_capture_python_program(struct bpf_capture *c, const struct rc_py_program *p)
{
	/* The kernel's dev_t: 12 bits of major above 20 of minor. */
	struct rcb_file_key key = {
		.ino = p->ino, .dev = (__u32)(major((dev_t)p->dev) << 20 | (minor((dev_t)p->dev) & 0xfffff)),
	};
	struct rcb_py_program v = { .base = p->base };

	if (!kernel_walk(&p->walk, 0, &v.walk))
		return;
	/* A full map keeps the programs it has: the others' processes are
	 * probed for their walk, as before any was known. */
	bpf_map_update_elem(bpf_map__fd(c->skel->maps.pyprograms), &key, &v, BPF_ANY);
}

int bpf_capture_record_calls(struct bpf_capture *c, bool on, struct strbuf *err)
{
	/* Detached (the capture ends): nothing to take up again. */
	if (on != calls_paused(c) || !c->task_exit)
		return 0;
	if (!c->pausable) {
		strbuf_addf(err, "cannot pause the eBPF capture's calls: it was not opened to");
		return -1;
	}
	if (!on) {
		/* Said to the kernel first: an exec from here on is written
		 * at once, and its exit, while the hook is still there, writes
		 * nothing (capture.bpf.c's exec_while_paused). */
		__atomic_store_n(&c->skel->bss->calls_paused, 1, __ATOMIC_RELEASE);
		/* As at a detach: the exit hook first. */
		bpf_link__destroy(c->exit);
		bpf_link__destroy(c->enter);
		c->exit = c->enter = NULL;
		return 0;
	}
	/* What a thread did while its calls were not seen is no call's
	 * (capture.bpf.c's calls_from_ns): set before the hooks run. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	__atomic_store_n(&c->skel->bss->calls_from_ns, (__u64)now.tv_sec * 1000000000u + (__u64)now.tv_nsec,
			 __ATOMIC_RELEASE);
	/* As at the open: the switch hook first (a capture that can pause
	 * is in diagnosis mode). */
	if (!(c->enter = attach_as(c->skel->progs.on_switch, true)) || !(c->exit = attach_as(c->skel->progs.on_sys_exit, true))) {
		int e = errno;
		bpf_link__destroy(c->enter);
		c->enter = NULL;
		return fail(err, e, "attach the eBPF capture's call hooks again");
	}
	/* Said to the kernel last: until the hooks are back, an exec is
	 * written at once. */
	__atomic_store_n(&c->skel->bss->calls_paused, 0, __ATOMIC_RELEASE);
	return 0;
}

void bpf_capture_detach(struct bpf_capture *c)
{
	/* The exit hook first (bpf.h). */
	struct bpf_link **links[] = { &c->exit, &c->enter, &c->fork, &c->task_exit, &c->exec, &c->signal, &c->generate,
				      &c->mkdir };

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		bpf_link__destroy(*links[i]);
		*links[i] = NULL;
	}
}

void bpf_capture_close(struct bpf_capture *c)
{
	if (!c)
		return;
	ring_buffer__free(c->rb);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	bpf_capture_detach(c);
	capture_bpf__destroy(c->skel);
	free(c);
}

void bpf_capture_version(struct strbuf *out)
{
	strbuf_addf(out, "libbpf %u.%u", libbpf_major_version(), libbpf_minor_version());
}
