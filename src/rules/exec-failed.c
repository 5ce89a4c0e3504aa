/* exec-failed: a program could not be started.
 *
 * execve fails for reasons the user rarely guesses from the shell's one
 * line: EACCES (no exec bit, a noexec mount), ENOEXEC (not a binary, no #!
 * line, another architecture), and ENOENT, which means either that the file
 * is not there or -- when it is -- that its #! interpreter (or its ELF
 * loader) is not, classically '/bin/bash\r' from CRLF line endings.
 *
 * Shells and execvp() try every PATH directory in turn, so a run of ENOENTs
 * for one name in one process is a search: if a later execve of the same
 * name succeeded it was probing, otherwise the command is not in PATH.
 *
 * To tell the ENOENT cases apart the rule looks at the file: on disk now
 * when the path is absolute and exists here (a bounded read of its first
 * bytes for the #! line or the ELF header), else at whether the trace
 * itself showed the path being opened or stat'ed successfully.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"

#define EF_MAX_KEYS 1024	/* (process, program name) pairs tracked */
#define EF_MAX_TRIES 16		/* distinct paths kept per name */
#define EF_HEAD_MAX 256		/* bytes read from a script for its #! line */
#define EF_MAX_REPORT 10

struct ef_try {
	char *path;
	char *line;
	int err;
	uint64_t seq;
	double ts;
};

struct ef_entry {
	int pid;		/* the thread that called execve */
	char *name;		/* basename of the program */
	bool succeeded;
	bool seen_exists;	/* the trace showed one of its paths existing */
	long long count;
	size_t ntries;
	struct ef_try tries[EF_MAX_TRIES];
	struct ef_try last;	/* the last failure */
};

struct ef_state {
	struct hmap keys;	/* "leader/name" -> struct ef_entry* */
	struct hmap paths;	/* failed path -> struct ef_entry* (not owned) */
	long long dropped;
	struct strbuf scratch;
};

