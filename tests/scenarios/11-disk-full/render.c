/* Render 1 MiB of audio to a file in 60000-byte writes, finishing short
 * writes the way stdio would, and give up on the first error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 60000
#define TOTAL (1024 * 1024)

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	size_t done = 0;
	int fd;

	if (argc != 2)
		return 64;
	memset(buf, 0x55, sizeof(buf));
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	while (done < TOTAL) {
		size_t want = TOTAL - done < CHUNK ? TOTAL - done : CHUNK;
		size_t off = 0;

		while (off < want) {
			ssize_t n = write(fd, buf + off, want - off);

			if (n < 0) {
				fprintf(stderr, "render: writing %s: %s\n", argv[1], strerror(errno));
				return 1;
			}
			off += (size_t)n;
		}
		done += want;
	}
	return close(fd) == 0 ? 0 : 1;
}
