/* rootcause watch --cgroup PATH | --unit NAME | PID...: always on for a
 * service. The eBPF capture follows it; watch's recorder keeps each
 * process's recent events (watch/recorder.h); a failed exit, a stall
 * (watch/stall.h) or a rule the user names makes an incident, diagnosed
 * from that window as run would, and kept in the cores store once per
 * signature, with a count. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/decode.h"
#include "capture/session.h"
#include "cmd/cmd.h"
#include "crash/store.h"
#include "diagnose/diagnose.h"
#include "event/procs.h"
#include "lookup/cgroups.h"
#include "util/json.h"
#include "watch/budget.h"
#include "watch/journal.h"
#include "watch/recorder.h"
#include "watch/stall.h"
#include "where/where.h"

static const char watch_usage[] =
	"usage: rootcause watch [options] --cgroup PATH\n"
	"       rootcause watch [options] --unit NAME\n"
	"       rootcause watch [options] PID...\n"
	"\n"
	"Follow a service for as long as it runs, and write an incident report\n"
	"whenever something goes wrong: a process of it exits with a failure or\n"
	"dies of a signal; a thread stays inside one call for --stall seconds (its\n"
	"stack taken where it waits); or a rule named by --on finds something. Each\n"
	"report is the diagnosis 'run' gives, made from the last --window seconds of\n"
	"what the processes did (kept per process, within --window-size of memory):\n"
	"what led to the failure, not only the failure.\n"
	"\n"
	"--cgroup PATH (a cgroup v2 directory, or its path from the cgroup root)\n"
	"covers a systemd unit, a container or a pod: processes that start in it\n"
	"later are followed too, so a restarting service stays watched. --unit NAME\n"
	"is the cgroup of systemd's unit NAME, where systemd runs. PIDs are watched\n"
	"with their children, until they are all gone.\n"
	"\n"
	"Incidents go to the store that 'rootcause cores' keeps (--dir; 'rootcause\n"
	"cores list' shows them beside the crashes), one entry per signature, which\n"
	"counts its repeats: a crash loop is one entry. Each incident is one line on\n"
	"standard error and, where journald runs, in the journal; with --format json\n"
	"also one JSON object per line on standard output (or -o FILE, appended),\n"
	"for a fleet's log shipper.\n"
	"\n"
	"While its calls are recorded, every call on the machine costs more (the\n"
	"kernel's slower path, and watch's program). So above --max-call-rate calls\n"
	"a second, sustained, watch stops recording the calls, and records them\n"
	"again when a process of the service starts or ends, or for a look each\n"
	"minute; an incident whose window lacks calls says so.\n"
	"\n"
	"watch needs the eBPF capture (root, or CAP_BPF with CAP_PERFMON). It never\n"
	"stops the service: no ptrace, so if watch is killed, even with SIGKILL,\n"
	"the service runs on as before.\n"
	"\n"
	"options:\n"
	"  --cgroup PATH        watch the processes of this cgroup, and those to come\n"
	"  --unit NAME          watch systemd's unit NAME (NAME.service when no suffix)\n"
	"  --stall S            a wait inside one call this long is a stall (default 5)\n"
	"  --on RULE,RULE       also an incident when one of these rules finds a\n"
	"                       warning or an error (checked each second)\n"
	"  --window S           diagnose the last S seconds (default 30)\n"
	"  --window-size SIZE   memory for the windows (default 32M; 4M per process)\n"
	"  --dir DIR            the store (default: the one core_pattern feeds, else\n"
	"                       " STORE_DEFAULT_DIR ")\n"
	"  --keep N             keep the newest N entries of the store (cores and\n"
	"                       incidents; default: DIR/config's, else 20)\n"
	"  --max-age DAYS       drop entries last seen more than DAYS ago (default 30)\n"
	"  --max-size SIZE      keep no report larger than SIZE (only its count)\n"
	"  --keep-free SIZE     store nothing new while the disk has less than SIZE\n"
	"                       free (default 1G)\n"
	"  --duration S         stop after S seconds (default: on Ctrl-C or SIGTERM)\n"
	"  --max-call-rate N    above N calls a second, sustained, record no calls\n"
	"                       until a process starts or ends: only exits, signals\n"
	"                       and stalls (default 100000; 0: always record)\n"
	"  --all-calls          hand every call to the windows, as attach does (by\n"
	"                       default the reads, writes, polls, futex calls, accepts\n"
	"                       and closes that ran through, and a thread's opens and\n"
	"                       stats of one path past its first 16, are counted in\n"
	"                       the kernel: the service pays for each call handed on)\n"
	"  --no-stacks          take no call stacks\n"
	"  --ring-size SIZE     the eBPF ring buffer (default 16M)\n"
	"  --format text|json   json: one incident per line on standard output\n"
	"  -o, --output FILE    with --format json: append the lines to FILE (0600)\n"
	"\n"
	"exit status:\n"
	"  0  stopped (a signal, --duration, or the PIDs all gone)\n"
	"  2  usage error\n"
	"  3  cannot watch: no such cgroup, unit or process, no eBPF, or the store\n"
	"     cannot be written (the message says why)\n";

enum {
	OPT_CGROUP = 0x200, OPT_UNIT, OPT_STALL, OPT_ON, OPT_WINDOW, OPT_WINDOW_SIZE, OPT_DIR, OPT_KEEP,
	OPT_MAX_AGE, OPT_MAX_SIZE, OPT_KEEP_FREE, OPT_DURATION, OPT_ALL_CALLS, OPT_MAX_CALL_RATE,
};

/* The most processes a cgroup's watch takes at its start. */
#define CGROUP_PIDS_MAX 4096
/* Failed exits of one tree this close together are one incident. */
#define SETTLE_S 0.3
/* Failed exits waiting for their incident, at most (more are counted,
 * not told: a crash loop faster than its diagnoses). */
