/* A call through a function pointer that was never set: pc = 0.  The
 * call pushed dispatch's return address, so the caller is still found
 * at [rsp] (gdb shows frame 0 as "??").
 *
 * expect: rule=bad-jump module=crash-nullcall signal=SIGSEGV si_code=SEGV_MAPERR addr=0x0 threads=3 crashed=main
 * frames: ?? dispatch main
 */
#include "crashprog.h"

struct ops {
	int (*forward)(int);
	int (*backward)(int);
};

NOIPA static int dispatch(const struct ops *ops, int x)
{
	int r = ops->backward(x);

	KEEP_FRAME();
	return r;
}

int main(void)
{
	struct ops *ops;

	start_workers();
	ops = hide(calloc(1, sizeof(*ops)));
	printf("%d\n", dispatch(ops, 3));
	KEEP_FRAME();
	return 0;
}
