/* missing-library: a shared object that no search directory had.
 *
 * The dynamic loader (at start-up and for every dlopen) opens NAME in each
 * directory of its search path in turn -- RPATH, LD_LIBRARY_PATH, the
 * ld.so.cache hit, the default directories, each with its glibc-hwcaps,
 * tls and platform subdirectories -- until one open works. Failures
 * followed by a success are that search. The rule keys its state by
 * process and library stem ("libfoo" for libfoo.so.1): a library of which
 * no version was ever opened in that process is missing. The usual sequel
 * is "error while loading shared libraries: libfoo.so.1: cannot open
 * shared object file" and exit status 127, or an ImportError naming it.
 *
 * NVIDIA driver and CUDA libraries (libcuda*, libnvidia-*) are
 * gpu-unavailable's: on a machine without a GPU they are expected to fail.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/words.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define ML_MAX_KEYS 1024	/* (process, stem) pairs tracked */
#define ML_MAX_DIRS 16		/* distinct search directories kept */
#define ML_MAX_REPORT 10

struct ml_try {
	char *dir;
	char *line;
};

struct ml_entry {
	bool found;
	bool system_dirs;	/* the search reached the default directories */
	char *name;		/* the name asked for: libfoo.so.1 */
	int pid;
	long long tries;	/* every failed open, subdirectories included */
	size_t ndirs;		/* distinct search directories */
	struct ml_try dirs[ML_MAX_DIRS];
	char *last_line;
	uint64_t first_seq, seq;
	double ts;
	uint64_t nsys;		/* calls the thread had made before the last failure */
};

struct ml_state {
	struct hmap keys;	/* "leader/stem" -> struct ml_entry* */
	long long dropped;
	struct strbuf key;
	struct strbuf dir;
};

static void entry_free(void *p)
{
	struct ml_entry *en = p;

	if (!en)
		return;
	for (size_t i = 0; i < ML_MAX_DIRS; i++) {
		free(en->dirs[i].dir);
		free(en->dirs[i].line);
	}
	free(en->name);
	free(en->last_line);
	free(en);
}

static void ml_init(void *state)
{
	struct ml_state *st = state;
	hmap_init(&st->keys);
	strbuf_init(&st->key);
	strbuf_init(&st->dir);
}

static void ml_release(void *state)
{
	struct ml_state *st = state;
	hmap_release(&st->keys, entry_free);
	strbuf_release(&st->key);
	strbuf_release(&st->dir);
}

/* Subdirectories ld.so tries inside each search directory. */
static const char *const hwcap_dirs[] = {
	"tls", "x86_64", "haswell", "xeon_phi", "avx512_1", "i386", "i486", "i586", "i686",
	"sse2", "nosegneg", "x86-64-v2", "x86-64-v3", "x86-64-v4", "aarch64", "asimd",
	"atomics", "power9", "power10", "z13", "z14", "z15", "glibc-hwcaps",
};

static bool hwcap_component(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(hwcap_dirs); i++)
		if (strlen(hwcap_dirs[i]) == n && memcmp(s, hwcap_dirs[i], n) == 0)
			return true;
	return false;
}

/* The search directory PATH was tried in, with the loader's hwcaps
 * subdirectories taken off: /usr/lib/x86_64-linux-gnu/tls/x86_64/libfoo.so.1
 * -> /usr/lib/x86_64-linux-gnu. *sub tells whether any were. */
static const char *search_dir(struct strbuf *sb, const char *path, bool *sub)
{
	const char *base = fp_base(path);
	size_t end = base > path ? (size_t)(base - path - 1) : 0;

	*sub = false;
	while (end > 0) {
		size_t start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
		if (!hwcap_component(path + start, end - start))
			break;
		*sub = true;
		end = start ? start - 1 : 0;
	}
	strbuf_reset(sb);
	if (end == 0 && path[0] == '/')
		strbuf_addc(sb, '/');
	else if (base == path)
		strbuf_addc(sb, '.');
	else
		strbuf_add(sb, path, end);
	return strbuf_str(sb);
}

/* The loader's default directories (and the multiarch ones Debian adds):
 * it tries them last, and only when nothing earlier (RPATH,
 * LD_LIBRARY_PATH, ld.so.cache) had the library. */
