/* The Perfetto report: Chrome's trace-event JSON, which ui.perfetto.dev
 * opens as it is (and chrome://tracing, in the browsers that still have
 * it). From the timeline's kept events (event/timeline.h), never the log:
 *   - an X (complete) event per kept call, on its process (pid: the
 *     leader) and thread (tid), with its line, path, fd, errno and bytes;
 *     a call strace showed as unfinished and resumed is one event already;
 *   - M events naming the processes and threads;
 *   - instant events for signals, execs and exits;
 *   - one track of findings ("rootcause findings"): a slice per
 *     finding over its evidence, and a flow from its first evidence to its
 *     last;
 *   - counters of the calls only counted, per thread and time bucket;
 *   - for a core or a live process's stacks (no trace), each thread's
 *     merged stack as nested slices, as a sample is drawn.
 * Slices on one thread must nest: a call that starts inside another and
 * ends after it (clock steps, a call still blocked at the end) is trimmed
 * to end with it, and the trace's metadata says how many were. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/syscalls.h"
#include "gen/tables.h"
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

/* The findings' track: no pid of Linux is above PID_MAX_LIMIT (2^22),
 * and a log without pids names its process 0. */
#define FINDINGS_PID ((1 << 22) + 1)
/* Counter series per bucket: the most frequent calls, the rest summed. */
#define COUNTER_NAMES 8

struct pf {
	struct json *j;
	const struct rc_report *r;
	const struct rc_timeline *tl;
	uint64_t trimmed;
};

/* An event's time in nanoseconds from the trace's first event (its
 * position in microseconds, in a trace without times). Whole numbers, so
 * that a slice trimmed to end with another ends exactly there when both
 * are printed. */
static long long ns(const struct pf *p, double x)
{
	double d = x - p->tl->first;
	if (d < 0)
		return 0;
	return llround(p->tl->timed ? d * 1e9 : d * 1e3);
}

/* NS as the format's microseconds. */
static void json_us(struct json *j, long long ns)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld.%03lld", ns / 1000, ns % 1000);
	json_number(j, buf);
}

static void ev_begin(struct pf *p, const char *ph, const char *name, int pid, int tid, long long ts)
{
	struct json *j = p->j;

	json_begin_object(j);
	json_key(j, "ph");
	json_string(j, ph);
	json_key(j, "name");
	json_string(j, name);
	json_key(j, "pid");
	json_int(j, pid);
	json_key(j, "tid");
	json_int(j, tid);
	json_key(j, "ts");
	json_us(j, ts);
}

static void meta(struct pf *p, const char *what, int pid, int tid, const char *key, const char *s, long long n)
{
	struct json *j = p->j;

	ev_begin(p, "M", what, pid, tid, 0);
	json_key(j, "args");
	json_begin_object(j);
	json_key(j, key);
	if (s)
		json_string(j, s);
	else
		json_int(j, n);
	json_end_object(j);
	json_end_object(j);
}

/* Keeps the slices of one thread nested: the ends of the slices open at
 * the current one's start, innermost last. */
struct nest {
	long long *end;
	size_t n, alloc;
};

/* A slice [TS, *END) in start order: *END trimmed so that it ends inside
 * every slice it starts in. */
static bool nest_fit(struct nest *s, long long ts, long long *end)
{
	while (s->n && s->end[s->n - 1] <= ts)
		s->n--;
	bool trimmed = s->n && *end > s->end[s->n - 1];
	if (trimmed)
		*end = s->end[s->n - 1];
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->end = xrealloc(s->end, s->alloc * sizeof(*s->end));
	}
	s->end[s->n++] = *end;
	return trimmed;
}

