/* A write into a PROT_READ anonymous mapping (a config table the program
 * made read-only after loading it): SEGV_ACCERR.
 *
 * expect: rule=write-to-readonly module=crash-protread signal=SIGSEGV si_code=SEGV_ACCERR threads=3 crashed=main
 * frames: update_table apply_config main
 */
#include "crashprog.h"
#include <sys/mman.h>

NOIPA static int *load_table(void)
{
	int *t = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	t[0] = 1;
	if (mprotect(t, 4096, PROT_READ) != 0) {
		perror("mprotect");
		exit(2);
	}
	return t;
}

NOIPA static void update_table(int *t, int i, int v)
{
	t[i] = v;
	KEEP_FRAME();
}

NOIPA static void apply_config(void)
{
	int *t = load_table();

	update_table(t, 5, 42);
	KEEP_FRAME();
}

int main(void)
{
	start_workers();
	apply_config();
	KEEP_FRAME();
	return 0;
}
