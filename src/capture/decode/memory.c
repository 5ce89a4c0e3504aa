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
#include "gen/tables.h"
#include "util/util.h"

/* The bits above MAP_HUGE_SHIFT hold a huge page size's log2. */
#define HUGE_MASK ((unsigned long long)MAP_HUGE_MASK << MAP_HUGE_SHIFT)

/* strace's print_mmap_flags: the mapping type by value, the other flags,
 * then the huge page size as "21<<MAP_HUGE_SHIFT". */
static void mmap_flags_text(struct dec *d, unsigned long long flags)
{
	xlat_print_val(d->out, &rc_xlat_mmap_flags, flags & MAP_TYPE, "MAP_???");
	flags &= ~(unsigned long long)MAP_TYPE;
	unsigned long long huge = flags & HUGE_MASK;
	flags &= ~HUGE_MASK;
	if (flags) {
		strbuf_addc(d->out, '|');
		xlat_print_flags(d->out, &rc_xlat_mmap_flags, flags, NULL);
	}
	if (huge)
		strbuf_addf(d->out, "|%llu<<MAP_HUGE_SHIFT", huge >> MAP_HUGE_SHIFT);
}

static void prot_text(struct dec *d, unsigned long long prot)
{
	xlat_print_flags(d->out, &rc_xlat_mmap_prot, prot, "PROT_???");
}

void dec_mmap(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->call.args[2]);
	dec_sep(d);
	mmap_flags_text(d, d->call.args[3]);
	dec_sep(d);
	dec_fd(d, (int)d->call.args[4]);
	dec_sep(d);
	dec_hex(d, 5);
}

/* munmap, mlock, munlock: (addr, len). */
void dec_addr_len(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
}

void dec_brk(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
}

void dec_mremap(struct dec *d)
{
	unsigned long long flags = d->call.args[3];

	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	dec_ulong(d, 2);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_mremap_flags, flags, "MREMAP_???");
	if ((flags & (MREMAP_MAYMOVE | MREMAP_FIXED)) == (MREMAP_MAYMOVE | MREMAP_FIXED)) {
		dec_sep(d);
		dec_ptr(d, d->call.args[4]);
	}
}

/* mprotect(addr, len, prot) and pkey_mprotect(..., pkey). */
void dec_mprotect(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->call.args[2]);
	if (d->call.nr == SYS_pkey_mprotect)
		strbuf_addf(d->out, ", %d", (int)d->call.args[3]);
}

void dec_madvise(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	xlat_print_val(d->out, &rc_xlat_madvise_cmds, (unsigned)d->call.args[2], "MADV_???");
}

void dec_msync(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_mctl_sync, (unsigned)d->call.args[2], "MS_???");
}

void dec_mlockall(struct dec *d)
{
	if (!d->exiting)
		xlat_print_flags(d->out, &rc_xlat_mlockall_flags, (unsigned)d->call.args[0], "MCL_???");
}

void dec_mlock2(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	xlat_print_flags(d->out, &rc_xlat_mlock_flags, (unsigned)d->call.args[2], "MLOCK_???");
}

/* mincore's vector: one byte per page, the low bit printed, at most -s
 * of them. */
void dec_mincore(struct dec *d)
{
	if (!d->exiting) {
		dec_ptr(d, d->call.args[0]);
		dec_sep(d);
		dec_ulong(d, 1);
		dec_sep(d);
		return;
	}
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	uint64_t n = d->call.args[1] / page + (d->call.args[1] % page ? 1 : 0);
	uint64_t vec = d->call.args[2];
	uint64_t max = (uint64_t)(d->opts ? d->opts->strsize : 32);

	if (!vec || d->call.err) {
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
		if (mem_read(d->call.mem, vec + i, &b, 1) != 1) {
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
		int cmd = (int)d->call.args[0];
		unsigned flags = (unsigned)d->call.args[1];
		xlat_print_val(d->out, &rc_xlat_membarrier_cmds, (unsigned)cmd, "MEMBARRIER_CMD_???");
		dec_sep(d);
		xlat_print_flags(d->out, &rc_xlat_membarrier_flags, flags, "MEMBARRIER_CMD_FLAG_???");
		if (flags & MEMBARRIER_CMD_FLAG_CPU)
			strbuf_addf(d->out, ", %d", (int)d->call.args[2]);
		return;
	}
	/* MEMBARRIER_CMD_QUERY returns the commands the kernel has. */
	if ((int)d->call.args[0] != MEMBARRIER_CMD_QUERY || d->call.err || !d->call.rval)
		return;
	strbuf_addc(d->rv_extra, '(');
	xlat_print_flags(d->rv_extra, &rc_xlat_membarrier_cmds, (unsigned long long)d->call.rval, NULL);
	strbuf_addc(d->rv_extra, ')');
}

void dec_remap_file_pages(struct dec *d)
{
	if (d->exiting)
		return;
	dec_ptr(d, d->call.args[0]);
	dec_sep(d);
	dec_ulong(d, 1);
	dec_sep(d);
	prot_text(d, d->call.args[2]);
	dec_sep(d);
	dec_ulong(d, 3);
	dec_sep(d);
	mmap_flags_text(d, d->call.args[4]);
}

void dec_process_mrelease(struct dec *d)
{
	if (d->exiting)
		return;
	dec_fd(d, (int)d->call.args[0]);
	strbuf_addf(d->out, ", %#x", (unsigned)d->call.args[1]);
}

void dec_pkey_free(struct dec *d)
{
	if (!d->exiting)
		strbuf_addf(d->out, "%d", (int)d->call.args[0]);
}
