/* abort() after the program's own message on stderr, as many C++ and C
 * services do on a fatal error ("fatal: ..." then abort()).  glibc's
 * abort() itself records no message: only stderr had it.
 *
 * expect: rule=abort module=crash-abort signal=SIGABRT si_code=SI_TKILL threads=3 crashed=main
 * frames: abort fail verify_weights load_model main
 */
#include "crashprog.h"

NOIPA static void fail(const char *what)
{
	fprintf(stderr, "fatal: %s\n", what);
	abort();
}

NOIPA static int verify_weights(unsigned sum, unsigned want)
{
	if (sum != want)
		fail("weights checksum mismatch");
	KEEP_FRAME();
	return 0;
}

NOIPA static int load_model(void)
{
	int r = verify_weights(0x1234, 0x4321);

	KEEP_FRAME();
	return r;
}

int main(void)
{
	start_workers();
	printf("%d\n", load_model());
	KEEP_FRAME();
	return 0;
}
