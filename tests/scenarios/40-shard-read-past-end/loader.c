/* Story 3's own case: a loader maps a model shard as long as the file and
 * converts the 8 Mi fp16 weights (16 MiB) its index promised.  The
 * download stopped at 1 MiB: the loop reads past the end of the mapping,
 * into the guard page of a worker's stack right above it, and dies of
 * SIGSEGV (SEGV_ACCERR), not SIGBUS: the mapping is no longer than the
 * file, so no page of it lies past the file's end. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPECTED_BYTES (16 << 20)
#define WORKERS 2

/* The pool that will run the model, started first, waiting for work. */
static void *worker(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static float half_to_float(uint16_t h)
{
	return (float)(h & 0x3ff) / 1024.0f * (float)(1 << ((h >> 10) & 0xf));
}

int main(void)
{
	const char *path = "cache_hub/shard-00001.bin";
	pthread_t t;
	struct stat st;

	for (int i = 0; i < WORKERS; i++)
		if (pthread_create(&t, NULL, worker, NULL) != 0)
			return 2;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(path);
		return 1;
	}
	const uint16_t *h = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (h == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	close(fd);
	float *w = malloc(EXPECTED_BYTES / 2 * sizeof(float));
	if (!w)
		return 1;
	for (size_t i = 0; i < EXPECTED_BYTES / 2; i++)
		w[i] = half_to_float(h[i]);
	printf("loaded %d weights, w[0] = %f\n", EXPECTED_BYTES / 2, w[0]);
	return 0;
}
