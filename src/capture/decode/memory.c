/* Memory mappings: mmap, munmap, mremap, brk, mprotect, madvise and the
 * locking, NUMA and System V shared memory calls.
 *
 * Facts as the arguments' roles give them: the address (mmap's result
 * when it worked), length, prot in mode, flags, fd and offset. */
#include "capture/decode.h"

#include <linux/mman.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture/decode/decoders.h"
#include "util/util.h"

/* strace's mmap_prot order. */
static const struct dec_xl mmap_prot[] = {
	DEC_XL(PROT_NONE), DEC_XL(PROT_READ), DEC_XL(PROT_WRITE), DEC_XL(PROT_EXEC),
#ifdef PROT_SEM
	DEC_XL(PROT_SEM),
#endif
	DEC_XL(PROT_GROWSDOWN), DEC_XL(PROT_GROWSUP),
};

/* strace's mmap_flags order for x86_64, which is not the bit order. */
static const struct dec_xl mmap_flags[] = {
	DEC_XL(MAP_SHARED), DEC_XL(MAP_PRIVATE), DEC_XL(MAP_SHARED_VALIDATE), DEC_XL(MAP_FIXED),
	DEC_XL(MAP_ANONYMOUS), DEC_XL(MAP_32BIT), DEC_XL(MAP_NORESERVE), DEC_XL(MAP_POPULATE),
	DEC_XL(MAP_NONBLOCK), DEC_XL(MAP_GROWSDOWN), DEC_XL(MAP_DENYWRITE), DEC_XL(MAP_EXECUTABLE),
	DEC_XL(MAP_FILE), DEC_XL(MAP_LOCKED), DEC_XL(MAP_STACK), DEC_XL(MAP_HUGETLB),
	DEC_XL(MAP_SYNC),
#ifdef MAP_UNINITIALIZED
	DEC_XL(MAP_UNINITIALIZED),
#endif
	DEC_XL(MAP_FIXED_NOREPLACE),
};

static const struct dec_xl mremap_flags[] = {
	DEC_XL(MREMAP_MAYMOVE), DEC_XL(MREMAP_FIXED),
#ifdef MREMAP_DONTUNMAP
	DEC_XL(MREMAP_DONTUNMAP),
#endif
};

static const struct dec_xl madvise_cmds[] = {
	DEC_XL(MADV_NORMAL), DEC_XL(MADV_RANDOM), DEC_XL(MADV_SEQUENTIAL), DEC_XL(MADV_WILLNEED),
	DEC_XL(MADV_DONTNEED), DEC_XL(MADV_FREE), DEC_XL(MADV_REMOVE), DEC_XL(MADV_DONTFORK),
	DEC_XL(MADV_DOFORK), DEC_XL(MADV_MERGEABLE), DEC_XL(MADV_UNMERGEABLE),
	DEC_XL(MADV_HUGEPAGE), DEC_XL(MADV_NOHUGEPAGE), DEC_XL(MADV_DONTDUMP), DEC_XL(MADV_DODUMP),
	DEC_XL(MADV_WIPEONFORK), DEC_XL(MADV_KEEPONFORK),
#ifdef MADV_COLD
	DEC_XL(MADV_COLD), DEC_XL(MADV_PAGEOUT),
#endif
#ifdef MADV_POPULATE_READ
	DEC_XL(MADV_POPULATE_READ), DEC_XL(MADV_POPULATE_WRITE),
#endif
#ifdef MADV_DONTNEED_LOCKED
	DEC_XL(MADV_DONTNEED_LOCKED),
#endif
#ifdef MADV_COLLAPSE
	DEC_XL(MADV_COLLAPSE),
#endif
	DEC_XL(MADV_HWPOISON), DEC_XL(MADV_SOFT_OFFLINE),
};

static const struct dec_xl mctl_sync[] = {
	DEC_XL(MS_SYNC), DEC_XL(MS_ASYNC), DEC_XL(MS_INVALIDATE),
};

static const struct dec_xl mlockall_flags[] = {
	DEC_XL(MCL_CURRENT), DEC_XL(MCL_FUTURE),
#ifdef MCL_ONFAULT
	DEC_XL(MCL_ONFAULT),
#endif
};

static const struct dec_xl mlock_flags[] = {
	DEC_XL(MLOCK_ONFAULT),
};

static const struct dec_xl membarrier_cmds[] = {
	DEC_XL(MEMBARRIER_CMD_QUERY), DEC_XL(MEMBARRIER_CMD_GLOBAL),
	DEC_XL(MEMBARRIER_CMD_GLOBAL_EXPEDITED), DEC_XL(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED),
	DEC_XL(MEMBARRIER_CMD_PRIVATE_EXPEDITED),
	DEC_XL(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED),
	DEC_XL(MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE),
	DEC_XL(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE),
	DEC_XL(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ),
	DEC_XL(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ),
};

static const struct dec_xl membarrier_flags[] = {
	DEC_XL(MEMBARRIER_CMD_FLAG_CPU),
};

/* The bits above MAP_HUGE_SHIFT hold a huge page size's log2. */
#define HUGE_MASK ((unsigned long long)MAP_HUGE_MASK << MAP_HUGE_SHIFT)

/* strace's print_mmap_flags: the mapping type by value, the other flags,
 * then the huge page size as "21<<MAP_HUGE_SHIFT". */
