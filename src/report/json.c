/* The JSON report: the contract of docs/report-schema.md. Fields that do
 * not apply are omitted, never filled with placeholders. */
#include <stdio.h>
#include <stdlib.h>

#include "gen/tables.h"
#include "report/report.h"
#include "util/json.h"
#include "util/util.h"

/* Processes listed at most. */
#define REPORT_MAX_PROCS 1000

static void string_list(struct json *j, const char *key, const char *const *v)
{
	if (!v)
		return;
	json_key(j, key);
	json_begin_array(j);
	for (; *v; v++)
		json_string(j, *v);
	json_end_array(j);
}

static void write_subject(struct json *j, const struct rc_report *r)
{
	json_key(j, "subject");
	json_begin_object(j);
	json_key(j, "kind");
	json_string(j, r->kind);
	string_list(j, "command", r->command);
	if (r->pid) {
		json_key(j, "pid");
		json_int(j, r->pid);
	}
	if (r->cgroup) {
		json_key(j, "cgroup");
		json_string(j, r->cgroup);
	}
	if (r->trigger) {
		json_key(j, "trigger");
		json_string(j, r->trigger);
		json_key(j, "window_s");
		json_fixed(j, r->window, 1);
	}
	string_list(j, "files", r->files);
	if (r->files) {
		json_key(j, "lines");
		json_int(j, (long long)r->lines);
		json_key(j, "skipped_lines");
		json_int(j, (long long)r->skipped_lines);
	}
	if (r->events) {
		json_key(j, "events");
		json_int(j, (long long)r->events);
	}
	if (r->summed) {
		json_key(j, "summed");
		json_int(j, (long long)r->summed);
	}
	if (r->backend) {
		json_key(j, "backend");
		json_string(j, r->backend);
	}
	if (r->backend_fallback) {
		json_key(j, "backend_fallback");
		json_string(j, r->backend_fallback);
	}
	if (r->stacks_taken) {
		json_key(j, "stacks_taken");
		json_int(j, (long long)r->stacks_taken);
		json_key(j, "stacks_seconds");
		json_double(j, r->stacks_seconds);
	}
	if (r->stacks_skipped) {
		json_key(j, "stacks_skipped");
		json_int(j, (long long)r->stacks_skipped);
	}
	json_opt_string(j, "no_call_stacks", r->no_call_stacks);
	if (r->no_stacks) {
		json_key(j, "no_stacks");
		json_string(j, r->no_stacks);
	}
	string_list(j, "rules_off", r->rules_off);
	if (r->seconds > 0) {
		json_key(j, "duration_s");
		json_double(j, r->seconds);
	}
	if (r->no_outcome) {
		json_key(j, "outcome_in_trace");
		json_bool(j, false);
	}
	if (r->elsewhere) {
		json_key(j, "recorded_elsewhere");
		json_string(j, r->elsewhere);
	}
	json_end_object(j);
}