static int by_start(const void *a, const void *b)
{
	const struct rc_tl_event *x = *(const struct rc_tl_event *const *)a;
	const struct rc_tl_event *y = *(const struct rc_tl_event *const *)b;
	double dx = x->ts, dy = y->ts;

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void call_args(struct pf *p, const struct rc_tl_event *ev)
{
	struct json *j = p->j;

	json_key(j, "args");
	json_begin_object(j);
	json_opt_string(j, "line", ev->line);
	json_opt_string(j, "path", ev->path);
	if (ev->fd >= 0) {
		json_key(j, "fd");
		json_int(j, ev->fd);
	}
	if (ev->err) {
		report_json_errno(j, ev->err);
	} else if (ev->ret_known) {
		bool moved = ev->nr >= 0 && syscall_is(ev->nr, CL_READ | CL_WRITE);
		json_key(j, moved ? "bytes" : "ret");
		json_int(j, ev->ret);
	}
	if (ev->child) {
		json_key(j, "child");
		json_int(j, ev->child);
	}
	if (ev->flags & RC_TL_BLOCKED) {
		json_key(j, "blocked");
		json_bool(j, true);
	}
	json_key(j, "seq");
	json_int(j, (long long)ev->seq);
	json_end_object(j);
}

/* An instant mark, with the argument KEY: VALUE when VALUE is not NULL. */
static void instant(struct pf *p, const char *name, int pid, int tid, long long ts, const char *key,
		    const char *value)
{
	ev_begin(p, "i", name, pid, tid, ts);
	json_key(p->j, "s");
	json_string(p->j, "t");
	if (value) {
		json_key(p->j, "args");
		json_begin_object(p->j);
		json_opt_string(p->j, key, value);
		json_end_object(p->j);
	}
	json_end_object(p->j);
}

static void thread_events(struct pf *p, const struct rc_tl_thread *t, const struct report_links *links)
{
	struct nest nest = { NULL, 0, 0 };
	char buf[64];
	size_t n;
	const struct rc_tl_event **v = report_drawn_events(t, links, &n);

	/* In order of their place on the axis, which nest_fit needs: ts, or
	 * in a trace without times (ts -1) seq. */
	qsort(v, n, sizeof(*v), by_start);
	for (size_t i = 0; i < n; i++) {
		const struct rc_tl_event *ev = v[i];
		long long ts = ns(p, timeline_x(p->tl, ev));
		if (ev->kind == RC_EV_SIGNAL) {
			const char *s = xlat_name(&rc_xlat_signal, ev->signo);
			snprintf(buf, sizeof(buf), "%s", s ? s : "signal");
			instant(p, buf, t->leader, t->tid, ts, "line", ev->line);
			continue;
		}
		if (ev->kind == RC_EV_EXIT) {
			if (ev->exited)
				snprintf(buf, sizeof(buf), "exit %d", ev->exit_code);
			else
				snprintf(buf, sizeof(buf), "killed by %s", xlat_name(&rc_xlat_signal, ev->signo) ?: "a signal");
			instant(p, buf, t->leader, t->tid, ts, "line", ev->line);
			continue;
		}
		double end = timeline_end(p->tl, ev);
		if ((ev->flags & RC_TL_BLOCKED) && ev->dur < 0)
			end = p->tl->last;
		long long te = ns(p, end);
		if (te < ts)
			te = ts;
		if (nest_fit(&nest, ts, &te))
			p->trimmed++;
		ev_begin(p, "X", ev->name ? ev->name : "?", t->leader, t->tid, ts);
		json_key(p->j, "dur");
		json_us(p->j, te - ts);
		json_key(p->j, "cat");
		json_string(p->j, ev->flags & RC_TL_FAILED ? "failed" : ev->flags & RC_TL_WAIT ? "wait" : "call");
		call_args(p, ev);
		json_end_object(p->j);
		if (ev->flags & RC_TL_EXEC)
			instant(p, "exec", t->leader, t->tid, ts, "path", ev->path);
	}
	free(nest.end);
	free(v);
}

/* The counted calls of T: a counter per bucket, its most frequent calls
 * by name and the rest as "other". */
static void thread_counters(struct pf *p, const struct rc_tl_thread *t)
{
	struct json *j = p->j;
	struct hmap_iter it;
	char name[48];

	if (!t->counted)
		return;
	snprintf(name, sizeof(name), "calls counted, thread %d", t->tid);
	for (size_t b = 0; b < RC_TL_BUCKETS; b++) {
		struct { long nr; uint32_t n; } top[COUNTER_NAMES];
		size_t ntop = 0;
		uint64_t other = 0, all = 0;
		for (struct hmap_node *n = hmap_first(&t->counts, &it); n; n = hmap_next(&t->counts, &it)) {
			uint32_t c = ((const uint32_t *)n->value)[b];
			if (!c)
				continue;
			all += c;
			long nr = (long)hmap_node_int(n);
			if (ntop < COUNTER_NAMES) {
				top[ntop].nr = nr;
				top[ntop++].n = c;
				continue;
			}
			size_t least = 0;
			for (size_t k = 1; k < ntop; k++)
				if (top[k].n < top[least].n)
					least = k;
			if (c > top[least].n) {
				other += top[least].n;
				top[least].nr = nr;
				top[least].n = c;
			} else {
				other += c;
			}
		}
		bool last = b + 1 == RC_TL_BUCKETS;
		double x = p->tl->origin + (double)b * p->tl->bucket;
		if (!all && !last && b)
			continue;
		ev_begin(p, "C", name, t->leader, t->tid, ns(p, x));
		json_key(j, "args");
		json_begin_object(j);
		for (size_t k = 0; k < ntop; k++) {
			const char *s = top[k].nr >= 0 ? syscall_name(top[k].nr) : NULL;
			json_key(j, s ? s : "?");
			json_int(j, top[k].n);
		}
		if (other || !ntop) {
			json_key(j, "other");
			json_int(j, (long long)other);
		}
		json_end_object(j);
		json_end_object(j);
	}
}

/* The findings' track: a slice per finding over the span of its evidence
 * (an instant at its time when none is on the timeline), and flows. */
static void findings_track(struct pf *p, const struct report_links *links)
{
	const struct rc_report_findings *list = p->r->findings;
	struct json *j = p->j;
	struct nest nest = { NULL, 0, 0 };
	size_t n = list ? list->count : 0;
	struct span { long long a, b; size_t i; } *sp = xcalloc(n ? n : 1, sizeof(*sp));
	const struct rc_tl_event *const(*evs)[RC_EVIDENCE_MAX] = links->ev;

	meta(p, "process_name", FINDINGS_PID, 0, "name", "rootcause findings", 0);
	meta(p, "process_sort_index", FINDINGS_PID, 0, "sort_index", NULL, -1);
	meta(p, "thread_name", FINDINGS_PID, 0, "name", "findings", 0);
	for (size_t i = 0; i < n; i++) {
		const struct rc_report_finding *f = list->v[i];
		long long a = -1, b = -1;
		for (size_t k = 0; k < RC_EVIDENCE_MAX; k++) {
			const struct rc_tl_event *ev = evs[i][k];
			if (!ev)
				continue;
			long long x = ns(p, timeline_x(p->tl, ev)), e = ns(p, timeline_end(p->tl, ev));
			if (a < 0 || x < a)
				a = x;
			if (e > b)
				b = e;
		}
		if (a < 0 && p->tl->timed && f->ts >= 0)
			a = b = ns(p, f->ts);
		sp[i].a = a < 0 ? 0 : a;
		sp[i].b = b < sp[i].a ? sp[i].a : b;
		sp[i].i = i;
	}
	/* Slices in start order, so that they nest. */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && sp[k].a < sp[k - 1].a; k--) {
			struct span s = sp[k];
			sp[k] = sp[k - 1];
			sp[k - 1] = s;
		}
	for (size_t s = 0; s < n; s++) {
		const struct rc_report_finding *f = list->v[sp[s].i];
		char id[32], name[160];
		report_finding_id(sp[s].i, id, sizeof(id));
		snprintf(name, sizeof(name), "%s %s %s", id, severity_name(f->severity), f->rule);
		long long end = sp[s].b;
		if (nest_fit(&nest, sp[s].a, &end))
			p->trimmed++;
		ev_begin(p, "X", name, FINDINGS_PID, 0, sp[s].a);
		json_key(j, "dur");
		json_us(j, end - sp[s].a);
		json_key(j, "cat");
		json_string(j, "finding");
		json_key(j, "args");
		json_begin_object(j);
		json_key(j, "summary");
		json_string(j, f->summary);
		json_key(j, "severity");
		json_string(j, severity_name(f->severity));
		if (f->cause) {
			for (size_t k = 0; k < n; k++)
				if (list->v[k] == f->cause) {
					report_finding_id(k, id, sizeof(id));
					json_key(j, "caused_by");
					json_string(j, id);
				}
		}
		if (f->nevidence)
			json_key_strings(j, "evidence", (const char *const *)f->evidence, (size_t)f->nevidence);
		json_opt_string(j, "advice", f->advice);
		json_end_object(j);
		json_end_object(j);
	}
	/* Flows: from the first evidence call to the last; from the finding
	 * to its only one. A flow binds to slices: signals and exits, which
	 * are instants, are left out. */
	for (size_t s = 0; s < n; s++) {
		size_t i = sp[s].i;
		const struct rc_tl_event *first = NULL, *last = NULL;
		for (size_t k = 0; k < RC_EVIDENCE_MAX; k++) {
			const struct rc_tl_event *ev = evs[i][k];
			if (!ev || ev->kind != RC_EV_SYSCALL)
				continue;
			if (!first || timeline_x(p->tl, ev) < timeline_x(p->tl, first))
				first = ev;
			if (!last || timeline_x(p->tl, ev) >= timeline_x(p->tl, last))
				last = ev;
		}
		if (!first)
			continue;
		char name[48];
		report_finding_id(i, name, sizeof(name));
		const struct rc_tl_thread *from = first != last ? timeline_thread(p->tl, first->tid) : NULL;
		const struct rc_tl_thread *to = timeline_thread(p->tl, last->tid);
		if (!to)
			continue;
		if (from)
			ev_begin(p, "s", name, from->leader, from->tid, ns(p, timeline_x(p->tl, first)));
		else
			ev_begin(p, "s", name, FINDINGS_PID, 0, sp[s].a);
		json_key(j, "cat");
		json_string(j, "evidence");
		json_key(j, "id");
		json_int(j, (long long)i + 1);
		json_end_object(j);
		ev_begin(p, "f", name, to->leader, to->tid, ns(p, timeline_x(p->tl, last)));
		json_key(j, "bp");
		json_string(j, "e");
		json_key(j, "cat");
		json_string(j, "evidence");
		json_key(j, "id");
		json_int(j, (long long)i + 1);
		json_end_object(j);
	}
	free(sp);
	free(nest.end);
}

