/* strace lines inside another log's records (see wrapped.h). */
#include "strace/wrapped.h"

#include <string.h>

#include "strace/args.h"

static bool lower_c(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

bool wrapped_looks_strace(const char *l, size_t n)
{
	const char *p = skip_spaces(l, l + n), *end = l + n;

	if (end - p > 5 && memcmp(p, "[pid ", 5) == 0) {
		const char *q = memchr(p, ']', (size_t)(end - p));
		if (!q)
			return false;
		p = skip_spaces(q + 1, end);
	}
	/* A pid, then a time (-t, -tt, -ttt, -r), each a run of digits,
	 * colons and dots. */
	for (int i = 0; i < 2 && p < end && isdigit_c(*p); i++) {
		while (p < end && (isdigit_c(*p) || *p == ':' || *p == '.'))
			p++;
		if (p < end && *p == '<') {	/* -Y's "<comm>" */
			const char *q = memchr(p, '>', (size_t)(end - p));
			p = q ? q + 1 : end;
		}
		p = skip_spaces(p, end);
	}
	if (end - p >= 4 && (memcmp(p, "<...", 4) == 0 || memcmp(p, "--- ", 4) == 0 || memcmp(p, "+++ ", 4) == 0))
		return true;
	const char *name = p;
	while (p < end && (lower_c(*p) || isdigit_c(*p)))
		p++;
	return p - name >= 2 && lower_c(*name) && p < end && *p == '(';
}

/* ---- the field that carries the line ---- */

static int hex_value(const char *p, const char *end, int digits)
{
	int v = 0;

	if (end - p < digits)
		return -1;
	for (int i = 0; i < digits; i++) {
		int d = hexval(p[i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* The quoted string at P (just after its opening quote) into OUT, its
 * escapes undone: JSON's and Go's %q's (logfmt) are alike. A character
 * past ASCII in \u form is a '?': strace writes none of its own. */
static void unquote(const char *p, const char *end, struct strbuf *out)
{
	while (p < end && *p != '"') {
		if (*p != '\\' || p + 1 >= end) {
			strbuf_addc(out, *p++);
			continue;
		}
		char c = p[1];
		p += 2;
		int v;
		switch (c) {
		case 'n':
			strbuf_addc(out, '\n');
			break;
		case 't':
			strbuf_addc(out, '\t');
			break;
		case 'r':
			strbuf_addc(out, '\r');
			break;
		case 'u':
			v = hex_value(p, end, 4);
			strbuf_addc(out, v >= 0 && v < 0x80 ? (char)v : '?');
			p += v >= 0 ? 4 : 0;
			break;
		case 'x':
			v = hex_value(p, end, 2);
			strbuf_addc(out, v >= 0 ? (char)v : '?');
			p += v >= 0 ? 2 : 0;
			break;
		default:	/* \" \\ \/ */
			strbuf_addc(out, c);
			break;
		}
	}
	/* A record of a line keeps its newline: the line has none. */
	while (out->len && (out->buf[out->len - 1] == '\n' || out->buf[out->len - 1] == '\r'))
		out->buf[--out->len] = '\0';
}

/* The opening quote of the value of the first field of L that carries a
 * message, or NULL. */
static const char *field(const char *l, const char *end)
{
	static const struct {
		const char *key;
		bool json;
	} keys[] = {
		{ "msg=", false }, { "message=", false }, { "\"log\":", true },
		{ "\"msg\":", true }, { "\"message\":", true }, { "\"MESSAGE\":", true },
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t kn = strlen(keys[k].key);
		const char *p = l;
		while (p < end && (p = memmem(p, (size_t)(end - p), keys[k].key, kn))) {
			/* logfmt's key begins the record or follows a blank. */
			bool starts = keys[k].json || p == l || p[-1] == ' ';
			const char *v = p + kn;
			if (keys[k].json)
				v = skip_spaces(v, end);
			if (starts && v < end && *v == '"')
				return v;
			p += kn;
		}
	}
	return NULL;
}

/* ---- the prefixes of the record's way ---- */

static bool digits(const char *p, const char *end, int n)
{
	if (end - p < n)
		return false;
	for (int i = 0; i < n; i++)
		if (!isdigit_c(p[i]))
			return false;
	return true;
}

/* "2019-11-07T23:04:02.359831030Z " (an ISO time: docker logs -t,
 * kubectl --timestamps, journalctl -o short-iso): past it, or P. */
static const char *iso_time(const char *p, const char *end)
{
	if (!digits(p, end, 4) || end - p < 19 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') ||
	    p[13] != ':' || p[16] != ':' || !digits(p + 5, end, 2) || !digits(p + 8, end, 2) ||
	    !digits(p + 11, end, 2) || !digits(p + 14, end, 2) || !digits(p + 17, end, 2))
		return p;
	const char *q = p + 19;
	if (q < end && (*q == '.' || *q == ','))
		for (q++; q < end && isdigit_c(*q); q++)
			;
	if (q < end && *q == 'Z')
		q++;
	else if (q < end && (*q == '+' || *q == '-') && digits(q + 1, end, 2))
		q += (end - q >= 6 && q[3] == ':') ? 6 : (digits(q + 3, end, 2) ? 5 : 3);
	return q < end && *q == ' ' ? skip_spaces(q, end) : p;
}

/* "Nov  7 23:04:02 host " (syslog, journalctl's default): past it, or P. */
static const char *syslog_time(const char *p, const char *end)
{
	if (end - p < 16 || !(p[0] >= 'A' && p[0] <= 'Z') || !lower_c(p[1]) || !lower_c(p[2]) || p[3] != ' ' ||
	    !(p[4] == ' ' || isdigit_c(p[4])) || !isdigit_c(p[5]) || p[6] != ' ' || p[9] != ':' || p[12] != ':' ||
	    !digits(p + 7, end, 2) || !digits(p + 10, end, 2) || !digits(p + 13, end, 2) || p[15] != ' ')
		return p;
	const char *host = p + 16, *q = host;
	while (q < end && *q != ' ')
		q++;
	return q > host && q < end ? skip_spaces(q, end) : p;
}

/* "[    1.693074] " (a kernel console's time since boot): past it, or P. */
static const char *console_time(const char *p, const char *end)
{
	if (p >= end || *p != '[')
		return p;
	const char *q = skip_spaces(p + 1, end);
	if (!digits(q, end, 1))
		return p;
	while (q < end && isdigit_c(*q))
		q++;
	if (q >= end || *q != '.' || !digits(q + 1, end, 1))
		return p;
	for (q++; q < end && isdigit_c(*q); q++)
		;
	return q + 1 < end && *q == ']' && q[1] == ' ' ? skip_spaces(q + 1, end) : p;
}

/* "strace[733]: " (syslog's tag and pid), "stdout F " (a container
 * runtime's stream and a whole line's mark): past it, or P. */
static const char *tag(const char *p, const char *end)
{
	if (end - p > 9 && (memcmp(p, "stdout ", 7) == 0 || memcmp(p, "stderr ", 7) == 0) &&
	    (p[7] == 'F' || p[7] == 'P') && p[8] == ' ')
		return p + 9;
	const char *q = p;
	while (q < end && *q != '[' && *q != ' ' && *q != ':')
		q++;
	if (q == p || q >= end || *q != '[' || !digits(q + 1, end, 1))
		return p;
	for (q++; q < end && isdigit_c(*q); q++)
		;
	return end - q >= 3 && q[0] == ']' && q[1] == ':' && q[2] == ' ' ? skip_spaces(q + 2, end) : p;
}

/* T past every prefix a record's way put before the strace line. */
static const char *strip(const char *t, const char *end)
{
	for (int i = 0; i < 8; i++) {
		const char *q = tag(console_time(syslog_time(iso_time(t, end), end), end), end);
		if (q == t)
			break;
		t = q;
	}
	return t;
}

bool wrapped_unwrap(const char *l, size_t n, struct strbuf *out)
{
	const char *end = l + n;

	strbuf_reset(out);
	if (wrapped_looks_strace(l, n))
		return false;
	const char *v = field(l, end);
	if (v) {
		unquote(v + 1, end, out);
	} else {
		const char *t = strip(l, end);
		if (t == l)
			return false;
		strbuf_add(out, t, (size_t)(end - t));
	}
	if (!out->len)
		return false;
	/* The field's text may have prefixes of its own. */
	const char *t = strip(out->buf, out->buf + out->len);
	if (t != out->buf) {
		size_t k = (size_t)(t - out->buf);
		memmove(out->buf, t, out->len - k);
		out->len -= k;
		out->buf[out->len] = '\0';
	}
	return wrapped_looks_strace(out->buf, out->len);
}

bool wrapped_detect(const char *const *lines, const size_t *lens, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t raw = 0, carried = 0;

	for (size_t i = 0; i < n; i++) {
		if (wrapped_looks_strace(lines[i], lens[i]))
			raw++;
		else if (wrapped_unwrap(lines[i], lens[i], &sb))
			carried++;
	}
	strbuf_release(&sb);
	return carried > raw;
}
