/* Story 3's own case: a loader maps a weight shard as long as the file
 * (1 MiB: the download stopped short) and copies the 16 MiB its index
 * promised.  The copy runs off the end of the mapping: glibc's memcpy,
 * seeing source and destination alias in the cache, copies backwards from
 * the far end, through the workers' stacks above the shard, and faults in
 * a stack guard page 8 MiB past the shard: SIGSEGV SEGV_ACCERR, nowhere
 * near the file.  The copy's start and length (in the caller's frame at
 * -O0, in registers at -O2) tie the fault to the shard.
 *
 * expect: rule=bad-file-mapping module=crash-shard signal=SIGSEGV si_code=SEGV_ACCERR threads=3 crashed=main
 * frames: copy_tensor load_shard main
 */
#include "crashprog.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define SHARD_SIZE (1 << 20)	/* what the file has */
#define EXPECTED (16 << 20)	/* what the index says the tensor takes */

/* Writes the short shard, as the cut-off download left it, and maps all
 * of it. */
NOIPA static const void *map_shard(const char *path)
{
	static unsigned char block[1 << 16];
	struct stat st;
	void *p;
	int fd, i;

	memset(block, 0x3c, sizeof(block));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (i = 0; fd >= 0 && i < SHARD_SIZE / (int)sizeof(block); i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			break;
	if (fd < 0 || i < SHARD_SIZE / (int)sizeof(block) || fstat(fd, &st) != 0) {
		perror(path);
		exit(2);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	close(fd);
	return p;
}

NOIPA static void copy_tensor(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	KEEP_FRAME();
}

NOIPA static void load_shard(const char *path)
{
	const void *shard = map_shard(path);
	void *tensor = malloc(EXPECTED);

	if (!tensor) {
		perror("malloc");
		exit(2);
	}
	copy_tensor(tensor, shard, EXPECTED);
	KEEP_FRAME();
	free(tensor);
}

int main(void)
{
	start_workers();
	load_shard("shard-00001.bin");
	KEEP_FRAME();
	return 0;
}
