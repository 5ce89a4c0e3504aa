/* missing-file: a file or directory the program needed does not exist.
 *
 * Most ENOENTs in a real trace are probing: the loader, Python, glibc and
 * libraries look for things in several places, or check for optional
 * files. So the rule keys its state by basename and remembers every name
 * that failed and whether a later call found it (in another directory, or
 * after the program created it): a name that was found later is probing
 * and never reported. Paths noise_path() knows are never recorded; shared
 * objects are left to missing-library and NVIDIA paths to gpu-unavailable.
 *
 * Python 2 imports by trying files: for module X in each directory D of
 * sys.path it stats D/X (a package?), then opens D/X.so, D/Xmodule.so,
 * D/X.py and D/X.pyc. X.py is never found when X is an extension, so the
 * sequence itself marks the probing: a stat of D/X followed at once by an
 * open of D/X.so, and the .py and .pyc tries after a D/Xmodule.so. (Python
 * 3 lists directories instead, and fails no call.) A module found nowhere
 * gets its ImportError from error-message.
 *
 * The kind of call says how much a failure weighs: an open for reading, a
 * create in a missing directory, a move into a directory (chdir, chroot,
 * pivot_root) are the program needing the file;
 * a stat/access/readlink, an opendir or an O_PATH open (which reads
 * nothing: it only finds the file) is often just a check for something
 * optional. Those stay warnings unless the program's own output named the
 * file afterwards.
 *
 * A look-up across a list of sources, none of them required, is probing
 * too, found or not: glibc's name service asks each source nsswitch.conf
 * lists (systemd's userdb directories after /etc/passwd), c-ares tries
 * /etc/netsvc.conf and /etc/svc.conf for its look-up order, Flask tries
 * the --app name as a file, a package and a module. The trace shows such
 * a search as
 *  - one name looked up in several places, found in none: it is the
 *    program's to say what it was after ("getpwnam failed");
 *  - a failed look-up that the thread follows at once with a look-up of
 *    another name in the same directory, or that follows a failed one
 *    there: the next candidate; not once the thread has written to its
 *    standard output or error in between (it said what it met: a Python
 *    traceback then opens the script it quotes);
 *  - a failed step of a path walk: an O_PATH open of one component just
 *    after the O_PATH open of its parent (systemd resolves its userdb
 *    directories so);
 *  - a file named after a host, that the thread then asks a name server
 *    for (the name, in DNS's encoding, in what it sends next): glibc's
 *    hosts look-up goes down nsswitch.conf's sources, and systemd's
 *    mymachines opens /run/systemd/machines/HOST before dns asks. The
 *    file was one place to find the host in: words that name the host
 *    are about the host (dns-failure's), and the failure is a note even
 *    then.
 * Unless the program named the file, such a failure is only a note. So is
 * a failure in a program that then ran another in its place (execve):
 * setpriv, runuser's child, env and exec wrappers look users, groups and
 * their own optional files up, then start the service, whose pid it is
 * afterwards; what they did without did not stop them. When
 * the search then found a candidate (a run of look-ups in one directory
 * that ends in one that succeeds: Flask's 'hello', 'hello/__init__.py',
 * then 'hello.py'), the failed candidates are notes even when the program
 * names them: "While importing 'hello'" is about the module it found.
 *
 * One file looked for in several forms is one look-up, not a search among
 * candidates: haproxy's `crt site.pem` stats site.pem, then site.pem.dsa,
 * site.pem.ecdsa and site.pem.rsa (a bundle of one certificate per key
 * type). A failed look-up of X that the thread follows at once with
 * look-ups of X.SUFFIX by the same call is X's, and the forms are folded
 * into it: none of them found, X was not found.
 *
 * When the program's words after a failure were cut short by strace's -s,
 * they may well name the file: the failure that was the thread's last
 * before those words, in a process that then failed, is taken as the one
 * they report (the same judgement that makes such words its consequence,
 * diagnose/causes.c). A search across several places is not: the program
 * names what it was after (unknown-user's "getpwnam failed").
 *
 * A look-up, a read or a move into a path that the process then tries to
 * create (mkdir, an O_CREAT open) was the check before creating it:
 * initdb stats its data directory, finds none, and makes it; git init
 * tries to chdir into its repository first. The absence was expected,
 * whether the creation then worked or was refused (a refusal is another
 * rule's finding, an ENOENT for the parent this rule's own).
 *
 * A move into a directory is looked for as a place rather than by name
 * (rules/paths.h, rule_enter_failed): one that fails and is followed by
 * a move into another directory by the same process was a probe, a
 * shell's `cd` over candidates.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/noise.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/words.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define MF_MAX_NAMES 4096	/* basenames tracked at once */
#define MF_MAX_PATHS 8		/* distinct failing paths kept per name */
#define MF_MAX_REPORT 10	/* findings emitted; the rest are counted */
/* Look-ups this close together in one thread (calls between them) are one
 * after the other: a search going down its list. */
#define MF_SEARCH_GAP 4
/* A name server asked this soon after a failed look-up of the name (a
 * socket, a connect, perhaps a look at resolv.conf, then the query). */
#define MF_ASK_GAP 8
/* Threads whose last look-up is remembered; past it a thread's failures
 * are judged without their neighbours. */
#define MF_MAX_THREADS 1024
/* Failed candidates of one search remembered until it finds one. */
#define MF_MAX_CHAIN 8

enum mf_kind {
	MF_PROBE,		/* stat, access, readlink, opendir */
	MF_OTHER,		/* rename, link, truncate, chmod, chown */
	MF_READ,		/* open of an existing file */
	MF_CREATE,		/* O_CREAT, creat: the directory is missing */
	MF_MKDIR,		/* mkdir: the parent is missing */
	MF_ENTER,		/* chdir, chroot, pivot_root: a place to work or run in */
};

/* What a candidate weighs besides the shared weights (rules/finding.h):
 * each step of kind_weight (a probe, another look-up, an open or an
 * exec), and a command the shell looked up. */
#define MF_W_KIND 100.0
#define MF_W_COMMAND 50

static int kind_weight(enum mf_kind k)
{
	switch (k) {
	case MF_PROBE: return 0;
	case MF_OTHER: return 1;
	default: return 2;
	}
}

struct mf_fail {
	long nr;
	uint64_t execs;		/* successful execve calls of the process before it */
	char *path;
	char *path2;		/* rename/link target */
	char *line;
	char *syscall;
	char *cwd;
	enum mf_kind kind;
	int err;
	int pid;
	uint64_t seq;
	double ts;
	uint64_t nsys;		/* calls the thread had made before this one */
};

