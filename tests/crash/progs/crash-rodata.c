/* A write into a string literal: the literal lives in the executable's
 * read-only segment, so the store faults with SEGV_ACCERR.  The store is
 * in capitalize(), forced inline into rename_model, so the stack has an
 * inlined frame (gdb shows it as a frame of its own).
 *
 * expect: rule=write-to-readonly module=crash-rodata signal=SIGSEGV si_code=SEGV_ACCERR threads=3 crashed=main
 * frames: capitalize rename_model main
 */
#include "crashprog.h"

static inline __attribute__((always_inline)) void capitalize(char *s)
{
	if (s[0] >= 'a' && s[0] <= 'z')
		s[0] = (char)(s[0] - 'a' + 'A');
}

NOIPA static void rename_model(char *name)
{
	capitalize(name);
	KEEP_FRAME();
}

int main(void)
{
	start_workers();
	printf("renaming\n");
	fflush(stdout);
	rename_model(hide((char *)"llama"));
	KEEP_FRAME();
	return 0;
}
