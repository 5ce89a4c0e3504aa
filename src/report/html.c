/* The HTML report: one self-contained page, with its styles and script
 * inline and nothing fetched, that works opened from disk. It says what
 * the text report says (the verdict: each cause with its consequences,
 * the processes, the stacks) as static HTML, readable without the script,
 * and carries the timeline's events as JSON for the script to draw
 * (report/html/timeline.js): a row per thread, a bar per kept call, the
 * rest as counts. Findings and the calls they quote are linked both ways
 * by the calls' positions (data-seq). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/syscalls.h"
#include "gen/html_assets.h"
#include "gen/tables.h"
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

/* Processes listed at most, as in the JSON report; deeper trees are
 * drawn flat from this depth on. */
#define HTML_MAX_PROCS 1000
#define HTML_MAX_DEPTH 64
/* Causes listed before the rest are folded under "N more". */
#define HTML_CAUSES_SHOWN 8
/* argv shown per process, in bytes. */
#define HTML_ARGV_MAX 160

static void esc(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': strbuf_adds(sb, "&amp;"); break;
		case '<': strbuf_adds(sb, "&lt;"); break;
		case '>': strbuf_adds(sb, "&gt;"); break;
		case '"': strbuf_adds(sb, "&quot;"); break;
		case '\'': strbuf_adds(sb, "&#39;"); break;
		default:
			/* Control bytes are not text; a terminal's escapes in a
			 * program's output would show as garbage. */
			if ((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t')
				strbuf_addf(sb, "\\x%02x", (unsigned char)s[i]);
			else
				strbuf_addc(sb, s[i]);
		}
	}
}

static void escs(struct strbuf *sb, const char *s)
{
	esc(sb, s, strlen(s));
}

static void add_argv(struct strbuf *sb, char *const *argv, int argc)
{
	struct strbuf a = STRBUF_INIT;

	report_add_argv(&a, argv, argc, HTML_ARGV_MAX);
	esc(sb, a.buf ? a.buf : "", a.len);
	strbuf_release(&a);
}

static const char *sev_class(enum rc_severity s)
{
	return s == RC_SEV_ERROR ? "error" : s == RC_SEV_WARNING ? "warning" : "note";
}

/* Stack S in a line, with every frame folded under it. */
static void stack_html(struct strbuf *sb, const char *lead, const struct rc_stack *s, uint64_t count)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_adds(sb, "<details class=\"stack\"><summary>");
	escs(sb, lead);
	report_stack_line(s, &t);
	if (count)
		strbuf_addf(&t, ": %llu call%s", (unsigned long long)count, count == 1 ? "" : "s");
	esc(sb, t.buf, t.len);
	strbuf_adds(sb, "</summary><pre>");
	strbuf_reset(&t);
	report_stack_lines(s, "", &t);
	esc(sb, t.buf, t.len);
	strbuf_adds(sb, "</pre></details>");
	strbuf_release(&t);
}

/* Where in the code, beside the evidence: the quoted call's stack, or
 * the sites of a sum. */
static void code_html(struct strbuf *sb, const struct rc_report_finding *f)
{
	if (f->stack && !f->stack->missing && (f->stack->npy || f->stack->nnative))
		stack_html(sb, "at ", f->stack, 0);
	const char *who = f->holder_tid > 0 ? "thread" : "process";
	int holder = f->holder_tid > 0 ? f->holder_tid : f->holder_pid;
	if (holder > 0 && f->holder_stack && !f->holder_stack->missing) {
		char lead[64];
		snprintf(lead, sizeof(lead), "held by %s %d, at ", who, holder);
		stack_html(sb, lead, f->holder_stack, 0);
	} else if (holder > 0) {
		strbuf_addf(sb, "<div class=\"stack\">held by %s %d</div>", who, holder);
	}
	for (int i = 0; i < f->nsites; i++)
		stack_html(sb, i ? "and " : "from ", f->sites[i].stack, f->sites[i].count);
	if (f->nsites && f->sites_other)
		strbuf_addf(sb, "<div class=\"stack\">and %llu calls from other sites</div>",
			    (unsigned long long)f->sites_other);
}