struct mf_entry {
	bool recovered;
	long long count;
	long long forms;	/* failures that were another name's forms (X.rsa after X) */
	long long other_forms;	/* forms of this name looked up after it */
	/* The thread's next failed call after the decisive one (0: none
	 * yet), other than the file's forms: what its words came before. */
	uint64_t next_fail_seq;
	long long probes;	/* failures found to be Python 2's import probing */
	long long steps;	/* failures that were steps of a search */
	long long resolved;	/* ... of a search that then found a candidate */
	long long asked;	/* ... whose name the thread then asked a name server */
	size_t npaths;		/* distinct failing paths seen (may exceed the kept ones) */
	struct mf_fail paths[MF_MAX_PATHS];	/* the first distinct ones */
	struct mf_fail decisive;	/* the latest of the strongest kind */
	bool has_decisive;
	/* The processes that failed so, each one's latest: the finding's
	 * also (a loop that runs the command again, a restarted worker). */
	struct rc_occurrences met;
};

/* Python 2's import probing in one directory, as far as it has gone. */
struct mf_py2 {
	int stat_pid;
	char *stat_path;	/* D/X, whose failed stat was recorded */
	int stem_pid;
	char *stem;		/* D/X once D/Xmodule.so was tried: the .py and .pyc come next */
};

/* A thread's last look-up, to see a search going down its list. */
/* Its strings are buffers reused from one look-up to the next: this is
 * kept for every look-up a thread makes. */
struct mf_last {
	struct strbuf path;	/* empty: none yet */
	long nr;		/* its call */
	uint64_t nsys;		/* the thread's calls before it */
	bool failed;
	bool counted;		/* failed, recorded, and already a step */
	bool o_path;
	/* The search in one directory going on: its failed candidates. */
	struct strbuf chain_dir;	/* empty: none */
	char *chain[MF_MAX_CHAIN];
	int nchain;
	/* X, whose forms (X.SUFFIX) the thread is looking up. */
	char *form_base;
	/* The thread's last failure that the rule recorded, the decisive one
	 * of its name, until another call of the thread fails: its seq. */
	char *pending;
	uint64_t pending_seq;
};

struct mf_state {
	struct hmap names;	/* basename -> struct mf_entry* */
	struct hmap last;	/* tid -> struct mf_last */
	struct hmap execs;	/* pid -> successful execve count, as a pointer */
	long long dropped;	/* failures not tracked for lack of room */
	struct mf_py2 py2;
	struct rule_enter_pending enter;	/* failed moves, by basename */
	struct strbuf dir;	/* scratch: a look-up's directory */
};

static void fail_release(struct mf_fail *f)
{
	free(f->path);
	free(f->path2);
	free(f->line);
	free(f->syscall);
	free(f->cwd);
	memset(f, 0, sizeof(*f));
}

static void entry_free(void *p)
{
	struct mf_entry *en = p;

	if (!en)
		return;
	for (size_t i = 0; i < MF_MAX_PATHS; i++)
		fail_release(&en->paths[i]);
	fail_release(&en->decisive);
	free(en);
}

static void mf_init(void *state)
{
	struct mf_state *st = state;
	hmap_init(&st->names);
	hmap_init(&st->last);
	hmap_init(&st->execs);
}

/* How many programs PID has run (successful execve calls). */
static uint64_t execs_of(const struct mf_state *st, int pid)
{
	void **slot = hmap_get_int(&st->execs, pid);

	return slot ? (uint64_t)(uintptr_t)*slot : 0;
}

static void chain_clear(struct mf_last *l)
{
	for (int i = 0; i < l->nchain; i++)
		free(l->chain[i]);
	l->nchain = 0;
}

static void last_free(void *p)
{
	struct mf_last *l = p;

	if (l) {
		strbuf_release(&l->path);
		chain_clear(l);
		strbuf_release(&l->chain_dir);
		free(l->form_base);
		free(l->pending);
	}
	free(l);
}

static void mf_release(void *state)
{
	struct mf_state *st = state;
	hmap_release(&st->names, entry_free);
	hmap_release(&st->last, last_free);
	hmap_release(&st->execs, NULL);
	free(st->py2.stat_path);
	free(st->py2.stem);
	rule_enter_release(&st->enter);
	strbuf_release(&st->dir);
}

/* rename and link: their success makes their second path exist. Not the
 * table's CL_NEW_NAME: symlink's second path is its target, which it
 * does not make, and mkdir, mknod and creat have none. */
static bool new_name_call(long nr)
{
	return
#ifdef SYS_rename
	       nr == SYS_rename ||
#endif
#ifdef SYS_link
	       nr == SYS_link ||
#endif
#ifdef SYS_renameat
	       nr == SYS_renameat ||
#endif
	       nr == SYS_renameat2 || nr == SYS_linkat;
}

/* What a failing call of E was trying to do; false when the rule does not
 * look at it: the calls that name a path, by what the table says they
 * are. */
static bool classify(const struct rc_event *e, enum mf_kind *kind)
{
	long nr = e->nr;

	if (rule_is_open(nr)) {
		if (e->flags & O_CREAT)
			*kind = MF_CREATE;
		else if ((e->flags & O_DIRECTORY) == O_DIRECTORY || (e->flags & O_PATH) == O_PATH)
			*kind = MF_PROBE;
		else
			*kind = MF_READ;
		return true;
	}
	unsigned long long cl = syscall_classes(nr);
	const struct rc_syscall *sc = cl ? syscall_by_nr(nr) : NULL;
	if (!sc || !syscall_has_role(sc, ROLE_PATH))
		return false;
	if (cl & CL_CREATES)
		*kind = MF_CREATE;
	else if (cl & CL_LOOK)
		*kind = MF_PROBE;
#ifdef SYS_mkdir
	else if (nr == SYS_mkdir || nr == SYS_mkdirat)
#else
	else if (nr == SYS_mkdirat)
#endif
		*kind = MF_MKDIR;
	else if (cl & CL_ENTER)
		*kind = MF_ENTER;
	else if (cl & (CL_NEW_NAME | CL_SET_PERM | CL_RESIZE))
		*kind = MF_OTHER;
	else
		return false;
	return true;
}

static void mark_found(struct mf_state *st, const char *path)
{
	if (!path || !path[0])
		return;
	const char *base = fp_base(path);
	if (!base[0])
		return;
	void **slot = hmap_get(&st->names, base, strlen(base));
	if (slot)
		((struct mf_entry *)*slot)->recovered = true;
}

