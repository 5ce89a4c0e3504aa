/* The strace parser's input: files or a buffer read in chunks and split
 * into lines (a line too long keeps its head and tail), ANSI escapes
 * stripped, each line's prefix (pid, time) parsed, and an -ff set of
 * LOG.PID files merged by time. Private to strace/. */
#ifndef RC_STRACE_INPUT_H
#define RC_STRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/strbuf.h"

enum tmode { T_NONE, T_ABS, T_REL };

struct prefix {
	int pid;
	bool has_pid;
	bool bracket;		/* "[pid N]", as strace prints on a terminal */
	double ts;		/* -1 when the line has no time */
	bool ts_abs;		/* ts came from -t/-tt/-ttt */
	size_t body;		/* offset of what follows the prefix */
};

struct source {
	char *name;
	int fd;
	bool is_stdin, eof, park, memory;
	off_t off;
	int name_pid;		/* from an -ff name LOG.PID, else 0 */
	char *buf;
	size_t cap, beg, end, scan;
	/* the first ESC byte at or after the current line's start, within
	 * the text searched so far, [.., esc_lim); esc_next == esc_lim: none */
	size_t esc_next, esc_lim;
	bool elided_now;
	/* time state */
	enum tmode first_mode;
	bool seen_time;
	double day_off, last_tod, acc, first_abs, last_key;
	bool have_tod, have_first_abs;
	bool brackets;		/* terminal-style prefixes seen */
	/* Its lines are records of another log that carry strace lines
	 * (strace/wrapped.h): 0 not decided yet, 1 no, 2 yes; a line
	 * unwrapped is in UNWRAPPED. */
	unsigned char wrap;
	struct strbuf unwrapped;
	/* the current line */
	char *line;
	size_t len;
	bool elided, has_line;
	struct prefix pre;
};

struct input {
	struct source *src;
	size_t nsrc, cur;	/* cur: the source of the current line */
	bool merge, started;
	size_t *heap;		/* merge order: source indexes */
	size_t heap_n;
};

/* Open FILES (N >= 1; "-" is stdin); names LOG.PID sharing their LOG are
 * an -ff set. 0, or -1 with a message in ERR (IN is then released). */
int input_open(struct input *in, const char *const *files, size_t n, struct strbuf *err);
/* Read from a copy of DATA. */
void input_from_buffer(struct input *in, const char *data, size_t len);
void input_release(struct input *in);

/* Make the next line current: in->src[in->cur] holds it (line, len,
 * elided, pre). 1, 0 at the end, -1 with a message in ERR. */
int input_advance(struct input *in, struct strbuf *err);

/* The lines of S after its current one that are already read, without
 * consuming them (strace -k's frames follow their call): from *AT (0:
 * just after the current line), the next whole line into LINE and LEN,
 * *AT moved past it. False when no whole line is buffered. */
bool input_peek(const struct source *s, size_t *at, const char **line, size_t *len);
/* Whether what S has buffered after its current line begins with LIT
 * (N bytes): a look at a few bytes, for the per-line path. */
bool input_next_is(const struct source *s, const char *lit, size_t n);

/* Parse the prefix of line L (N bytes) of S into PRE, updating S's time
 * state. */
void input_parse_prefix(struct source *s, const char *l, size_t n, struct prefix *pre);

#endif