static void finding_li(struct strbuf *sb, const struct rc_report *r, const struct report_links *links, size_t i)
{
	const struct rc_report_finding *f = r->findings->v[i];
	const struct rc_tl_event *const *evs = links->ev[i];
	size_t nev = 0;
	char id[32];

	for (size_t k = 0; k < RC_EVIDENCE_MAX; k++)
		nev += evs[k] != NULL;
	report_finding_id(i, id, sizeof(id));
	strbuf_addf(sb, "<li class=\"finding sev-%s%s\" id=\"%s\" data-id=\"%s\" tabindex=\"0\">",
		    sev_class(f->severity), f->cause ? " consequence" : "", id, id);
	strbuf_addf(sb, "<div class=\"fhead\"><span class=\"sev\">%s</span> <span class=\"summary\">",
		    sev_class(f->severity));
	escs(sb, f->summary);
	strbuf_addf(sb, "</span> <span class=\"rule\">[%s]</span>", f->rule);
	if (nev)
		strbuf_addf(sb, " <span class=\"onmap\" title=\"click to see it on the timeline\">%zu on the "
			    "timeline</span>", nev);
	strbuf_adds(sb, "</div>");
	if (f->pid > 0) {
		struct strbuf where = STRBUF_INIT;
		report_finding_where(r, f, &where);
		strbuf_adds(sb, "<div class=\"where\">");
		esc(sb, where.buf, where.len);
		strbuf_adds(sb, "</div>");
		strbuf_release(&where);
	}
	if (f->host_path) {
		strbuf_adds(sb, "<div class=\"where\">'");
		escs(sb, f->path);
		strbuf_adds(sb, "' is '");
		escs(sb, f->host_path);
		strbuf_adds(sb, "' on this machine: the process saw it in a root of its own</div>");
	}
	if (f->message && strcmp(f->message, f->summary) != 0) {
		strbuf_adds(sb, "<div class=\"message\">message: ");
		escs(sb, f->message);
		strbuf_adds(sb, "</div>");
	}
	if (f->nevidence) {
		strbuf_adds(sb, "<ul class=\"evidence\">");
		for (int e = 0; e < f->nevidence; e++) {
			/* The event this line quotes, if the timeline has it. */
			const struct rc_tl_event *ev = evs[e];
			if (ev)
				strbuf_addf(sb, "<li class=\"linked\" data-seq=\"%llu\">", (unsigned long long)ev->seq);
			else
				strbuf_adds(sb, "<li>");
			escs(sb, f->evidence[e]);
			strbuf_adds(sb, "</li>");
		}
		strbuf_adds(sb, "</ul>");
	}
	code_html(sb, f);
	if (f->advice) {
		strbuf_adds(sb, "<div class=\"advice\">advice: ");
		escs(sb, f->advice);
		strbuf_adds(sb, "</div>");
	}
	if (f->nnow) {
		struct strbuf now = STRBUF_INIT;
		report_finding_now(f, &now);
		strbuf_adds(sb, "<div class=\"now\">");
		escs(sb, now.buf);
		strbuf_adds(sb, "</div>");
		strbuf_release(&now);
	}
}

/* Each cause, in rank order, with its consequences nested under it;
 * past HTML_CAUSES_SHOWN, and notes (info causes), folded away. */
static void verdict(struct strbuf *sb, const struct rc_report *r, const struct report_links *links)
{
	const struct rc_report_findings *list = r->findings;
	struct strbuf tally = STRBUF_INIT;
	size_t notes = 0, causes = 0, shown = 0;

	for (size_t i = 0; list && i < list->count; i++)
		causes += !list->v[i]->cause && list->v[i]->severity != RC_SEV_INFO;

	report_text_tally(list, &tally, true);
	strbuf_adds(sb, "<section id=\"verdict\"><h2>Verdict</h2><p class=\"tally\">");
	esc(sb, tally.buf ? tally.buf : "", tally.len ? tally.len - 1 : 0);
	strbuf_adds(sb, "</p>\n");
	strbuf_release(&tally);
	for (int pass = 0; pass < 2; pass++) {
		bool open = false;
		for (size_t i = 0; list && i < list->count; i++) {
			const struct rc_report_finding *f = list->v[i];
			if (f->cause || (f->severity == RC_SEV_INFO) != (pass == 1))
				continue;
			if (!open) {
				if (pass == 1) {
					for (size_t k = i; k < list->count; k++)
						notes += !list->v[k]->cause && list->v[k]->severity == RC_SEV_INFO;
					strbuf_addf(sb, "<details class=\"notes\"><summary>%zu note%s (findings of "
						    "little consequence)</summary>", notes, notes == 1 ? "" : "s");
				}
				strbuf_adds(sb, "<ol class=\"findings\">");
				open = true;
			}
			if (pass == 0 && shown++ == HTML_CAUSES_SHOWN)
				strbuf_addf(sb, "</ol><details class=\"more\"><summary>%zu more</summary>"
					    "<ol class=\"findings\">", causes - HTML_CAUSES_SHOWN);
			finding_li(sb, r, links, i);
			if (f->nconsequences) {
				strbuf_adds(sb, "<div class=\"ledto\">led to:</div><ul class=\"consequences\">");
				for (size_t k = i + 1; k < list->count && list->v[k]->cause == f; k++) {
					finding_li(sb, r, links, k);
					strbuf_adds(sb, "</li>");
				}
				strbuf_adds(sb, "</ul>");
			}
			strbuf_adds(sb, "</li>\n");
		}
		if (open)
			strbuf_adds(sb, pass == 1 || shown > HTML_CAUSES_SHOWN ? "</ol></details>\n" : "</ol>\n");
	}
	if (!list || !list->count)
		strbuf_adds(sb, "<p>No findings.</p>\n");
	strbuf_adds(sb, "</section>\n");
}

