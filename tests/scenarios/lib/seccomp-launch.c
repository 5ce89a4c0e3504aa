/* seccomp-launch [-e EPERM|ENOSYS] CALL... -- CMD [ARG...]: what a container
 * runtime does before it starts a program, in small: install a seccomp
 * filter that refuses the named calls with the errno (EPERM, as Docker's
 * older default profile did for clone3; ENOSYS, as newer profiles answer
 * for calls they do not know), then exec the command under it. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

static const struct {
	const char *name;
	long nr;
} calls[] = {
	{ "clone3", SYS_clone3 },
	{ "statx", SYS_statx },
	{ "faccessat2", SYS_faccessat2 },
	{ "membarrier", SYS_membarrier },
	{ "io_uring_setup", SYS_io_uring_setup },
	{ "unshare", SYS_unshare },
	{ "mount", SYS_mount },
};

int main(int argc, char **argv)
{
	unsigned err = EPERM;
	int i = 1;
	struct sock_filter prog[64];
	unsigned k = 0;

	if (i + 1 < argc && strcmp(argv[i], "-e") == 0) {
		err = strcmp(argv[i + 1], "ENOSYS") == 0 ? ENOSYS : EPERM;
		i += 2;
	}
#ifdef ARCH
	/* Another ABI's numbers mean other calls: let them through. */
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		size_t j;
		for (j = 0; j < sizeof(calls) / sizeof(calls[0]); j++)
			if (strcmp(argv[i], calls[j].name) == 0)
				break;
		if (j == sizeof(calls) / sizeof(calls[0]) || k + 3 > sizeof(prog) / sizeof(prog[0])) {
			fprintf(stderr, "seccomp-launch: cannot filter '%s'\n", argv[i]);
			return 2;
		}
		prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)calls[j].nr, 0, 1);
		prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | err);
	}
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: seccomp-launch [-e EPERM|ENOSYS] CALL... -- CMD [ARG...]\n");
		return 2;
	}
	struct sock_fprog fprog = { .len = (unsigned short)k, .filter = prog };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0) {
		fprintf(stderr, "seccomp-launch: cannot install the filter: %s\n", strerror(errno));
		return 2;
	}
	execvp(argv[i + 1], argv + i + 1);
	fprintf(stderr, "seccomp-launch: cannot run '%s': %s\n", argv[i + 1], strerror(errno));
	return 127;
}
