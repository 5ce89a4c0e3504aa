/* The seccomp-bpf filter that makes a traced command stop only on the
 * syscalls we want (PTRACE_O_TRACESECCOMP), so that the rest run at full
 * speed. */
#ifndef RC_CAPTURE_SECCOMP_H
#define RC_CAPTURE_SECCOMP_H

#include <stdbool.h>

/* Whether this kernel and architecture can run our filter: seccomp filter
 * mode with SECCOMP_RET_TRACE available. */
bool seccomp_usable(void);

/* In the child, before exec: set no_new_privs and install a filter that
 * returns SECCOMP_RET_TRACE for the syscalls in WANTED (a bitmap NBITS
 * long) and lets the others run. Returns 0 or -errno. */
int seccomp_install(const unsigned char *wanted, long nbits);

#endif