struct tree {
	struct rc_proc **v;
	size_t n;
	bool *shown;
	size_t nshown;
};

static void proc_line(struct strbuf *sb, const struct rc_proc *p)
{
	strbuf_addf(sb, "<span class=\"pid\">%d</span> ", p->pid);
	if (p->argv)
		add_argv(sb, p->argv, p->argc);
	else if (p->exe)
		escs(sb, p->exe);
	else
		strbuf_adds(sb, "<span class=\"dim\">(argv not in the trace)</span>");
	/* Its number in its own pid namespace (a container's). */
	if (p->ns_pid > 0)
		strbuf_addf(sb, " <span class=\"dim\">(pid %d there)</span>", p->ns_pid);
	if (p->ended && p->exited)
		strbuf_addf(sb, " <span class=\"exit%s\">exit %d</span>", p->exit_code ? " bad" : "", p->exit_code);
	else if (p->ended && p->signo)
		strbuf_addf(sb, " <span class=\"exit bad\">killed by %s%s</span>",
			    xlat_name(&rc_xlat_signal, p->signo) ?: "a signal", p->core_dumped ? " (core dumped)" : "");
	else
		strbuf_adds(sb, " <span class=\"dim\">running when the trace ended</span>");
	double end = p->ended ? p->end_ts : p->last_ts;
	if (p->first_ts >= 0 && end >= p->first_ts)
		strbuf_addf(sb, " <span class=\"dim\">%.3f s</span>", end - p->first_ts);
}

static void proc_subtree(struct strbuf *sb, struct tree *t, size_t i, int depth)
{
	const struct rc_proc *p = t->v[i];

	t->shown[i] = true;
	t->nshown++;
	strbuf_adds(sb, "<li>");
	proc_line(sb, p);
	bool open = false;
	for (size_t k = 0; k < t->n && t->nshown < HTML_MAX_PROCS; k++) {
		const struct rc_proc *c = t->v[k];
		if (t->shown[k] || c->is_thread || !c->has_parent || c->ppid != p->pid)
			continue;
		if (depth >= HTML_MAX_DEPTH) {
			/* Drawn by the caller's loop, flat. */
			continue;
		}
		if (!open)
			strbuf_adds(sb, "<ul>");
		open = true;
		proc_subtree(sb, t, k, depth + 1);
	}
	if (open)
		strbuf_adds(sb, "</ul>");
	strbuf_adds(sb, "</li>");
}