static void fail_set(struct mf_state *st, struct mf_fail *f, const struct rc_event *e, enum mf_kind kind,
		     const struct rc_ctx *ctx)
{
	fail_release(f);
	f->nr = e->nr;
	f->execs = execs_of(st, e->pid);
	f->path = xstrdup(e->path);
	f->path2 = e->path2 ? xstrdup(e->path2) : NULL;
	f->line = rule_line_short(e);
	f->syscall = xstrdup(e->name ? e->name : "?");
	f->kind = kind;
	f->err = e->err;
	f->pid = e->pid;
	f->seq = e->seq;
	f->ts = e->ts;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	const char *cwd = rule_cwd(p, e);
	f->cwd = cwd ? xstrdup(cwd) : NULL;
	f->nsys = p ? p->nsyscalls : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static bool found_later(const void *value)
{
	return ((const struct mf_entry *)value)->recovered;
}

/* Make room: drop the names that were found later (probing), then, if
 * that was not enough, the older half of the rest. */
static void evict(struct mf_state *st)
{
	struct hmap_iter it;
	struct hmap_node *n;

	rule_evict(&st->names, found_later, entry_free);
	if (st->names.count < MF_MAX_NAMES * 3 / 4)
		return;

	uint64_t *seqs = xcalloc(st->names.count, sizeof(*seqs));
	size_t k = 0;
	for (n = hmap_first(&st->names, &it); n; n = hmap_next(&st->names, &it))
		seqs[k++] = ((struct mf_entry *)n->value)->decisive.seq;
	qsort(seqs, k, sizeof(*seqs), cmp_u64);
	uint64_t median = seqs[k / 2];
	free(seqs);
	n = hmap_first(&st->names, &it);
	while (n) {
		struct hmap_node *next = hmap_next(&st->names, &it);
		struct mf_entry *en = n->value;
		if (en->decisive.seq < median) {
			st->dropped += en->count;
			entry_free(hmap_del(&st->names, n->key, n->keylen));
		}
		n = next;
	}
}

/* Returns whether the failure was counted. */
static bool record_failure(struct mf_state *st, const struct rc_event *e, enum mf_kind kind,
			   const struct rc_ctx *ctx)
{
	const char *path = e->path;
	const char *base = fp_base(path);

	/* "dir/" names the directory itself. */
	if (!base[0])
		return false;
	if (noise_path(path) || fp_is_shared_object(base) || fp_gpu_device(path))
		return false;

	bool created;
	void **slot = hmap_get(&st->names, base, strlen(base));
	if (!slot) {
		if (st->names.count >= MF_MAX_NAMES)
			evict(st);
		if (st->names.count >= MF_MAX_NAMES) {
			st->dropped++;
			return false;
		}
	}
	slot = hmap_put(&st->names, base, strlen(base), &created);
	if (created)
		*slot = xcalloc(1, sizeof(struct mf_entry));
	struct mf_entry *en = *slot;

	en->count++;
	size_t kept = MIN(en->npaths, (size_t)MF_MAX_PATHS);
	size_t i;
	for (i = 0; i < kept; i++)
		if (strcmp(en->paths[i].path, path) == 0)
			break;
	if (i == kept) {
		en->npaths++;
		if (i < MF_MAX_PATHS)
			fail_set(st, &en->paths[i], e, kind, ctx);
	} else if (kind_weight(kind) > kind_weight(en->paths[i].kind)) {
		/* Keep the strongest call on the path for evidence. */
		fail_set(st, &en->paths[i], e, kind, ctx);
	}
	/* Only the first few paths are quoted; the rest serve to count. */
	if (i < MF_MAX_PATHS && i >= RC_EVIDENCE_MAX - 1) {
		free(en->paths[i].line);
		en->paths[i].line = NULL;
	}
	if (!en->has_decisive || kind_weight(kind) >= kind_weight(en->decisive.kind)) {
		if (en->has_decisive && kind_weight(kind) > kind_weight(en->decisive.kind))
			en->met.n = 0;
		occurrences_add(&en->met, rule_leader(ctx, e->pid), e->seq);
		fail_set(st, &en->decisive, e, kind, ctx);
		en->has_decisive = true;
		en->next_fail_seq = 0;
	}
	return true;
}

/* PATH is PREFIX followed by SUFFIX. */
static bool is_prefix_plus(const char *path, const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix);
	return strncmp(path, prefix, n) == 0 && strcmp(path + n, suffix) == 0;
}

/* Follows Python 2's import probing (see the top of the file) through E:
 * true when E is one of its tries, to be passed over. */
static bool py2_import_probe(struct mf_state *st, const struct rc_event *e)
{
	struct mf_py2 *py = &st->py2;

	if (!rule_is_open(e->nr)) {
		if (e->pid == py->stat_pid) {
			free(py->stat_path);
			py->stat_path = NULL;
		}
		return false;
	}
	/* The stat of D/X was a package probe: D/X.so is tried next. */
	if (e->pid == py->stat_pid && py->stat_path) {
		if (is_prefix_plus(e->path, py->stat_path, ".so")) {
			const char *base = fp_base(py->stat_path);
			void **slot = hmap_get(&st->names, base, strlen(base));
			if (slot)
				((struct mf_entry *)*slot)->probes++;
		}
		free(py->stat_path);
		py->stat_path = NULL;
	}
	size_t n = strlen(e->path);
	static const char ext[] = "module.so";
	if (e->err && n > sizeof(ext) - 1 && strcmp(e->path + n - (sizeof(ext) - 1), ext) == 0 &&
	    e->path[n - sizeof(ext)] != '/') {
		free(py->stem);
		py->stem = xstrndup(e->path, n - (sizeof(ext) - 1));
		py->stem_pid = e->pid;
		return false;
	}
	if (e->pid != py->stem_pid || !py->stem || !e->err)
		return false;
	if (is_prefix_plus(e->path, py->stem, ".py"))
		return true;
	bool pyc = is_prefix_plus(e->path, py->stem, ".pyc");
	free(py->stem);
	py->stem = NULL;
	return pyc;
}

/* A failed move of the process that has now moved elsewhere was a probe. */
static void moved_elsewhere(const char *name, void *arg)
{
	struct mf_state *st = arg;
	void **slot = hmap_get(&st->names, name, strlen(name));
	struct mf_entry *en = slot ? *slot : NULL;

	if (en && en->decisive.kind == MF_ENTER)
		en->recovered = true;
}

/* A and B are two names in one directory. */
static bool siblings(const char *a, const char *b)
{
	size_t da = (size_t)(fp_base(a) - a), db = (size_t)(fp_base(b) - b);

	return da == db && memcmp(a, b, da) == 0 && strcmp(a, b) != 0;
}

