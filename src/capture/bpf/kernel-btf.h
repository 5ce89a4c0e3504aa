/* The kernel's types, cut to those the capture's programs name.
 *
 * libbpf relocates each kernel type a program reads (CO-RE) by searching
 * the kernel's whole BTF for it: about 1.4 ms a type on this kernel's
 * 130,000 types, 22 types, a third of the load that runs before the
 * traced command may start. Given a BTF of those types alone
 * (btf_custom_path), it finds each at once and relocates the programs to
 * the same instructions (tests/unit/test_bpf.c compares them).
 *
 * Contract:
 * - kernel_btf_get makes the cut from /sys/kernel/btf/vmlinux for the
 *   capture object ELF, or takes it from the cache, where it is kept
 *   under a hash of both: a new kernel or a new capture is a new cut,
 *   never a stale one. The cache is a directory of rootcause's own,
 *   owned by the user and written by nobody else; a cut that cannot be
 *   kept there is made in memory (a memfd) for this run.
 * - The types are whole: every member at its offset, of its own type,
 *   except that a pointer points to void (a relocation reads one type
 *   at a time, and compares pointers as pointers).
 * - The kernel's own ids of the types the programs hand to the kernel
 *   (bpf_rdonly_cast) come with it, as the cut's ids are not the
 *   kernel's.
 */
#ifndef RC_CAPTURE_BPF_KERNEL_BTF_H
#define RC_CAPTURE_BPF_KERNEL_BTF_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

#define KERNEL_BTF_PATH "/sys/kernel/btf/vmlinux"

struct kernel_btf {
	char path[4096];	/* for btf_custom_path */
	int fd;			/* the memfd of a cut made for this run, or -1 */
	bool cached;		/* PATH is the cache's */
	__u32 task_struct_id;	/* the kernel's ids of struct task_struct */
	__u32 file_id;		/* and struct file */
};

/* The cut for the capture object ELF (SIZE bytes), from the cache in
 * DIR (NULL: kernel_btf_dir's) or made. 0, or a negative errno: the
 * kernel has no BTF. With 0 and an empty PATH, no cut could be made,
 * and the ids are the kernel's still. */
int kernel_btf_get(struct kernel_btf *kb, const void *elf, size_t size, const char *dir);
void kernel_btf_release(struct kernel_btf *kb);

/* The cache's directory: /var/cache/rootcause for root, else under
 * $XDG_CACHE_HOME or ~/.cache. Empty when there is none. */
void kernel_btf_dir(char *out, size_t size);

#endif
