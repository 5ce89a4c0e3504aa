#include "rules/finding.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

void findings_init(struct rc_findings *list)
{
	memset(list, 0, sizeof(*list));
}

void finding_free(struct rc_finding *f)
{
	free(f->summary);
	free(f->syscall);
	free(f->path);
	free(f->host_path);
	free(f->address);
	free(f->host);
	free(f->message);
	for (int i = 0; i < f->nevidence; i++)
		free(f->evidence[i]);
	for (size_t i = 0; i < ARRAY_SIZE(f->echo_words); i++)
		free(f->echo_words[i]);
	free(f->advice);
	for (int i = 0; i < f->nnow; i++)
		free(f->now[i]);
	stack_unref(f->stack);
	free(f->stack_missing);
	for (int i = 0; i < f->nsites; i++)
		stack_unref(f->sites[i].stack);
	stack_unref(f->holder_stack);
	free(f);
}

void findings_release(struct rc_findings *list)
{
	for (size_t i = 0; i < list->count; i++)
		finding_free(list->v[i]);
	free(list->v);
	findings_init(list);
}

void findings_push(struct rc_findings *list, struct rc_finding *f)
{
	if (list->count == list->alloc) {
		list->alloc = list->alloc ? list->alloc * 2 : 16;
		list->v = xrealloc(list->v, list->alloc * sizeof(*list->v));
	}
	list->v[list->count++] = f;
}

struct rc_finding *finding_add(struct rc_findings *list, const char *rule,
			       enum rc_severity severity, enum rc_severity severity_ok,
			       const char *fmt, ...)
{
	struct rc_finding *f = xcalloc(1, sizeof(*f));
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	f->rule = rule;
	f->severity = severity;
	f->severity_ok = severity_ok;
	f->count = -1;
	f->bytes = -1;
	f->duration_s = -1;
	f->ts = -1;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	f->summary = strbuf_detach(&sb);
	findings_push(list, f);
	return f;
}

void finding_set(char **field, const char *value)
{
	free(*field);
	*field = value ? xstrdup(value) : NULL;
}

void finding_setf(char **field, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(*field);
	*field = strbuf_detach(&sb);
}

void finding_evidence(struct rc_finding *f, const char *line, size_t n)
{
	if (!line || f->nevidence >= RC_EVIDENCE_MAX)
		return;
	const char *nl = memchr(line, '\n', n);
	if (nl)
		n = (size_t)(nl - line);
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	struct strbuf sb = STRBUF_INIT;
	if (n > RC_EVIDENCE_LINE_MAX) {
		strbuf_add(&sb, line, RC_EVIDENCE_LINE_MAX);
		strbuf_adds(&sb, " ...");
	} else {
		strbuf_add(&sb, line, n);
	}
	f->evidence[f->nevidence++] = strbuf_detach(&sb);
}

void finding_now(struct rc_finding *f, const char *path)
{
	if (!path || f->nnow >= RC_NOW_MAX)
		return;
	for (int i = 0; i < f->nnow; i++)
		if (strcmp(f->now[i], path) == 0)
			return;
	f->now[f->nnow++] = xstrdup(path);
}

void occurrences_add(struct rc_occurrences *o, int pid, uint64_t seq)
{
	for (int i = 0; i < o->n; i++)
		if (o->v[i].pid == pid) {
			o->v[i].seq = MAX(o->v[i].seq, seq);
			return;
		}
	if (o->n < RC_ALSO_MAX)
		o->v[o->n++] = (struct rc_occurrence){ pid, seq };
}

static void echo_add(struct rc_finding *f, const char *word, bool whole)
{
	if (!word || strlen(word) < 3)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(f->echo_words); i++)
		if (!f->echo_words[i]) {
			f->echo_words[i] = xstrdup(word);
			f->echo_whole[i] = whole;
			return;
		}
}

void finding_echo_word(struct rc_finding *f, const char *word)
{
	echo_add(f, word, false);
}

void finding_echo_name(struct rc_finding *f, const char *name)
{
	echo_add(f, name, true);
}

struct rc_finding *rule_finding(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, struct strbuf *sb)
{
	struct rc_finding *f = finding_add(out, rule, severity, severity_ok, "%s", strbuf_str(sb));

	strbuf_release(sb);
	return f;
}

struct rc_finding *rule_dropped(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, uint64_t count, const char *summary,
				const char *advice)
{
	struct rc_finding *f = finding_add(out, rule, severity, severity_ok, summary,
					   (unsigned long long)count);

	f->count = (long long)count;
	finding_set(&f->advice, advice);
	return f;
}

void rule_note_rest(struct rc_findings *out, size_t shown, long long rest, const char *what)
{
	if (!shown || rest <= 0)
		return;
	struct rc_finding *f = out->v[out->count - 1];
	/* A message of the finding's own (the loader's words) says more. */
	if (!f->message)
		finding_setf(&f->message, "%lld more %s not listed", rest, what);
}
