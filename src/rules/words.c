/* What the program said (see words.h). */
#include "rules/words.h"

#include <string.h>
#include <strings.h>

#include "util/util.h"

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || (unsigned char)c >= 0x80;
}

bool rule_names_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	if (!n)
		return false;
	for (const char *p = text; (p = strcasestr(p, word)) != NULL; p++) {
		if (p > text && (name_char(p[-1]) || p[-1] == '.'))
			continue;
		const char *q = p + n;
		if (name_char(*q) || (*q == '.' && name_char(q[1])))
			continue;
		return true;
	}
	return false;
}

static bool contains_phrase(const char *hay, const char *phrase)
{
	return phrase[0] && strcasestr(hay, phrase) != NULL;
}

bool rule_text_echoes(const struct rc_finding *f, const char *text, bool names_only)
{
	if (!text)
		return false;
	for (size_t w = 0; w < ARRAY_SIZE(f->echo_words); w++)
		if (f->echo_words[w] && (f->echo_whole[w] ? rule_names_word(text, f->echo_words[w])
						       : !names_only && contains_phrase(text, f->echo_words[w])))
			return true;
	return false;
}

bool rule_output_counts(const struct rc_procs *m, const struct rc_output *o)
{
	if (!o->discarded)
		return true;
	const struct rc_proc *culprit = NULL;
	if (!procs_image_failed(m, o->pid, o->image, &culprit) || !culprit)
		return false;
	const struct rc_proc *writer = procs_leader(m, o->pid), *failed = procs_leader(m, culprit->pid);
	return writer && failed && writer->pid == failed->pid && procs_failed(m, m->root, NULL);
}

const char *rule_output_naming(const struct rc_procs *m, const char *word, uint64_t seq)
{
	const char *last = NULL;

	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->seq >= seq && o->text && rule_output_counts(m, o) && rule_names_word(o->text, word))
			last = o->text;
	}
	return last;
}

/* Words that make a stderr line an error report. */
static const char *const error_words[] = {
	"error", "fatal", "panic", "failed", "failure", "cannot ", "can't ", "could not", "couldn't",
	"unable to", "no such file", "permission denied", "not permitted", "not found", "segmentation fault",
	"core dumped", "aborted", "exception", "refused", "timed out", "out of memory", "killed",
	"traceback", "errno", "denied", "unreachable", "invalid", "missing",
	"terminate called",	/* libstdc++: an uncaught exception, a joinable std::thread destroyed */
};

/* Standard output carries results; only unmistakable error lines count. */
static bool stdout_error(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	static const char *const starts[] = { "error", "fatal", "panic", "exception", "traceback (most recent" };
	for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
		if (strncasecmp(s, starts[i], strlen(starts[i])) == 0)
			return true;
	return strcasestr(s, " failed") || strcasestr(s, "segmentation fault") ||
	       strcasestr(s, "error while loading shared libraries");
}

bool rule_error_line(const struct rc_output *o)
{
	if (!o->text || !o->text[0])
		return false;
	if (o->fd == 1)
		return stdout_error(o->text);
	for (size_t i = 0; i < ARRAY_SIZE(error_words); i++)
		if (strcasestr(o->text, error_words[i]))
			return true;
	return false;
}
