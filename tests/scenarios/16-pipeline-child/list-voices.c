/* Print the voices listed in a voice directory's index, one per line.
 * The index of the default voice is missing in a fresh checkout. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	char path[4096], line[256];
	FILE *f;

	if (argc != 2)
		return 64;
	snprintf(path, sizeof(path), "%s/en_US.json", argv[1]);
	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "list-voices: %s: %s\n", path, strerror(errno));
		return 3;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		fputs(line, stdout);
	fclose(f);
	return 0;
}
