/* A target that counts queued signals exactly, for tests/harm/run.
 *
 *   sigcount READY
 *
 * Four threads keep busy (one in a tight getppid loop, three in short
 * nanosleeps), so that a signal finds threads in every state a tracer meets:
 * running, at a syscall stop, sleeping. Every SIGRTMIN+1 runs the handler
 * once: real-time signals are queued, never merged, unlike SIGUSR1 (and a
 * Python handler would merge them again), so the count must equal the number
 * sent. The pid goes to READY once the threads run; on SIGTERM the count is
 * printed on stdout and the exit status is 0.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 4

static atomic_long got;
static volatile sig_atomic_t done;

static void on_rt(int sig)
{
	(void)sig;
	atomic_fetch_add(&got, 1);
}

static void on_term(int sig)
{
	(void)sig;
	done = 1;
}

static void *busy(void *arg)
{
	long kind = (long)arg;

	while (!done) {
		if (kind == 0) {
			getppid();
		} else {
			struct timespec ts = { 0, kind * 50000 };
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	pthread_t th[NTHREADS];

	if (argc != 2) {
		fprintf(stderr, "usage: sigcount READY\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_rt;
	sigaction(SIGRTMIN + 1, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	/* SIGTERM must wake the main thread's pause(): the busy threads
	 * inherit it blocked, so only the main thread can take it. */
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &term, NULL);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, busy, (void *)i);
	pthread_sigmask(SIG_UNBLOCK, &term, NULL);

	FILE *f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);

	while (!done)
		pause();
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	printf("%ld\n", atomic_load(&got));
	return 0;
}
