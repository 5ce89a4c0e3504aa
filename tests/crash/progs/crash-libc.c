/* A crash inside libc: memcpy from pages that were unmapped.  Frame 0 is
 * glibc's memcpy (__memmove_avx_unaligned_erms or the like), but the
 * culprit is its caller, copy_batch, in this executable.
 *
 * expect: rule=native-crash module=crash-libc signal=SIGSEGV si_code=SEGV_MAPERR threads=3 crashed=main
 * frames: copy_batch load_batch main
 */
#include "crashprog.h"
#include <sys/mman.h>

NOIPA static void copy_batch(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	KEEP_FRAME();
}

NOIPA static void load_batch(void)
{
	static char dst[1 << 16];
	void *src = mmap(NULL, sizeof(dst), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (src == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	munmap(src, sizeof(dst));	/* the bug: the source is gone */
	copy_batch(dst, src, sizeof(dst));
	KEEP_FRAME();
}

int main(void)
{
	start_workers();
	load_batch();
	KEEP_FRAME();
	return 0;
}
