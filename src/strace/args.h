/* Lexing strace's argument text: spans, nesting-aware splitting, C-escaped
 * strings, numbers, fd decorations and socket addresses.
 *
 * Everything works on byte spans of untrusted text (not NUL-terminated,
 * possibly truncated or garbled): a helper that cannot make sense of its
 * input returns false or an empty span, never reads past the span.
 * Decoded strings go to an arena that the parser resets for every event.
 */
#ifndef RC_STRACE_ARGS_H
#define RC_STRACE_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/event.h"
#include "util/arena.h"

struct span {
	const char *p;
	size_t n;
};

static inline struct span span_make(const char *p, size_t n)
{
	struct span s = { p, n };
	return s;
}

static inline const char *span_end(struct span s)
{
	return s.p + s.n;
}

/* Literal comparisons (LIT is a NUL-terminated constant). */
bool span_eq(struct span s, const char *lit);
bool span_starts(struct span s, const char *lit);
/* S without leading and trailing blanks (inline: every item is trimmed). */
static inline struct span span_trim(struct span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t')) {
		s.p++;
		s.n--;
	}
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s;
}
/* S without a trailing "/ * comment * /" (as -X verbose prints). */
struct span span_uncomment(struct span s);

/* Constant lookups on untrusted text: S is trimmed, a trailing comment
 * dropped, and text with NUL bytes is never passed on (the tables compare
 * with C string functions). */
struct rc_xlat;
bool xlat_span(const struct rc_xlat *x, struct span s, long long *v);
long long xlat_span_flags(const struct rc_xlat *x, struct span s);
bool errno_span(struct span s, int *v);

/* Numbers in line prefixes and durations, kept inline: they are on every
 * line's path. */
static inline bool isdigit_c(char c)
{
	return c >= '0' && c <= '9';
}

/* C's value as a hex digit; -1 when it is none. */
static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Digits at P: the value in *V, how many in *COUNT; returns the end. */
static inline const char *lex_digits(const char *p, const char *end, double *v, int *count)
{
	uint64_t x = 0;
	int n = 0;

	while (p < end && isdigit_c(*p)) {
		x = x * 10 + (uint64_t)(*p - '0');
		p++;
		n++;
	}
	*v = (double)x;
	*count = n;
	return p;
}

static const double lex_pow10[] = {
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
};

/* A number with an optional fraction: 1795967456.524356, 0.000845. */
static inline const char *lex_decimal(const char *p, const char *end, double *v, bool *frac, int *nint)
{
	double x;
	int n;

	p = lex_digits(p, end, &x, &n);
	*nint = n;
	*frac = false;
	if (n && p < end && *p == '.' && p + 1 < end && isdigit_c(p[1])) {
		uint64_t f = 0;
		int k = 0;
		for (p++; p < end && isdigit_c(*p); p++)
			if (k < 18) {
				f = f * 10 + (uint64_t)(*p - '0');
				k++;
			}
		x += (double)f / lex_pow10[k];
		*frac = true;
	}
	*v = x;
	return p;
}

/* Skip a quoted string starting at P ('"'): the position after the closing
 * quote and a "..." truncation mark, or END when unterminated. */
const char *skip_string(const char *p, const char *end);

/* The end of the item that starts at P: the first ',' outside quotes,
 * brackets, comments and fd decorations, or an unbalanced closing bracket,
 * or END. */
const char *item_end(const char *p, const char *end);

/* Split S at top-level commas into at most MAX trimmed items. */
size_t split_items(struct span s, struct span *out, size_t max);

/* The inside of "{...}" or "[...]" (S trimmed first); empty when S is not one. */
struct span inner(struct span s);

/* The value of "KEY=value" among the top-level items of CONTENT. */
bool find_field(struct span content, const char *key, struct span *val);

/* "in => out": the part after the top-level "=>", or S itself. */
struct span span_out(struct span s);
struct span span_in(struct span s);

/* Integers as strace prints them: decimal, 0x hex, 0-prefixed octal, a
 * leading '-', NULL as 0. Trailing text (decorations, comments) is
 * ignored; false when S does not start with a number. */
bool parse_ll(struct span s, long long *out);
bool parse_ull(struct span s, unsigned long long *out);

/* A timespec/timeval struct in milliseconds ({tv_sec=1, tv_nsec=5}); false
 * when S is not one (NULL, an address). */
bool parse_timeout_ms(struct span s, long long *ms);

/* Seconds as a double from a timespec/timeval struct. */
bool parse_timespec(struct span s, double *sec);

/* Decode the C-escaped string starting at S (which must begin with '"')
 * into the arena, keeping at most CAP bytes (NUL-terminated after them).
 * *TRUNC is set when strace cut the string ("..."...) or CAP did. */
bool decode_string(struct span s, struct arena *a, size_t cap, const char **out,
		   size_t *len, bool *trunc);

/* Append the decoded string S to BUF (at most CAP bytes in all). */
bool append_string(struct span s, unsigned char *buf, size_t cap, size_t *len, bool *trunc);

/* An fd argument: "3", "3</path>", "AT_FDCWD</cwd>", "-100". *FD gets the
 * number (AT_FDCWD as RC_AT_FDCWD); *DECORATION (may be NULL) what follows
 * it from its '<' on (strace/decoration.h reads it), an empty span with a
 * NULL p when none. */
bool parse_fd(struct span s, int *fd, struct span *decoration);

/* The decoration text following position P (at '<'), decoded: without its
 * angle brackets, unescaped, nested decorations dropped; the end of the
 * decoration in *AFTER (may be NULL). */
const char *parse_decoration(const char *p, const char *end, struct arena *a,
			     const char **after);
/* What follows the decoration at P (at '<'): parse_decoration's *AFTER,
 * without decoding it. */
const char *decoration_after(const char *p, const char *end);
/* The decoration at P (at '<') needs no decoding: its text as
 * parse_decoration gives it, up to its first NUL, is the *N bytes after P
 * as they are. False: parse_decoration must decode it. */
bool decoration_plain(const char *p, const char *end, size_t *n);

/* A socket address struct: {sa_family=AF_INET, sin_port=htons(443),
 * sin_addr=inet_addr("1.2.3.4")} and the AF_INET6/AF_UNIX forms. */
bool parse_sockaddr(struct span s, struct arena *a, struct rc_sockaddr *sa);

/* The peer of a -yy socket decoration ("TCP:[a:1->b:2]"). */
bool parse_socket_hint(const char *hint, struct arena *a, struct rc_sockaddr *sa);

#endif