static void processes(struct strbuf *sb, const struct rc_procs *m)
{
	struct tree t;
	t.v = procs_sorted(m, &t.n);
	t.shown = xcalloc(t.n ? t.n : 1, sizeof(bool));
	t.nshown = 0;

	strbuf_adds(sb, "<section id=\"processes\"><h2>Processes</h2><ul class=\"tree\">");
	/* Roots first (no parent the trace showed), then whatever a cap or a
	 * loop in the parents left out. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t.n && t.nshown < HTML_MAX_PROCS; i++) {
			const struct rc_proc *p = t.v[i];
			if (t.shown[i] || p->is_thread || (p->pid <= 0 && !p->argv && !p->ended))
				continue;
			if (pass == 0 && p->has_parent && procs_get(m, p->ppid))
				continue;
			proc_subtree(sb, &t, i, 0);
		}
	strbuf_adds(sb, "</ul>");
	if (m->nforgotten)
		strbuf_addf(sb, "<p class=\"dim\">%zu more processes ended long before the trace did: the "
			    "model forgot them.</p>", m->nforgotten);
	if (t.nshown >= HTML_MAX_PROCS)
		strbuf_addf(sb, "<p class=\"dim\">Only the first %d processes are listed.</p>", HTML_MAX_PROCS);
	strbuf_adds(sb, "</section>\n");
	free(t.shown);
	free(t.v);
}

static void stacks(struct strbuf *sb, const struct rc_report_crash *c)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_adds(sb, "<section id=\"stacks\"><h2>Stacks</h2>");
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct rc_report_thread *t = &c->threads[i];
		strbuf_reset(&text);
		report_thread_text(t, &text, true);
		/* Its first line ("thread N 'name':") is the summary. */
		const char *s = text.buf ? text.buf : "";
		while (*s == '\n')
			s++;
		const char *nl = strchr(s, '\n');
		size_t head = nl ? (size_t)(nl - s) : strlen(s);
		strbuf_addf(sb, "<details class=\"thread%s\" data-tid=\"%d\"%s><summary>", t->crashed ? " crashed" : "",
			    t->tid, t->crashed || i < 8 ? " open" : "");
		esc(sb, s, head);
		strbuf_adds(sb, "</summary><pre>");
		s += head + (nl != NULL);
		while (*s) {
			nl = strchr(s, '\n');
			size_t n = nl ? (size_t)(nl - s) : strlen(s);
			/* The text stack's lines (report/crash.c): "  py     f
			 * (file:line)", "  #3     0x... in f ...", a fold "  #3
			 * f -> g x 1,000 (frames ...)", and notes. */
			const char *cls = "note";
			if (strncmp(s, "  py ", 5) == 0) {
				cls = "py";
			} else if (strncmp(s, "  #", 3) == 0) {
				const char *a = s + 3 + strspn(s + 3, "0123456789");
				a += strspn(a, " ");
				cls = strncmp(a, "0x", 2) == 0 ? "fr" : "fold";
			}
			strbuf_addf(sb, "<span class=\"%s\">", cls);
			esc(sb, s, n);
			strbuf_adds(sb, "</span>\n");
			s += n + (nl != NULL);
		}
		strbuf_adds(sb, "</pre></details>\n");
	}
	strbuf_adds(sb, "</section>\n");
	strbuf_release(&text);
}

/* The names the events use, each once: the data's events refer to them
 * by index. */
struct names {
	struct hmap idx;	/* name -> index + 1 */
	size_t n;
};

static size_t name_index(struct names *nm, const char *name)
{
	bool created;
	void **slot = hmap_put(&nm->idx, name, strlen(name), &created);
	if (created)
		*slot = (void *)(uintptr_t)++nm->n;
	return (size_t)(uintptr_t)*slot - 1;
}

/* The name an event is drawn with: the call, the signal, "exit". */
static const char *event_name(const struct rc_tl_event *ev, char *buf, size_t n)
{
	switch (ev->kind) {
	case RC_EV_SIGNAL: {
		const char *s = xlat_name(&rc_xlat_signal, ev->signo);
		if (s)
			return s;
		snprintf(buf, n, "signal %d", ev->signo);
		return buf;
	}
	case RC_EV_EXIT:
		return "exit";
	default:
		return ev->name ? ev->name : "?";
	}
}

enum {
	DATA_SIGNAL = 1u << 8,
	DATA_EXIT = 1u << 9,
	DATA_LONG = 1u << 10,	/* the slow-syscall threshold */
};

static void data_event(struct json *j, struct names *nm, const struct rc_timeline *tl,
		       const struct rc_tl_event *ev)
{
	char buf[32];
	unsigned flags = ev->flags;
	if (ev->kind == RC_EV_SIGNAL)
		flags |= DATA_SIGNAL;
	if (ev->kind == RC_EV_EXIT)
		flags |= DATA_EXIT;
	if (ev->dur >= RC_EVENT_SLOW_S)
		flags |= DATA_LONG;

	json_begin_array(j);
	json_int(j, (long long)ev->seq);
	json_fixed(j, timeline_x(tl, ev) - tl->first, tl->timed ? 6 : 0);
	json_fixed(j, tl->timed ? ev->dur : -1, 6);
	json_int(j, (long long)name_index(nm, event_name(ev, buf, sizeof(buf))));
	json_int(j, flags);
	const char *err = ev->err ? xlat_errno_name(ev->err) : NULL;
	json_string(j, err ? err : "");
	json_string(j, ev->line ? ev->line : "");
	json_end_array(j);
}