/* DIR is the directory PATH is in. */
static bool parent_of(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	const char *base = fp_base(path);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return base > path && (size_t)(base - path) >= n && memcmp(dir, path, n) == 0 &&
	       (size_t)(base - path - 1) == (n == 1 ? 0 : n);
}

static struct mf_entry *entry_of(struct mf_state *st, const char *path)
{
	const char *base = fp_base(path);
	void **slot = base[0] ? hmap_get(&st->names, base, strlen(base)) : NULL;

	return slot ? *slot : NULL;
}

/* Count the recorded failure of PATH as a step of a search. */
static void count_step(struct mf_state *st, const char *path)
{
	struct mf_entry *en = entry_of(st, path);

	if (en)
		en->steps++;
}

/* The search L's thread makes in one directory, through look-up E: its
 * failed candidates, until one in the directory succeeds. */
static void follow_chain(struct mf_state *st, struct mf_last *l, const struct rc_event *e, bool within,
			 bool recorded)
{
	const char *dir = fp_dir(&st->dir, e->path);
	bool have = l->chain_dir.len > 0;
	bool same = have && strcmp(dir, l->chain_dir.buf) == 0;

	/* A look at the directory itself does not end the search. */
	if (!within || (!same && !(have && strcmp(e->path, l->chain_dir.buf) == 0))) {
		chain_clear(l);
		strbuf_reset(&l->chain_dir);
		strbuf_adds(&l->chain_dir, dir);
		same = true;
	}
	if (same && !e->err) {
		for (int i = 0; i < l->nchain; i++) {
			struct mf_entry *en = entry_of(st, l->chain[i]);
			if (en)
				en->resolved++;
		}
		chain_clear(l);
	} else if (same && recorded) {
		if (l->nchain == MF_MAX_CHAIN) {
			free(l->chain[0]);
			memmove(l->chain, l->chain + 1, sizeof(l->chain[0]) * (MF_MAX_CHAIN - 1));
			l->nchain--;
		}
		l->chain[l->nchain++] = xstrdup(e->path);
	}
}

/* Thread TID spoke (wrote to its standard output or error): the search
 * it was making is over, found or not. What it opens next is no other
 * candidate: a Python traceback opens the script it quotes, in the
 * directory of the config file that was missing. How many calls the
 * words took (one buffered write, or one per piece) decided it before. */
static void search_over(struct mf_state *st, int tid)
{
	struct mf_last *l = rule_int_value(&st->last, tid, false, 0, 0, NULL);

	if (!l)
		return;
	chain_clear(l);
	strbuf_reset(&l->chain_dir);
	strbuf_reset(&l->path);
}

/* PATH is a form of BASE: BASE, a dot and a suffix, in one directory. */
static bool is_form(const char *base, const char *path)
{
	size_t n = strlen(base);

	return n && strncmp(path, base, n) == 0 && path[n] == '.' && path[n + 1] && !strchr(path + n + 1, '/');
}

/* A look-up by E's thread (RECORDED: a failure the rule counted): is it,
 * or the look-up before it, a step of a search (see the top)? */
static void follow_search(struct mf_state *st, const struct rc_event *e, const struct rc_ctx *ctx,
			  bool recorded)
{
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	uint64_t nsys = p ? p->nsyscalls : 0;
	bool failed = e->err != 0, o_path = rule_is_open(e->nr) && (e->flags & O_PATH) == O_PATH;
	bool created;
	struct mf_last *l = rule_int_value(&st->last, e->pid, true, sizeof(*l), MF_MAX_THREADS, &created);

	if (!l)
		return;
	bool step = false;
	bool within = !created && l->path.len && nsys - l->nsys <= MF_SEARCH_GAP;
	follow_chain(st, l, e, within, recorded);
	/* X.rsa after X, looked up the same way: X again, in another form,
	 * not another candidate (a read of X.idx after a stat of X is another
	 * file). */
	bool form = within && failed && l->failed && l->nr == e->nr &&
		    (l->form_base ? is_form(l->form_base, e->path) : is_form(l->path.buf, e->path));
	if (form) {
		if (!l->form_base)
			l->form_base = xstrdup(l->path.buf);
		struct mf_entry *en = recorded ? entry_of(st, e->path) : NULL;
		struct mf_entry *base = entry_of(st, l->form_base);
		if (en && base && en != base) {
			en->forms++;
			base->other_forms++;
		}
		within = false;
	} else {
		free(l->form_base);
		l->form_base = NULL;
	}
	if (within) {
		bool sib = siblings(l->path.buf, e->path);
		/* The one before was a candidate this one replaces. */
		if (l->failed && sib && !l->counted && st->names.count)
			count_step(st, l->path.buf);
		/* This one replaces a candidate that failed, or walks on
		 * from its parent. */
		step = failed && ((l->failed && sib) || (o_path && l->o_path && !l->failed &&
							  parent_of(l->path.buf, e->path)));
	}
	if (recorded && step)
		count_step(st, e->path);
	strbuf_reset(&l->path);
	strbuf_adds(&l->path, e->path);
	l->nr = e->nr;
	l->nsys = nsys;
	l->failed = failed;
	l->counted = recorded && step;
	l->o_path = o_path;
	if (failed && !recorded)
		l->counted = true;	/* nothing to count */
}

/* NAME in DNS's encoding (a length byte before each label, a zero
 * after the last) into OUT, of SIZE bytes: its length, or 0 when NAME is
 * no host name of two labels or more. */
static size_t dns_encoded(const char *name, unsigned char *out, size_t size)
{
	size_t n = 0, labels = 0;

	for (const char *p = name; *p;) {
		size_t len = strcspn(p, ".");
		if (len == 0 || len > 63 || n + len + 2 > size)
			return 0;
		out[n++] = (unsigned char)len;
		memcpy(out + n, p, len);
		n += len;
		labels++;
		p += len;
		if (*p == '.')
			p++;
	}
	if (labels < 2)
		return 0;
	out[n++] = 0;
	return n;
}

/* E sends data through a socket: a name server's question about the
 * host its thread failed to find as a file just before (see the top)?
 * The thread's last failure, whatever it looked at since (glibc may stat
 * resolv.conf). */
