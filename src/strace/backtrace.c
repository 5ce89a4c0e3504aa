/* strace -k's stack lines (see backtrace.h). */
#include "strace/backtrace.h"

#include <string.h>

#include "util/util.h"

bool backtrace_is_frame(const char *line, size_t len)
{
	return len >= 4 && line[0] == ' ' && line[1] == '>' && line[2] == ' ';
}

static bool hex(const char *p, const char *end, unsigned long long *v)
{
	if (end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return false;
	*v = 0;
	for (p += 2; p < end; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
		if (d < 0 || *v >> 60)
			return false;
		*v = *v * 16 + (unsigned)d;
	}
	return true;
}

/* S..END, NUL-ended, into BUF at *AT; NULL when empty or out of room. */
static const char *put(char *buf, size_t size, size_t *at, const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	if (!n || *at >= size)
		return NULL;
	n = MIN(n, size - *at - 1);
	char *d = buf + *at;
	memcpy(d, s, n);
	d[n] = '\0';
	*at += n + 1;
	return d;
}

bool backtrace_frame(const char *line, size_t len, struct rc_stack_frame *f, char *buf, size_t size)
{
	if (!backtrace_is_frame(line, len) || !size)
		return false;
	const char *p = line + 3, *end = line + len;
	while (end > p && end[-1] == ' ')
		end--;
	/* The pc: " [0x...]" at the end. */
	if (end - p < 5 || end[-1] != ']')
		return false;
	const char *open = end - 1;
	while (open > p && *open != '[')
		open--;
	unsigned long long pc;
	if (*open != '[' || !hex(open + 1, end - 1, &pc))
		return false;
	memset(f, 0, sizeof(*f));
	f->pc = pc;
	size_t at = 0;
	const char *mod_end = open;
	while (mod_end > p && mod_end[-1] == ' ')
		mod_end--;
	/* "MODULE(SYMBOL+0xOFF)" or "MODULE(+0xOFF)": the symbol may hold
	 * parentheses of its own (a C++ signature), so its '(' is the one
	 * that balances the last ')'. */
	if (mod_end > p && mod_end[-1] == ')') {
		const char *close = mod_end - 1, *q = close;
		int depth = 0;
		while (q > p) {
			q--;
			if (*q == ')')
				depth++;
			else if (*q == '(' && depth-- == 0)
				break;
		}
		if (*q == '(' && q > p) {
			const char *plus = close;
			while (plus > q && *plus != '+')
				plus--;
			unsigned long long off;
			if (*plus == '+' && hex(plus + 1, close, &off)) {
				f->offset = off;
				f->function = put(buf, size, &at, q + 1, plus);
			} else {
				f->function = put(buf, size, &at, q + 1, close);
			}
			mod_end = q;
		}
	}
	/* "unexpected_backtracing_error" and the like name no file: a
	 * frame with only its pc. */
	if (mod_end > p && *p == '/')
		f->module = put(buf, size, &at, p, mod_end);
	return true;
}
