/* A request worker that trusts a cache lookup which can miss: the NULL
 * it gets back is dereferenced and the process dies of SIGSEGV. */
#include <stddef.h>
#include <stdio.h>

struct request {
	int id;
	const char *text;
	size_t len;
};

static struct request *cache_lookup(int id)
{
	(void)id;
	return NULL;
}

int main(void)
{
	struct request *r;

	printf("processing request 17\n");
	fflush(stdout);
	r = cache_lookup(17);
	return (int)r->len;
}