static void try_release(struct ef_try *t)
{
	free(t->path);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

static void entry_free(void *p)
{
	struct ef_entry *en = p;

	if (!en)
		return;
	for (size_t i = 0; i < EF_MAX_TRIES; i++)
		try_release(&en->tries[i]);
	try_release(&en->last);
	free(en->name);
	free(en);
}

static void ef_init(void *state)
{
	struct ef_state *st = state;
	hmap_init(&st->keys);
	hmap_init(&st->paths);
	strbuf_init(&st->scratch);
}

static void ef_release(void *state)
{
	struct ef_state *st = state;
	hmap_release(&st->paths, NULL);
	hmap_release(&st->keys, entry_free);
	strbuf_release(&st->scratch);
}

static const char *entry_key(struct ef_state *st, const struct rc_ctx *ctx, int pid, const char *name)
{
	return rule_proc_key(&st->scratch, ctx, pid, name, strlen(name));
}

static void try_set(struct ef_try *t, const struct rc_event *e)
{
	try_release(t);
	t->path = xstrdup(e->path);
	t->line = rule_line_short(e);
	t->err = e->err;
	t->seq = e->seq;
	t->ts = e->ts;
}

/* Forget the paths of EN in the path index (before EN goes away). */
static void unindex(struct ef_state *st, struct ef_entry *en)
{
	size_t kept = MIN(en->ntries, (size_t)EF_MAX_TRIES);

	for (size_t i = 0; i < kept; i++) {
		void **slot = hmap_get(&st->paths, en->tries[i].path, strlen(en->tries[i].path));
		if (slot && *slot == en)
			hmap_del(&st->paths, en->tries[i].path, strlen(en->tries[i].path));
	}
}

static void evict_succeeded(struct ef_state *st)
{
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(&st->keys, &it);

	while (n) {
		struct hmap_node *next = hmap_next(&st->keys, &it);
		struct ef_entry *en = n->value;
		if (en->succeeded) {
			unindex(st, en);
			entry_free(hmap_del(&st->keys, n->key, n->keylen));
		}
		n = next;
	}
}

static void record_failure(struct ef_state *st, const struct rc_event *e, const struct rc_ctx *ctx)
{
	const char *name = fp_base(e->path);
	const char *key = entry_key(st, ctx, e->pid, name);
	size_t klen = st->scratch.len;
	void **slot = hmap_get(&st->keys, key, klen);

	if (!slot) {
		if (st->keys.count >= EF_MAX_KEYS) {
			evict_succeeded(st);
			key = entry_key(st, ctx, e->pid, name);
		}
		if (st->keys.count >= EF_MAX_KEYS) {
			st->dropped++;
			return;
		}
		slot = hmap_put(&st->keys, key, klen, NULL);
		struct ef_entry *en = xcalloc(1, sizeof(*en));
		en->name = xstrdup(name);
		*slot = en;
	}
	struct ef_entry *en = *slot;
	if (en->succeeded) {
		/* A new attempt after an earlier success: start over. */
		unindex(st, en);
		for (size_t i = 0; i < EF_MAX_TRIES; i++)
			try_release(&en->tries[i]);
		en->ntries = 0;
		en->count = 0;
		en->succeeded = false;
		en->seen_exists = false;
	}
	en->pid = e->pid;
	en->count++;
	size_t kept = MIN(en->ntries, (size_t)EF_MAX_TRIES);
	size_t i;
	for (i = 0; i < kept; i++)
		if (strcmp(en->tries[i].path, e->path) == 0)
			break;
	if (i == kept) {
		en->ntries++;
		if (i < EF_MAX_TRIES) {
			try_set(&en->tries[i], e);
			*hmap_put(&st->paths, e->path, strlen(e->path), NULL) = en;
		}
	} else if (e->err == EACCES || e->err == ENOEXEC) {
		/* The telling error wins over a repeated ENOENT. */
		try_set(&en->tries[i], e);
	}
	try_set(&en->last, e);
}

static bool is_exec(long nr)
{
	return syscall_is(nr, CL_EXEC);
}

/* Calls whose success shows a path exists. */
static bool is_existence_witness(long nr)
{
	return syscall_is(nr, CL_PATH_EXISTS);
}

static void ef_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct ef_state *st = state;

	if (e->kind != RC_EV_SYSCALL || !e->path || !e->path[0])
		return;
	if (is_exec(e->nr)) {
		if (e->err == 0) {
			if (!e->ret_known || st->keys.count == 0)
				return;
			const char *key = entry_key(st, ctx, e->pid, fp_base(e->path));
			void **slot = hmap_get(&st->keys, key, st->scratch.len);
			if (slot)
				((struct ef_entry *)*slot)->succeeded = true;
			return;
		}
		if (!e->interrupted)
			record_failure(st, e, ctx);
		return;
	}
	if (e->err == 0 && e->ret_known && st->paths.count && is_existence_witness(e->nr)) {
		void **slot = hmap_get(&st->paths, e->path, strlen(e->path));
		if (slot)
			((struct ef_entry *)*slot)->seen_exists = true;
	}
}

/* What is in the file now: its first bytes. */
struct ef_disk {
	bool exists;
	struct stat sb;
	unsigned char head[EF_HEAD_MAX];
	size_t headlen;
};

/* Whose view the machine is looked at through now (lookup/lookup.h):
 * the process that tried the exec. */
struct ef_view {
	const struct rc_lookup *lk;
	int pid;
};

static void look_at(const struct ef_view *v, const char *path, struct ef_disk *d)
{
	memset(d, 0, sizeof(*d));
	if (lookup_stat(v->lk, v->pid, path, &d->sb) != 1)
		return;
	d->exists = true;
	if (!S_ISREG(d->sb.st_mode))
		return;
	ssize_t n = lookup_read(v->lk, v->pid, path, 0, d->head, sizeof(d->head));
	d->headlen = n > 0 ? (size_t)n : 0;
}

/* The #! line's interpreter (first word, escaped for printing) into SB;
 * *crlf when it ends in a carriage return. */
