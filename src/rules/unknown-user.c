/* unknown-user: a user or group the program looked up does not exist.
 *
 * getpwnam("nginx") asks every source /etc/nsswitch.conf lists. The files
 * source reads /etc/passwd; glibc stops at the entry it wants, so a read
 * that reaches the end of the file (returns 0) means the name was not
 * there. The next sources fail their own way (systemd's looks for
 * NAME.user in its userdb directories, none of which need exist): that is
 * the search going on, not a missing file. What the trace cannot show is
 * which name was asked for; the program says it, in its own words, when
 * it gives up: nginx's `getpwnam("nginx") failed`, runuser's `user
 * nosuchuser does not exist`, Python's `KeyError: "getpwnam(): name not
 * found: 'nosuchuser'"`. So a finding needs both: the database read to its
 * end, then a line of the same process on stderr (or an error line on
 * stdout) about a user (or group) that names one.
 *
 * When the program's words are not in the trace (strace's default -s 32
 * cut nginx's line after its timestamp), the name service's own search
 * names the user: systemd's source looks for NAME.user (NAME.group) in its
 * userdb directories right after the files source gave up. Then a process
 * that failed is enough.
 *
 * /etc/group is read to its end by every initgroups() too, so for groups
 * the program's words carry more of the weight; they must say "group".
 *
 * State: per process the last scan of each database with its evidence, at
 * most MAX_PROCS processes (the rest are counted and said).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/fds.h"
#include "rules/finding.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "rules/words.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"

#define RULE_ID "unknown-user"
#define MAX_PROCS 1024
#define MAX_REPORTS 16
/* The longest name useradd takes. */
#define NAME_MAX_LEN 32

enum db {
	DB_PASSWD,
	DB_GROUP,
	DB_N,
};

static const char *const db_path[DB_N] = { "/etc/passwd", "/etc/group" };

struct scan {
	bool done;		/* read to its end */
	uint64_t seq;
	double ts;
	int tid;
	char *open_line;	/* the last open of the file */
	char *eof_line;		/* the read that returned 0 */
	char *other_line;	/* the next source's first failed look-up */
	char *asked;		/* the name the next source searched for (NAME.user) */
	char *asked_line;	/* ... and its look-up */
};

struct uu_proc {
	int pid;
	struct scan scan[DB_N];
};

struct state {
	struct hmap procs;	/* leader pid -> struct uu_proc */
	uint64_t dropped;	/* processes not followed for lack of room */
};

static void init(void *p)
{
	hmap_init(&((struct state *)p)->procs);
}

static void proc_free(void *p)
{
	struct uu_proc *u = p;

	if (!u)
		return;
	for (int i = 0; i < DB_N; i++) {
		free(u->scan[i].open_line);
		free(u->scan[i].eof_line);
		free(u->scan[i].other_line);
		free(u->scan[i].asked);
		free(u->scan[i].asked_line);
	}
	free(u);
}

static void release(void *p)
{
	hmap_release(&((struct state *)p)->procs, proc_free);
}

static int db_of(const char *path)
{
	for (int i = 0; path && i < DB_N; i++)
		if (strcmp(path, db_path[i]) == 0)
			return i;
	return -1;
}

static struct uu_proc *proc_of(struct state *s, const struct rc_ctx *ctx, int pid, bool create)
{
	int leader = rule_leader(ctx, pid);
	bool created;
	size_t before = s->procs.count;
	struct uu_proc *u = rule_int_value(&s->procs, leader, create, sizeof(*u), MAX_PROCS, &created);

	if (!u && create && before >= MAX_PROCS)
		s->dropped++;
	if (u && created)
		u->pid = leader;
	return u;
}

static bool valid_name(const char *s, size_t n);

/* The name in a look-up of NAME.user (NAME.group) by the name service. */
static char *asked_name(const char *path, enum db db)
{
	const char *base = strrchr(path, '/');
	const char *ext = db == DB_PASSWD ? ".user" : ".group";
	size_t n, k = strlen(ext);

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n <= k || strcmp(base + n - k, ext) != 0 || !valid_name(base, n - k))
		return NULL;
	return xstrndup(base, n - k);
}

