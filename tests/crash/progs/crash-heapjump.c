/* A jump into data: a "code" pointer that points into a heap buffer,
 * which is not executable, so the instruction fetch faults with
 * SEGV_ACCERR and si_addr = pc = the buffer.
 *
 * expect: rule=bad-jump module=crash-heapjump signal=SIGSEGV si_code=SEGV_ACCERR threads=3 crashed=main
 * frames: ?? run_hook main
 */
#include "crashprog.h"

typedef int (*hook_fn)(int);

NOIPA static int run_hook(hook_fn hook, int x)
{
	int r = hook(x);

	KEEP_FRAME();
	return r;
}

int main(void)
{
	unsigned char *buf;

	start_workers();
	buf = hide(malloc(4096));
	memset(buf, 0xc3, 4096);	/* "ret": harmless, were it executable */
	printf("%d\n", run_hook((hook_fn)(void *)(buf + 64), 1));
	KEEP_FRAME();
	return 0;
}
