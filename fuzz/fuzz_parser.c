/* libFuzzer entry for the strace log parser: any bytes must parse without
 * a crash, a sanitizer report or a leak, and every pointer in an event must
 * be readable. Seed it with tests/fixtures/strace. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "strace/parser.h"
#include "util/strbuf.h"

#include "touch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strace_parser *p = strace_parser_from_buffer((const char *)data, size);
	struct strbuf err = STRBUF_INIT;
	struct rc_event e;

	while (strace_parser_next(p, &e, &err) == 1) {
		touch(e.name);
		touch(e.path);
		touch(e.path2);
		touch_shown(e.fd_shown);
		touch_shown(e.dir_shown);
		touch(e.sa.host);
		touch_stack(e.stack);
		for (int i = 0; i < e.argc; i++)
			touch(e.argv[i]);
		if (e.data_len)
			sink += e.data[e.data_len - 1];
		if (e.line_len)
			sink += (unsigned char)e.line[e.line_len - 1] + (unsigned char)e.line[e.line_len];
		if (e.nfds < 0 || e.nfds > 8 || e.argc < 0 || e.argc > 16)
			__builtin_trap();
	}
	const struct strace_stats *st = strace_parser_stats(p);
	if (st->events > st->lines + 1)
		__builtin_trap();
	/* strace -c tables: every row a name and counts that add up. */
	const struct rc_call_summary *sum = &strace_parser_summary(p)->sum;
	uint64_t calls = 0, errors = 0;
	for (size_t i = 0; i < sum->nrows; i++) {
		touch(sum->rows[i].name);
		calls += sum->rows[i].calls;
		errors += sum->rows[i].errors;
		if (sum->rows[i].errors > sum->rows[i].calls)
			__builtin_trap();
	}
	if (sum->nrows > STRACE_SUMMARY_MAX_ROWS || calls != sum->total.calls || errors != sum->total.errors ||
	    st->summary_lines > st->lines)
		__builtin_trap();
	strace_parser_free(p);
	strbuf_release(&err);
	return 0;
}
