/* Story 2: a lip-sync worker that serves 8 requests the slow way.
 * Each request re-opens and re-reads the whole weight file, reads its
 * audio in 1 KiB read()s, and maps and unmaps a 64 MiB scratch buffer.
 * On request 3 it waits for a "GPU" thread that holds the device lock
 * for 1.5 s: a futex wait well over a second. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REQUESTS 8
#define SCRATCH (64UL * 1024 * 1024)

static pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;
static int ready[2];

static void *gpu_thread(void *arg)
{
	struct timespec busy = { 1, 500000000 };

	(void)arg;
	pthread_mutex_lock(&gpu_lock);
	if (write(ready[1], "x", 1) != 1)
		abort();
	nanosleep(&busy, NULL);
	pthread_mutex_unlock(&gpu_lock);
	return NULL;
}

static unsigned long load_weights(const char *path)
{
	struct stat st;
	unsigned long sum = 0;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		abort();
	buf = malloc(st.st_size);
	if (buf == NULL || read(fd, buf, st.st_size) != st.st_size)
		abort();
	close(fd);
	for (off_t i = 0; i < st.st_size; i += 4096)
		sum += buf[i];
	free(buf);
	return sum;
}

static unsigned long read_audio(const char *path)
{
	char chunk[1024];
	unsigned long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		abort();
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		total += n;
	close(fd);
	return total;
}

static void render(void)
{
	char *scratch = mmap(NULL, SCRATCH, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (scratch == MAP_FAILED)
		abort();
	for (size_t i = 0; i < SCRATCH; i += SCRATCH / 16)
		scratch[i] = 1;
	munmap(scratch, SCRATCH);
}

int main(void)
{
	pthread_t gpu;
	char audio[64];
	char c;

	if (pipe(ready) < 0)
		return 1;
	for (int r = 0; r < REQUESTS; r++) {
		unsigned long w = load_weights("models/lipsync.pth");
		unsigned long a;

		snprintf(audio, sizeof(audio), "requests/%d.wav", r);
		a = read_audio(audio);
		if (r == 3) {
			pthread_create(&gpu, NULL, gpu_thread, NULL);
			if (read(ready[0], &c, 1) != 1)
				return 1;
		}
		pthread_mutex_lock(&gpu_lock);
		render();
		pthread_mutex_unlock(&gpu_lock);
		printf("request %d: weights %lu, audio %lu bytes\n", r, w, a);
	}
	pthread_join(gpu, NULL);
	return 0;
}
