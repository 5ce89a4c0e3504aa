/* Weights read through a file mapping while the file is cut short under
 * it: the program maps weights.bin (2 pages), truncates it to 0 (as
 * another process rewriting the file would), then reads the mapping:
 * SIGBUS BUS_ADRERR at a page the file no longer has.
 *
 * expect: rule=bad-file-mapping module=crash-sigbus signal=SIGBUS si_code=BUS_ADRERR threads=3 crashed=main
 * frames: sum_weights load_model main
 */
#include "crashprog.h"
#include <fcntl.h>
#include <sys/mman.h>

#define WEIGHTS_SIZE 8192

NOIPA static const unsigned char *map_weights(const char *path)
{
	static unsigned char page[WEIGHTS_SIZE];
	void *p;
	int fd;

	memset(page, 0x5a, sizeof(page));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
		perror(path);
		exit(2);
	}
	p = mmap(NULL, WEIGHTS_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	/* The file shrinks behind the mapping's back. */
	if (ftruncate(fd, 0) != 0) {
		perror("ftruncate");
		exit(2);
	}
	close(fd);
	return p;
}

NOIPA static long sum_weights(const unsigned char *w, size_t n)
{
	long sum = 0;
	size_t i;

	for (i = 4096 + 16; i < n; i++)
		sum += ((const volatile unsigned char *)w)[i];
	KEEP_FRAME();
	return sum;
}

NOIPA static long load_model(const char *path)
{
	const unsigned char *w = map_weights(path);
	long sum = sum_weights(w, WEIGHTS_SIZE);

	KEEP_FRAME();
	return sum;
}

int main(void)
{
	start_workers();
	printf("sum %ld\n", load_model("weights.bin"));
	KEEP_FRAME();
	return 0;
}