/* A stack drawn the way Perfetto draws a sample: one slice per frame of
 * the merged stack (report_thread_walk), the outermost at the bottom,
 * each inside the one that called it. Slices of equal span nest in the
 * order they come, so each is STACK_SLICE_US long, and none has a time
 * of its own: a core is one moment. */
#define STACK_SLICE_US 1000
struct stack_walk {
	struct rc_report_stack_item *items;
	size_t n, alloc;
};

static bool stack_item(void *arg, const struct rc_report_stack_item *it)
{
	struct stack_walk *w = arg;

	if (w->n == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 64;
		w->items = xrealloc(w->items, w->alloc * sizeof(*w->items));
	}
	w->items[w->n++] = *it;
	return true;
}

static void thread_stack(struct pf *p, int pid, const struct rc_report_thread *t)
{
	struct stack_walk w = { NULL, 0, 0 };
	struct strbuf name = STRBUF_INIT;
	struct json *j = p->j;

	report_thread_walk(t, stack_item, &w);
	for (size_t k = w.n; k-- > 0;) {
		const struct rc_report_stack_item *it = &w.items[k];
		strbuf_reset(&name);
		if (it->py) {
			strbuf_addf(&name, "py %s", it->py->function ? it->py->function : "??");
		} else {
			strbuf_adds(&name, it->frame->function ? it->frame->function : "??");
			if (it->repeat > 1) {
				strbuf_adds(&name, " x ");
				strbuf_add_count(&name, it->repeat);
			}
		}
		ev_begin(p, "X", name.buf, pid, t->tid, 0);
		json_key(j, "dur");
		json_us(j, STACK_SLICE_US * 1000LL);
		json_key(j, "cat");
		json_string(j, it->py ? "python" : "frame");
		json_key(j, "args");
		json_begin_object(j);
		if (it->py) {
			if (it->py->file) {
				strbuf_reset(&name);
				strbuf_addf(&name, "%s:%d", it->py->file, it->py->line);
				json_key(j, "at");
				json_string(j, name.buf);
			}
		} else {
			strbuf_reset(&name);
			report_frame_str(it->frame, &name);
			json_key(j, "frame");
			json_string(j, name.buf);
			json_key(j, "number");
			json_int(j, (long long)it->index);
			if (it->repeat > 1) {
				json_key(j, "folded_frames");
				json_int(j, (long long)it->repeat * it->period);
			}
		}
		json_end_object(j);
		json_end_object(j);
	}
	strbuf_release(&name);
	free(w.items);
}

