/* A model loader that trusts a header lookup which can miss: parse_header
 * writes hdr->n_layers through a NULL hdr, 0x10 bytes past address 0.
 *
 * expect: rule=null-deref module=crash-null signal=SIGSEGV si_code=SEGV_MAPERR addr=0x10 threads=3 crashed=main
 * frames: parse_header load_model main
 */
#include "crashprog.h"

struct header {
	char magic[8];
	long version;
	int n_layers;		/* offset 0x10 */
};

NOIPA static struct header *find_header(const char *path)
{
	(void)path;
	return hide(NULL);
}

NOIPA static void parse_header(struct header *hdr, int n)
{
	hdr->n_layers = n;
	KEEP_FRAME();
}

NOIPA static int load_model(const char *path)
{
	struct header *hdr = find_header(path);

	parse_header(hdr, 32);
	KEEP_FRAME();
	return 0;
}

int main(void)
{
	start_workers();
	printf("loading model.bin\n");
	fflush(stdout);
	load_model("model.bin");
	KEEP_FRAME();
	return 0;
}