static void data_thread(struct json *j, struct names *nm, const struct rc_report *r,
			const struct rc_tl_thread *t, const struct report_links *links)
{
	const struct rc_timeline *tl = r->timeline;

	json_begin_object(j);
	json_key(j, "tid");
	json_int(j, t->tid);
	json_key(j, "pid");
	json_int(j, t->leader);
	const char *label = report_process_name(r, t->leader);
	json_key(j, "label");
	json_string(j, label ? label : "");
	json_key(j, "calls");
	json_int(j, (long long)t->calls);
	json_key(j, "counted");
	json_int(j, (long long)t->counted);
	json_key(j, "dropped");
	json_int(j, (long long)t->marked.dropped);
	json_key(j, "ev");
	json_begin_array(j);
	size_t nv;
	const struct rc_tl_event **v = report_drawn_events(t, links, &nv);
	for (size_t i = 0; i < nv; i++)
		data_event(j, nm, tl, v[i]);
	free(v);
	json_end_array(j);
	json_key(j, "counts");
	json_begin_array(j);
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&t->counts, &it); n; n = hmap_next(&t->counts, &it)) {
		long nr = (long)hmap_node_int(n);
		const uint32_t *c = n->value;
		const char *name = nr >= 0 ? syscall_name(nr) : NULL;
		json_begin_array(j);
		json_int(j, (long long)name_index(nm, name ? name : "?"));
		json_begin_array(j);
		for (size_t k = 0; k < RC_TL_BUCKETS; k++)
			json_int(j, c[k]);
		json_end_array(j);
		json_end_array(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* The timeline's data: threads with their kept events, the counts of the
 * rest, and each finding's evidence by position. */
static void timeline_data(struct strbuf *sb, const struct rc_report *r, const struct report_links *links)
{
	const struct rc_timeline *tl = r->timeline;
	struct json j;
	struct names nm = { HMAP_INIT, 0 };

	json_init(&j, sb, false);
	j.script_safe = true;
	json_begin_object(&j);
	json_key(&j, "timed");
	json_bool(&j, tl->timed);
	json_key(&j, "span");
	json_fixed(&j, tl->last > tl->first ? tl->last - tl->first : 0, 6);
	json_key(&j, "bucket");
	json_fixed(&j, tl->bucket, 6);
	json_key(&j, "bucket_origin");
	json_fixed(&j, tl->origin - tl->first, 6);
	json_key(&j, "buckets");
	json_int(&j, RC_TL_BUCKETS);
	json_key(&j, "other_threads");
	json_int(&j, (long long)tl->other_threads);
	json_key(&j, "other_calls");
	json_int(&j, (long long)tl->others.calls);
	json_key(&j, "caps");
	json_begin_object(&j);
	json_key(&j, "threads");
	json_int(&j, RC_TL_THREADS);
	json_key(&j, "head");
	json_int(&j, RC_TL_HEAD);
	json_key(&j, "heads");
	json_int(&j, RC_TL_HEADS);
	json_key(&j, "tail");
	json_int(&j, RC_TL_TAIL);
	json_end_object(&j);

	json_key(&j, "findings");
	json_begin_array(&j);
	for (size_t i = 0; r->findings && i < r->findings->count; i++) {
		const struct rc_tl_event *const *evs = links->ev[i];
		char id[32];
		report_finding_id(i, id, sizeof(id));
		json_begin_object(&j);
		json_key(&j, "id");
		json_string(&j, id);
		json_key(&j, "rule");
		json_string(&j, r->findings->v[i]->rule);
		json_key(&j, "ev");
		json_begin_array(&j);
		for (size_t k = 0; k < RC_EVIDENCE_MAX; k++)
			if (evs[k])
				json_int(&j, (long long)evs[k]->seq);
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);

	json_key(&j, "threads");
	json_begin_array(&j);
	/* Each process's threads together, the processes in the order they
	 * first showed. */
	bool *done = xcalloc(tl->nthreads ? tl->nthreads : 1, sizeof(bool));
	for (size_t i = 0; i < tl->nthreads; i++) {
		if (done[i])
			continue;
		for (size_t k = i; k < tl->nthreads; k++)
			if (!done[k] && tl->threads[k]->leader == tl->threads[i]->leader) {
				done[k] = true;
				data_thread(&j, &nm, r, tl->threads[k], links);
			}
	}
	free(done);
	json_end_array(&j);

	/* The names, in index order. */
	const char **names = xcalloc(nm.n ? nm.n : 1, sizeof(*names));
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&nm.idx, &it); n; n = hmap_next(&nm.idx, &it))
		names[(uintptr_t)n->value - 1] = n->key;
	json_key(&j, "names");
	json_begin_array(&j);
	for (size_t i = 0; i < nm.n; i++)
		json_string(&j, names[i]);
	json_end_array(&j);
	free(names);
	json_end_object(&j);
	hmap_release(&nm.idx, NULL);
}