static void on_event(void *p, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct state *s = p;

	if (e->kind != RC_EV_SYSCALL || !e->ret_known)
		return;
	if (rule_is_open(e->nr)) {
		int db = e->err ? -1 : db_of(e->path);
		if (db >= 0) {
			struct uu_proc *u = proc_of(s, ctx, e->pid, true);
			if (u) {
				free(u->scan[db].open_line);
				u->scan[db].open_line = rule_line_short(e);
			}
			return;
		}
	}
	if (e->err) {
		/* The next source, failing to find the name its way. */
		if (!s->procs.count || !e->path)
			return;
		struct uu_proc *u = proc_of(s, ctx, e->pid, false);
		for (int i = 0; u && i < DB_N; i++) {
			struct scan *sc = &u->scan[i];
			if (!sc->done || sc->tid != e->pid)
				continue;
			if (!sc->other_line)
				sc->other_line = rule_line_short(e);
			if (!sc->asked && (sc->asked = asked_name(e->path, (enum db)i)) != NULL)
				sc->asked_line = rule_line_short(e);
		}
		return;
	}
	if ((e->nr != SYS_read && e->nr != SYS_pread64) || e->ret != 0)
		return;
	int db = db_of(rule_fd_path(ctx, e));
	if (db < 0)
		return;
	struct uu_proc *u = proc_of(s, ctx, e->pid, true);
	if (!u)
		return;
	struct scan *sc = &u->scan[db];
	sc->done = true;
	sc->seq = e->seq;
	sc->ts = e->ts;
	sc->tid = e->pid;
	free(sc->eof_line);
	sc->eof_line = rule_line_short(e);
	free(sc->other_line);
	sc->other_line = NULL;
	free(sc->asked);
	sc->asked = NULL;
	free(sc->asked_line);
	sc->asked_line = NULL;
}

/* A user or group name as useradd and groupadd take them. */
static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n > NAME_MAX_LEN || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!isalnum(c) && c != '_' && c != '-' && c != '.' && !(c == '$' && i == n - 1))
			return false;
	}
	return true;
}

/* The name LINE quotes ('x', "x", `x`: the first quoted word that is a
 * valid name), or the word after WORD ("user nosuchuser does not exist");
 * into SB. False when it names none. */
static bool named(const char *line, const char *word, struct strbuf *sb)
{
	for (const char *q = line; *q; q++) {
		if (*q != '\'' && *q != '"' && *q != '`')
			continue;
		const char *end = strchr(q + 1, *q);
		if (end && valid_name(q + 1, (size_t)(end - q - 1))) {
			strbuf_reset(sb);
			strbuf_add(sb, q + 1, (size_t)(end - q - 1));
			return true;
		}
	}
	size_t wn = strlen(word);
	for (const char *w = line; (w = strcasestr(w, word)) != NULL; w += wn) {
		if ((w > line && isalnum((unsigned char)w[-1])) || w[wn] != ' ')
			continue;
		const char *name = w + wn + 1;
		size_t n = strcspn(name, " \t:,;");
		if (valid_name(name, n)) {
			strbuf_reset(sb);
			strbuf_add(sb, name, n);
			return true;
		}
	}
	return false;
}

/* The line is about a look-up in DB: its words say so. */
static bool about(const char *line, enum db db)
{
	static const char *const passwd_words[] = { "user", "getpw", "passwd" };
	static const char *const group_words[] = { "group", "getgr", "gid" };
	const char *const *w = db == DB_PASSWD ? passwd_words : group_words;
	size_t n = db == DB_PASSWD ? ARRAY_SIZE(passwd_words) : ARRAY_SIZE(group_words);

	for (size_t i = 0; i < n; i++)
		if (strcasestr(line, w[i]))
			return true;
	return false;
}

/* The program's line, after U's scan of DB, that gives up on a name; the
 * name into NAME. */
static const struct rc_output *complaint(const struct rc_ctx *ctx, const struct uu_proc *u, enum db db,
					 struct strbuf *name)
{
	const struct rc_procs *m = ctx->procs;

	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->seq < u->scan[db].seq || !o->text || rule_leader(ctx, o->pid) != u->pid ||
		    !rule_output_counts(m, o) || !(o->fd == 2 || rule_error_line(o)) || !about(o->text, db))
			continue;
		if (named(o->text, db == DB_PASSWD ? "user" : "group", name))
			return o;
	}
	return NULL;
}

