/* What some system calls mean (see refusals.h). The numbers come from the
 * system headers; a call this architecture lacks is simply not listed. */
#include "event/refusals.h"

#include <stddef.h>
#include <sys/syscall.h>

#include "event/syscalls.h"

static const struct event_privilege privileged[] = {
	/* Mounts and namespaces. */
	{ SYS_mount, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_umount2, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_pivot_root, "CAP_SYS_ADMIN", NULL, NULL, NULL },
#ifdef SYS_fsopen
	{ SYS_fsopen, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_fsmount, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_fsconfig, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_fspick, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_move_mount, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_open_tree, "CAP_SYS_ADMIN", NULL, NULL, NULL },
#endif
#ifdef SYS_mount_setattr
	{ SYS_mount_setattr, "CAP_SYS_ADMIN", NULL, NULL, NULL },
#endif
	{ SYS_chroot, "CAP_SYS_CHROOT", NULL, NULL, NULL },
	{ SYS_unshare, "CAP_SYS_ADMIN", "user.max_user_namespaces", NULL, NULL },
	{ SYS_setns, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_quotactl, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_swapon, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_swapoff, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_fanotify_init, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_name_to_handle_at, "CAP_DAC_READ_SEARCH", NULL, NULL, NULL },
	{ SYS_open_by_handle_at, "CAP_DAC_READ_SEARCH", NULL, NULL, NULL },
	/* Observing and changing other processes and the kernel. */
	{ SYS_ptrace, "CAP_SYS_PTRACE", "kernel.yama.ptrace_scope", NULL, NULL },
	{ SYS_bpf, "CAP_BPF", "kernel.unprivileged_bpf_disabled", NULL, NULL },
	{ SYS_perf_event_open, "CAP_PERFMON", "kernel.perf_event_paranoid",
	  "the sysctl kernel.perf_event_paranoid keeps this kind of event from unprivileged users, "
	  "or a security module refuses it",
	  "lower kernel.perf_event_paranoid (sysctl -w kernel.perf_event_paranoid=1), or run it with "
	  "CAP_PERFMON" },
	{ SYS_syslog, "CAP_SYSLOG", "kernel.dmesg_restrict", NULL, NULL },
	{ SYS_userfaultfd, NULL, "vm.unprivileged_userfaultfd", NULL, NULL },
	{ SYS_io_uring_setup, NULL, "kernel.io_uring_disabled", NULL, NULL },
	{ SYS_membarrier, NULL, NULL, NULL, NULL },
	{ SYS_keyctl, NULL, NULL, NULL, NULL },
	{ SYS_add_key, NULL, NULL, NULL, NULL },
	{ SYS_request_key, NULL, NULL, NULL, NULL },
	{ SYS_personality, NULL, NULL, NULL, NULL },
	{ SYS_lookup_dcookie, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	/* Raw network access: ping's socket(AF_INET, SOCK_RAW); its ICMP
	 * echo socket (SOCK_DGRAM, IPPROTO_ICMP) needs no capability, only
	 * a group inside net.ipv4.ping_group_range ("1 0", none, by
	 * default), else EACCES, as does a security module's network rule. */
	{ SYS_socket, "CAP_NET_RAW", NULL,
	  "an ICMP echo socket (what ping and health checks make without privilege) is allowed only to "
	  "the groups in the sysctl net.ipv4.ping_group_range (\"1 0\", none, by default); else a "
	  "security module's network rule (AppArmor, SELinux, Landlock) refuses this kind of socket",
	  "let the program's group make them: sysctl -w net.ipv4.ping_group_range=\"0 2147483647\" (every "
	  "group; in a container, docker run --sysctl net.ipv4.ping_group_range=...), or give it "
	  "CAP_NET_RAW; a security module's refusal is in its log (journalctl -k, /var/log/audit)" },
	/* The machine itself. */
	{ SYS_sethostname, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_setdomainname, "CAP_SYS_ADMIN", NULL, NULL, NULL },
	{ SYS_settimeofday, "CAP_SYS_TIME", NULL, NULL, NULL },
	{ SYS_clock_settime, "CAP_SYS_TIME", NULL, NULL, NULL },
	{ SYS_clock_adjtime, "CAP_SYS_TIME", NULL, NULL, NULL },
	{ SYS_adjtimex, "CAP_SYS_TIME", NULL, NULL, NULL },
	{ SYS_init_module, "CAP_SYS_MODULE", NULL, NULL, NULL },
	{ SYS_finit_module, "CAP_SYS_MODULE", NULL, NULL, NULL },
	{ SYS_delete_module, "CAP_SYS_MODULE", NULL, NULL, NULL },
	{ SYS_kexec_load, "CAP_SYS_BOOT", NULL, NULL, NULL },
#ifdef SYS_kexec_file_load
	{ SYS_kexec_file_load, "CAP_SYS_BOOT", NULL, NULL, NULL },
#endif
	{ SYS_reboot, "CAP_SYS_BOOT", NULL, NULL, NULL },
	{ SYS_acct, "CAP_SYS_PACCT", NULL, NULL, NULL },
	{ SYS_vhangup, "CAP_SYS_TTY_CONFIG", NULL, NULL, NULL },
#ifdef SYS_iopl
	{ SYS_iopl, "CAP_SYS_RAWIO", NULL, NULL, NULL },
	{ SYS_ioperm, "CAP_SYS_RAWIO", NULL, NULL, NULL },
#endif
	/* Memory placement across NUMA nodes. */
	{ SYS_mbind, "CAP_SYS_NICE", NULL, NULL, NULL },
	{ SYS_set_mempolicy, "CAP_SYS_NICE", NULL, NULL, NULL },
	{ SYS_migrate_pages, "CAP_SYS_NICE", NULL, NULL, NULL },
	{ SYS_move_pages, "CAP_SYS_NICE", NULL, NULL, NULL },
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