static void follow_ask(struct mf_state *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct mf_last *l = rule_int_value(&st->last, e->pid, false, 0, 0, NULL);
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	unsigned char want[256];

	if (!l || !l->pending || !p || !e->data)
		return;
	struct mf_entry *en = entry_of(st, l->pending);
	if (!en || en->decisive.seq != l->pending_seq || p->nsyscalls - en->decisive.nsys > MF_ASK_GAP)
		return;
	size_t n = dns_encoded(fp_base(l->pending), want, sizeof(want));
	if (!n)
		return;
	/* The question follows the header (12 bytes; 14 over TCP, after
	 * the length). What strace's -s cut off is taken as it began. */
	bool asked = memmem(e->data, e->data_len, want, n) != NULL;
	for (size_t at = 12; !asked && at <= 14 && e->data_truncated; at += 2)
		asked = e->data_len >= at + 8 && e->data_len - at < n && memcmp(e->data + at, want, e->data_len - at) == 0;
	if (!asked)
		return;
	en->asked++;
	free(l->pending);	/* once */
	l->pending = NULL;
}

/* E tried to create its path and was refused (not for a missing
 * parent): the failures of that very path before it (look-ups, reads, a
 * chdir) were the check before creating it. */
static void create_tried(struct mf_state *st, const struct rc_event *e)
{
	struct mf_entry *en = entry_of(st, e->path);

	if (!en || en->npaths > MF_MAX_PATHS || !en->has_decisive || en->decisive.kind == MF_CREATE ||
	    en->decisive.kind == MF_MKDIR)
		return;
	for (size_t i = 0; i < en->npaths; i++)
		if (strcmp(en->paths[i].path, e->path) != 0 || en->paths[i].pid != e->pid)
			return;
	en->recovered = true;
}

/* E's thread failed a call: the failure pending before it, if any, is
 * no longer the thread's last, unless E is one of its file's forms or
 * probing (the message catalogs a program's complaint is looked up in). */
static void follow_failure(struct mf_state *st, const struct rc_event *e)
{
	struct mf_last *l = rule_int_value(&st->last, e->pid, false, 0, 0, NULL);

	if (!l || !l->pending || (e->path && noise_path(e->path)) ||
	    (e->path && ((e->nr == l->nr && is_form(l->pending, e->path)) ||
			 (l->form_base && is_form(l->form_base, e->path)))))
		return;
	struct mf_entry *en = entry_of(st, l->pending);
	if (en && en->decisive.seq == l->pending_seq && !en->next_fail_seq)
		en->next_fail_seq = e->seq;
	free(l->pending);
	l->pending = NULL;
}

/* The failure E, just recorded, is its thread's last for now. */
static void set_pending(struct mf_state *st, const struct rc_event *e)
{
	struct mf_last *l = rule_int_value(&st->last, e->pid, true, sizeof(*l), MF_MAX_THREADS, NULL);
	struct mf_entry *en = entry_of(st, e->path);

	if (!l || !en || en->decisive.seq != e->seq || (l->form_base && is_form(l->form_base, e->path)))
		return;
	free(l->pending);
	l->pending = xstrdup(e->path);
	l->pending_seq = e->seq;
}

static void mf_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct mf_state *st = state;
	enum mf_kind kind = MF_OTHER;	/* set by classify when it knows the call */

	if (e->kind == RC_EV_EXIT) {
		last_free(hmap_del_int(&st->last, e->pid));
		return;
	}
	if (e->kind != RC_EV_SYSCALL)
		return;
	/* Waits and non-blocking I/O fail as a matter of course. */
	if (e->err && e->err != EAGAIN && e->err != EINTR && !e->interrupted && st->names.count)
		follow_failure(st, e);
	if (rule_is_enter(e->nr) && e->ret_known && !e->err)
		rule_enter_worked(&st->enter, rule_leader(ctx, e->pid), moved_elsewhere, st);
	if (syscall_is(e->nr, CL_WRITE) && (e->fd == 1 || e->fd == 2)) {
		search_over(st, e->pid);
		return;
	}
	/* What a thread sends: a question to a name server? */
	if (rule_is_sock_io(e->nr) && syscall_is(e->nr, CL_WRITE) && !e->err && st->names.count)
		follow_ask(st, e, ctx);
	if (!e->path || !e->path[0])
		return;
	if (py2_import_probe(st, e))
		return;
	/* What the call does to a name, once for the whole event. */
	bool known = classify(e, &kind);
	bool lookup = known && (kind == MF_PROBE || kind == MF_READ);
	if (e->err == 0) {
		if (lookup && e->ret_known)
			follow_search(st, e, ctx, false);
		/* Counted per process while there is room; a process past it
		 * is judged as if it ran one program. */
		if (syscall_is(e->nr, CL_EXEC) && e->ret_known &&
		    (hmap_get_int(&st->execs, e->pid) || st->execs.count < MF_MAX_THREADS)) {
			bool created;
			void **slot = hmap_put_int(&st->execs, e->pid, &created);
			*slot = (void *)((uintptr_t)*slot + 1);
		}
		/* A success shows that the name exists (again): any call
		 * classify knows, and execve; for rename and link the new
		 * name is what now exists. */
		if (!e->ret_known || !(known || syscall_is(e->nr, CL_EXEC)) || st->names.count == 0)
			return;
		mark_found(st, e->path);
		if (new_name_call(e->nr))
			mark_found(st, e->path2);
		return;
	}
	if ((e->err != ENOENT && e->err != ENOTDIR) || e->interrupted) {
		if (lookup)
			follow_search(st, e, ctx, false);
		if (!e->interrupted && known && (kind == MF_CREATE || kind == MF_MKDIR) &&
		    st->names.count)
			create_tried(st, e);
		return;
	}
	if (!known)
		return;
	bool recorded = record_failure(st, e, kind, ctx);
	if (recorded && kind == MF_ENTER)
		rule_enter_failed(&st->enter, rule_leader(ctx, e->pid), fp_base(e->path));
	if (kind == MF_PROBE || kind == MF_READ)
		follow_search(st, e, ctx, recorded);
	if (recorded)
		set_pending(st, e);
	if (recorded && kind == MF_PROBE && !strchr(fp_base(e->path), '.')) {
		/* Perhaps Python 2 asking whether D/X is a package. */
		free(st->py2.stat_path);
		st->py2.stat_path = xstrdup(e->path);
		st->py2.stat_pid = e->pid;
	}
}

/* True when DIR is A itself or lies under it. */
static bool dir_within(const char *dir, size_t dn, const char *a, size_t an)
{
	if (an > dn || memcmp(dir, a, an) != 0)
		return false;
	return an == dn || a[an - 1] == '/' || dir[an] == '/';
}

/* The directory PATH is in, without trailing hidden components: git
 * looks for HEAD in /a/b and /a/b/.git, then in /a and /a/.git. */
static void anchor_of(struct strbuf *sb, const char *path)
{
	fp_dir(sb, path);
	while (sb->len > 1) {
		const char *last = fp_base(sb->buf);
		if (last[0] != '.' || last == sb->buf)
			break;
		/* "/.git" becomes "/". */
		sb->len = MAX((size_t)(last - sb->buf - 1), (size_t)1);
		sb->buf[sb->len] = '\0';
	}
}

