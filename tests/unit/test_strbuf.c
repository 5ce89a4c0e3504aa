#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/strbuf.h"

static void grow_and_format(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;

	assert_string_equal(strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_true(strncmp(sb.buf, "0,1,2,", 6) == 0);
	strbuf_reset(&sb);
	assert_int_equal(sb.len, 0);
	strbuf_adds(&sb, "x");
	char *p = strbuf_detach(&sb);
	assert_string_equal(p, "x");
	assert_null(sb.buf);
	free(p);
	strbuf_release(&sb);
}

static void escaping_as_strace(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_escaped(&sb, "a\nb\t\"\\", 6);
	assert_string_equal(sb.buf, "a\\nb\\t\\\"\\\\");
	strbuf_reset(&sb);
	/* "\0" then a digit needs the three-digit form. */
	strbuf_add_escaped(&sb, "\0" "1\x7f" "x", 4);
	assert_string_equal(sb.buf, "\\0001\\177x");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grow_and_format),
		cmocka_unit_test(escaping_as_strace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
