#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void xoom(size_t n)
{
	fprintf(stderr, "rootcause: out of memory allocating %zu bytes\n", n);
	exit(4);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xoom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xoom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		xoom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

const char *path_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

const char *path_within(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return path;
	if (strncmp(path, top, n) != 0 || (path[n] && path[n] != '/'))
		return NULL;
	return path[n] ? path + n : "/";
}

bool path_cut_deleted(char *path, size_t *n)
{
	static const char deleted[] = " (deleted)";
	const size_t k = sizeof(deleted) - 1;

	if (*n <= k || memcmp(path + *n - k, deleted, k) != 0)
		return false;
	*n -= k;
	path[*n] = '\0';
	return true;
}

unsigned long long hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long long h = 0x9e3779b97f4a7c15ULL ^ n;

	/* Keys are pids and fds (8 bytes) or paths: eight bytes a step, as
	 * the per-event lookups of the rules are on the hot path. */
	while (n >= 8) {
		unsigned long long w;
		memcpy(&w, b, 8);
		h = hash_mix64(h ^ w);
		b += 8;
		n -= 8;
	}
	if (n) {
		unsigned long long w = 0;
		memcpy(&w, b, n);
		h = hash_mix64(h ^ w ^ ((unsigned long long)n << 56));
	}
	return h;
}

bool write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		n -= (size_t)w;
	}
	return true;
}

int sanitize_std_fds(void)
{
	/* Filled in ascending order, each open() gets the lowest free fd:
	 * the one just found closed. */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) < 0)
			return -1;
	return 0;
}

static sigset_t inherited_mask;

void signals_own(void)
{
	static const int own[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGCHLD };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		sigaddset(&set, own[i]);
	sigprocmask(SIG_UNBLOCK, &set, &inherited_mask);
}

void signals_inherited(void)
{
	sigprocmask(SIG_SETMASK, &inherited_mask, NULL);
}
