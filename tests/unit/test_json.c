#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "util/json.h"

static void nesting_and_commas(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb, false);
	json_begin_object(&j);
	json_key(&j, "a");
	json_int(&j, 1);
	json_key(&j, "b");
	json_begin_array(&j);
	json_string(&j, "x");
	json_begin_object(&j);
	json_end_object(&j);
	json_double(&j, 2.5);
	json_bool(&j, false);
	json_end_array(&j);
	json_key(&j, "c");
	json_begin_array(&j);
	json_end_array(&j);
	json_end_object(&j);
	assert_string_equal(sb.buf, "{\"a\":1,\"b\":[\"x\",{},2.5,false],\"c\":[]}");
	strbuf_release(&sb);
}

static void escapes_and_invalid_utf8(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb, false);
	static const char in[] = "q\"\\\n\x01 \xc3\xa9 \xff";
	json_stringn(&j, in, sizeof(in) - 1);
	assert_string_equal(sb.buf, "\"q\\\"\\\\\\n\\u0001 \xc3\xa9 \\ufffd\"");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nesting_and_commas),
		cmocka_unit_test(escapes_and_invalid_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
