/* A growable, always NUL-terminated byte buffer (git's strbuf). */
#ifndef RC_UTIL_STRBUF_H
#define RC_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append S as a C-escaped string body, as strace prints it. */
void strbuf_add_escaped(struct strbuf *sb, const void *s, size_t n);
/* Hand the buffer over to the caller (never NULL); SB is reset. */
char *strbuf_detach(struct strbuf *sb);
/* N with thousands separators ("12,345"). */
void strbuf_add_count(struct strbuf *sb, unsigned long long n);
/* A duration in words: "2.0 ms", "1.84 s", "12.5 s". */
void strbuf_add_seconds(struct strbuf *sb, double s);
/* A size in bytes as people read it: "832 bytes", "320 KiB", "1.5 GiB"
 * (powers of 1024; one decimal, unless it is 0). */
void strbuf_add_bytes(struct strbuf *sb, unsigned long long n);
/* The contents, "" when empty (buf may be NULL). */
static inline const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

#endif
