/* Download weights with a plain blocking connect, as story 1's CDN client
 * does.  The kernel gives up after its SYN retries; TCP_SYNCNT=1 shortens
 * that from about two minutes to three seconds (1 s + 2 s). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in sa;
	int fd, syncnt = 1;

	if (argc != 3)
		return 64;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(atoi(argv[2]));
	inet_pton(AF_INET, argv[1], &sa.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 1;
	setsockopt(fd, IPPROTO_TCP, TCP_SYNCNT, &syncnt, sizeof(syncnt));
	printf("downloading model_v23.pth from %s:%s\n", argv[1], argv[2]);
	fflush(stdout);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "fetch: connect %s:%s: ", argv[1], argv[2]);
		perror(NULL);
		return 1;
	}
	close(fd);
	return 0;
}
