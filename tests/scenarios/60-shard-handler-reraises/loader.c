/* Scenario 40's loader, with a service's crash reporter: a SIGSEGV
 * handler that says so on stderr, puts the default action back and
 * raises the signal again.  The signal is blocked while its handler
 * runs, so it is delivered when the handler returns, and kills.  The
 * thread returns from the handler (rt_sigreturn) as a JVM's does from a
 * fault it meant, and yet this fault was not handled: the read past the
 * end of the shard is still the cause. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPECTED_BYTES (16 << 20)
#define WORKERS 2

static void *worker(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void on_fault(int sig)
{
	static const char msg[] = "loader: fatal signal, see the core\n";

	(void)!write(2, msg, sizeof(msg) - 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static float half_to_float(uint16_t h)
{
	return (float)(h & 0x3ff) / 1024.0f * (float)(1 << ((h >> 10) & 0xf));
}

int main(void)
{
	const char *path = "cache_hub/shard-00001.bin";
	struct sigaction sa;
	pthread_t t;
	struct stat st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, NULL);
	for (int i = 0; i < WORKERS; i++)
		if (pthread_create(&t, NULL, worker, NULL) != 0)
			return 2;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(path);
		return 1;
	}
	const volatile uint16_t *h = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
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
