/* Map a cached weight file whose index says it holds 64 KiB and sum it.
 * The download was cut short: the file has only 4 KiB, and touching the
 * mapping past the file's last page raises SIGBUS (BUS_ADRERR). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPECTED_SIZE (64 * 1024)

int main(void)
{
	const unsigned char *w;
	unsigned long sum = 0;
	int fd;

	fd = open("cache_hub/voice.bin", O_RDONLY);
	if (fd < 0) {
		perror("cache_hub/voice.bin");
		return 1;
	}
	w = mmap(NULL, EXPECTED_SIZE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (w == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	close(fd);
	for (size_t i = 0; i < EXPECTED_SIZE; i += 512)
		sum += w[i];
	printf("checksum %lu\n", sum);
	return 0;
}
