/* Live look-ups (lookup/lookup.c): this machine's view, a process's own
 * root (a chroot: its files, its symbolic links, its users), nothing for a
 * log recorded elsewhere, and how a log is judged to be one. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lookup/container.h"
#include "lookup/lookup.h"
#include "util/strbuf.h"

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* This machine, as it is: a file, its bytes, a directory without links,
 * a user's name; nothing at all once the log is from elsewhere. */
static void here_and_elsewhere(void **state)
{
	(void)state;
	char dir[] = "/tmp/rc-lookup.XXXXXX", path[256], link[256];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	write_file(path, "#!/bin/sh\n", 0640);
	assert_int_equal(symlink(dir, link), 0);

	struct rc_lookup lk;
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	char buf[16] = { 0 };
	lookup_init(&lk, LOOKUP_HERE);
	assert_int_equal(lookup_stat(&lk, 1, path, &st), 1);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(lookup_stat(&lk, 1, "/nonexistent-rc/x", &st), 0);
	/* A path through a file: nothing can be there. */
	char through[300];
	snprintf(through, sizeof(through), "%s/x", path);
	assert_int_equal(lookup_stat(&lk, 1, through, &st), 0);
	assert_int_equal(lookup_stat(&lk, 1, "relative/path", &st), -1);
	assert_int_equal(lookup_read(&lk, 1, path, 2, buf, 7), 7);
	assert_memory_equal(buf, "/bin/sh", 7);
	/* Not a regular file: never opened. */
	assert_int_equal(lookup_read(&lk, 1, "/dev/zero", 0, buf, 4), -1);
	assert_true(lookup_realpath(&lk, 1, link, &sb));
	assert_string_equal(sb.buf, dir);
	strbuf_reset(&sb);
	assert_true(lookup_user(&lk, 1, 0, &sb));
	assert_string_equal(sb.buf, "root");

	lk.where = LOOKUP_ELSEWHERE;
	strbuf_reset(&sb);
	assert_int_equal(lookup_stat(&lk, 1, path, &st), -1);
	assert_int_equal(lookup_read(&lk, 1, path, 0, buf, 4), -1);
	assert_false(lookup_realpath(&lk, 1, link, &sb));
	assert_false(lookup_user(&lk, 1, 0, &sb));
	assert_false(lookup_group(&lk, 1, 0, &sb));
	lookup_release(&lk);
	strbuf_release(&sb);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

/* A process in a chroot is looked at through its root: its /data, where
 * its absolute symbolic links lead inside it, its /etc/passwd's names;
 * the same paths on this machine say otherwise. */
static void through_a_root(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: a chroot needs root\n");
		skip();
	}
	char jail[] = "/tmp/rc-jail.XXXXXX", p[512];
	assert_non_null(mkdtemp(jail));
	snprintf(p, sizeof(p), "%s/etc", jail);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/etc/passwd", jail);
	write_file(p, "root:x:0:0::/:/bin/sh\njailed:x:4242:4242::/:/bin/sh\n", 0644);
	snprintf(p, sizeof(p), "%s/etc/group", jail);
	write_file(p, "root:x:0:\nkeepers:x:4343:\n", 0644);
	snprintf(p, sizeof(p), "%s/data", jail);
	assert_int_equal(mkdir(p, 0710), 0);
	/* An absolute link: inside the root it means the root's /data. */
	snprintf(p, sizeof(p), "%s/models", jail);
	assert_int_equal(symlink("/data", p), 0);

	int go[2];
	assert_int_equal(pipe(go), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c;
		close(go[1]);
		if (chroot(jail) != 0 || chdir("/") != 0)
			_exit(1);
		/* Stays in its root until the test is done with it. */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(go[0]);
	struct rc_lookup lk;
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	lookup_init(&lk, LOOKUP_LIVE);
	/* Its root must be in place before it is looked at. */
	for (int i = 0; i < 500; i++) {
		char root[64], target[512];
		snprintf(root, sizeof(root), "/proc/%d/root", (int)child);
		ssize_t n = readlink(root, target, sizeof(target) - 1);
		if (n > 0 && (target[n] = '\0', strcmp(target, jail) == 0))
			break;
		usleep(10000);
	}
	lookup_view_of(&lk, child, 0);
	assert_int_equal(lookup_stat(&lk, child, "/data", &st), 1);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0710);
	/* This machine has no /data, and looks at it so for another pid. */
	assert_int_equal(lookup_stat(&lk, 1, "/data", &st), 0);
	assert_true(lookup_realpath(&lk, child, "/models", &sb));
	assert_string_equal(sb.buf, "/data");
	strbuf_reset(&sb);
	assert_true(lookup_user(&lk, child, 4242, &sb));
	assert_string_equal(sb.buf, "jailed");
	strbuf_reset(&sb);
	assert_true(lookup_group(&lk, child, 4343, &sb));
	assert_string_equal(sb.buf, "keepers");
	strbuf_reset(&sb);
	assert_false(lookup_user(&lk, child, 1, &sb));
	/* Links that climb out stay in. */
	assert_int_equal(lookup_stat(&lk, child, "/../../../etc/passwd", &st), 1);
	assert_int_equal(st.st_size, (off_t)strlen("root:x:0:0::/:/bin/sh\njailed:x:4242:4242::/:/bin/sh\n"));

	close(go[1]);
	int status;
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Once gone, the root it had is still the one it is looked at
	 * through. */
	assert_int_equal(lookup_stat(&lk, child, "/data", &st), 1);
	lookup_release(&lk);
	strbuf_release(&sb);
	snprintf(p, sizeof(p), "rm -rf '%s'", jail);
	assert_int_equal(system(p), 0);
}