static bool shebang(const struct ef_disk *d, struct strbuf *sb, bool *crlf)
{
	if (d->headlen < 2 || d->head[0] != '#' || d->head[1] != '!')
		return false;
	size_t i = 2;
	while (i < d->headlen && (d->head[i] == ' ' || d->head[i] == '\t'))
		i++;
	size_t start = i;
	while (i < d->headlen && d->head[i] != ' ' && d->head[i] != '\t' && d->head[i] != '\n')
		i++;
	size_t end = i;
	/* Whatever follows on the line, a \r before the \n is CRLF. */
	size_t eol = i;
	while (eol < d->headlen && d->head[eol] != '\n')
		eol++;
	*crlf = (end > start && d->head[end - 1] == '\r') || (eol > 0 && eol < d->headlen && d->head[eol - 1] == '\r');
	strbuf_reset(sb);
	strbuf_add_escaped(sb, d->head + start, end - start);
	return end > start;
}

/* The PT_INTERP of a 64-bit ELF file (its dynamic loader), into SB. */
static bool elf_interp(const struct ef_view *v, const char *path, const struct ef_disk *d, struct strbuf *sb)
{
	Elf64_Ehdr eh;

	if (d->headlen < sizeof(eh) || memcmp(d->head, ELFMAG, SELFMAG) != 0 || d->head[EI_CLASS] != ELFCLASS64)
		return false;
	memcpy(&eh, d->head, sizeof(eh));
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > 256)
		return false;
	bool found = false;
	for (unsigned i = 0; i < eh.e_phnum && !found; i++) {
		Elf64_Phdr ph;
		if (lookup_read(v->lk, v->pid, path, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph, sizeof(ph)) !=
		    sizeof(ph))
			break;
		if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz > 4096)
			continue;
		char *buf = xmalloc(ph.p_filesz);
		if (lookup_read(v->lk, v->pid, path, ph.p_offset, buf, ph.p_filesz) == (ssize_t)ph.p_filesz) {
			strbuf_reset(sb);
			strbuf_add_escaped(sb, buf, strnlen(buf, ph.p_filesz));
			found = true;
		}
		free(buf);
	}
	return found;
}

static bool is_elf(const struct ef_disk *d)
{
	return d->headlen >= SELFMAG && memcmp(d->head, ELFMAG, SELFMAG) == 0;
}

/* The try that tells the most: EACCES or ENOEXEC over ENOENT, else the
 * last one. */
static const struct ef_try *decisive_try(const struct ef_entry *en)
{
	size_t kept = MIN(en->ntries, (size_t)EF_MAX_TRIES);

	for (size_t i = 0; i < kept; i++)
		if (en->tries[i].err == EACCES || en->tries[i].err == ENOEXEC)
			return &en->tries[i];
	return &en->last;
}

static void add_evidence(struct rc_finding *f, const struct ef_entry *en, const struct ef_try *d)
{
	size_t kept = MIN(en->ntries, (size_t)EF_MAX_TRIES);
	bool shown = false;

	/* The telling try first; a plain search in the order it happened. */
	if (d != &en->last && d->line) {
		rule_evidence(f, d->line);
		shown = true;
	}
	for (size_t i = 0; i < kept && f->nevidence < RC_EVIDENCE_MAX - 1; i++) {
		const struct ef_try *t = &en->tries[i];
		if (t == d || !t->line || (shown && t->seq == d->seq))
			continue;
		if (t->seq == en->last.seq)
			continue;
		rule_evidence(f, t->line);
	}
	if (!(shown && en->last.seq == d->seq))
		rule_evidence(f, en->last.line);
}

