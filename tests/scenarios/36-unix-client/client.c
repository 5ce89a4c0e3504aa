/* A client of a local service: it tries the service's unix sockets in
 * order (the configured one, then the old default) and gives up when none
 * answers, as database and cache clients do. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0) {
			perror("client: socket");
			return 2;
		}
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[i]);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			printf("client: connected to %s\n", argv[i]);
			close(fd);
			return 0;
		}
		fprintf(stderr, "client: cannot connect to %s: %s\n", argv[i], strerror(errno));
		close(fd);
	}
	fprintf(stderr, "client: no server answered\n");
	return 1;
}
