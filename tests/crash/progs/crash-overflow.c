/* Unbounded recursion: recurse() never reaches its base case and each
 * call holds a 512-byte array, so an 8 MiB stack (the harness sets
 * ulimit -s 8192) runs out after roughly 15,000 frames.  Not a tail call
 * (the array is read after the inner call returns), so -O2 cannot turn it
 * into a loop.
 *
 * expect: rule=stack-overflow module=crash-overflow signal=SIGSEGV si_code=SEGV_MAPERR threads=3 crashed=main recursion=recurse
 * frames: recurse recurse recurse recurse
 * outer: recurse walk_tree main
 */
#include "crashprog.h"

NOIPA static int recurse(int n)
{
	volatile char buf[512];

	buf[n & 511] = (char)n;
	if (n < 0)	/* never: n only grows */
		return 0;
	return recurse(n + 1) + buf[(n * 7) & 511];
}

NOIPA static int walk_tree(void)
{
	int r = recurse(0);

	KEEP_FRAME();
	return r;
}

int main(void)
{
	start_workers();
	printf("walking\n");
	fflush(stdout);
	printf("%d\n", walk_tree());
	KEEP_FRAME();
	return 0;
}
