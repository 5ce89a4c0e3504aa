/*
 * The tracing benchmarks' workload: open a file, read it in 1 KiB chunks
 * to the end, close it; again and again. Every cycle is open + size/1024
 * reads + the read that sees EOF + close, all cheap, so a tracer's cost
 * per stop is what the clock measures.
 *
 *   reader [-k KIB] -n CYCLES FILE      do CYCLES cycles, then exit
 *   reader [-k KIB] -n CYCLES -t OUT FILE  the same, then append the
 *                                       cycles' wall seconds to OUT (to
 *                                       0.1 ms: GNU time's %e has 10 ms)
 *   reader [-k KIB] -s SECONDS FILE     run for SECONDS; every 100 ms print
 *                                       "EPOCH_SECONDS CYCLES_SO_FAR", and at
 *                                       the end "cycles/s RATE"
 *
 * FILE is created (KIB KiB, default 16) when it does not exist. The
 * progress lines let a script measure the rate over just the window in
 * which a tracer was attached; they cost one write(2) per 100 ms.
 *
 * Built by the bench scripts with cc -O2; not part of rootcause.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void make_file(const char *path, long kib)
{
	char block[1024];
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0) {
		if (errno == EEXIST)
			return;
		perror(path);
		exit(1);
	}
	memset(block, 'x', sizeof(block));
	for (long i = 0; i < kib; i++) {
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			perror(path);
			exit(1);
		}
	}
	close(fd);
}

/* One open/read.../close cycle. */
static void cycle(const char *path)
{
	char buf[1024];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0) {
		perror("read");
		exit(1);
	}
	close(fd);
}

static void usage(void)
{
	fprintf(stderr, "usage: reader [-k KIB] (-n CYCLES [-t OUT] | -s SECONDS) FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long kib = 16, cycles = -1;
	double seconds = -1;
	const char *timed = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "k:n:s:t:")) != -1) {
		switch (opt) {
		case 'k':
			kib = atol(optarg);
			break;
		case 'n':
			cycles = atol(optarg);
			break;
		case 's':
			seconds = atof(optarg);
			break;
		case 't':
			timed = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || kib < 0 || (cycles < 0) == (seconds < 0))
		usage();
	const char *path = argv[optind];
	make_file(path, kib);

	if (cycles >= 0) {
		double start = now(CLOCK_MONOTONIC);
		for (long i = 0; i < cycles; i++)
			cycle(path);
		if (timed) {
			FILE *f = fopen(timed, "a");
			if (!f || fprintf(f, "%.4f\n", now(CLOCK_MONOTONIC) - start) < 0 || fclose(f) != 0) {
				perror(timed);
				return 1;
			}
		}
		return 0;
	}

	/* Loop mode. The clock is read every 64 cycles only, so that
	 * clock_gettime (a vDSO call, never seen by a tracer) stays out of the
	 * way; the progress line is unbuffered so a killed reader has still
	 * told what it did. */
	setvbuf(stdout, NULL, _IONBF, 0);
	double start = now(CLOCK_MONOTONIC), next = start + 0.1, t = start;
	long done = 0;
	while (t - start < seconds) {
		for (int i = 0; i < 64; i++)
			cycle(path);
		done += 64;
		t = now(CLOCK_MONOTONIC);
		if (t >= next) {
			printf("%.3f %ld\n", now(CLOCK_REALTIME), done);
			next = t + 0.1;
		}
	}
	printf("cycles/s %.0f\n", (double)done / (t - start));
	return 0;
}
