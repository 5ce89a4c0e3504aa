#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/hmap.h"

static void put_get_del(void **state)
{
	(void)state;
	struct hmap m = HMAP_INIT;
	bool created;

	assert_null(hmap_get(&m, "a", 1));
	for (long long i = 0; i < 10000; i++) {
		void **slot = hmap_put_int(&m, i, &created);
		assert_true(created);
		*slot = (void *)(intptr_t)(i * 2);
	}
	assert_int_equal(m.count, 10000);
	for (long long i = 0; i < 10000; i++)
		assert_int_equal((intptr_t)*hmap_get_int(&m, i), i * 2);
	hmap_put_int(&m, 5, &created);
	assert_false(created);
	for (long long i = 0; i < 10000; i += 2)
		assert_int_equal((intptr_t)hmap_del_int(&m, i), i * 2);
	assert_int_equal(m.count, 5000);
	assert_null(hmap_get_int(&m, 4));

	size_t seen = 0;
	struct hmap_iter it;
	for (struct hmap_node *n = hmap_first(&m, &it); n; n = hmap_next(&m, &it)) {
		assert_true(hmap_node_int(n) % 2 == 1);
		seen++;
	}
	assert_int_equal(seen, 5000);

	/* Deleting the current node while iterating is allowed. */
	for (struct hmap_node *n = hmap_first(&m, &it); n; n = hmap_next(&m, &it))
		hmap_del_int(&m, hmap_node_int(n));
	assert_int_equal(m.count, 0);
	hmap_release(&m, NULL);
}

static void string_keys(void **state)
{
	(void)state;
	struct hmap m = HMAP_INIT;

	*hmap_put(&m, "/a/b", 4, NULL) = strdup("x");
	*hmap_put(&m, "/a/bc", 5, NULL) = strdup("y");
	void **slot = hmap_get(&m, "/a/b", 4);
	assert_non_null(slot);
	assert_string_equal(*slot, "x");
	assert_string_equal(hmap_slot_key(slot), "/a/b");
	assert_null(hmap_get(&m, "/a/", 3));
	hmap_release(&m, free);
}

/* The remembered node of hmap_get_int_hot is forgotten when it goes: a
 * deleted key is absent, and a key put again is its new slot, also after
 * the string-keyed calls on the same 8 bytes (the same nodes). */
static void hot_lookups(void **state)
{
	(void)state;
	struct hmap m = HMAP_INIT;
	long long k = 7;

	assert_null(hmap_get_int_hot(&m, 7));
	*hmap_put_int(&m, 7, NULL) = (void *)(intptr_t)70;
	*hmap_put_int(&m, 8, NULL) = (void *)(intptr_t)80;
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 7), 70);
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 7), 70);
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 8), 80);
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 7), 70);
	assert_int_equal((intptr_t)hmap_del_int(&m, 7), 70);
	assert_null(hmap_get_int_hot(&m, 7));
	*hmap_put_int(&m, 7, NULL) = (void *)(intptr_t)71;
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 7), 71);
	assert_int_equal((intptr_t)hmap_del(&m, &k, sizeof(k)), 71);
	assert_null(hmap_get_int_hot(&m, 7));
	/* Many more keys: the buckets grow under the remembered node. */
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 8), 80);
	for (long long i = 100; i < 2000; i++)
		*hmap_put_int(&m, i, NULL) = (void *)(intptr_t)i;
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 8), 80);
	assert_int_equal((intptr_t)*hmap_get_int_hot(&m, 1999), 1999);
	hmap_release(&m, NULL);
	assert_null(hmap_get_int_hot(&m, 1999));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_get_del),
		cmocka_unit_test(string_keys),
		cmocka_unit_test(hot_lookups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
