/* A call's memory (call.h): a live thread's, or copies made when the
 * call ran.
 *
 * A live thread's: process_vm_readv copies straight from the tracee
 * without stopping it again and takes many ranges in one call. Where the
 * kernel lacks it (ENOSYS) or refuses it (EPERM, e.g. across some user
 * namespaces while ptrace still works) we read /proc/TID/mem with pread
 * instead. That file is opened for each read: thread ids are reused, and
 * a descriptor cached for a tid that has exited and been recycled would
 * read another process's memory.
 *
 * Every source is all-or-nothing for mem_read: a decoder asks for a
 * struct and either has all of it or prints the address (strace's
 * umove_or_printaddr).
 */
#include "capture/call.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/util.h"

/*
 * Copies.
 */

/* The region of V holding ADDR, and how many bytes of it are left from
 * there. */
static const unsigned char *copy_at(const struct mem_copies *v, uint64_t addr, size_t *left)
{
	for (size_t i = 0; i < v->n; i++) {
		const struct mem_region *r = &v->r[i];
		if (addr >= r->addr && addr - r->addr < r->len) {
			*left = r->len - (size_t)(addr - r->addr);
			return (const unsigned char *)r->p + (addr - r->addr);
		}
	}
	return NULL;
}

/* All of [ADDR, ADDR+LEN), from one region or from several that meet
 * (a write's head and tail, kept apart, are one buffer when short). */
static ssize_t copies_read(const struct call_mem *m, uint64_t addr, void *buf, size_t len)
{
	const struct mem_copies *v = (const struct mem_copies *)m;
	size_t done = 0;

	while (done < len) {
		size_t left;
		const unsigned char *p = copy_at(v, addr + done, &left);
		if (!p) {
			errno = EFAULT;
			return -1;
		}
		size_t n = MIN(left, len - done);
		memcpy((unsigned char *)buf + done, p, n);
		done += n;
	}
	return (ssize_t)len;
}

/* A copied string ends at its NUL; one that fills its region without
 * one was cut by the copy's cap, as a string longer than MAX is here. */
static ssize_t copies_read_str(const struct call_mem *m, uint64_t addr, char *buf, size_t max, bool *cut)
{
	size_t left;
	const char *p = (const char *)copy_at((const struct mem_copies *)m, addr, &left);

	if (!p) {
		errno = EFAULT;
		return -1;
	}
	size_t n = MIN(left, max);
	const char *nul = memchr(p, '\0', n);
	if (nul) {
		memcpy(buf, p, (size_t)(nul - p) + 1);
		return nul - p;
	}
	n = MIN(left, max - 1);
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (cut)
		*cut = true;
	return (ssize_t)n;
}

void mem_copies_init(struct mem_copies *c, const struct mem_region *r, size_t n)
{
	c->m.read = copies_read;
	c->m.read_str = copies_read_str;
	c->r = r;
	c->n = n;
}

/*
 * A live thread's.
 */

/* Set once process_vm_readv returned ENOSYS: it will not come back. */
static bool vm_readv_missing;

static size_t page_size(void)
{
	static size_t ps;

	if (!ps) {
		long v = sysconf(_SC_PAGESIZE);
		ps = v > 0 ? (size_t)v : 4096;
	}
	return ps;
}

/* Bytes from ADDR to the end of its page. */
static size_t to_page_end(uint64_t addr)
{
	size_t ps = page_size();

	return ps - (size_t)(addr & (ps - 1));
}

static bool use_fallback(int err)
{
	if (err == ENOSYS) {
		vm_readv_missing = true;
		return true;
	}
	return err == EPERM;
}

/* pread /proc/TID/mem: as many bytes as are readable from ADDR, up to
 * LEN, or -1 when none. */
