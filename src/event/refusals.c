/* What some system calls mean (see refusals.h). The numbers come from the
 * system headers; a call this architecture lacks is simply not listed. */
#include "event/refusals.h"

#include <stddef.h>
#include <sys/syscall.h>

#include "event/syscalls.h"

static const struct event_privilege privileged[] = {
	/* Mounts and namespaces. */
	{ SYS_mount, "CAP_SYS_ADMIN", NULL },
	{ SYS_umount2, "CAP_SYS_ADMIN", NULL },
	{ SYS_pivot_root, "CAP_SYS_ADMIN", NULL },
#ifdef SYS_fsopen
	{ SYS_fsopen, "CAP_SYS_ADMIN", NULL },
	{ SYS_fsmount, "CAP_SYS_ADMIN", NULL },
	{ SYS_fsconfig, "CAP_SYS_ADMIN", NULL },
	{ SYS_fspick, "CAP_SYS_ADMIN", NULL },
	{ SYS_move_mount, "CAP_SYS_ADMIN", NULL },
	{ SYS_open_tree, "CAP_SYS_ADMIN", NULL },
#endif
#ifdef SYS_mount_setattr
	{ SYS_mount_setattr, "CAP_SYS_ADMIN", NULL },
#endif
	{ SYS_chroot, "CAP_SYS_CHROOT", NULL },
	{ SYS_unshare, "CAP_SYS_ADMIN", "user.max_user_namespaces" },
	{ SYS_setns, "CAP_SYS_ADMIN", NULL },
	{ SYS_quotactl, "CAP_SYS_ADMIN", NULL },
	{ SYS_swapon, "CAP_SYS_ADMIN", NULL },
	{ SYS_swapoff, "CAP_SYS_ADMIN", NULL },
	{ SYS_fanotify_init, "CAP_SYS_ADMIN", NULL },
	{ SYS_name_to_handle_at, "CAP_DAC_READ_SEARCH", NULL },
	{ SYS_open_by_handle_at, "CAP_DAC_READ_SEARCH", NULL },
	/* Observing and changing other processes and the kernel. */
	{ SYS_ptrace, "CAP_SYS_PTRACE", "kernel.yama.ptrace_scope" },
	{ SYS_bpf, "CAP_BPF", "kernel.unprivileged_bpf_disabled" },
	{ SYS_perf_event_open, "CAP_PERFMON", "kernel.perf_event_paranoid" },
	{ SYS_syslog, "CAP_SYSLOG", "kernel.dmesg_restrict" },
	{ SYS_userfaultfd, NULL, "vm.unprivileged_userfaultfd" },
	{ SYS_io_uring_setup, NULL, "kernel.io_uring_disabled" },
	{ SYS_membarrier, NULL, NULL },
	{ SYS_keyctl, NULL, NULL },
	{ SYS_add_key, NULL, NULL },
	{ SYS_request_key, NULL, NULL },
	{ SYS_personality, NULL, NULL },
	{ SYS_lookup_dcookie, "CAP_SYS_ADMIN", NULL },
	/* Raw network access: ping's socket(AF_INET, SOCK_RAW). */
	{ SYS_socket, "CAP_NET_RAW", NULL },
	/* The machine itself. */
	{ SYS_sethostname, "CAP_SYS_ADMIN", NULL },
	{ SYS_setdomainname, "CAP_SYS_ADMIN", NULL },
	{ SYS_settimeofday, "CAP_SYS_TIME", NULL },
	{ SYS_clock_settime, "CAP_SYS_TIME", NULL },
	{ SYS_clock_adjtime, "CAP_SYS_TIME", NULL },
	{ SYS_adjtimex, "CAP_SYS_TIME", NULL },
	{ SYS_init_module, "CAP_SYS_MODULE", NULL },
	{ SYS_finit_module, "CAP_SYS_MODULE", NULL },
	{ SYS_delete_module, "CAP_SYS_MODULE", NULL },
	{ SYS_kexec_load, "CAP_SYS_BOOT", NULL },
#ifdef SYS_kexec_file_load
	{ SYS_kexec_file_load, "CAP_SYS_BOOT", NULL },
#endif
	{ SYS_reboot, "CAP_SYS_BOOT", NULL },
	{ SYS_acct, "CAP_SYS_PACCT", NULL },
	{ SYS_vhangup, "CAP_SYS_TTY_CONFIG", NULL },
#ifdef SYS_iopl
	{ SYS_iopl, "CAP_SYS_RAWIO", NULL },
	{ SYS_ioperm, "CAP_SYS_RAWIO", NULL },
#endif
	/* Memory placement across NUMA nodes. */
	{ SYS_mbind, "CAP_SYS_NICE", NULL },
	{ SYS_set_mempolicy, "CAP_SYS_NICE", NULL },
	{ SYS_migrate_pages, "CAP_SYS_NICE", NULL },
	{ SYS_move_pages, "CAP_SYS_NICE", NULL },
};

const struct event_privilege *event_call_privilege(long nr)
{
	for (size_t i = 0; i < sizeof(privileged) / sizeof(privileged[0]); i++)
		if (privileged[i].nr == nr)
			return &privileged[i];
	return NULL;
}

bool event_call_looks(long nr)
{
	return syscall_is(nr, CL_LOOK);
}
