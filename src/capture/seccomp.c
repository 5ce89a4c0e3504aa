/* A seccomp-bpf filter built by hand from a bitmap of syscall numbers.
 *
 * The program, in pseudo-C:
 *
 *	if (data.arch != OUR_AUDIT_ARCH)
 *		return SECCOMP_RET_TRACE;	// another ABI (i386 int 0x80):
 *						// its numbers differ, stop on all
 *	for (each run [lo, hi] of wanted numbers, ascending) {
 *		if (data.nr < lo)
 *			return SECCOMP_RET_ALLOW;	// below this run, above the last
 *		if (data.nr <= hi)
 *			return SECCOMP_RET_TRACE;
 *	}
 *	return SECCOMP_RET_ALLOW;
 *
 * Each run costs four instructions and every jump is a short skip, so the
 * 8-bit BPF jump offsets never overflow however many runs there are. On
 * x86_64, x32 numbers (bit 30 set) are above every run and are allowed: we
 * do not decode the x32 ABI.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "capture/seccomp.h"

#if defined(__x86_64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define OUR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define OUR_AUDIT_ARCH AUDIT_ARCH_RISCV64
#endif

#ifdef OUR_AUDIT_ARCH

bool seccomp_usable(void)
{
	uint32_t action = SECCOMP_RET_TRACE;

	/* SECCOMP_GET_ACTION_AVAIL (Linux 4.14) also proves the seccomp()
	 * syscall and filter mode exist. */
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

static bool bit(const unsigned char *map, long i)
{
	return map[i / 8] & (1u << (i % 8));
}

int seccomp_install(const unsigned char *wanted, long nbits)
{
	long nruns = 0;
	for (long i = 0; i < nbits; i++)
		if (bit(wanted, i) && (i == 0 || !bit(wanted, i - 1)))
			nruns++;

	size_t n = 4 + 4 * (size_t)nruns + 1;
	struct sock_filter *prog = calloc(n, sizeof(*prog));
	if (!prog)
		return -ENOMEM;
	size_t k = 0;
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, arch));
	prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, OUR_AUDIT_ARCH, 1, 0);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (long lo = 0; lo < nbits; lo++) {
		if (!bit(wanted, lo))
			continue;
		long hi = lo;
		while (hi + 1 < nbits && bit(wanted, hi + 1))
			hi++;
		prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)lo, 1, 0);
		prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)hi, 1, 0);
		prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
		lo = hi;
	}
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	struct sock_fprog fprog = { .len = (unsigned short)k, .filter = prog };
	int r = 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0)
		r = -errno;
	free(prog);
	return r;
}

#else

bool seccomp_usable(void)
{
	return false;
}

int seccomp_install(const unsigned char *wanted, long nbits)
{
	(void)wanted;
	(void)nbits;
	return -ENOSYS;
}

#endif
