#include "util/json.h"

#include <math.h>
#include <string.h>

void json_init(struct json *j, struct strbuf *out, bool pretty)
{
	j->out = out;
	j->depth = 0;
	j->pretty = pretty;
	j->after_key = false;
	j->script_safe = false;
	memset(j->need_comma, 0, sizeof(j->need_comma));
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	strbuf_addc(j->out, '\n');
	for (int i = 0; i < j->depth; i++)
		strbuf_add(j->out, "  ", 2);
}

/* Before a value or key: a comma when it is not the first of its container. */
static void sep(struct json *j)
{
	if (j->depth > 0 && j->depth < 64) {
		if (j->need_comma[j->depth])
			strbuf_addc(j->out, ',');
		j->need_comma[j->depth] = true;
	}
	newline(j);
}

static void value_start(struct json *j)
{
	if (j->after_key)
		j->after_key = false;
	else
		sep(j);
}

static void open(struct json *j, char c)
{
	value_start(j);
	strbuf_addc(j->out, c);
	j->depth++;
	if (j->depth < 64)
		j->need_comma[j->depth] = false;
}

static void close(struct json *j, char c)
{
	bool had = j->depth < 64 && j->need_comma[j->depth];
	j->depth--;
	if (had)
		newline(j);
	strbuf_addc(j->out, c);
	if (j->depth == 0 && j->pretty)
		strbuf_addc(j->out, '\n');
}

void json_begin_object(struct json *j) { open(j, '{'); }
void json_end_object(struct json *j) { close(j, '}'); }
void json_begin_array(struct json *j) { open(j, '['); }
void json_end_array(struct json *j) { close(j, ']'); }

static void raw_string(struct json *j, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	strbuf_addc(j->out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': strbuf_add(j->out, "\\\"", 2); break;
		case '\\': strbuf_add(j->out, "\\\\", 2); break;
		case '\n': strbuf_add(j->out, "\\n", 2); break;
		case '\r': strbuf_add(j->out, "\\r", 2); break;
		case '\t': strbuf_add(j->out, "\\t", 2); break;
		default:
			/* In a script element only "</" (its end tag) and
			 * "<!" (a comment's start) mean anything. */
			if (c < 0x20 || c == 0x7f ||
			    (j->script_safe && c == '<' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '!'))) {
				char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
				strbuf_add(j->out, u, 6);
			} else if (c >= 0x80) {
				/* Only pass valid UTF-8 through; other bytes become U+FFFD
				 * so the report is always valid JSON. */
				size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
				bool ok = len && c < 0xf5 && i + len <= n;
				for (size_t k = 1; ok && k < len; k++)
					ok = ((unsigned char)s[i + k] & 0xc0) == 0x80;
				if (ok) {
					strbuf_add(j->out, s + i, len);
					i += len - 1;
				} else {
					strbuf_add(j->out, "\\ufffd", 6);
				}
			} else {
				strbuf_addc(j->out, (char)c);
			}
		}
	}
	strbuf_addc(j->out, '"');
}

void json_key(struct json *j, const char *key)
{
	sep(j);
	raw_string(j, key, strlen(key));
	strbuf_add(j->out, j->pretty ? ": " : ":", j->pretty ? 2 : 1);
	j->after_key = true;
}

void json_stringn(struct json *j, const char *s, size_t n)
{
	value_start(j);
	raw_string(j, s, n);
}

void json_string(struct json *j, const char *s)
{
	json_stringn(j, s, strlen(s));
}

void json_int(struct json *j, long long v)
{
	value_start(j);
	strbuf_addf(j->out, "%lld", v);
}

void json_double(struct json *j, double v)
{
	value_start(j);
	if (!isfinite(v))
		strbuf_adds(j->out, "null");
	else
		strbuf_addf(j->out, "%.6g", v);
}

void json_fixed(struct json *j, double v, int digits)
{
	value_start(j);
	if (!isfinite(v))
		strbuf_adds(j->out, "null");
	else
		strbuf_addf(j->out, "%.*f", digits, v);
}

void json_opt_string(struct json *j, const char *key, const char *v)
{
	if (v) {
		json_key(j, key);
		json_string(j, v);
	}
}

void json_key_strings(struct json *j, const char *key, const char *const *v, size_t n)
{
	json_key(j, key);
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		json_string(j, v[i]);
	json_end_array(j);
}

void json_number(struct json *j, const char *text)
{
	value_start(j);
	strbuf_adds(j->out, text);
}

void json_bool(struct json *j, bool v)
{
	value_start(j);
	strbuf_adds(j->out, v ? "true" : "false");
}