void report_perfetto(const struct rc_report *r, struct strbuf *out)
{
	static const struct rc_timeline none;
	struct json j;
	struct pf p = { &j, r, r->timeline ? r->timeline : &none, 0 };
	struct report_links links;
	char name[64];

	json_init(&j, out, false);
	json_begin_object(&j);
	json_key(&j, "displayTimeUnit");
	json_string(&j, "ms");
	json_key(&j, "traceEvents");
	json_begin_array(&j);
	report_links_make(r, &links);
	findings_track(&p, &links);
	const struct rc_timeline *tl = p.tl;
	for (size_t i = 0; i < tl->nthreads; i++) {
		const struct rc_tl_thread *t = tl->threads[i];
		if (t->tid == t->leader) {
			const char *pn = report_process_name(r, t->leader);
			snprintf(name, sizeof(name), "%s", pn ? pn : "process");
			meta(&p, "process_name", t->leader, t->leader, "name", name, 0);
		}
		snprintf(name, sizeof(name), "%s %d", t->tid == t->leader ? "main" : "thread", t->tid);
		meta(&p, "thread_name", t->leader, t->tid, "name", name, 0);
		thread_events(&p, t, &links);
		thread_counters(&p, t);
	}
	/* A crash without a trace (core, stack): its threads by name, each
	 * with its stack. */
	for (size_t i = 0; r->crash && !tl->nthreads && i < r->crash->nthreads; i++) {
		const struct rc_report_thread *t = &r->crash->threads[i];
		if (i == 0)
			meta(&p, "process_name", r->crash->pid, r->crash->pid, "name",
			     r->crash->exe ? path_base(r->crash->exe) : "process", 0);
		snprintf(name, sizeof(name), "%s%s", t->py_name ? t->py_name : t->name ? t->name : "thread",
			 t->crashed ? " (crashed)" : "");
		meta(&p, "thread_name", r->crash->pid, t->tid, "name", name, 0);
		thread_stack(&p, r->crash->pid, t);
	}
	json_end_array(&j);
	json_key(&j, "otherData");
	json_begin_object(&j);
	json_key(&j, "generator");
	json_string(&j, "rootcause");
	json_key(&j, "kind");
	json_string(&j, r->kind);
	json_key(&j, "time");
	json_string(&j, tl->timed ? "microseconds from the first event" : "the events' order (the trace has no times)");
	json_key(&j, "trimmed_slices");
	json_int(&j, (long long)p.trimmed);
	json_end_object(&j);
	json_end_object(&j);
	strbuf_addc(out, '\n');
	report_links_release(&links);
}