static bool system_dir(const char *dir)
{
	static const char *const dirs[] = { "/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (strcmp(dir, dirs[i]) == 0)
			return true;
	const char *rest = strncmp(dir, "/usr/lib/", 9) == 0 ? dir + 9 :
			   strncmp(dir, "/lib/", 5) == 0 ? dir + 5 : NULL;
	return rest && !strchr(rest, '/') && strstr(rest, "-linux-") != NULL;
}

/* "libfoo" for libfoo.so.1.2: the part before ".so". */
static size_t stem_len(const char *base)
{
	const char *so = strstr(base, ".so");
	const char *next;

	while (so && (next = strstr(so + 3, ".so")) != NULL)
		so = next;
	return so ? (size_t)(so - base) : strlen(base);
}

static const char *make_key(struct ml_state *st, const struct rc_ctx *ctx, int pid, const char *base)
{
	return rule_proc_key(&st->key, ctx, pid, base, stem_len(base));
}

static bool library_found(const void *value)
{
	return ((const struct ml_entry *)value)->found;
}

static void record_failure(struct ml_state *st, const struct rc_event *e, const char *base,
			   const struct rc_ctx *ctx)
{
	const char *key = make_key(st, ctx, e->pid, base);
	size_t klen = st->key.len;
	void **slot = rule_key_slot(&st->keys, key, klen, ML_MAX_KEYS, library_found, entry_free);

	if (!slot) {
		st->dropped++;
		return;
	}
	if (!*slot) {
		struct ml_entry *en = xcalloc(1, sizeof(*en));
		en->first_seq = e->seq;
		*slot = en;
	}
	struct ml_entry *en = *slot;
	if (en->found) {
		/* Found before, asked again and not found: a new search. */
		for (size_t i = 0; i < ML_MAX_DIRS; i++) {
			free(en->dirs[i].dir);
			free(en->dirs[i].line);
		}
		memset(en->dirs, 0, sizeof(en->dirs));
		en->ndirs = 0;
		en->tries = 0;
		en->found = false;
		en->system_dirs = false;
		en->first_seq = e->seq;
	}
	if (!en->name || strcmp(en->name, base) != 0) {
		free(en->name);
		en->name = xstrdup(base);
	}
	en->tries++;
	en->pid = e->pid;
	en->seq = e->seq;
	en->ts = e->ts;
	const struct rc_proc *p = procs_get(ctx->procs, e->pid);
	en->nsys = p ? p->nsyscalls : 0;
	free(en->last_line);
	en->last_line = rule_line_short(e);

	bool sub;
	const char *dir = search_dir(&st->dir, e->path, &sub);
	if (system_dir(dir))
		en->system_dirs = true;
	size_t kept = MIN(en->ndirs, (size_t)ML_MAX_DIRS);
	size_t i;
	for (i = 0; i < kept; i++)
		if (strcmp(en->dirs[i].dir, dir) == 0)
			break;
	if (i == kept) {
		en->ndirs++;
		if (i < ML_MAX_DIRS)
			en->dirs[i].dir = xstrdup(dir);
	}
	/* Evidence: the open in the search directory itself, not in its
	 * hwcaps subdirectories. */
	if (i < ML_MAX_DIRS && (!en->dirs[i].line || !sub) && e->line) {
		free(en->dirs[i].line);
		en->dirs[i].line = rule_line_short(e);
	}
}

static void ml_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct ml_state *st = state;

	if (e->kind != RC_EV_SYSCALL || !rule_is_open(e->nr) || !e->path || !e->path[0])
		return;
	const char *base = fp_base(e->path);
	if (!fp_is_shared_object(base) || fp_gpu_library(base))
		return;
	if (e->err == 0) {
		if (!e->ret_known || st->keys.count == 0)
			return;
		const char *key = make_key(st, ctx, e->pid, base);
		void **slot = hmap_get(&st->keys, key, st->key.len);
		if (slot)
			((struct ml_entry *)*slot)->found = true;
		return;
	}
	if ((e->err != ENOENT && e->err != ENOTDIR) || e->interrupted)
		return;
	/* Python's extension-module probes name the module file itself;
	 * those are import probing, not a library search. */
	if (strstr(base, ".cpython-") || strstr(base, ".abi3.so"))
		return;
	record_failure(st, e, base, ctx);
}

struct ml_cand {
	struct rule_rank rank;	/* first: sorted with rule_cmp_rank */
	struct ml_entry *en;
	const char *msg;
	bool optional;
};