/* O: the program's words (NULL: not in the trace, NAME is the one the
 * name service searched for). */
static void emit(struct rc_findings *out, const struct rc_ctx *ctx, const struct uu_proc *u, enum db db,
		 const struct rc_output *o, const char *name)
{
	const struct scan *sc = &u->scan[db];
	const char *what = db == DB_PASSWD ? "user" : "group";
	struct strbuf sb = STRBUF_INIT, who = STRBUF_INIT;

	strbuf_addf(&sb, "%s '%s' does not exist: not in %s", what, name, db_path[db]);
	if (sc->other_line)
		strbuf_adds(&sb, ", nor in the other sources the name service asked");
	struct rc_finding *f = rule_finding(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, &sb);
	rule_finding_pid(f, u->pid, sc->tid);
	finding_set(&f->syscall, "read");
	finding_set(&f->path, db_path[db]);
	if (o)
		finding_set(&f->message, o->text);
	else
		finding_setf(&f->message, "the name is the one the name service searched for after %s; "
			     "the program's own words about it are not in the trace", db_path[db]);
	rule_evidence(f, sc->open_line);
	rule_evidence(f, sc->eof_line);
	/* The source that searched for the name says most of the others. */
	rule_evidence(f, sc->asked_line ? sc->asked_line : sc->other_line);
	proc_name(&who, procs_get(ctx->procs, u->pid), u->pid);
	if (db == DB_PASSWD)
		finding_setf(&f->advice, "%s asked for a user this system does not have: create it "
			     "(`adduser --system --group --no-create-home %s`) or configure one that exists "
			     "(packaged services come with their own; `getent passwd` lists every user the "
			     "name service knows)", strbuf_str(&who), name);
	else
		finding_setf(&f->advice, "%s asked for a group this system does not have: create it "
			     "(`addgroup --system %s`) or configure one that exists (`getent group` lists "
			     "them)", strbuf_str(&who), name);
	f->seq = sc->seq;
	f->ts = sc->ts;
	f->unrecovered = true;
	finding_echo_name(f, name);
	strbuf_release(&who);
}

static void finish(void *p, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct state *s = p;
	struct hmap_iter it;
	struct strbuf name = STRBUF_INIT;
	size_t shown = 0;
	long long rest = 0;

	for (struct hmap_node *n = hmap_first(&s->procs, &it); n; n = hmap_next(&s->procs, &it)) {
		const struct uu_proc *u = n->value;
		for (int db = 0; db < DB_N; db++) {
			if (!u->scan[db].done)
				continue;
			const struct rc_output *o = complaint(ctx, u, (enum db)db, &name);
			if (!o) {
				/* Without its words, the search's name in a
				 * process that failed. */
				if (!u->scan[db].asked || !procs_failed(ctx->procs, u->pid, NULL))
					continue;
				strbuf_reset(&name);
				strbuf_adds(&name, u->scan[db].asked);
			}
			if (shown == MAX_REPORTS) {
				rest++;
				continue;
			}
			emit(out, ctx, u, (enum db)db, o, strbuf_str(&name));
			shown++;
		}
	}
	if (rest)
		rule_dropped(out, RULE_ID, RC_SEV_ERROR, RC_SEV_WARNING, (uint64_t)rest,
			     "%llu more unknown users or groups not listed",
			     "see the findings above: each names the user and what to do");
	if (s->dropped)
		rule_dropped(out, RULE_ID, RC_SEV_INFO, RC_SEV_INFO, s->dropped,
			     "%llu processes' user and group look-ups not followed for lack of room",
			     "a trace of that many processes may hide an unknown user; trace the service alone");
	strbuf_release(&name);
}

static const long reads_calls[] = { SYS_read, SYS_pread64, -1 };

const struct rc_rule_ops rc_rule_unknown_user_ops = {
	.state_size = sizeof(struct state),
	.init = init,
	.on_event = on_event,
	.reads = { .events = RC_READS_FAILED, .classes = CL_OPEN, .calls = reads_calls },
	.finish = finish,
	.release = release,
};