#define PENDING_MAX 4096
/* How often processes are looked at for stalls, and rules checked. */
#define LOOK_EVERY_S 0.25
#define ON_EVERY_S 1.0
/* How often the cgroup is listed for processes that joined it without
 * an exec (those that exec in it are followed by the kernel at once). */
#define SCAN_EVERY_S 1.0
/* Stalls and rules told per signature and tree once per window. */
#define TOLD_MAX 256

struct pending {
	pid_t tgid;
	double due;
	uint64_t upto;		/* its last event (recorder_seq) */
	char what[96];
};

struct told {
	pid_t root;
	uint64_t sig;
	double at;
};

struct watcher {
	struct recorder *rec;
	struct stall *stall;
	struct where *where;
	const char *dir;
	struct store_config cfg;
	const char *cgroup;
	const struct cgroup_dir *cg;	/* --cgroup, --unit; NULL for pids */
	double window;
	uint64_t on;		/* --on's rules; 0 none */
	struct pending *pend;
	size_t npend, pend_alloc;
	struct told told[TOLD_MAX];
	size_t ntold;
	/* A stall's call, as session_blocked_now hands it on. */
	bool taking;
	struct rc_event *blocked;
	double next_look, next_on, next_age, next_scan;
	uint64_t events_since_on;
	FILE *jsonl;		/* --format json; NULL not */
	uint64_t incidents;
	uint64_t unsettled;	/* failed exits past PENDING_MAX, not told */
	const char *hello;	/* said at the first tick; NULL once said */
	struct budget budget;	/* --max-call-rate */
	bool said_pause;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* systemd's own stops: a service killed by these ended as asked. */
static bool clean_signal(int signo)
{
	return signo == SIGHUP || signo == SIGINT || signo == SIGTERM || signo == SIGPIPE;
}

static void feed(void *user, struct rc_event *e)
{
	diagnose_event(user, e);
}

static bool on_rule(uint64_t on, const char *id)
{
	for (size_t i = 0; i < rc_nrules; i++)
		if (rule_picked(on, &rc_rules[i]) && strcmp(rc_rules[i].id, id) == 0)
			return true;
	return false;
}

/* Told for ROOT within the window already (stalls and rules, which
 * would otherwise come back at each look); notes it when not. */
static bool told_already(struct watcher *w, pid_t root, uint64_t sig, double now)
{
	size_t oldest = 0;

	for (size_t i = 0; i < w->ntold; i++) {
		if (w->told[i].root == root && w->told[i].sig == sig && now - w->told[i].at < w->window)
			return true;
		if (w->told[i].at < w->told[oldest].at)
			oldest = i;
	}
	size_t at = w->ntold < TOLD_MAX ? w->ntold++ : oldest;
	w->told[at] = (struct told){ root, sig, now };
	return false;
}

/* The finding an incident is about, as KIND judges: the first error
 * cause of a failed exit; for a stall, a cause about one of the threads
 * TIDS that wait (nothing said of them: idle waits, no incident); for
 * --on, a cause of those rules. NULL: no incident. */
static const struct rc_report_finding *incident_cause(const struct watcher *w, const char *kind,
						       const struct rc_report_findings *l, pid_t tgid,
						       const pid_t *tids, size_t ntids)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct rc_report_finding *f = l->v[i];
		if (f->cause || strcmp(f->rule, "capture-incomplete") == 0)
			continue;
		/* The exit's own failure first: in a crash loop, each
		 * incident is about its own crash. */
		if (strcmp(kind, "exit") == 0 && f->severity == RC_SEV_ERROR && f->pid > 0 &&
		    recorder_within(w->rec, recorder_process(w->rec, f->pid), tgid))
			return f;
		if (strcmp(kind, "stall") == 0 && f->severity >= RC_SEV_WARNING) {
			for (size_t k = 0; k < ntids; k++)
				if (f->tid == tids[k] || (f->tid <= 0 && f->pid == tgid))
					return f;
		}
		if (strcmp(kind, "rule") == 0 && f->severity >= RC_SEV_WARNING && on_rule(w->on, f->rule))
			return f;
	}
	/* An exit whose failure the trace shows in no process below it:
	 * the tree's first error cause. */
	for (size_t i = 0; strcmp(kind, "exit") == 0 && i < l->count; i++) {
		const struct rc_report_finding *f = l->v[i];
		if (!f->cause && f->severity == RC_SEV_ERROR && strcmp(f->rule, "capture-incomplete") != 0)
			return f;
	}
	/* Then what the rules said of its end at a lower severity (a parent
	 * that lives on may cope: but this incident is that end). */
	for (size_t i = 0; strcmp(kind, "exit") == 0 && i < l->count; i++) {
		const struct rc_report_finding *f = l->v[i];
		if (!f->cause && f->pid == tgid &&
		    (strcmp(f->rule, "nonzero-exit") == 0 || strcmp(f->rule, "crashed") == 0))
			return f;
	}
	return NULL;
}

/* A failed exit whose window the rules found no cause in, nor said
 * anything of its end (a parent that handles its child's failure, a
 * window that lost the failing calls): an incident still, of the
 * process's end alone, as systemd logs a unit's failure. Its signature
 * is the rule, the program and its signal. B's summary is SB's. */