static void emit(struct rc_findings *out, const struct ml_entry *en, const char *msg, bool optional)
{
	struct rc_finding *f;
	struct strbuf dirs = STRBUF_INIT;
	size_t kept = MIN(en->ndirs, (size_t)ML_MAX_DIRS);
	enum rc_severity sev = optional ? RC_SEV_WARNING : RC_SEV_ERROR;

	if (en->ndirs == 1)
		f = finding_add(out, "missing-library", sev, RC_SEV_INFO,
				"shared library '%s' not found (looked in '%s')", en->name, en->dirs[0].dir);
	else
		f = finding_add(out, "missing-library", sev, RC_SEV_INFO,
				"shared library '%s' not found in any of %zu directories searched",
				en->name, en->ndirs);
	f->pid = en->pid;
	finding_set(&f->syscall, "openat");
	f->err = ENOENT;
	finding_set(&f->path, en->name);
	f->count = en->tries;
	f->seq = en->seq;
	f->ts = en->ts;
	f->unrecovered = true;
	finding_echo_name(f, en->name);
	if (msg)
		finding_set(&f->message, msg);

	bool last_shown = false;
	for (size_t i = 0; i < kept && f->nevidence < RC_EVIDENCE_MAX - 1; i++)
		if (en->dirs[i].line) {
			rule_evidence(f, en->dirs[i].line);
			if (en->last_line && strcmp(en->dirs[i].line, en->last_line) == 0)
				last_shown = true;
		}
	if (!last_shown)
		rule_evidence(f, en->last_line);

	for (size_t i = 0; i < kept && i < 4; i++)
		strbuf_addf(&dirs, "%s'%s'", i ? ", " : "", en->dirs[i].dir);
	if (en->ndirs > 4)
		strbuf_addf(&dirs, " and %zu more", en->ndirs - 4);
	finding_setf(&f->advice, "install the package that ships '%s' (apt-file search %s, dpkg -S %s), "
		     "or, if it is installed elsewhere, add that directory to LD_LIBRARY_PATH or to "
		     "/etc/ld.so.conf.d/ and run ldconfig; searched: %s",
		     en->name, en->name, en->name, dirs.buf);
	strbuf_release(&dirs);
}

static void ml_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct ml_state *st = state;
	struct ml_cand *cands = xcalloc(st->keys.count + 1, sizeof(*cands));
	size_t n = 0;
	struct hmap_iter it;

	for (struct hmap_node *node = hmap_first(&st->keys, &it); node; node = hmap_next(&st->keys, &it)) {
		struct ml_entry *en = node->value;
		if (en->found || !en->name)
			continue;
		/* A search that stopped before the default directories ended in
		 * an ld.so.cache hit the trace may not show (strace -Z, a grep);
		 * unless the program (or the loader) said otherwise, the library
		 * was there. */
		const char *msg = rule_output_naming(ctx->procs, en->name, en->first_seq);
		if (!en->system_dirs && !msg)
			continue;
		const struct rc_proc *p = procs_leader(ctx->procs, en->pid);
		cands[n].en = en;
		cands[n].msg = msg;
		/* Carried on without it: an optional dlopen. */
		cands[n].optional = !msg && rule_kept_going(ctx, en->pid, en->nsys);
		cands[n].rank.score = (p && p->ended && p->exited && p->exit_code == 127 ? RC_W_EXIT_127 : 0) +
				      (cands[n].optional ? RC_W_WENT_ON : 0) +
				      (procs_failed(ctx->procs, en->pid, NULL) ? RC_W_FAILED : 0) +
				      rule_recency(ctx, en->seq);
		cands[n].rank.seq = en->seq;
		n++;
	}
	qsort(cands, n, sizeof(*cands), rule_cmp_rank);
	size_t shown = MIN(n, (size_t)ML_MAX_REPORT);
	for (size_t i = 0; i < shown; i++)
		emit(out, cands[i].en, cands[i].msg, cands[i].optional);
	rule_note_rest(out, shown, (long long)(n - shown) + st->dropped, "missing libraries");
	free(cands);
}

const struct rc_rule_ops rc_rule_missing_library_ops = {
	.state_size = sizeof(struct ml_state),
	.init = ml_init,
	.on_event = ml_on_event,
	.reads = { .classes = CL_OPEN },
	.finish = ml_finish,
	.release = ml_release,
};