/* An upward search for a config file (.python-version, pyproject.toml,
 * .git/HEAD): the same name looked up in a directory and its ancestors. */
static bool ancestor_walk(const struct mf_entry *en)
{
	size_t kept = MIN(en->npaths, (size_t)MF_MAX_PATHS);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	bool chain = kept >= 2;

	for (size_t i = 0; chain && i < kept; i++)
		for (size_t j = i + 1; chain && j < kept; j++) {
			anchor_of(&a, en->paths[i].path);
			anchor_of(&b, en->paths[j].path);
			if (!dir_within(a.buf, a.len, b.buf, b.len) && !dir_within(b.buf, b.len, a.buf, a.len))
				chain = false;
		}
	strbuf_release(&a);
	strbuf_release(&b);
	return chain;
}

/* The same name looked up in several directories, mostly bin ones: a
 * PATH search (PATH may hold a libexec or two). */
static bool path_search(const struct mf_entry *en)
{
	size_t kept = MIN(en->npaths, (size_t)MF_MAX_PATHS);
	struct strbuf d = STRBUF_INIT;
	size_t bins = 0;

	for (size_t i = 0; i < kept; i++) {
		const char *dir = fp_dir(&d, en->paths[i].path);
		const char *last = fp_base(dir);
		if (strcmp(last, "bin") == 0 || strcmp(last, "sbin") == 0 || strcmp(last, "shims") == 0)
			bins++;
	}
	strbuf_release(&d);
	return kept >= 2 && bins * 3 >= kept * 2;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			return true;
	return false;
}

struct mf_cand {
	struct rule_rank rank;	/* first: sorted with rule_cmp_rank */
	const char *name;
	struct mf_entry *en;
	bool echoed;
	bool command;
	bool kept_going;
	bool folded;		/* a look-up on the way to another try */
	const char *ancestor;	/* the missing directory a folded look-up named */
	bool search;		/* a step of a search across sources */
	bool resolved;		/* ... that found another candidate */
	bool asked;		/* ... whose name was then asked of a name server */
	bool exec_after;	/* the program went on to run another */
	bool cut_words;		/* the thread's last failure before words -s cut */
};

static void add_evidence(struct rc_finding *f, const struct mf_entry *en)
{
	size_t kept = MIN(en->npaths, (size_t)MF_MAX_PATHS);
	bool decisive_shown = false;

	for (size_t i = 0; i < kept && f->nevidence < RC_EVIDENCE_MAX - 1; i++) {
		const struct mf_fail *p = &en->paths[i];
		if (!p->line)
			continue;
		if (p->seq == en->decisive.seq)
			decisive_shown = true;
		rule_evidence(f, p->line);
	}
	if (!decisive_shown)
		rule_evidence(f, en->decisive.line);
}

/* S escaped for printing (trace strings may hold any byte). */
static const char *printable(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	strbuf_add_escaped(sb, s, strlen(s));
	return strbuf_str(sb);
}

/* What stands at PATH now, as process PID sees it, when it is there and
 * not a directory ("a regular file"); NULL otherwise. */
static const char *not_a_dir(const struct rc_ctx *ctx, int pid, const char *path)
{
	struct stat st;

	if (lookup_stat(ctx->lookup, pid, path, &st) != 1 || S_ISDIR(st.st_mode))
		return NULL;
	return S_ISREG(st.st_mode) ? "a regular file" : "not a directory";
}

static bool is_dir_now(const struct rc_ctx *ctx, int pid, const char *path)
{
	struct stat st;

	return lookup_stat(ctx->lookup, pid, path, &st) == 1 && S_ISDIR(st.st_mode);
}

/* The finding of a move into a directory (chdir, chroot, pivot_root) that
 * failed; PATH is D's path, printable. */
static struct rc_finding *emit_enter(struct rc_findings *out, const struct rc_ctx *ctx, const struct mf_fail *d,
				     enum rc_severity sev, const char *path)
{
	const char *what = not_a_dir(ctx, d->pid, d->path);
	struct strbuf sb = STRBUF_INIT, old = STRBUF_INIT;
	bool now = false;

	if (d->err == ENOTDIR && what) {
		strbuf_addf(&sb, "cannot %s to '%s': it is %s, not a directory", d->syscall, path, what);
		now = true;
	}
	else if (d->err == ENOTDIR)
		strbuf_addf(&sb, "cannot %s to '%s': a component of its path is not a directory", d->syscall,
			    path);
	else if (d->nr == SYS_chdir)
		strbuf_addf(&sb, "directory '%s' does not exist", path);
#ifdef SYS_pivot_root
	else if (d->nr == SYS_pivot_root && d->path2) {
		/* Either may be missing; what is on disk now may tell which. */
		strbuf_add_escaped(&old, d->path2, strlen(d->path2));
		now = is_dir_now(ctx, d->pid, d->path) && !is_dir_now(ctx, d->pid, d->path2);
		if (now)
			strbuf_addf(&sb, "cannot pivot_root to '%s': the directory for the old root, '%s', does "
				    "not exist", path, old.buf);
		else
			strbuf_addf(&sb, "cannot pivot_root to '%s': it, or the directory for the old root "
				    "('%s'), does not exist", path, old.buf);
	}
#endif
	else
		strbuf_addf(&sb, "cannot %s to '%s': the directory does not exist", d->syscall, path);
	strbuf_release(&old);
	struct rc_finding *f = rule_finding(out, "missing-file", sev, RC_SEV_INFO, &sb);
	if (now) {
		finding_now(f, d->path);
		if (d->nr != SYS_chdir && d->path2)
			finding_now(f, d->path2);
	}
	return f;
}

static void advise_enter(struct rc_finding *f, const struct mf_fail *d, const char *path)
{
	if (d->err == ENOTDIR)
		finding_setf(&f->advice, "a file stands where a directory is expected at or on the way to '%s': "
			     "check the path, or remove the file that is in the way", path);
	else if (d->nr == SYS_chroot)
		finding_setf(&f->advice, "the new root must exist and hold what the program runs in it: create "
			     "and fill '%s', or fix the root the program is configured with (RootDirectory= in "
			     "a systemd unit)", path);
#ifdef SYS_pivot_root
	else if (d->nr == SYS_pivot_root && d->path2)
		finding_setf(&f->advice, "pivot_root needs the new root to be a mount point with a directory "
			     "for the old root inside it: create '%s' (mkdir -p) in the new root before the "
			     "call, and check that '%s' exists", d->path2, path);
#endif
	else
		finding_setf(&f->advice, "create the directory (mkdir -p '%s') or fix the one the program is "
			     "told to work in (a start script's cd, WorkingDirectory= in a systemd unit, "
			     "docker's --workdir)", path);
}