static const struct rc_report_finding *bare_exit(struct rc_report_finding *b, struct strbuf *sb,
						 const struct rc_diagnosis *dg, pid_t tgid)
{
	const struct rc_proc *p = procs_get(&dg->eng.procs, tgid);

	memset(b, 0, sizeof(*b));
	b->count = b->bytes = -1;
	b->duration_s = -1;
	b->severity = RC_SEV_ERROR;
	b->pid = tgid;
	b->rule = p && p->ended && !p->exited ? "crashed" : "nonzero-exit";
	b->signo = p && p->ended && !p->exited ? p->signo : 0;
	if (p && p->exe)
		strbuf_addf(sb, "'%s': ", p->exe);
	strbuf_adds(sb, "no cause found in its window");
	b->summary = sb->buf;
	/* The object: the program (report_signature). */
	b->message = p && p->exe ? p->exe : NULL;
	return b;
}

/* The incident's line: stderr and the journal, and its JSON line. */
static void tell(struct watcher *w, const char *kind, const struct rc_report *rep,
		 const struct rc_report_finding *f, uint64_t sig, const struct store_seen *seen, const char *stored_err)
{
	char sigx[17];
	struct strbuf line = STRBUF_INIT, where = STRBUF_INIT;

	snprintf(sigx, sizeof(sigx), "%016llx", (unsigned long long)sig);
	report_finding_where(rep, f, &where);
	strbuf_addf(&line, "incident %s (%s, seen %llu time%s): %s: %s", sigx, f->rule, seen->count,
		    seen->count == 1 ? "" : "s", rep->trigger, f->summary);
	if (stored_err)
		strbuf_addf(&line, " [%s]", stored_err);
	else
		strbuf_addf(&line, " [rootcause cores show --dir %s %s]", w->dir, seen->id);
	struct journal_field jf[] = {
		{ "MESSAGE", line.buf },
		{ "PRIORITY", f->severity == RC_SEV_ERROR ? "3" : "4" },
		{ "SYSLOG_IDENTIFIER", "rootcause" },
		{ "ROOTCAUSE_SIGNATURE", sigx },
		{ "ROOTCAUSE_RULE", f->rule },
		{ "ROOTCAUSE_KIND", kind },
		{ "ROOTCAUSE_ENTRY", seen->id },
	};
	/* Under systemd stderr is the journal too: the line once, with its
	 * fields. */
	if (!journal_send(jf, sizeof(jf) / sizeof(*jf)) || !journal_is_stderr())
		fprintf(stderr, "rootcause: %s\n", line.buf);
	if (w->jsonl) {
		struct strbuf js = STRBUF_INIT;
		struct json j;
		json_init(&j, &js, false);
		json_begin_object(&j);
		json_key(&j, "time");
		json_fixed(&j, clock_s(CLOCK_REALTIME), 3);
		json_opt_string(&j, "kind", kind);
		json_opt_string(&j, "signature", sigx);
		json_key(&j, "count");
		json_int(&j, (long long)seen->count);
		json_key(&j, "first_seen");
		json_int(&j, seen->first);
		json_opt_string(&j, "trigger", rep->trigger);
		json_key(&j, "pid");
		json_int(&j, rep->pid);
		json_opt_string(&j, "cgroup", rep->cgroup);
		json_opt_string(&j, "rule", f->rule);
		json_opt_string(&j, "severity", severity_name(f->severity));
		json_opt_string(&j, "summary", f->summary);
		json_opt_string(&j, "where", where.buf);
		json_opt_string(&j, "path", f->path);
		json_opt_string(&j, "address", f->address);
		json_opt_string(&j, "advice", f->advice);
		json_opt_string(&j, "entry", stored_err ? NULL : seen->id);
		json_opt_string(&j, "store", w->dir);
		json_opt_string(&j, "not_stored", stored_err);
		json_key(&j, "causes");
		json_begin_array(&j);
		for (size_t i = 0; rep->findings && i < rep->findings->count; i++) {
			const struct rc_report_finding *g = rep->findings->v[i];
			if (g->cause || g->severity == RC_SEV_INFO)
				continue;
			char gs[17];
			snprintf(gs, sizeof(gs), "%016llx", (unsigned long long)report_signature(g, NULL));
			json_begin_object(&j);
			json_opt_string(&j, "rule", g->rule);
			json_opt_string(&j, "severity", severity_name(g->severity));
			json_opt_string(&j, "signature", gs);
			json_opt_string(&j, "summary", g->summary);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
		strbuf_addc(&js, '\n');
		fwrite(js.buf, 1, js.len, w->jsonl);
		fflush(w->jsonl);
		strbuf_release(&js);
	}
	strbuf_release(&line);
	strbuf_release(&where);
}

/* An incident of KIND about what PICK says (an exit: the process's
 * line up to its failure, as it was then; a stall or a rule: its whole
 * tree), said by TRIGGER (NULL: a stall's wait, said from the cause):
 * those events diagnosed with the RULES given (with BLOCKED[0..NBLOCKED),
 * a stall's calls), and what it found kept and told, unless it found
 * nothing of KIND about the threads TIDS[0..NTIDS). */
static void incident(struct watcher *w, const char *kind, uint64_t rules, const struct recorder_pick *pick,
		     const pid_t *tids, size_t ntids, const char *trigger, struct rc_event *const *blocked,
		     size_t nblocked)
{
	pid_t tgid = pick->tgid, root = recorder_root(w->rec, tgid);
	/* --on's look, each second, runs its rules alone: the whole
	 * diagnosis only once they found something. */
	bool look = rules != RC_RULES_ALL;
	struct diagnose_opts dopts = { .rules = rules, .input = DIAGNOSE_LIVE };
	struct rc_diagnosis dg;
	struct rc_report rep = {
		.kind = "watch", .trigger = trigger, .window = w->window, .pid = tgid, .cgroup = w->cgroup,
		.backend = "ebpf",
	};
	struct strbuf json = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;

	diagnose_init(&dg, &dopts);
	rep.events = recorder_each(w->rec, pick, feed, &dg);
	for (size_t i = 0; i < nblocked; i++) {
		struct rc_event *c = event_copy(blocked[i], NULL);
		diagnose_event(&dg, c);
		event_copy_free(c);
	}
	rep.events += nblocked;
	double mono = clock_s(CLOCK_MONOTONIC);
	struct capture_counts holes = {
		.window = recorder_holes(w->rec, root),
		.unrecorded = budget_unrecorded(&w->budget, mono - w->window, mono),
		.max_call_rate = w->budget.max_rate,
	};
	diagnose_losses(&dg, &holes);
	if (!w->where)
		diagnose_no_stacks(&dg, "--no-stacks");
	diagnose_finish(&dg, &rep);
	const struct rc_report_finding *f = incident_cause(w, kind, &dg.findings, tgid, tids, ntids);
	struct rc_report_finding bare;
	struct strbuf bare_text = STRBUF_INIT;
	if (!f && !look && strcmp(kind, "exit") == 0)
		f = bare_exit(&bare, &bare_text, &dg, tgid);
	double now = clock_s(CLOCK_MONOTONIC);
	uint64_t sig = f ? report_signature(f, NULL) : 0;
	if (look) {
		diagnose_release(&dg);
		strbuf_release(&bare_text);
		if (f && !told_already(w, root, sig, now))
			incident(w, kind, RC_RULES_ALL, pick, tids, ntids, trigger, blocked, nblocked);
		return;
	}
	char said[160];
	if (f && !trigger) {
		/* A stall: the wait the cause is about, else the first. */
		const struct rc_event *b = blocked[0];
		for (size_t i = 0; i < nblocked; i++)
			if (blocked[i]->pid == (f->tid > 0 ? f->tid : f->pid))
				b = blocked[i];
		snprintf(said, sizeof(said), "thread %d of pid %d inside %s for %.1f s", b->pid, (int)tgid,
			 b->name ? b->name : "a call", b->dur);
		rep.trigger = said;
	}
	/* A look's find was told just now (told_already noted it). */
	if (f && (strcmp(kind, "stall") != 0 || !told_already(w, root, sig, now))) {
		report_json(&rep, &json);
		report_text(&rep, &text, false, false);
		struct store_incident in = {
			.signature = sig, .time = (long long)time(NULL), .pid = tgid, .json = json.buf,
			.text = text.buf,
		};
		struct store_seen seen;
		int r = store_incident(w->dir, &w->cfg, &in, &seen, &err);
		tell(w, kind, &rep, f, sig, &seen, r < 0 ? err.buf : NULL);
		w->incidents++;
	}
	diagnose_release(&dg);
	strbuf_release(&bare_text);
	strbuf_release(&json);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void on_event(void *user, struct rc_event *e)
{
	struct watcher *w = user;

	if (w->taking) {
		/* The stall's call: for its incident alone, not the window
		 * (its own event comes when it returns). */
		if (e->blocked && !w->blocked)
			w->blocked = event_copy(e, NULL);
		return;
	}
	pid_t tgid = recorder_add(w->rec, e, clock_s(CLOCK_REALTIME));
	w->events_since_on++;
	if (e->kind != RC_EV_EXIT || e->pid != tgid)
		return;
	/* What follows an end (a restart) is recorded whole. */
	budget_wake(&w->budget);
	if (w->where)
		where_forget(w->where, tgid);
	bool failed = e->exited ? e->exit_code != 0 : !clean_signal(e->signo);
	if (!failed)
		return;
	/* A parent that fails after its child did passes the failure on:
	 * one incident, which shows it. A sibling's failure is its own. */
	for (size_t i = 0; i < w->npend; i++) {
		if (recorder_within(w->rec, w->pend[i].tgid, tgid)) {
			w->pend[i].upto = recorder_seq(w->rec);
			return;
		}
	}
	if (w->npend == PENDING_MAX) {
		w->unsettled++;
		return;
	}
	if (w->npend == w->pend_alloc) {
		w->pend_alloc = w->pend_alloc ? 2 * w->pend_alloc : 16;
		w->pend = xrealloc(w->pend, w->pend_alloc * sizeof(*w->pend));
	}
	struct pending *p = &w->pend[w->npend++];
	p->tgid = tgid;
	p->due = clock_s(CLOCK_MONOTONIC) + SETTLE_S;
	p->upto = recorder_seq(w->rec);
	if (e->exited)
		snprintf(p->what, sizeof(p->what), "pid %d exited with %d", (int)tgid, e->exit_code);
	else
		snprintf(p->what, sizeof(p->what), "pid %d was killed by %s", (int)tgid, dec_signame(e->signo));
}

/* The exits whose settling time is up (all of them when ALL). */
static void flush_pending(struct watcher *w, double now, bool all)
{
	for (size_t i = 0; i < w->npend;) {
		if (!all && w->pend[i].due > now) {
			i++;
			continue;
		}
		/* In the order they failed: a crash loop's counts go up. */
		struct pending p = w->pend[i];
		memmove(&w->pend[i], &w->pend[i + 1], (--w->npend - i) * sizeof(*w->pend));
		struct recorder_pick pick = { p.tgid, true, p.upto };
		incident(w, "exit", RC_RULES_ALL, &pick, NULL, 0, p.what, NULL, 0);
	}
}

struct stall_found {
	pid_t tgid, tid;
	double since;
};

struct look_ctx {
	struct watcher *w;
	double now;
	struct stall_found *v;
	size_t n, alloc;
};

static void stalled(void *user, pid_t tgid, pid_t tid, double since)
{
	struct look_ctx *lc = user;

	if (lc->n == lc->alloc) {
		lc->alloc = lc->alloc ? 2 * lc->alloc : 8;
		lc->v = xrealloc(lc->v, lc->alloc * sizeof(*lc->v));
	}
	lc->v[lc->n++] = (struct stall_found){ tgid, tid, since };
}

static void look_one(void *user, pid_t tgid)
{
	struct look_ctx *lc = user;

	stall_look(lc->w->stall, tgid, lc->now, stalled, lc);
}

/* Thread S's call, and those of the other threads of its process that
 * have waited a while, as blocked events, into *V. */
static void take_blocked(struct watcher *w, struct session_tick *tick, const struct stall_found *s,
			 struct rc_event ***v, pid_t **tids, size_t *n, size_t *alloc)
{
	w->taking = true;
	bool in = session_blocked_now(tick, s->tgid, s->tid, s->since);
	w->taking = false;
	if (!in || !w->blocked)
		return;
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		*v = xrealloc(*v, *alloc * sizeof(**v));
		*tids = xrealloc(*tids, *alloc * sizeof(**tids));
	}
	(*v)[*n] = w->blocked;
	(*tids)[(*n)++] = s->tid;
	w->blocked = NULL;
}

static void look_for_stalls(struct watcher *w, struct session_tick *tick, double now)
{
	struct look_ctx lc = { w, now, NULL, 0, 0 };

	recorder_each_process(w->rec, look_one, &lc);
	stall_sweep(w->stall);
	for (size_t i = 0; i < lc.n; i++) {
		struct stall_found *s = &lc.v[i];
		if (!s->tid)
			continue;	/* taken with an earlier one of its process */
		struct rc_event **v = NULL;
		pid_t *tids = NULL;
		size_t n = 0, alloc = 0, nstalled;
		/* The process's stalls of this look, and its other waits of a
		 * second or more: the diagnosis links them (who holds what
		 * the others wait for). */
		for (size_t k = i; k < lc.n; k++) {
			if (lc.v[k].tgid != s->tgid || !lc.v[k].tid)
				continue;
			take_blocked(w, tick, &lc.v[k], &v, &tids, &n, &alloc);
			if (k != i)
				lc.v[k].tid = 0;
		}
		nstalled = n;
		struct look_ctx others = { w, now, NULL, 0, 0 };
		stall_others(w->stall, s->tgid, now, 1.0, stalled, &others);
		for (size_t k = 0; k < others.n; k++)
			take_blocked(w, tick, &others.v[k], &v, &tids, &n, &alloc);
		free(others.v);
		if (nstalled) {
			struct recorder_pick pick = { s->tgid, false, 0 };
			incident(w, "stall", RC_RULES_ALL, &pick, tids, n, NULL, v, n);
		}
		for (size_t k = 0; k < n; k++)
			event_copy_free(v[k]);
		free(v);
		free(tids);
	}
	free(lc.v);
}

/* --on: each tree's window, diagnosed for those rules. */
static void root_of(void *user, pid_t tgid)
{
	struct watcher *w = ((void **)user)[0];
	struct hmap *roots = ((void **)user)[1];

	hmap_put_int(roots, recorder_root(w->rec, tgid), NULL);
}

static void check_rules(struct watcher *w)
{
	struct hmap roots = HMAP_INIT;
	struct hmap_iter it;
	void *ctx[2] = { w, &roots };

	recorder_each_process(w->rec, root_of, ctx);
	for (struct hmap_node *nd = hmap_first(&roots, &it); nd; nd = hmap_next(&roots, &it)) {
		pid_t root = (pid_t)hmap_node_int(nd);
		char what[96];
		snprintf(what, sizeof(what), "a rule of --on found it in pid %d and the processes below it", (int)root);
		struct recorder_pick pick = { root, false, 0 };
		incident(w, "rule", w->on, &pick, NULL, 0, what, NULL, 0);
	}
	hmap_release(&roots, NULL);
}

/* --max-call-rate: the calls' record paused, or taken up again, as the
 * budget says (watch/budget.h). */
static void pace_calls(struct watcher *w, struct session_tick *tick, double now)
{
	if (w->budget.max_rate <= 0)
		return;
	uint64_t calls = budget_wants_calls(&w->budget, now) ? session_calls_seen(tick) : 0;
	enum budget_do what = budget_tick(&w->budget, now, calls, session_starts(tick));
	if (what == BUDGET_KEEP)
		return;
	struct strbuf err = STRBUF_INIT;
	bool ok = session_record_calls(tick, what == BUDGET_RESUME, &err) == 0;
	budget_done(&w->budget, what, now, ok);
	if (!ok)
		error_msg("%s", err.buf);
	else if (what == BUDGET_PAUSE && !w->said_pause) {
		/* Said once: a crash loop above the rate would say it at
		 * each restart. The summary counts them. */
		fprintf(stderr, "rootcause: the watched processes make %.0f calls a second, above "
			"--max-call-rate %.0f: their calls are not recorded until one of them starts or ends "
			"(exits, signals and stalls still are)\n", w->budget.rate, w->budget.max_rate);
		w->said_pause = true;
	}
	strbuf_release(&err);
}

/* The reader woke: a process that started while the calls were not
 * recorded has them recorded again before its records are read (its
 * exec's, whose program is looked at, would delay it past its first
 * calls). */
static void on_wake(void *user, struct session_tick *tick)
{
	pace_calls(user, tick, clock_s(CLOCK_MONOTONIC));
}

static void on_tick(void *user, struct session_tick *tick)
{
	struct watcher *w = user;
	double now = clock_s(CLOCK_MONOTONIC);

	/* Said once the capture runs: from here, nothing is missed. */
	if (w->hello) {
		fputs(w->hello, stderr);
		w->hello = NULL;
		/* Under systemd (Type=notify), the unit watched starts now. */
		systemd_notify("READY=1");
	}
	flush_pending(w, now, false);
	pace_calls(w, tick, now);
	if (now >= w->next_look) {
		look_for_stalls(w, tick, now);
		w->next_look = now + LOOK_EVERY_S;
	}
	if (w->on && now >= w->next_on && w->events_since_on) {
		check_rules(w);
		w->events_since_on = 0;
		w->next_on = now + ON_EVERY_S;
	}
	if (w->cg && now >= w->next_scan) {
		pid_t *pids = NULL;
		size_t n = cgroup_procs(w->cg, &pids, CGROUP_PIDS_MAX);
		for (size_t i = 0; i < n; i++)
			if (!recorder_knows(w->rec, pids[i]))
				session_follow_now(tick, pids[i]);
		free(pids);
		w->next_scan = now + SCAN_EVERY_S;
	}
	if (now >= w->next_age) {
		recorder_age(w->rec, clock_s(CLOCK_REALTIME));
		w->next_age = now + 1;
	}
}

static const struct rc_stack *on_stack(void *user, pid_t tgid, pid_t tid, const struct rc_event *e,
				       const struct rc_stack_copy *copy)
{
	struct watcher *w = user;

	return w->where ? where_at_exit(w->where, tgid, tid, e, copy) : NULL;
}

static bool on_program(void *user, const char *path, struct rc_py_program *out)
{
	struct watcher *w = user;

	return w->where && where_program(w->where, path, out);
}

/* systemd's unit NAME, as its cgroup: where systemd runs, the unit's
 * control group, in the slice its unit file names (Slice=: a search of
 * the tree when not the usual ones). A service not started yet is
 * watched for under /system.slice (its id 0), where systemd makes its
 * cgroup when it starts: rootcause-watch@.service starts before its
 * unit, so that the unit's first start is watched too. */
static bool unit_cgroup(const char *name, struct cgroup_dir *cg, struct strbuf *err)
{
	struct stat st;
	char path[512];

	if (stat("/run/systemd/system", &st) < 0) {
		strbuf_addf(err, "systemd is not running here (no /run/systemd/system), so unit '%s' has no "
			    "cgroup: name the service's cgroup with --cgroup", name);
		return false;
	}
	bool suffixed = strchr(name, '.') != NULL;
	static const char *const slices[] = { "/system.slice/", "/", "/user.slice/" };
	for (size_t i = 0; i < sizeof(slices) / sizeof(*slices); i++) {
		struct strbuf e2 = STRBUF_INIT;
		snprintf(path, sizeof(path), "%s%s%s", slices[i], name, suffixed ? "" : ".service");
		bool found = cgroup_find(path, cg, &e2);
		strbuf_release(&e2);
		if (found)
			return true;
	}
	snprintf(path, sizeof(path), "%s%s", name, suffixed ? "" : ".service");
	if (!strchr(path, '/')) {
		struct strbuf e2 = STRBUF_INIT;
		int found = cgroup_find_unit(path, cg, &e2);
		/* Two of that name: say so, not watch one for the other. */
		if (found < 0)
			strbuf_adds(err, e2.buf);
		strbuf_release(&e2);
		if (found)
			return found > 0;
	}
	snprintf(path, sizeof(path), "/system.slice/%s%s", name, suffixed ? "" : ".service");
	if (cgroup_to_come(path, cg, err))
		return true;
	strbuf_reset(err);
	strbuf_addf(err, "unit '%s%s' has no cgroup under /system.slice, nor can it have one", name,
		    suffixed ? "" : ".service");
	return false;
}

static bool parse_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v > 0) || v > 1e6 || (*end && strcmp(end, "s") != 0)) {
		error_msg("invalid time '%s' (seconds, e.g. 5 or 0.5)", s);
		return false;
	}
	*out = v;
	return true;
}

