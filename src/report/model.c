/* What the report model owns (model.h): its findings, and the names of
 * their severities. */
#include "report/model.h"

#include <stdlib.h>

const char *severity_name(enum rc_severity s)
{
	switch (s) {
	case RC_SEV_ERROR: return "error";
	case RC_SEV_WARNING: return "warning";
	default: return "info";
	}
}

void report_findings_release(struct rc_report_findings *l)
{
	for (size_t i = 0; i < l->count; i++) {
		struct rc_report_finding *f = l->v[i];
		free(f->summary);
		free(f->syscall);
		free(f->path);
		free(f->host_path);
		free(f->address);
		free(f->host);
		free(f->message);
		for (int k = 0; k < f->nevidence; k++)
			free(f->evidence[k]);
		free(f->advice);
		for (int k = 0; k < f->nnow; k++)
			free(f->now[k]);
		stack_unref(f->stack);
		free(f->stack_missing);
		for (int k = 0; k < f->nsites; k++)
			stack_unref(f->sites[k].stack);
		stack_unref(f->holder_stack);
		free(f);
	}
	free(l->v);
	l->v = NULL;
	l->count = 0;
}

const struct rc_report_container *report_container_of(const struct rc_report_container *v, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < v[i].npids; k++)
			if (v[i].pids[k] == pid)
				return &v[i];
	return NULL;
}