/* The containers the processes ran in (run, attach). */
static void write_containers(struct json *j, const struct rc_report *r)
{
	json_key(j, "containers");
	json_begin_array(j);
	for (size_t i = 0; i < r->ncontainers; i++) {
		const struct rc_report_container *c = &r->containers[i];
		json_begin_object(j);
		json_opt_string(j, "name", c->name);
		json_opt_string(j, "engine", c->engine);
		json_opt_string(j, "id", c->id);
		json_opt_string(j, "pod", c->pod);
		json_opt_string(j, "unit", c->unit);
		json_opt_string(j, "cgroup", c->cgroup);
		json_key(j, "pids");
		json_begin_array(j);
		for (size_t k = 0; k < c->npids; k++)
			json_int(j, c->pids[k]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void write_processes(struct json *j, const struct rc_procs *m)
{
	size_t n;
	struct rc_proc **v = procs_sorted(m, &n);
	size_t shown = 0;

	json_key(j, "processes");
	json_begin_array(j);
	for (size_t i = 0; i < n && shown < REPORT_MAX_PROCS; i++) {
		const struct rc_proc *p = v[i];
		/* A process of a log without pids that never showed its argv
		 * or its end would be an empty object: leave it out. */
		if (p->is_thread || (p->pid <= 0 && !p->argv && !p->ended))
			continue;
		shown++;
		json_begin_object(j);
		/* A log without pid prefixes names no pid: omit it, not 0. */
		if (p->pid > 0) {
			json_key(j, "pid");
			json_int(j, p->pid);
		}
		if (p->ppid) {
			json_key(j, "ppid");
			json_int(j, p->ppid);
		}
		if (p->ns_pid > 0) {
			json_key(j, "ns_pid");
			json_int(j, p->ns_pid);
		}
		if (p->argv) {
			json_key(j, "argv");
			json_begin_array(j);
			for (int a = 0; a < p->argc; a++)
				json_string(j, p->argv[a]);
			json_end_array(j);
		}
		if (p->ended && p->exited) {
			json_key(j, "exit_code");
			json_int(j, p->exit_code);
		}
		if (p->ended && !p->exited && p->signo) {
			const char *s = xlat_name(&rc_xlat_signal, p->signo);
			json_key(j, "signal");
			if (s)
				json_string(j, s);
			else
				json_int(j, p->signo);
			json_key(j, "core_dumped");
			json_bool(j, p->core_dumped);
		}
		json_end_object(j);
	}
	json_end_array(j);
	free(v);
}

/* A finding's id: its place in the report, "f1" first. A consequence
 * follows its cause, so the cause is found looking back from it. */
void report_finding_id(size_t i, char *buf, size_t n)
{
	snprintf(buf, n, "f%zu", i + 1);
}

static void write_id(struct json *j, const char *key, size_t i)
{
	char id[32];

	report_finding_id(i, id, sizeof(id));
	json_key(j, key);
	json_string(j, id);
}

/* A call's stack (docs/report-schema.md): its Python frames and its
 * native frames, innermost first. */
static void write_stack(struct json *j, const struct rc_stack *s)
{
	json_begin_object(j);
	json_key(j, "tid");
	json_int(j, s->tid);
	json_key(j, "python");
	json_begin_array(j);
	for (size_t i = 0; i < s->npy; i++)
		report_json_pyframe(j, s->py[i].function, s->py[i].file, s->py[i].line);
	json_end_array(j);
	json_key(j, "native");
	json_begin_array(j);
	for (size_t i = 0; i < s->nnative; i++) {
		const struct rc_stack_frame *f = &s->native[i];
		char pc[24];
		snprintf(pc, sizeof(pc), "0x%llx", (unsigned long long)f->pc);
		json_begin_object(j);
		json_key(j, "pc");
		json_string(j, pc);
		json_opt_string(j, "module", f->module);
		json_opt_string(j, "function", f->function);
		json_key(j, "offset");
		json_int(j, (long long)f->offset);
		json_opt_string(j, "file", f->file);
		if (f->line > 0) {
			json_key(j, "line");
			json_int(j, f->line);
		}
		if (f->inlined) {
			json_key(j, "inlined");
			json_bool(j, true);
		}
		json_end_object(j);
	}
	json_end_array(j);
	if (s->truncated) {
		json_key(j, "truncated");
		json_bool(j, true);
	}
	json_end_object(j);
}

static void write_code(struct json *j, const struct rc_report_finding *f)
{
	if (f->stack && !f->stack->missing) {
		json_key(j, "stack");
		write_stack(j, f->stack);
	} else if (f->stack) {
		json_opt_string(j, "stack_missing", f->stack->missing);
	} else {
		json_opt_string(j, "stack_missing", f->stack_missing);
	}
	if (f->holder_tid > 0 || f->holder_pid > 0) {
		json_key(j, "holder");
		json_begin_object(j);
		json_key(j, f->holder_tid > 0 ? "tid" : "pid");
		json_int(j, f->holder_tid > 0 ? f->holder_tid : f->holder_pid);
		if (f->holder_stack && !f->holder_stack->missing) {
			json_key(j, "stack");
			write_stack(j, f->holder_stack);
		}
		json_end_object(j);
	}
	if (!f->nsites)
		return;
	json_key(j, "sites");
	json_begin_array(j);
	for (int i = 0; i < f->nsites; i++) {
		json_begin_object(j);
		json_key(j, "count");
		json_int(j, (long long)f->sites[i].count);
		json_key(j, "stack");
		write_stack(j, f->sites[i].stack);
		json_end_object(j);
	}
	json_end_array(j);
	if (f->sites_other) {
		json_key(j, "sites_other");
		json_int(j, (long long)f->sites_other);
	}
	if (f->sites_sampled) {
		json_key(j, "sites_sampled");
		json_bool(j, true);
	}
}

static void write_finding(struct json *j, const struct rc_report_findings *list, size_t i)
{
	const struct rc_report_finding *f = list->v[i];

	json_begin_object(j);
	write_id(j, "id", i);
	if (f->cause) {
		for (size_t k = i; k-- > 0;)
			if (list->v[k] == f->cause) {
				write_id(j, "caused_by", k);
				break;
			}
	}
	json_key(j, "rule");
	json_string(j, f->rule);
	if (!f->cause) {
		char sig[17];
		snprintf(sig, sizeof(sig), "%016llx", (unsigned long long)report_signature(f, NULL));
		json_key(j, "signature");
		json_string(j, sig);
	}
	json_key(j, "severity");
	json_string(j, severity_name(f->severity));
	json_key(j, "summary");
	json_string(j, f->summary);
	if (f->pid > 0) {
		json_key(j, "pid");
		json_int(j, f->pid);
	}
	if (f->nalso) {
		json_key(j, "also_pids");
		json_begin_array(j);
		for (int k = 0; k < f->nalso; k++)
			json_int(j, f->also_pids[k]);
		json_end_array(j);
	}
	if (f->tid > 0) {
		json_key(j, "tid");
		json_int(j, f->tid);
	}
	json_opt_string(j, "syscall", f->syscall);
	if (f->err)
		report_json_errno(j, f->err);
	json_opt_string(j, "path", f->path);
	json_opt_string(j, "host_path", f->host_path);
	json_opt_string(j, "address", f->address);
	json_opt_string(j, "host", f->host);
	if (f->signo) {
		const char *s = xlat_name(&rc_xlat_signal, f->signo);
		json_key(j, "signal");
		if (s)
			json_string(j, s);
		else
			json_int(j, f->signo);
	}
	json_opt_string(j, "message", f->message);
	if (f->count >= 0) {
		json_key(j, "count");
		json_int(j, f->count);
	}
	if (f->duration_s >= 0) {
		json_key(j, "duration_s");
		json_double(j, f->duration_s);
	}
	if (f->bytes >= 0) {
		json_key(j, "bytes");
		json_int(j, f->bytes);
	}
	if (f->nevidence)
		json_key_strings(j, "evidence", (const char *const *)f->evidence, (size_t)f->nevidence);
	json_opt_string(j, "advice", f->advice);
	if (f->nnow)
		json_key_strings(j, "now", (const char *const *)f->now, (size_t)f->nnow);
	write_code(j, f);
	json_end_object(j);
}

void report_json(const struct rc_report *r, struct strbuf *out)
{
	struct json j;

	json_init(&j, out, true);
	json_begin_object(&j);
	json_key(&j, "rootcause");
	json_int(&j, 1);
	write_subject(&j, r);
	if (r->procs)
		write_processes(&j, r->procs);
	if (r->ncontainers)
		write_containers(&j, r);
	json_key(&j, "findings");
	json_begin_array(&j);
	for (size_t i = 0; r->findings && i < r->findings->count; i++)
		write_finding(&j, r->findings, i);
	json_end_array(&j);
	if (r->crash)
		report_crash_json(r->crash, &j);
	json_end_object(&j);
}

void report_json_errno(struct json *j, int err)
{
	const char *e = xlat_errno_name(err);

	json_key(j, "errno");
	if (e)
		json_string(j, e);
	else
		json_int(j, err);
}

bool report_has_errors(const struct rc_report *r)
{
	for (size_t i = 0; r->findings && i < r->findings->count; i++)
		if (!r->findings->v[i]->cause && r->findings->v[i]->severity == RC_SEV_ERROR)
			return true;
	return false;
}