/* Describe a failed ENOENT exec of a single path. */
static struct rc_finding *explain_enoent(struct rc_findings *out, const struct ef_view *v, const struct ef_entry *en,
					 const struct ef_try *d, enum rc_severity *sev_ok)
{
	struct ef_disk disk;
	struct strbuf interp = STRBUF_INIT;
	struct rc_finding *f;
	bool crlf = false;

	look_at(v, d->path, &disk);
	if (disk.exists && shebang(&disk, &interp, &crlf)) {
		*sev_ok = RC_SEV_WARNING;
		if (crlf) {
			f = finding_add(out, "exec-failed", RC_SEV_ERROR, *sev_ok,
					"'%s' cannot run: its interpreter '%s' does not exist (CRLF line endings)",
					d->path, interp.buf);
			finding_setf(&f->advice, "the script has Windows (CRLF) line endings, so the kernel looks for "
				     "'%s': convert it with dos2unix '%s' (or sed -i 's/\\r$//' '%s')",
				     interp.buf, d->path, d->path);
		} else {
			f = finding_add(out, "exec-failed", RC_SEV_ERROR, *sev_ok,
					"'%s' cannot run: its #! interpreter '%s' does not exist", d->path, interp.buf);
			finding_setf(&f->advice, "install '%s' or change the #! line of '%s' to an interpreter "
				     "that exists (e.g. #!/usr/bin/env NAME)", interp.buf, d->path);
		}
	} else if (disk.exists && elf_interp(v, d->path, &disk, &interp)) {
		*sev_ok = RC_SEV_WARNING;
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, *sev_ok,
				"'%s' cannot run: its ELF loader '%s' does not exist", d->path, interp.buf);
		finding_setf(&f->advice, "the binary was built for another system (another libc such as musl, or "
			     "another architecture): install the matching loader or use a build for this system");
	} else if (disk.exists || en->seen_exists) {
		*sev_ok = RC_SEV_WARNING;
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, *sev_ok,
				"'%s' exists but cannot run: its #! interpreter or ELF loader is missing", d->path);
		finding_setf(&f->advice, "look at the first line of '%s': for a script, the #! interpreter must exist "
			     "(and the file must not have CRLF line endings: dos2unix); for a binary, its loader "
			     "(file '%s' names it)", d->path, d->path);
	} else {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, *sev_ok,
				"cannot run '%s': it does not exist", d->path);
		finding_setf(&f->advice, "check the program's path (relative paths resolve against the "
			     "working directory), or install it");
	}
	if (disk.exists)
		finding_now(f, d->path);
	strbuf_release(&interp);
	return f;
}

static struct rc_finding *explain_eacces(struct rc_findings *out, const struct ef_view *v, const struct ef_try *d)
{
	struct ef_disk disk;
	struct rc_finding *f;

	look_at(v, d->path, &disk);
	if (disk.exists && S_ISDIR(disk.sb.st_mode)) {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': it is a directory", d->path);
		finding_setf(&f->advice, "check the program's path: it names a directory, not a program");
	} else if (disk.exists && S_ISREG(disk.sb.st_mode) && !(disk.sb.st_mode & 0111)) {
		unsigned mode = (unsigned)(disk.sb.st_mode & 07777);
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"'%s' is not executable (mode %04o): it lost its exec bit", d->path, mode);
		finding_setf(&f->advice, "chmod +x '%s' (or run it through its interpreter, e.g. bash '%s')",
			     d->path, d->path);
	} else if (disk.exists) {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': permission denied", d->path);
		finding_setf(&f->advice, "the file has exec permission here now; check whether its file system is "
			     "mounted noexec (findmnt -T '%s'), whether a directory on its path is not searchable, "
			     "and which user ran it", d->path);
	} else {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': permission denied", d->path);
		finding_setf(&f->advice, "give it exec permission (chmod +x '%s'); if it has it, check for a noexec "
			     "mount or a directory on its path that is not searchable", d->path);
	}
	if (disk.exists)
		finding_now(f, d->path);
	return f;
}

static struct rc_finding *explain_enoexec(struct rc_findings *out, const struct ef_view *v, const struct ef_try *d)
{
	struct ef_disk disk;
	struct rc_finding *f;

