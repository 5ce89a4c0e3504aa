/* Starting a command held (see spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/spawn.h"
#include "util/util.h"

char *spawn_find(const char *cmd, int *err)
{
	struct stat st;

	*err = ENOENT;
	if (strchr(cmd, '/')) {
		if (stat(cmd, &st) < 0) {
			*err = errno;
			return NULL;
		}
		return xstrdup(cmd);
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	struct strbuf sb = STRBUF_INIT;
	char *found = NULL;
	while (!found) {
		const char *end = strchrnul(path, ':');
		strbuf_reset(&sb);
		if (end == path)
			strbuf_adds(&sb, ".");
		else
			strbuf_add(&sb, path, (size_t)(end - path));
		strbuf_addf(&sb, "/%s", cmd);
		if (stat(sb.buf, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(sb.buf, X_OK) == 0)
				found = strbuf_detach(&sb);
			else
				*err = EACCES;
		}
		if (!*end)
			break;
		path = end + 1;
	}
	strbuf_release(&sb);
	return found;
}

pid_t spawn_held(struct spawn *s, char *const argv[], spawn_prepare_fn prepare, void *arg, struct strbuf *err)
{
	int ferr;

	s->pid = 0;
	s->errfd = -1;
	s->spawn_errno = 0;
	char *file = spawn_find(argv[0], &ferr);
	if (!file) {
		strbuf_addf(err, "cannot run '%s': %s", argv[0],
			    ferr == ENOENT && !strchr(argv[0], '/') ? "command not found" : strerror(ferr));
		s->spawn_errno = ferr;
		return -1;
	}
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		free(file);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		free(file);
		return -1;
	}
	if (pid == 0) {
		int e;
		close(pfd[0]);
		raise(SIGSTOP);
		if (prepare && (e = prepare(arg)) != 0) {
			/* Report through the pipe, exit without running the command. */
			(void)!write(pfd[1], &e, sizeof(e));
			_exit(127);
		}
		signals_inherited();
		execv(file, argv);
		e = errno;
		(void)!write(pfd[1], &e, sizeof(e));
		_exit(e == ENOENT ? 127 : 126);
	}
	close(pfd[1]);
	free(file);

	int status = 0;
	pid_t w = waitpid(pid, &status, WSTOPPED);
	if (w < 0 || !WIFSTOPPED(status)) {
		strbuf_addf(err, "cannot start '%s': the child did not stop", argv[0]);
		close(pfd[0]);
		if (w < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
		}
		return -1;
	}
	s->pid = pid;
	/* The child writes the errno of a failed prepare or exec here; a
	 * successful exec closes it. Read once the child is gone. */
	s->errfd = pfd[0];
	return pid;
}

int spawn_error(struct spawn *s)
{
	int e = 0;

	if (s->errfd < 0)
		return s->spawn_errno;
	if (read(s->errfd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		e = 0;
	close(s->errfd);
	s->errfd = -1;
	s->spawn_errno = e;
	return e;
}

void spawn_abort(struct spawn *s)
{
	int status;

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &status, 0);
		s->pid = 0;
	}
	if (s->errfd >= 0) {
		close(s->errfd);
		s->errfd = -1;
	}
}