/* The program went on without the file, as far as the trace shows: it
 * was one candidate of a search the program did not complain of, the
 * search found another, or another source was asked for the name. */
static bool went_on(const struct mf_cand *c)
{
	return ((c->search || c->exec_after) && !c->echoed) || c->resolved || c->asked;
}

static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct mf_cand *c)
{
	const struct mf_entry *en = c->en;
	const struct mf_fail *d = &en->decisive;
	int weight = kind_weight(d->kind);
	enum rc_severity sev = (weight > 0 && !c->kept_going) || c->echoed || c->cut_words ? RC_SEV_ERROR
											   : RC_SEV_WARNING;
	/* A shell's command -v / type / which: only the "command not found"
	 * it prints when it meant to run it makes the look-up matter. Nor
	 * does a search across sources the program named none of. */
	if ((c->command && !c->echoed) || went_on(c))
		sev = RC_SEV_INFO;
	/* An open the program carried on long after is a warning; a mere
	 * look (os.path.isfile on an optional file) it carried on after
	 * is a note, unless it named the file. */
	if (weight == 0 && c->kept_going && !c->echoed)
		sev = RC_SEV_INFO;
	struct strbuf dir = STRBUF_INIT, nb = STRBUF_INIT, pb = STRBUF_INIT, db = STRBUF_INIT;
	const char *parent = fp_dir(&dir, d->path);
	const char *name = printable(&nb, c->name);
	const char *path = printable(&pb, d->path);
	const char *pdir = printable(&db, parent);
	struct rc_finding *f;
	bool notdir = d->err == ENOTDIR;

	if (d->kind == MF_ENTER) {
		f = emit_enter(out, ctx, d, sev, path);
	} else if (c->command) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"command '%s' not found in PATH (%zu directories searched)", name, en->npaths);
	} else if (notdir) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"'%s' cannot exist: a component of its path is not a directory", path);
	} else if (d->kind == MF_CREATE) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"cannot create '%s': directory '%s' does not exist", path, pdir);
	} else if (d->kind == MF_MKDIR) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"cannot create directory '%s': parent '%s' does not exist", path, pdir);
	} else if (d->kind == MF_OTHER && d->path2) {
		struct strbuf tb = STRBUF_INIT;
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"%s '%s' -> '%s' failed: '%s' (or the target's directory) does not exist",
				d->syscall, path, printable(&tb, d->path2), path);
		strbuf_release(&tb);
	} else if (en->npaths > 1) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"'%s' not found in any of %zu places %s", name, en->npaths,
				c->echoed ? "tried" : "searched");
	} else if (weight == 0) {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO,
				"'%s' does not exist (looked up with %s)", path, d->syscall);
	} else {
		f = finding_add(out, "missing-file", sev, RC_SEV_INFO, "'%s' does not exist", path);
	}

	f->pid = d->pid;
	/* Leaders, as met holds them: a process's threads are one. */
	finding_also(f, &en->met, rule_leader(ctx, f->pid));
	finding_set(&f->syscall, d->syscall);
	f->err = d->err;
	finding_set(&f->path, d->path);
	f->count = en->count;
	f->seq = d->seq;
	f->ts = d->ts;
	f->unrecovered = true;
	finding_echo_name(f, c->name);
	if (d->kind == MF_CREATE || d->kind == MF_MKDIR)
		finding_echo_name(f, fp_base(parent));
	else if (c->ancestor)
		finding_echo_name(f, fp_base(c->ancestor));
	add_evidence(f, en);

	if (d->kind == MF_ENTER)
		advise_enter(f, d, path);
	else if (c->command)
		finding_setf(&f->advice, "install '%s' or add the directory that has it to PATH", name);
	else if (notdir)
		finding_setf(&f->advice, "a file stands where a directory is expected on the way to '%s': "
			     "check the path, or remove the file that is in the way", path);
	else if (d->kind == MF_CREATE)
		finding_setf(&f->advice, "create the directory first (mkdir -p '%s'), "
			     "or point the program at a directory that exists", pdir);
	else if (d->kind == MF_MKDIR)
		finding_setf(&f->advice, "create the parent first (mkdir -p '%s'), or fix the path", pdir);
	else if (en->npaths > 1 && c->echoed)
		finding_setf(&f->advice, "put '%s' in one of the places the program looked (see evidence), "
			     "or point it at where the file is", name);
	else if (en->npaths > 1)
		finding_setf(&f->advice, "the program searched several places for it (see evidence) and did "
			     "not say it needed it: a search for something optional, or one whose failure the "
			     "program reports in its own words");
	else if (c->resolved)
		finding_setf(&f->advice, "the program tried it as one of several candidates and then found "
			     "another one in the same directory");
	else if (c->asked)
		finding_setf(&f->advice, "a file named after the host: one of the places the name service looks "
			     "for it (nsswitch.conf), before it asked a name server; what the server said is "
			     "dns-failure's");
	else if (c->exec_after && !c->echoed)
		finding_setf(&f->advice, "the program that looked for it went on without it and ran another "
			     "program in its place (execve)");
	else if (c->search && !c->echoed)
		finding_setf(&f->advice, "the program tried it as one of several candidates (another name "
			     "in the same directory, or one step of a path) and did not say it needed it");
	else if (d->cwd)
		finding_setf(&f->advice, "create it, or check the path the program was given "
			     "(relative paths resolve against its cwd '%s')", d->cwd);
	else
		finding_setf(&f->advice, "create it, or check the path the program was given");
	if (weight == 0 && c->cut_words && !c->echoed)
		finding_setf(&f->advice, "%s; it was the last call that failed before the program's words, "
			     "which strace's -s cut short (record with a larger -s to read them)", f->advice);
	else if (weight == 0 && !c->echoed && !c->command && !c->search && !c->exec_after)
		finding_setf(&f->advice, "%s; it was only looked up, which programs also do for optional files",
			     f->advice);
	if (en->other_forms)
		finding_setf(&f->message, "also looked for in %lld other form%s ('%s.*'), none there",
			     en->other_forms, en->other_forms == 1 ? "" : "s", name);
	strbuf_release(&dir);
	strbuf_release(&nb);
	strbuf_release(&pb);
	strbuf_release(&db);
}

/* PATH lies beneath directory DIR: "/srv/app/data" beneath "/srv/app". */
static bool beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n > 1 && strncmp(path, dir, n) == 0 && path[n] == '/';
}