static void mmap_flags_text(struct dec *d, unsigned long long flags)
{
	dec_xl_val(d, mmap_flags, DEC_XL_N(mmap_flags), flags & MAP_TYPE, "MAP_???");
	flags &= ~(unsigned long long)MAP_TYPE;
	unsigned long long huge = flags & HUGE_MASK;
	flags &= ~HUGE_MASK;
	if (flags) {
		strbuf_addc(d->out, '|');
		dec_xl_flags(d, mmap_flags, DEC_XL_N(mmap_flags), flags, NULL);
	}
	if (huge)
		strbuf_addf(d->out, "|%llu<<MAP_HUGE_SHIFT", huge >> MAP_HUGE_SHIFT);
}

static void prot_text(struct dec *d, unsigned long long prot)
{
	dec_xl_flags(d, mmap_prot, DEC_XL_N(mmap_prot), prot, "PROT_???");
}

void dec_mmap(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->args[2]);
	dec_sep(d);
	mmap_flags_text(d, d->args[3]);
	dec_sep(d);
	dec_fd(d, (int)d->args[4]);
	dec_sep(d);
	dec_hex(d, 5);
}

/* munmap, mlock, munlock: (addr, len). */
void dec_addr_len(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
}

void dec_brk(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
}

void dec_mremap(struct dec *d)
{
	unsigned long long flags = d->args[3];

	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	dec_ulong(d, 2);
	dec_sep(d);
	dec_xl_flags(d, mremap_flags, DEC_XL_N(mremap_flags), flags, "MREMAP_???");
	if ((flags & (MREMAP_MAYMOVE | MREMAP_FIXED)) == (MREMAP_MAYMOVE | MREMAP_FIXED)) {
		dec_sep(d);
		dec_ptr(d, d->args[4]);
	}
}

/* mprotect(addr, len, prot) and pkey_mprotect(..., pkey). */
void dec_mprotect(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->args[2]);
	if (d->nr == SYS_pkey_mprotect)
		strbuf_addf(d->out, ", %d", (int)d->args[3]);
}

void dec_madvise(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	dec_xl_val(d, madvise_cmds, DEC_XL_N(madvise_cmds), (unsigned)d->args[2], "MADV_???");
}

void dec_msync(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	dec_xl_flags(d, mctl_sync, DEC_XL_N(mctl_sync), (unsigned)d->args[2], "MS_???");
}

void dec_mlockall(struct dec *d)
{
	if (!d->exiting)
		dec_xl_flags(d, mlockall_flags, DEC_XL_N(mlockall_flags), (unsigned)d->args[0],
			     "MCL_???");
}

void dec_mlock2(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	dec_xl_flags(d, mlock_flags, DEC_XL_N(mlock_flags), (unsigned)d->args[2], "MLOCK_???");
}

/* mincore's vector: one byte per page, the low bit printed, at most -s
 * of them. */
void dec_mincore(struct dec *d)
{
	if (!d->exiting) {
		dec_ptr(d, d->args[0]);
		dec_sep(d);
		dec_ulong(d, 1);
		dec_sep(d);
		return;
	}
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	uint64_t n = d->args[1] / page + (d->args[1] % page ? 1 : 0);
	uint64_t vec = d->args[2];
	uint64_t max = (uint64_t)(d->opts ? d->opts->strsize : 32);

	if (!vec || d->err) {
		dec_ptr(d, vec);
		return;
	}
	if (!n) {
		strbuf_add(d->out, "[]", 2);
		return;
	}
	uint64_t shown = MIN(n, max);
	for (uint64_t i = 0; i < shown; i++) {
		unsigned char b;
		if (mem_read(d->tid, vec + i, &b, 1) != 1) {
			if (i == 0) {
				dec_ptr(d, vec);
				return;
			}
			strbuf_addf(d->out, ", ... /* %#llx */]", (unsigned long long)(vec + i));
			return;
		}
		strbuf_addf(d->out, "%s%u", i ? ", " : "[", b & 1u);
	}
	if (shown < n)
		strbuf_add(d->out, ", ...", 5);
	strbuf_addc(d->out, ']');
}

void dec_membarrier(struct dec *d)
{
	if (!d->exiting) {
		int cmd = (int)d->args[0];
		unsigned flags = (unsigned)d->args[1];
		dec_xl_val(d, membarrier_cmds, DEC_XL_N(membarrier_cmds), (unsigned)cmd,
			   "MEMBARRIER_CMD_???");
		dec_sep(d);
		dec_xl_flags(d, membarrier_flags, DEC_XL_N(membarrier_flags), flags,
			     "MEMBARRIER_CMD_FLAG_???");
		if (flags & MEMBARRIER_CMD_FLAG_CPU)
			strbuf_addf(d->out, ", %d", (int)d->args[2]);
		return;
	}
	/* MEMBARRIER_CMD_QUERY returns the commands the kernel has. */
	if ((int)d->args[0] != MEMBARRIER_CMD_QUERY || d->err || !d->rval)
		return;
	struct strbuf *out = d->out;
	d->out = d->rv_extra;
	strbuf_addc(d->out, '(');
	dec_xl_flags(d, membarrier_cmds, DEC_XL_N(membarrier_cmds), (unsigned long long)d->rval,
		     NULL);
	strbuf_addc(d->out, ')');
	d->out = out;
}

void dec_remap_file_pages(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->args[2]);
	dec_sep(d);
	dec_ulong(d, 3);
	dec_sep(d);
	mmap_flags_text(d, d->args[4]);
}

void dec_process_mrelease(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->args[0]);
	strbuf_addf(d->out, ", %#x", (unsigned)d->args[1]);
}

void dec_pkey_free(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%d", (int)d->args[0]);
}