static void title(struct strbuf *sb, const struct rc_report *r)
{
	strbuf_adds(sb, "rootcause: ");
	if (r->command) {
		for (const char *const *a = r->command; *a && sb->len < 120; a++) {
			escs(sb, *a);
			strbuf_addc(sb, ' ');
		}
	} else if (r->files && r->files[0]) {
		escs(sb, r->files[0]);
	} else if (r->pid) {
		strbuf_addf(sb, "pid %d", r->pid);
	} else if (r->cgroup) {
		strbuf_adds(sb, "cgroup ");
		escs(sb, r->cgroup);
	} else {
		escs(sb, r->kind);
	}
}

void report_html(const struct rc_report *r, struct strbuf *sb)
{
	struct strbuf head = STRBUF_INIT;

	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		    "<meta name=\"generator\" content=\"rootcause\">\n<title>");
	title(sb, r);
	strbuf_adds(sb, "</title>\n<style>\n");
	strbuf_adds(sb, rc_html_css);
	strbuf_addf(sb, "</style></head>\n<body class=\"kind-%s\">\n<header><h1>rootcause</h1><pre class=\"subject\">",
		    r->kind);
	report_text_head(r, &head);
	esc(sb, head.buf ? head.buf : "", head.len);
	strbuf_release(&head);
	strbuf_adds(sb, "</pre></header>\n<main>\n");
	struct report_links links;
	report_links_make(r, &links);
	verdict(sb, r, &links);
	if (r->timeline && r->timeline->nthreads) {
		strbuf_adds(sb, "<section id=\"timeline-section\"><h2>Timeline</h2>"
			    "<p class=\"help\">Wheel: zoom. Drag: pan. Double-click: the whole trace. "
			    "Click a finding to see its calls; click a call to see its finding.</p>"
			    "<div id=\"tl-controls\"><button id=\"tl-all\" type=\"button\">whole trace</button> "
			    "<button id=\"tl-in\" type=\"button\">zoom in</button> "
			    "<button id=\"tl-out\" type=\"button\">zoom out</button> "
			    "<span id=\"tl-legend\"><span class=\"lg failed\"></span>failed "
			    "<span class=\"lg wait\"></span>waited &ge; 10 ms "
			    "<span class=\"lg long\"></span>&ge; 1 s "
			    "<span class=\"lg mark\"></span>exec, fork, signal, exit "
			    "<span class=\"lg hl\"></span>evidence</span></div>"
			    "<p id=\"tl-summary\" class=\"dim\"></p>"
			    "<div id=\"timeline\"></div><div id=\"tl-tip\" hidden></div>"
			    "<pre id=\"tl-detail\" class=\"dim\">Click a call for its strace line.</pre></section>\n");
	}
	if (r->procs && r->procs->nprocs)
		processes(sb, r->procs);
	if (r->crash && r->crash->nthreads)
		stacks(sb, r->crash);
	strbuf_adds(sb, "</main>\n");
	if (r->timeline && r->timeline->nthreads) {
		strbuf_adds(sb, "<script type=\"application/json\" id=\"rc-data\">");
		timeline_data(sb, r, &links);
		strbuf_adds(sb, "</script>\n");
	}
	strbuf_adds(sb, "<script>\n");
	strbuf_adds(sb, rc_html_js);
	strbuf_adds(sb, "</script>\n</body></html>\n");
	report_links_release(&links);
}
