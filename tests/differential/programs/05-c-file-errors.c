/* File calls that succeed and fail in known ways: each one's errno is the
 * outcome the comparator checks, each path the path it checks.  At the end
 * a child writes to a pipe nobody reads: with the default SIGPIPE
 * disposition (what a tracer must hand down) it is killed by SIGPIPE. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void broken_pipe(void)
{
	int p[2], status;
	pid_t pid;

	if (pipe(p) < 0)
		return;
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		(void)write(p[1], "x", 1);
		_exit(0);
	}
	close(p[1]);
	if (pid > 0)
		(void)waitpid(pid, &status, 0);
}

int main(void)
{
	char buf[64], longname[PATH_MAX + 16];
	struct stat st;
	int fd;

	fd = openat(AT_FDCWD, "data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "some data\n", 10) != 10)
		return 1;
	close(fd);
	/* EEXIST, ENOENT, ENOTDIR, EISDIR */
	(void)open("data.txt", O_WRONLY | O_CREAT | O_EXCL, 0644);
	(void)open("no/such/file", O_RDONLY);
	(void)open("data.txt/child", O_RDONLY);
	(void)open(".", O_WRONLY);
	/* ENAMETOOLONG (prints as a long path) and ELOOP */
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	(void)stat(longname, &st);
	(void)symlink("loop", "loop");
	(void)open("loop", O_RDONLY);

	fd = open("data.txt", O_RDONLY);
	(void)read(fd, buf, sizeof(buf));
	(void)lseek(fd, -100, SEEK_SET);		/* EINVAL */
	(void)fstat(fd, &st);
	close(fd);
	(void)read(fd, buf, sizeof(buf));		/* EBADF */

	(void)stat("data.txt", &st);
	(void)lstat("loop", &st);
	(void)access("no-such", F_OK);
	(void)readlink("loop", buf, sizeof(buf));
	(void)readlink("data.txt", buf, sizeof(buf));	/* EINVAL */
	(void)mkdir("dir", 0755);
	(void)mkdir("dir", 0755);			/* EEXIST */
	(void)rename("data.txt", "dir/moved.txt");
	(void)chmod("dir/moved.txt", 0600);
	(void)truncate("dir/moved.txt", 4);
	(void)rmdir("dir");				/* ENOTEMPTY */
	(void)unlink("dir/moved.txt");
	(void)rmdir("dir");
	(void)unlink("loop");
	(void)chdir("/nonexistent");
	(void)getcwd(buf, sizeof(buf));
	broken_pipe();
	printf("done\n");
	return 0;
}