/* Issue 27: a container's volume is a bind mount that only its mount
 * namespace has. Looked at while it ran, the process's files are found
 * through that namespace after it is gone (its mounts would dissolve
 * with it, leaving the directory under them), and each is placed on this
 * machine: the volume's source, checked to be the same file; a missing
 * file's place is its deepest directory that is there, and the rest. */
static void through_a_namespace(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: a mount namespace needs root\n");
		skip();
	}
	char top[] = "/tmp/rc-ns.XXXXXX", vol[512], root[512], p[600];
	assert_non_null(mkdtemp(top));
	snprintf(vol, sizeof(vol), "%s/volume", top);
	snprintf(root, sizeof(root), "%s/root", top);
	assert_int_equal(mkdir(vol, 0755), 0);
	assert_int_equal(mkdir(root, 0755), 0);
	snprintf(p, sizeof(p), "%s/srv", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/model.pt", vol);
	write_file(p, "weights", 0600);

	int go[2], ready[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c = 'x', srv[600];
		close(go[1]);
		close(ready[0]);
		snprintf(srv, sizeof(srv), "%s/srv", root);
		if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(3);
		if (mount(vol, srv, NULL, MS_BIND, NULL) != 0 || chroot(root) != 0 || chdir("/") != 0)
			_exit(1);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	char c;
	int status;
	if (read(ready[0], &c, 1) != 1) {
		assert_int_equal(waitpid(child, &status, 0), child);
		snprintf(p, sizeof(p), "rm -rf '%s'", top);
		assert_int_equal(system(p), 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
			print_message("skipped: no mount namespace here\n");
			skip();
		}
		fail_msg("the child could not set its namespace up");
	}
	close(ready[0]);
	struct rc_lookup lk;
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	lookup_init(&lk, LOOKUP_LIVE);
	lookup_view_of(&lk, child, 0);
	assert_true(lookup_in_own_root(&lk, child));
	close(go[1]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* Gone, with its namespace: the volume is still what it saw. */
	assert_int_equal(lookup_stat(&lk, child, "/srv/model.pt", &st), 1);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_true(lookup_host_path(&lk, child, "/srv/model.pt", &sb));
	snprintf(p, sizeof(p), "%s/model.pt", vol);
	assert_string_equal(sb.buf, p);
	strbuf_reset(&sb);
	assert_true(lookup_host_path(&lk, child, "/srv/models/missing.pt", &sb));
	snprintf(p, sizeof(p), "%s/models/missing.pt", vol);
	assert_string_equal(sb.buf, p);
	/* Outside the volume, the root's own directory. */
	strbuf_reset(&sb);
	assert_true(lookup_host_path(&lk, child, "/etc/passwd", &sb));
	snprintf(p, sizeof(p), "%s/etc/passwd", root);
	assert_string_equal(sb.buf, p);
	/* This machine's processes have no other place. */
	assert_false(lookup_host_path(&lk, getpid(), "/etc/passwd", &sb));
	lookup_release(&lk);
	strbuf_release(&sb);
	snprintf(p, sizeof(p), "rm -rf '%s'", top);
	assert_int_equal(system(p), 0);
}

/* A rootless container: a user namespace maps its ids onto a range of
 * this machine's (0 -> 100000). A file this machine says uid 100033 owns
 * is uid 33 there, named by the container's /etc/passwd; an id the map
 * leaves out is nobody's there, whatever this machine calls it. */
static void through_a_user_namespace(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: mapping a user namespace's ids needs root\n");
		skip();
	}
	char jail[] = "/tmp/rc-userns.XXXXXX", p[600];
	assert_non_null(mkdtemp(jail));
	assert_int_equal(chmod(jail, 0755), 0);
	snprintf(p, sizeof(p), "%s/etc", jail);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/etc/passwd", jail);
	write_file(p, "root:x:0:0::/:/bin/sh\nwww-data:x:33:33::/var/www:/bin/sh\n", 0644);

	int go[2], mapped[2], ready[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(mapped), 0);
	assert_int_equal(pipe(ready), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char c = 'x';
		close(go[1]);
		close(mapped[1]);
		close(ready[0]);
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
			_exit(3);
		/* Mapped by the parent before it goes on. */
		if (write(ready[1], &c, 1) != 1 || read(mapped[0], &c, 1) != 1)
			_exit(1);
		if (chroot(jail) != 0 || chdir("/") != 0 || write(ready[1], &c, 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(go[0]);
	close(mapped[0]);
	close(ready[1]);
	char c;
	int status;
	if (read(ready[0], &c, 1) != 1) {
		assert_int_equal(waitpid(child, &status, 0), child);
		snprintf(p, sizeof(p), "rm -rf '%s'", jail);
		assert_int_equal(system(p), 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
			print_message("skipped: no user namespace here\n");
			skip();
		}
		fail_msg("the child could not make its namespace");
	}
	snprintf(p, sizeof(p), "/proc/%d/uid_map", (int)child);
	write_file(p, "0 100000 65536\n", 0644);
	snprintf(p, sizeof(p), "/proc/%d/gid_map", (int)child);
	write_file(p, "0 100000 65536\n", 0644);
	assert_int_equal(write(mapped[1], "x", 1), 1);
	assert_int_equal(read(ready[0], &c, 1), 1);

	struct rc_lookup lk;
	struct strbuf sb = STRBUF_INIT;
	unsigned inside = 0;
	lookup_init(&lk, LOOKUP_LIVE);
	lookup_view_of(&lk, child, 0);
	close(go[1]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Read while it ran: still so. */
	assert_true(lookup_id_inside(&lk, child, true, 100033, &inside));
	assert_int_equal(inside, 33);
	assert_true(lookup_user(&lk, child, 100033, &sb));
	assert_string_equal(sb.buf, "www-data");
	strbuf_reset(&sb);
	/* This machine's 33 is not mapped: nobody's there. */
	assert_false(lookup_user(&lk, child, 33, &sb));
	assert_false(lookup_id_inside(&lk, child, true, 33, &inside));
	lookup_release(&lk);
	strbuf_release(&sb);
	close(mapped[1]);
	close(ready[0]);
	snprintf(p, sizeof(p), "rm -rf '%s'", jail);
	assert_int_equal(system(p), 0);
}

/* Containers named from their cgroup files, as each engine and driver
 * writes them (examples from docker, podman, Kubernetes with containerd
 * and cri-o, systemd), on cgroup v2 and v1; a cgroup no engine made is
 * named by its path. */
static void containers_from_cgroups(void **state)
{
	(void)state;
	static const struct {
		const char *file, *name;
		enum container_kind kind;
	} cases[] = {
		{ "0::/system.slice/docker-4f7b1b4e5c3a2d1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f.scope\n",
		  "docker container 4f7b1b4e5c3a", CONTAINER_DOCKER },
		{ "12:pids:/docker/4f7b1b4e5c3a2d1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f\n"
		  "1:name=systemd:/docker/4f7b1b4e5c3a2d1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f\n0::/\n",
		  "docker container 4f7b1b4e5c3a", CONTAINER_DOCKER },
		{ "0::/machine.slice/libpod-0fcace5f9ab5f7047d62b7f0b31c68f1b40a38a841aa11bb22cc33dd44ee55ff.scope/container\n",
		  "podman container 0fcace5f9ab5", CONTAINER_PODMAN },
		{ "0::/libpod_parent/libpod-0fcace5f9ab5f7047d62b7f0b31c68f1b40a38a841aa11bb22cc33dd44ee55ff\n",
		  "podman container 0fcace5f9ab5", CONTAINER_PODMAN },
		{ "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod8c5e2a1b_3d4f_4a6b_9c8d_7e6f5a4b3c2d.slice/"
		  "cri-containerd-aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44.scope\n",
		  "Kubernetes pod 8c5e2a1b-3d4f-4a6b-9c8d-7e6f5a4b3c2d (containerd container aa11bb22cc33)",
		  CONTAINER_CONTAINERD },
		{ "0::/kubepods.slice/kubepods-pod8c5e2a1b_3d4f_4a6b_9c8d_7e6f5a4b3c2d.slice/"
		  "crio-aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44.scope\n",
		  "Kubernetes pod 8c5e2a1b-3d4f-4a6b-9c8d-7e6f5a4b3c2d (cri-o container aa11bb22cc33)", CONTAINER_CRIO },
		{ "0::/kubepods/besteffort/pod8c5e2a1b-3d4f-4a6b-9c8d-7e6f5a4b3c2d/"
		  "aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44\n",
		  "Kubernetes pod 8c5e2a1b-3d4f-4a6b-9c8d-7e6f5a4b3c2d (container aa11bb22cc33)", CONTAINER_NONE },
		{ "0::/system.slice/nginx.service\n", "systemd unit nginx.service", CONTAINER_SYSTEMD },
		{ "0::/rootcause-test.slice/worker\n", "cgroup /rootcause-test.slice/worker", CONTAINER_NONE },
		/* Not a container id: too short, not hex. */
		{ "0::/system.slice/docker-4f7b.scope\n", "cgroup /system.slice/docker-4f7b.scope", CONTAINER_NONE },
	};
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct container c;
		assert_true(container_from_cgroup(cases[i].file, &c));
		strbuf_reset(&sb);
		container_describe(&c, &sb);
		assert_string_equal(sb.buf, cases[i].name);
		assert_int_equal(c.kind, cases[i].kind);
	}
	struct container c;
	assert_false(container_from_cgroup("", &c));
	assert_false(container_from_cgroup("garbage without colons\n", &c));
	strbuf_release(&sb);
}

/* A log is judged by the distribution's programs and libraries it shows:
 * sizes this machine has agree, others' do not; its own files, /usr/local
 * and the distribution's data files never count. */
static void vantage(void **state)
{
	(void)state;
	struct rc_lookup lk;
	struct lookup_vantage v = { 0 };
	struct stat libc, libm;
	const char *so = "/usr/lib/x86_64-linux-gnu/libc.so.6", *m = "/usr/lib/x86_64-linux-gnu/libm.so.6";
	if (stat(so, &libc) != 0 || stat(m, &libm) != 0) {
		print_message("skipped: no %s or %s\n", so, m);
		skip();
	}

	lookup_init(&lk, LOOKUP_HERE);
	lookup_vantage_ran(&v, "/usr/bin/env");
	/* ld.so: open, read, fstat of the fd. */
	lookup_vantage_opened(&v, 10, 3, so);
	lookup_vantage_sized(&v, 10, 4, NULL, 1);
	lookup_vantage_sized(&v, 11, 3, NULL, 1);
	lookup_vantage_sized(&v, 10, 3, NULL, (long long)libc.st_size);
	/* A later file at the same fd has a size of its own. */
	lookup_vantage_opened(&v, 10, 3, "/usr/lib/locale/C.utf8/LC_CTYPE");
	lookup_vantage_sized(&v, 10, 3, NULL, 367708);
	lookup_vantage_opened(&v, 10, 3, "/srv/app/model.so");
	lookup_vantage_opened(&v, 10, 3, "/usr/local/lib/libfoo.so.1");
	lookup_vantage_opened(&v, 10, 3, "/usr/lib/locale/C.utf8/LC_CTYPE");
	lookup_vantage_opened(&v, 10, 3, "/usr/lib/python3.11/os.py");
	lookup_vantage_sized(&v, 10, -1, "/usr/lib/python3.11/os.py", 10);
	assert_int_equal(v.n, 2);
	lookup_vantage_judge(&lk, &v);
	assert_int_equal(lk.where, LOOKUP_HERE);

	/* Another build of libc there, and a library this machine lacks. */
	lookup_vantage_sized(&v, 10, -1, so, (long long)libc.st_size + 1);
	lookup_vantage_opened(&v, 10, 5, "/usr/lib64/libcrypto.so.3");
	lookup_vantage_judge(&lk, &v);
	assert_int_equal(lk.where, LOOKUP_ELSEWHERE);
	assert_non_null(strstr(lk.why, "2 of the 2 programs and libraries"));
	assert_non_null(strstr(lk.why, "libc.so.6' had"));

	/* One of the three that tell differs: a log recorded here before an
	 * update. A program that is here tells nothing by itself. */
	lookup_vantage_release(&v);
	memset(&v, 0, sizeof(v));
	lookup_vantage_ran(&v, "/usr/bin/env");
	lookup_vantage_sized(&v, 10, -1, so, (long long)libc.st_size);
	lookup_vantage_sized(&v, 10, -1, m, (long long)libm.st_size);
	lookup_vantage_opened(&v, 10, 3, "/usr/lib/x86_64-linux-gnu/libnosuch-rc.so.1");
	lookup_vantage_judge(&lk, &v);
	assert_int_equal(lk.where, LOOKUP_HERE);
	/* Two of four: half differ. */
	lookup_vantage_ran(&v, "/usr/bin/nosuch-rc");
	lookup_vantage_judge(&lk, &v);
	assert_int_equal(lk.where, LOOKUP_ELSEWHERE);
	/* Past the cap, nothing more is kept. */
	for (int i = 0; i < 100; i++) {
		char p[64];
		snprintf(p, sizeof(p), "/usr/lib/x/lib%d.so", i);
		lookup_vantage_opened(&v, 10, 3, p);
	}
	assert_int_equal(v.n, LOOKUP_VANTAGE_MAX);
	lookup_vantage_release(&v);
	lookup_release(&lk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(here_and_elsewhere),
		cmocka_unit_test(through_a_root),
		cmocka_unit_test(through_a_namespace),
		cmocka_unit_test(through_a_user_namespace),
		cmocka_unit_test(containers_from_cgroups),
		cmocka_unit_test(vantage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
