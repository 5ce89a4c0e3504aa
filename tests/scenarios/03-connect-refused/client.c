/* Connect to the local model server, first over IPv4, then over IPv6,
 * with plain blocking connects: nothing listens, so both are refused. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int try_connect(int family, const char *addr, int port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		inet_pton(AF_INET, addr, &in->sin_addr);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &in6->sin6_addr);
		len = sizeof(*in6);
	}
	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&ss, len) == 0)
		return fd;
	fprintf(stderr, "connect %s port %d: ", addr, port);
	perror(NULL);
	close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	int port, fd;

	if (argc != 2)
		return 64;
	port = atoi(argv[1]);
	fd = try_connect(AF_INET, "127.0.0.1", port);
	if (fd < 0)
		fd = try_connect(AF_INET6, "::1", port);
	if (fd < 0) {
		fprintf(stderr, "model server unreachable\n");
		return 2;
	}
	close(fd);
	return 0;
}
