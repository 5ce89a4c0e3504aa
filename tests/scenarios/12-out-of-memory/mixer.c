/* Allocate a 1 GiB buffer for a long mix, as a model server allocates its
 * working memory up front; under the service's memory limit it fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFFER_SIZE (1024UL * 1024 * 1024)

int main(void)
{
	char *buf = malloc(BUFFER_SIZE);

	if (buf == NULL) {
		fprintf(stderr, "mixer: cannot allocate a 1 GiB buffer\n");
		return 1;
	}
	memset(buf, 0, 4096);
	free(buf);
	return 0;
}
