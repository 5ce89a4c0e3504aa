/* A file's run of mappings from one address (procmap.h). */
#include <errno.h>
#include <linux/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "crash/procmap.h"
#include "util/util.h"

/* From the kernel's uapi/linux/fs.h (6.11); Debian 12's headers are 6.1. */
struct rc_procmap_query {
	uint64_t size;
	uint64_t query_flags;
	uint64_t query_addr;
	uint64_t vma_start;
	uint64_t vma_end;
	uint64_t vma_flags;
	uint64_t vma_page_size;
	uint64_t vma_offset;
	uint64_t inode;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint32_t vma_name_size;
	uint32_t build_id_size;
	uint64_t vma_name_addr;
	uint64_t build_id_addr;
};

#define RC_PROCMAP_QUERY _IOWR('f', 17, struct rc_procmap_query)
#define RC_QUERY_COVERING_OR_NEXT 0x10
#define RC_QUERY_FILE_BACKED 0x20

/* Runs looked through at most: a library has four or five mappings, and
 * the anonymous ones between them (its .bss) are not file-backed. */
#define RUN_MAX 64

/* The first file-backed mapping at or above ADDR (NAME: its path, of
 * NAMESZ bytes at most, or NULL). 1 found, 0 none, -1 no PROCMAP_QUERY. */
static int query(int fd, uint64_t addr, struct rc_procmap_query *q, char *name, size_t namesz)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->query_flags = RC_QUERY_COVERING_OR_NEXT | RC_QUERY_FILE_BACKED;
	q->query_addr = addr;
	if (name) {
		q->vma_name_addr = (uint64_t)(uintptr_t)name;
		q->vma_name_size = (uint32_t)namesz;
	}
	if (ioctl(fd, RC_PROCMAP_QUERY, q) == 0)
		return 1;
	return errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP ? -1 : 0;
}

static bool same_file(const struct rc_procmap_query *a, const struct rc_procmap_query *b)
{
	return a->inode == b->inode && a->dev_major == b->dev_major && a->dev_minor == b->dev_minor;
}

int crash_procmap_file_run(int maps_fd, uint64_t addr, uint64_t *low, uint64_t *high, char **name)
{
	struct rc_procmap_query at, first, next;
	char path[4096];

	int r = query(maps_fd, addr, &at, NULL, 0);
	if (r <= 0)
		return r;
	/* The first file mapping is above ADDR: ADDR is in none. */
	if (at.vma_start > addr)
		return 0;
	if ((at.inode == 0 && at.dev_major == 0 && at.dev_minor == 0) || at.vma_offset > at.vma_start)
		return CRASH_PROCMAP_UNSURE;
	/* A library's mappings lie at their file offsets from its load
	 * address (ld.so maps it so): the run starts at offset 0 there. */
	uint64_t base = at.vma_start - at.vma_offset;
	if (query(maps_fd, base, &first, path, sizeof(path)) <= 0 || first.vma_start != base ||
	    first.vma_offset != 0 || !same_file(&first, &at))
		return CRASH_PROCMAP_UNSURE;
	/* dwfl_linux_proc_report takes paths only (a memfd is not one), and
	 * a deleted file's name is not a file to open. */
	size_t n = strnlen(path, sizeof(path));
	if (n == sizeof(path) || path[0] != '/' || (n > 10 && strcmp(path + n - 10, " (deleted)") == 0))
		return CRASH_PROCMAP_UNSURE;
	uint64_t end = first.vma_end;
	for (int i = 0; i < RUN_MAX; i++) {
		int q = query(maps_fd, end, &next, NULL, 0);
		if (q <= 0 || !same_file(&next, &first))
			break;
		end = next.vma_end;
	}
	if (addr >= end)
		return CRASH_PROCMAP_UNSURE;
	*low = base;
	*high = end;
	*name = xstrdup(path);
	return 1;
}
