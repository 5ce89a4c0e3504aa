/* Heap corruption: a buffer released twice.  glibc's tcache notices and
 * aborts with "free(): double free detected in tcache 2".
 *
 * expect: rule=heap-corruption module=crash-doublefree signal=SIGABRT si_code=SI_TKILL threads=3 crashed=main
 * message: free(): double free detected in tcache 2
 * frames: release_buffer unload_model main
 */
#include "crashprog.h"

struct buffer {
	char *data;
	size_t len;
};

NOIPA static void release_buffer(struct buffer *b)
{
	free(b->data);
	KEEP_FRAME();
}

NOIPA static void unload_model(struct buffer *b)
{
	release_buffer(b);
	release_buffer(b);	/* the bug: b->data was not reset */
	KEEP_FRAME();
}

int main(void)
{
	struct buffer b;

	start_workers();
	b.len = 64;
	b.data = hide(malloc(b.len));
	memset(b.data, 1, b.len);
	unload_model(&b);
	KEEP_FRAME();
	return 0;
}