/* A failed try that is more than a look-up (an open, a create, a chdir),
 * kept for folding. */
struct mf_try {
	const struct mf_fail *fail;
	struct mf_entry *en;
};

/* A failed look-up (stat, access) of a directory on the way to another
 * failed try of the same process is that try seen earlier: bash's `cd
 * /srv/app/data` stats /srv/app first, a library resolves a path before
 * opening it. One missing directory, one cause: the look-up is folded
 * into the try, and shares its fate (a try found later elsewhere was a
 * probe, so both are quiet). Tries are compared up to MF_FOLD_MAX. */
#define MF_FOLD_MAX 512

static void fold_lookups(struct mf_state *st, struct mf_cand *cands, size_t n)
{
	struct mf_try *tries = xcalloc(MF_FOLD_MAX, sizeof(*tries));
	size_t ntries = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&st->names, &it); node && ntries < MF_FOLD_MAX;
	     node = hmap_next(&st->names, &it)) {
		struct mf_entry *en = node->value;
		size_t kept = MIN(en->npaths, (size_t)MF_MAX_PATHS);
		for (size_t i = 0; i < kept && ntries < MF_FOLD_MAX; i++)
			if (kind_weight(en->paths[i].kind) > 0)
				tries[ntries++] = (struct mf_try){ &en->paths[i], en };
	}
	for (size_t i = 0; i < n && ntries; i++) {
		const struct mf_fail *d = &cands[i].en->decisive;
		if (kind_weight(d->kind) != 0 || cands[i].en->npaths != 1)
			continue;
		for (size_t j = 0; j < ntries && !cands[i].folded; j++) {
			const struct mf_fail *t = tries[j].fail;
			if (tries[j].en == cands[i].en || t->pid != d->pid || !beneath(t->path, d->path))
				continue;
			cands[i].folded = true;
			/* The try's finding speaks for the directory too. */
			for (size_t k = 0; k < n; k++)
				if (cands[k].en == tries[j].en) {
					cands[k].echoed = cands[k].echoed || cands[i].echoed;
					cands[k].ancestor = d->path;
				}
		}
	}
	free(tries);
}

/* Words of EN's process after its decisive failure, before the thread's
 * next failed call, that strace's -s cut short. */
static bool cut_words_after(const struct rc_ctx *ctx, const struct mf_entry *en)
{
	const struct rc_procs *m = ctx->procs;
	const struct mf_fail *d = &en->decisive;
	int leader = rule_leader(ctx, d->pid);

	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->cut && o->seq > d->seq && (!en->next_fail_seq || o->seq < en->next_fail_seq) &&
		    rule_leader(ctx, o->pid) == leader && rule_output_counts(m, o))
			return true;
	}
	return false;
}

static void mf_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct mf_state *st = state;
	struct mf_cand *cands = xcalloc(st->names.count + 1, sizeof(*cands));
	size_t n = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&st->names, &it); node; node = hmap_next(&st->names, &it)) {
		struct mf_entry *en = node->value;
		if (en->recovered || !en->has_decisive || en->probes >= en->count || en->forms >= en->count)
			continue;
		const struct mf_fail *d = &en->decisive;
		int weight = kind_weight(d->kind);
		struct mf_cand *c = &cands[n];
		c->name = node->key;
		c->en = en;
		c->echoed = rule_output_naming(ctx->procs, node->key, en->paths[0].seq) != NULL;
		c->command = weight == 0 && path_search(en);
		c->kept_going = rule_kept_going(ctx, d->pid, d->nsys);
		c->resolved = en->resolved >= en->count;
		c->asked = en->asked >= en->count;
		c->exec_after = execs_of(st, d->pid) > d->execs;
		c->search = !c->command && d->kind != MF_CREATE && d->kind != MF_MKDIR &&
			    (en->npaths > 1 || en->steps >= en->count || c->resolved);
		c->cut_words = !c->echoed && !c->search && !c->command && !c->kept_going && !c->exec_after &&
			       cut_words_after(ctx, en);
		/* A name looked for in a directory and its ancestors is a config
		 * search (rust-toolchain.toml, .git); one only looked up in three
		 * places or more and never complained about is a scan for
		 * something optional. */
		if (!c->echoed && (ancestor_walk(en) || (weight == 0 && en->npaths >= 3 && !c->command)))
			continue;
		/* A shell running a binary file as a script looks up its bytes
		 * as commands: no one's file name has control characters. */
		if (c->command && has_control(node->key))
			continue;
		n++;
	}
	fold_lookups(st, cands, n);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		struct mf_cand *c = &cands[i];
		if (c->folded)
			continue;
		const struct mf_fail *d = &c->en->decisive;
		c->rank.score = MF_W_KIND * kind_weight(d->kind) + (c->echoed ? RC_W_ECHOED : 0) +
				(c->cut_words ? RC_W_CUT_WORDS : 0) + (c->command ? MF_W_COMMAND : 0) +
				(went_on(c) ? RC_W_WENT_ON : 0) +
				(c->kept_going ? RC_W_WENT_ON : 0) +
				(rule_met_by_failed(ctx, &c->en->met) ? RC_W_FAILED : 0) +
				rule_recency(ctx, d->seq);
		c->rank.seq = d->seq;
		cands[kept++] = *c;
	}
	n = kept;
	qsort(cands, n, sizeof(*cands), rule_cmp_rank);
	size_t shown = MIN(n, (size_t)MF_MAX_REPORT);
	for (size_t i = 0; i < shown; i++)
		emit(out, ctx, &cands[i]);
	long long rest = (long long)(n - shown);
	if (shown && (rest > 0 || st->dropped > 0)) {
		struct rc_finding *f = out->v[out->count - 1];
		if (rest > 0 && st->dropped > 0)
			finding_setf(&f->message, "%lld more missing files not listed, and %lld failed look-ups "
				     "not tracked for lack of room", rest, st->dropped);
		else if (rest > 0)
			finding_setf(&f->message, "%lld more missing files not listed", rest);
		else
			finding_setf(&f->message, "%lld failed look-ups not tracked for lack of room", st->dropped);
	}
	free(cands);
}

const struct rc_rule_ops rc_rule_missing_file_ops = {
	.state_size = sizeof(struct mf_state),
	.init = mf_init,
	.on_event = mf_on_event,
	.reads = {
		/* The failures it follows, the moves into a directory, the
		 * program's words (which end a search), and every call with
		 * a path. */
		.events = RC_READS_EXITS | RC_READS_FAILED | RC_READS_PATHS,
		.classes = CL_ENTER | CL_WRITE,
	},
	.finish = mf_finish,
	.release = mf_release,
};
