/* The crashed process's memory, read for rules: from the core's PT_LOAD
 * bytes, or from a live process stopped by us. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "crash/crash.h"
#include "util/util.h"

static size_t read_core(const struct rc_crash *c, uint64_t addr, unsigned char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		const struct rc_mapping *m = crash_mapping_at(c, addr + got);
		if (!m || !m->in_core)
			break;
		/* The mapping was checked against the image when it was read,
		 * but check again: this is the one place bytes are copied. */
		uint64_t in = addr + got - m->start;
		if (in >= m->core_size || m->core_offset > c->image_size ||
		    m->core_size > c->image_size - m->core_offset)
			break;
		size_t avail = (size_t)(m->core_size - in);
		size_t take = n - got < avail ? n - got : avail;
		if (!take)
			break;
		memcpy(buf + got, c->image + m->core_offset + in, take);
		got += take;
	}
	return got;
}

/* Pages kept per stop: a deep Python stack touches a few dozen. */
#define PAGES 128
#define PAGE 4096ull

struct crash_pages {
	uint64_t addr[PAGES];		/* page address + 1; 0: empty */
	bool ok[PAGES];			/* the page could be read */
	unsigned char bytes[PAGES][PAGE];
};

struct crash_pages *crash_pages_new(void)
{
	return xcalloc(1, sizeof(struct crash_pages));
}

void crash_pages_forget(struct crash_pages *p)
{
	if (p)
		memset(p->addr, 0, sizeof(p->addr));
}

void crash_pages_free(struct crash_pages *p)
{
	free(p);
}

/* The page at PAGE_ADDR, read once per stop; NULL when unreadable. */
static const unsigned char *page_of(struct crash_pages *p, pid_t pid, uint64_t page_addr)
{
	size_t slot = (size_t)((page_addr / PAGE) * 0x9e3779b97f4a7c15ull >> 57) % PAGES;

	if (p->addr[slot] != page_addr + 1) {
		struct iovec local = { p->bytes[slot], PAGE }, remote = { (void *)(uintptr_t)page_addr, PAGE };
		p->addr[slot] = page_addr + 1;
		p->ok[slot] = process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)PAGE;
	}
	return p->ok[slot] ? p->bytes[slot] : NULL;
}

static size_t read_pages(const struct rc_crash *c, uint64_t addr, unsigned char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		uint64_t at = addr + got, page = at & ~(PAGE - 1);
		if (at < addr)
			break;
		const unsigned char *b = page_of(c->pages, c->live_pid, page);
		if (!b)
			break;
		size_t take = MIN(n - got, (size_t)(page + PAGE - at));
		memcpy(buf + got, b + (at - page), take);
		got += take;
	}
	return got;
}

size_t crash_read_mem(const struct rc_crash *c, uint64_t addr, void *buf, size_t n)
{
	if (c->stack_copy && addr >= c->stack_copy_at && addr - c->stack_copy_at < c->stack_copy_len &&
	    c->stack_copy_len - (addr - c->stack_copy_at) >= n) {
		memcpy(buf, c->stack_copy + (addr - c->stack_copy_at), n);
		return n;
	}
	if (c->live_pid > 0 && c->pages && n <= 2 * PAGE) {
		size_t got = read_pages(c, addr, buf, n);
		if (got == n)
			return got;
		/* A page only partly readable (a guard page's edge): the
		 * process itself says how much. */
	}
	if (c->live_pid > 0) {
		struct iovec local = { buf, n }, remote = { (void *)(uintptr_t)addr, n };
		ssize_t r = process_vm_readv(c->live_pid, &local, 1, &remote, 1, 0);
		return r > 0 ? (size_t)r : 0;
	}
	if (!c->image)
		return 0;
	return read_core(c, addr, buf, n);
}

bool crash_read_u64(const struct rc_crash *c, uint64_t addr, uint64_t *v)
{
	return crash_read_mem(c, addr, v, sizeof(*v)) == sizeof(*v);
}

/* Code and read-only data (.rodata: string literals, C++ type names) are
 * not in a kernel core (only the first page of each mapped ELF file is),
 * so what the core lacks is read from the mapped file, which is still the
 * same file unless it was rebuilt since (unwind.c notes that as a
 * problem).  A writable mapping's bytes may differ from the file's. */
size_t crash_read_code(const struct rc_crash *c, uint64_t addr, void *buf, size_t n)
{
	size_t got = crash_read_mem(c, addr, buf, n);
	if (got == n || c->live_pid > 0)
		return got;
	const struct rc_mapping *m = crash_mapping_at(c, addr);
	if (!m || !m->path || m->write || addr - m->start > UINT64_MAX - m->offset)
		return got;
	int fd = crash_open_file(c, m->path);
	if (fd < 0)
		return got;
	size_t want = (size_t)MIN((uint64_t)n, m->end - addr);
	ssize_t r = pread(fd, buf, want, (off_t)(m->offset + (addr - m->start)));
	close(fd);
	return r > 0 ? (size_t)r : got;
}
