/* Shared by the crash programs.  Every program starts the same two workers
 * and waits until both sleep in their system call, so each core has a known
 * shape: worker_wait inside pthread_cond_wait (futex), worker_read inside
 * read on a pipe nobody writes to.  Then it crashes a few calls deep.
 *
 * The crash chains must survive -O2: NOIPA keeps a function out of line and
 * unchanged (no inlining, cloning or IPA-SRA, so no "f.constprop.0"), and
 * KEEP_FRAME() after a call takes the call out of tail position, so the
 * caller's frame stays on the stack instead of becoming a jmp. */
#ifndef CRASHPROG_H
#define CRASHPROG_H

#ifndef _GNU_SOURCE		/* g++ defines it already */
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

/* A pointer the compiler cannot see through: -O2 would turn a store
 * through a known NULL into ud2 (SIGILL) instead of the fault we want. */
static inline void *hide(void *p)
{
	__asm__ volatile("" : "+r"(p));
	return p;
}

static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cond = PTHREAD_COND_INITIALIZER;
static int park_pipe[2];
static volatile pid_t park_tid[2];

/* Spin until thread TID sleeps in system call NR (as /proc says), so the
 * core never catches a worker on its way into the call.  Gives up after
 * 5 s with a note on stderr: the core is still usable, only less tidy. */
static void wait_parked(pid_t tid, long nr)
{
	char path[64], buf[128];
	struct timespec ts = { 0, 1000000 };
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	for (i = 0; i < 5000; i++) {
		FILE *f = fopen(path, "r");
		int got = 0;

		if (f) {
			got = fgets(buf, sizeof(buf), f) != NULL;
			fclose(f);
		}
		if (got && buf[0] >= '0' && buf[0] <= '9' && strtol(buf, NULL, 10) == nr)
			return;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "crashprog: thread %d never parked in syscall %ld\n", (int)tid, nr);
}

NOIPA static void worker_wait(void)
{
	pthread_mutex_lock(&park_lock);
	for (;;)
		pthread_cond_wait(&park_cond, &park_lock);
}

NOIPA static void worker_read(void)
{
	char c;

	while (read(park_pipe[0], &c, 1) != 0)
		;
}

static void *waiter_main(void *arg)
{
	(void)arg;
	park_tid[0] = (pid_t)syscall(SYS_gettid);
	worker_wait();
	return NULL;
}

static void *reader_main(void *arg)
{
	(void)arg;
	park_tid[1] = (pid_t)syscall(SYS_gettid);
	worker_read();
	return NULL;
}

static void start_workers(void)
{
	pthread_t t;
	int i;

	if (pipe(park_pipe) != 0 || pthread_create(&t, NULL, waiter_main, NULL) != 0) {
		perror("crashprog: cannot start the workers");
		exit(2);
	}
	pthread_setname_np(t, "waiter");
	if (pthread_create(&t, NULL, reader_main, NULL) != 0) {
		perror("crashprog: cannot start the workers");
		exit(2);
	}
	pthread_setname_np(t, "reader");
	for (i = 0; i < 5000 && (!park_tid[0] || !park_tid[1]); i++)
		usleep(1000);
	if (park_tid[0])
		wait_parked(park_tid[0], SYS_futex);
	if (park_tid[1])
		wait_parked(park_tid[1], SYS_read);
}

#endif