/* The store: made when missing (private: reports quote what programs
 * did), its limits from its config unless given. */
static int open_store(const char *dir, struct store_config *cfg, const struct store_config *given,
		      const bool *set)
{
	struct strbuf err = STRBUF_INIT;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		error_msg("cannot make store '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (access(dir, W_OK) < 0) {
		error_msg("cannot write to store '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (store_config_load(dir, cfg, &err) < 0) {
		error_msg("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	if (set[0])
		cfg->keep = given->keep;
	if (set[1])
		cfg->max_age_days = given->max_age_days;
	if (set[2])
		cfg->max_size = given->max_size;
	if (set[3])
		cfg->keep_free = given->keep_free;
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "stall", required_argument, NULL, OPT_STALL },
		{ "on", required_argument, NULL, OPT_ON },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "window-size", required_argument, NULL, OPT_WINDOW_SIZE },
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "max-age", required_argument, NULL, OPT_MAX_AGE },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "keep-free", required_argument, NULL, OPT_KEEP_FREE },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "all-calls", no_argument, NULL, OPT_ALL_CALLS },
		{ "max-call-rate", required_argument, NULL, OPT_MAX_CALL_RATE },
		{ "ring-size", required_argument, NULL, OPT_RING_SIZE },
		{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	struct backend_opts bk = BACKEND_OPTS_INIT;
	const char *cgroup = NULL, *unit = NULL, *dir_opt = NULL;
	double stall = 5, window = 30, duration = 0, max_call_rate = 100000;
	uint64_t window_bytes = 32ULL << 20, on = 0, v;
	struct store_config given;
	bool set[4] = { false }, all_calls = false;
	int opt, done;
	struct strbuf err = STRBUF_INIT;

	report_opts_init(&ro);
	store_config_default(&given);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "+o:vh", longopts, &ro, watch_usage, &done)) != -1) {
		switch (opt) {
		case RC_OPTS_EXIT:
			return done;
		case OPT_CGROUP:
			cgroup = optarg;
			continue;
		case OPT_UNIT:
			unit = optarg;
			continue;
		case OPT_DIR:
			dir_opt = optarg;
			continue;
		case OPT_ALL_CALLS:
			all_calls = true;
			continue;
		case OPT_MAX_CALL_RATE: {
			char *end;
			errno = 0;
			max_call_rate = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(max_call_rate >= 0) || max_call_rate > 1e12) {
				error_msg("invalid rate '%s' (calls a second; 0: always record)", optarg);
				return RC_EXIT_USAGE;
			}
			continue;
		}
		case OPT_STALL:
		case OPT_WINDOW:
		case OPT_DURATION:
			if (!parse_seconds(optarg, opt == OPT_STALL ? &stall : opt == OPT_WINDOW ? &window : &duration))
				return RC_EXIT_USAGE;
			continue;
		case OPT_WINDOW_SIZE:
			if (!parse_size(optarg, &window_bytes)) {
				error_msg("invalid size '%s' (bytes, or with K, M or G)", optarg);
				return RC_EXIT_USAGE;
			}
			if (window_bytes < (1ULL << 20)) {
				error_msg("--window-size '%s' is too small (1M at least)", optarg);
				return RC_EXIT_USAGE;
			}
			continue;
		case OPT_ON:
			if (rule_pick("--on", optarg, &on, &err) < 0) {
				error_msg("%s", err.buf);
				strbuf_release(&err);
				return RC_EXIT_USAGE;
			}
			continue;
		case OPT_KEEP:
		case OPT_MAX_AGE:
			if (!parse_size(optarg, &v) || v > 1000000) {
				error_msg("invalid number '%s'", optarg);
				return RC_EXIT_USAGE;
			}
			*(opt == OPT_KEEP ? &given.keep : &given.max_age_days) = (unsigned)v;
			set[opt == OPT_KEEP ? 0 : 1] = true;
			continue;
		case OPT_MAX_SIZE:
		case OPT_KEEP_FREE:
			if (!parse_size(optarg, opt == OPT_MAX_SIZE ? &given.max_size : &given.keep_free)) {
				error_msg("invalid size '%s' (bytes, or with K, M or G)", optarg);
				return RC_EXIT_USAGE;
			}
			set[opt == OPT_MAX_SIZE ? 2 : 3] = true;
			continue;
		case OPT_RING_SIZE:
		case OPT_NO_STACKS:
			if (backend_getopt(opt, optarg, &bk) < 0)
				return RC_EXIT_USAGE;
			continue;
		}
	}
	int npids = argc - optind;
	if ((cgroup != NULL) + (unit != NULL) + (npids > 0) != 1) {
		error_msg("watch: name one of --cgroup PATH, --unit NAME or PIDs");
		fputs(watch_usage, stderr);
		return RC_EXIT_USAGE;
	}
	if (ro.format != RC_FORMAT_TEXT && ro.format != RC_FORMAT_JSON) {
		error_msg("watch: --format is text or json (one incident per line)");
		return RC_EXIT_USAGE;
	}
	if (ro.output && ro.format != RC_FORMAT_JSON) {
		error_msg("watch: -o takes the JSON lines of --format json; the reports go to the store");
		return RC_EXIT_USAGE;
	}
	pid_t *pids = NULL;
	size_t n = 0;
	struct cgroup_dir cg;
	if (npids) {
		pids = xcalloc((size_t)npids, sizeof(*pids));
		for (int i = 0; i < npids; i++) {
			char *end;
			long pid = strtol(argv[optind + i], &end, 10);
			if (*end || end == argv[optind + i] || pid <= 0 || pid > 0x3fffffff) {
				error_msg("invalid pid '%s'", argv[optind + i]);
				free(pids);
				return RC_EXIT_USAGE;
			}
			pids[n++] = (pid_t)pid;
		}
	} else {
		bool found = cgroup ? cgroup_find(cgroup, &cg, &err) : unit_cgroup(unit, &cg, &err);
		if (!found) {
			error_msg("%s", err.buf);
			strbuf_release(&err);
			return RC_EXIT_INPUT;
		}
		n = cgroup_procs(&cg, &pids, CGROUP_PIDS_MAX);
	}

	struct watcher w = {
		.window = window, .on = on, .cgroup = npids ? NULL : cg.name, .cg = npids ? NULL : &cg,
	};
	budget_init(&w.budget, max_call_rate);
	struct strbuf dir = STRBUF_INIT, pat = STRBUF_INIT;
	if (dir_opt)
		strbuf_adds(&dir, dir_opt);
	else if (store_read_pattern(&pat, &err) < 0 || !store_dir_of_pattern(pat.buf, &dir))
		strbuf_adds(&dir, STORE_DEFAULT_DIR);
	strbuf_reset(&err);
	w.dir = dir.buf;
	int status = RC_EXIT_INPUT;
	if (open_store(w.dir, &w.cfg, &given, set) < 0)
		goto out;
	if (ro.format == RC_FORMAT_JSON) {
		if (!ro.output) {
			w.jsonl = stdout;
		} else {
			int fd = open(ro.output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
			w.jsonl = fd >= 0 ? fdopen(fd, "a") : NULL;
			if (!w.jsonl) {
				error_msg("cannot write '%s': %s", ro.output, strerror(errno));
				if (fd >= 0)
					close(fd);
				goto out;
			}
		}
	}
	struct recorder_opts rop = {
		.window = window,
		.total_bytes = window_bytes,
		.process_bytes = window_bytes / 8 > (1ULL << 20) ? window_bytes / 8 : (1ULL << 20),
	};
	w.rec = recorder_new(&rop);
	w.stall = stall_new(stall);
	w.where = bk.no_stacks ? NULL : where_new();

	/* A unit's cgroup is made anew at each restart: followed by its
	 * path under its parent, which stays. */
	uint64_t parent_id = 0;
	if (!npids && cg.level > 0) {
		char parent[sizeof(cg.path)];
		struct stat st;
		snprintf(parent, sizeof(parent), "%s", cg.path);
		char *slash = strrchr(parent, '/');
		if (slash)
			*slash = '\0';
		if (slash && stat(parent, &st) == 0)
			parent_id = st.st_ino;
	}
	unsigned char *sel = trace_selection(NULL);
	struct session_opts so = {
		.backend = BACKEND_EBPF,
		.ring_bytes = bk.ring_bytes,
		.pid = n ? pids[0] : 0,
		.more_pids = n > 1 ? pids + 1 : NULL,
		.nmore = n > 1 ? n - 1 : 0,
		.cgroup_id = npids ? 0 : cg.id,
		.cgroup_level = npids ? 0 : cg.level,
		.cgroup_path = parent_id ? cg.name : NULL,
		.cgroup_parent = parent_id,
		.cgroup_only = !npids,
		.duration = duration,
		.follow = true,
		.keep_on = !npids,
		.pausable = max_call_rate > 0,
		.quiet = !all_calls,
		/* A rule the user named that counts repeats sees them all. */
		.quiet_repeats = !(on && (on_rule(on, "repeated-open") || on_rule(on, "small-io"))),
		.select = sel,
		.dec = { .strsize = 1024, .preview_max = RC_EVENT_DATA_MAX },
		.on_event = on_event,
		.on_stack = w.where ? on_stack : NULL,
		.on_program = on_program,
		.on_tick = on_tick,
		.on_wake = max_call_rate > 0 ? on_wake : NULL,
		.user = &w,
	};
	struct strbuf hello = STRBUF_INIT;
	if (npids || n)
		strbuf_addf(&hello, "rootcause: watching %s%s (%zu process%s); incidents go to %s\n",
			    npids ? "pid " : "cgroup ", npids ? argv[optind] : cg.name, n, n == 1 ? "" : "es", w.dir);
	else
		strbuf_addf(&hello, "rootcause: watching cgroup %s (%s); incidents go to %s\n", cg.name,
			    cg.id ? "empty for now" : "made when its unit starts", w.dir);
	w.hello = hello.buf;
	struct session_result res;
	if (session_run(&so, &res, &err) < 0) {
		if (res.no_ebpf)
			error_msg("%s; watch needs the eBPF capture: run it as root, or with CAP_BPF and "
				  "CAP_PERFMON (it never falls back to ptrace, which would stop the service at its "
				  "calls)", err.buf);
		else
			error_msg("%s", err.buf);
	} else {
		flush_pending(&w, clock_s(CLOCK_MONOTONIC), true);
		struct recorder_stats st;
		recorder_stats(w.rec, &st);
		fprintf(stderr, "rootcause: watched for %.0f s: %llu incident%s, %llu events", res.seconds,
			(unsigned long long)w.incidents, w.incidents == 1 ? "" : "s",
			(unsigned long long)res.events);
		if (res.summed)
			fprintf(stderr, " (%llu of them summed in the kernel)", (unsigned long long)res.summed);
		if (session_losses(&res))
			fprintf(stderr, ", %llu records lost by the ring buffer",
				(unsigned long long)session_losses(&res));
		if (res.quiet_calls)
			fprintf(stderr, " and %llu quiet calls counted", (unsigned long long)res.quiet_calls);
		if (st.dropped)
			fprintf(stderr, ", %llu dropped from windows", (unsigned long long)st.dropped);
		double mono = clock_s(CLOCK_MONOTONIC);
		double unrecorded = budget_unrecorded(&w.budget, mono - res.seconds, mono);
		if (w.budget.pauses)
			fprintf(stderr, ", calls not recorded for %.0f s (%llu time%s above --max-call-rate)", unrecorded,
				(unsigned long long)w.budget.pauses, w.budget.pauses == 1 ? "" : "s");
		if (w.unsettled)
			fprintf(stderr, ", %llu failed exits not told (more than %d at once)",
				(unsigned long long)w.unsettled, PENDING_MAX);
		fputc('\n', stderr);
		status = RC_EXIT_OK;
	}
	free(sel);
	strbuf_release(&hello);
	recorder_free(w.rec);
	stall_free(w.stall);
	where_free(w.where);
out:
	if (w.jsonl && w.jsonl != stdout)
		fclose(w.jsonl);
	free(pids);
	free(w.pend);
	strbuf_release(&dir);
	strbuf_release(&pat);
	strbuf_release(&err);
	return status;
}