static ssize_t proc_mem_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	char name[64];
	size_t got = 0;
	int fd;

	snprintf(name, sizeof(name), "/proc/%d/mem", (int)tid);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len) {
		/* The file offset is the address; above LLONG_MAX it cannot
		 * be expressed, and no user mapping lives there anyway. */
		if (addr + got > (uint64_t)LLONG_MAX)
			break;
		ssize_t n = pread(fd, (char *)buf + got, len - got, (off_t)(addr + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got == 0 && len > 0) {
		errno = EFAULT;
		return -1;
	}
	return (ssize_t)got;
}

/* process_vm_readv of [ADDR, ADDR+LEN) split at page boundaries so that a
 * fault in a later page still returns the earlier ones (the kernel
 * reports partial transfers per remote iovec). Returns the bytes read, -1
 * when none, or -2 when the fallback should be used. */
static ssize_t vm_read_pages(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local, remote[64];
	size_t got = 0;

	while (got < len) {
		size_t n = 0, off = got;
		while (off < len && n < ARRAY_SIZE(remote)) {
			size_t k = MIN(to_page_end(addr + off), len - off);
			remote[n].iov_base = (void *)(uintptr_t)(addr + off);
			remote[n].iov_len = k;
			n++;
			off += k;
		}
		local.iov_base = (char *)buf + got;
		local.iov_len = off - got;
		ssize_t r = process_vm_readv(tid, &local, 1, remote, n, 0);
		if (r < 0) {
			if (got)
				break;
			return use_fallback(errno) ? -2 : -1;
		}
		got += (size_t)r;
		if ((size_t)r < local.iov_len)
			break;
	}
	return (ssize_t)got;
}

static ssize_t live_read(const struct call_mem *m, uint64_t addr, void *buf, size_t len)
{
	pid_t tid = ((const struct mem_live *)m)->tid;
	ssize_t r;

	if (!vm_readv_missing) {
		struct iovec local = { buf, len };
		struct iovec remote = { (void *)(uintptr_t)addr, len };
		r = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (r >= 0) {
			if ((size_t)r == len)
				return r;
			errno = EFAULT;
			return -1;
		}
		if (!use_fallback(errno))
			return -1;
	}
	r = proc_mem_read(tid, addr, buf, len);
	if (r >= 0 && (size_t)r != len) {
		errno = EFAULT;
		return -1;
	}
	return r;
}

/* Read up to LEN bytes at ADDR, stopping early only at unreadable memory:
 * the bytes read, or -1 when the first byte is unreadable. */
static ssize_t read_some(pid_t tid, uint64_t addr, char *buf, size_t len)
{
	ssize_t r = -2;

	if (!vm_readv_missing)
		r = vm_read_pages(tid, addr, buf, len);
	if (r == -2)
		r = proc_mem_read(tid, addr, buf, len);
	return r;
}

/* Like strace's umovestr, a string that runs into unreadable memory
 * before its NUL is unreadable as a whole: the caller prints the
 * address. */
static ssize_t live_read_str(const struct call_mem *m, uint64_t addr, char *buf, size_t max, bool *cut)
{
	pid_t tid = ((const struct mem_live *)m)->tid;
	size_t total, got;
	char *nul;
	ssize_t r;

	/* MAX bytes are looked at: a NUL in the last one still makes a
	 * complete string of MAX-1 bytes. */
	total = max;
	if (addr + total < addr)
		total = (size_t)(UINT64_MAX - addr);
	/* First the rest of ADDR's page only: most strings are short, and
	 * reading past a string's page could fault although the string is
	 * fine. */
	size_t first = MIN(to_page_end(addr), total);
	r = read_some(tid, addr, buf, first);
	if (r <= 0)
		return -1;
	got = (size_t)r;
	nul = memchr(buf, '\0', got);
	if (nul)
		return nul - buf;
	if (got < first)
		return -1;
	/* The rest, page by page in one call: the kernel stops at the
	 * first page that faults. */
	if (got < total) {
		r = read_some(tid, addr + got, buf + got, total - got);
		if (r <= 0)
			return -1;
		nul = memchr(buf + got, '\0', (size_t)r);
		if (nul)
			return nul - buf;
		got += (size_t)r;
		if (got < total)
			return -1;
	}
	if (got < max)
		return -1;	/* the address space ended without a NUL */
	buf[max - 1] = '\0';
	if (cut)
		*cut = true;
	return (ssize_t)(max - 1);
}

void mem_live_init(struct mem_live *l, pid_t tid)
{
	l->m.read = live_read;
	l->m.read_str = live_read_str;
	l->tid = tid;
}

/*
 * Through a source.
 */

ssize_t mem_read(const struct call_mem *m, uint64_t addr, void *buf, size_t len)
{
	if (len == 0)
		return 0;
	if (!m || addr + len < addr) {
		errno = EFAULT;
		return -1;
	}
	return m->read(m, addr, buf, len);
}

ssize_t mem_read_str(const struct call_mem *m, uint64_t addr, char *buf, size_t max, bool *cut)
{
	if (cut)
		*cut = false;
	if (max == 0)
		return -1;
	if (!m) {
		errno = EFAULT;
		return -1;
	}
	return m->read_str(m, addr, buf, max, cut);
}