	look_at(v, d->path, &disk);
	if (disk.exists && is_elf(&disk)) {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': exec format error (a binary for another architecture, or damaged)",
				d->path);
		finding_setf(&f->advice, "check it with file '%s'; use a build for this machine's architecture, "
			     "or replace the damaged file", d->path);
	} else if (disk.exists && disk.headlen >= 2 && disk.head[0] == '#' && disk.head[1] == '!') {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': its #! line was not understood", d->path);
		finding_setf(&f->advice, "keep the #! line short (the kernel reads a limited length) and point it "
			     "at a binary, not at another script");
	} else {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING,
				"cannot run '%s': exec format error (not a binary and no #! line)", d->path);
		finding_setf(&f->advice, "add a #! line naming its interpreter (e.g. #!/bin/sh) or run it through "
			     "the interpreter (sh '%s')", d->path);
	}
	if (disk.exists)
		finding_now(f, d->path);
	return f;
}

static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct ef_entry *en)
{
	const struct ef_view v = { ctx->lookup, en->pid };
	const struct ef_try *d = decisive_try(en);
	struct rc_finding *f;
	enum rc_severity sev_ok = RC_SEV_INFO;
	bool search = en->ntries > 1;

	if (d->err == EACCES) {
		f = explain_eacces(out, &v, d);
	} else if (d->err == ENOEXEC) {
		f = explain_enoexec(out, &v, d);
	} else if (d->err == ENOENT && search) {
		/* Every PATH entry failed; one of them may still hold a script
		 * whose interpreter is what is missing. */
		size_t kept = MIN(en->ntries, (size_t)EF_MAX_TRIES);
		const struct ef_try *present = NULL;
		struct ef_disk disk;
		for (size_t i = 0; i < kept && !present; i++) {
			look_at(&v, en->tries[i].path, &disk);
			if (disk.exists)
				present = &en->tries[i];
		}
		if (present) {
			f = explain_enoent(out, &v, en, present, &sev_ok);
			d = present;
		} else {
			f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_INFO,
					"command '%s' not found in PATH (%zu directories tried)", en->name, en->ntries);
			finding_setf(&f->advice, "install '%s', or add the directory that has it to PATH "
				     "(the directories tried are in the evidence)", en->name);
		}
	} else if (d->err == ENOENT) {
		f = explain_enoent(out, &v, en, d, &sev_ok);
	} else {
		f = finding_add(out, "exec-failed", RC_SEV_ERROR, RC_SEV_WARNING, "cannot run '%s': %s",
				d->path, xlat_errno_name(d->err) ? xlat_errno_name(d->err) : "error");
		finding_setf(&f->advice, "see execve(2) for %s", xlat_errno_name(d->err) ? xlat_errno_name(d->err) : "the error");
	}
	f->pid = en->pid;
	finding_set(&f->syscall, "execve");
	f->err = d->err;
	finding_set(&f->path, d->path);
	f->count = en->count;
	f->seq = en->last.seq;
	f->ts = en->last.ts;
	f->unrecovered = true;
	finding_echo_name(f, en->name);
	add_evidence(f, en, d);
}

static int cmp_latest(const void *a, const void *b)
{
	const struct ef_entry *x = *(void *const *)a, *y = *(void *const *)b;
	return (x->last.seq < y->last.seq) - (x->last.seq > y->last.seq);
}

/* Programs that never started. */
static bool failed(const void *value, const void *arg)
{
	const struct ef_entry *en = value;

	return !en->succeeded && en->ntries;
}

static void ef_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct ef_state *st = state;
	size_t n;
	void **v = rule_values(&st->keys, failed, NULL, &n);

	/* The latest failures are the likeliest causes. */
	qsort(v, n, sizeof(*v), cmp_latest);
	size_t shown = MIN(n, (size_t)EF_MAX_REPORT);
	for (size_t i = 0; i < shown; i++)
		emit(out, ctx, v[i]);
	rule_note_rest(out, shown, (long long)(n - shown) + st->dropped, "failed execs");
	free(v);
}

const struct rc_rule_ops rc_rule_exec_failed_ops = {
	.state_size = sizeof(struct ef_state),
	.init = ef_init,
	.on_event = ef_on_event,
	.reads = { .events = RC_READS_PATHS },
	.finish = ef_finish,
	.release = ef_release,
};
