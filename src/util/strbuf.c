#include "util/strbuf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "util/util.h"

void strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc && need > extra)
		return;
	/* A size past what memory can hold is a caller's bug: fail as out of
	 * memory, not double forever. */
	if (need <= extra || need > SIZE_MAX / 2)
		xoom(extra);
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < need)
		n *= 2;
	sb->buf = xrealloc(sb->buf, n);
	sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addc(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/* Formatted into the room there is, and again only when it did not fit:
 * a trace prints several of these per line, and vsnprintf's set-up was
 * a tenth of a full capture's reader. */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;

	strbuf_grow(sb, 64);
	size_t room = sb->alloc - sb->len;
	va_copy(cp, ap);
	int n = vsnprintf(sb->buf + sb->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_escaped(struct strbuf *sb, const void *s, size_t n)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		switch (c) {
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		case '\v': strbuf_add(sb, "\\v", 2); break;
		case '\f': strbuf_add(sb, "\\f", 2); break;
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		default:
			if (c < 0x20 || c >= 0x7f) {
				/* strace's form: the shortest octal, unless a digit
				 * follows and would be read as part of it */
				bool digit_next = i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7';
				strbuf_addf(sb, digit_next ? "\\%03o" : "\\%o", c);
			} else {
				strbuf_addc(sb, (char)c);
			}
		}
	}
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");
	strbuf_init(sb);
	return p;
}

void strbuf_add_count(struct strbuf *sb, unsigned long long n)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%llu", n);

	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			strbuf_addc(sb, ',');
		strbuf_addc(sb, digits[i]);
	}
}

void strbuf_add_bytes(struct strbuf *sb, unsigned long long n)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)n;
	int u = -1;

	while (v >= 1024 && u < (int)(sizeof(unit) / sizeof(unit[0])) - 1) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		strbuf_addf(sb, "%llu bytes", n);
	else if ((long long)(v * 10 + 0.5) % 10 == 0)
		strbuf_addf(sb, "%.0f %s", v, unit[u]);
	else
		strbuf_addf(sb, "%.1f %s", v, unit[u]);
}

void strbuf_add_seconds(struct strbuf *sb, double s)
{
	if (s < 0.01)
		strbuf_addf(sb, "%.1f ms", s * 1000);
	else
		strbuf_addf(sb, s < 10 ? "%.2f s" : "%.1f s", s);
}
