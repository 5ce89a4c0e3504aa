/* The faulting-instruction decoder (crash/insn.c) on real machine code:
 * instructions assembled here with `as`, each with the verdict it must
 * get; every instruction of glibc's memmove/memset/strlen variants on this
 * machine (and, for lengths and false claims, all of libc's .text), whose
 * expected verdict is read from objdump's AT&T text: the memory operand
 * that is the destination (the last one) is written, a source is read.
 * Every decode is also done on exactly-sized heap copies, cut short at
 * every length, so that ASan sees a read past N.  Skips what needs `as`,
 * objcopy, nm or objdump when they are missing, and the glibc functions
 * when libc's symbols (its .symtab or libc6-dbg's) are not here.
 * RC_INSN_SWEEP="FILE..." sweeps more binaries like libc (libm, libcrypto,
 * python3.11 were clean when this was written). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#include "crash/insn.h"
#include "util/strbuf.h"
#include "util/util.h"

enum { R_RAX = 10, R_RBP = 4, R_RSI = 13, R_RDI = 14, R_RIP = 16, R_RSP = 19, R_FS_BASE = 21, NREGS = 27 };

#define RD RC_ACCESS_READ
#define WR RC_ACCESS_WRITE
#define EX RC_ACCESS_EXEC
#define UN RC_ACCESS_UNKNOWN

static char tmpdir[] = "/tmp/rc-insn.XXXXXX";
static bool have_binutils;

/* Runs CMD (sh -c), its stdout in OUT; its exit status. */
static int run(const char *cmd, struct strbuf *out)
{
	char buf[65536];
	size_t got;
	FILE *p = popen(cmd, "r");

	if (!p)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(out, buf, got);
	return pclose(p);
}

static const char *verb(enum rc_access a)
{
	const char *v = insn_access_verb(a);

	return a == UN ? "unknown" : v ? v : "?";
}

/* Where the fault is, for a case. */
enum at {
	AT_DATA,	/* 0x10: a NULL-ish data pointer (rax holds it) */
	AT_ZERO,	/* 0: a general-protection fault */
	AT_FAR,		/* an address no register is near */
	AT_RSI, AT_RDI,	/* the string registers */
	AT_PUSH,	/* rsp - 8: the stack overflowed */
	AT_RSP, AT_RBP,
	AT_RSI32,	/* addr32: the low half of rsi, whose high half is junk */
	AT_FS_RSI,	/* fs: override: fs_base + rsi */
	AT_NOREGS,	/* 0x10, and no registers given */
};

static uint64_t setup_regs(uint64_t *regs, enum at at, uint64_t rip)
{
	memset(regs, 0, NREGS * sizeof(*regs));
	for (int i = 0; i < NREGS; i++)
		regs[i] = 0x5500000000 + (uint64_t)i * 0x100000;
	regs[R_RAX] = 0x10;
	regs[R_RSI] = 0x7f0000001000;
	regs[R_RDI] = 0x7f0000200000;
	regs[R_RSP] = 0x7ffc00010000;
	regs[R_RBP] = 0x7ffc00020000;
	regs[R_FS_BASE] = 0x7f0000400000;
	regs[R_RIP] = rip;
	switch (at) {
	case AT_DATA:
	case AT_NOREGS:
		return 0x10;
	case AT_ZERO:
		return 0;
	case AT_FAR:
		return 0x3000000000;
	case AT_RSI:
		return regs[R_RSI];
	case AT_RDI:
		return regs[R_RDI];
	case AT_PUSH:
		return regs[R_RSP] - 8;
	case AT_RSP:
		return regs[R_RSP];
	case AT_RBP:
		return regs[R_RBP];
	case AT_RSI32:
		regs[R_RSI] = 0xabcd000000003000;
		regs[R_RDI] = 0xabcd000000300000;
		return 0x3000;
	case AT_FS_RSI:
		return regs[R_FS_BASE] + regs[R_RSI];
	}
	return 0;
}

struct tcase {
	const char *insn;	/* AT&T, as `as` takes it */
	enum at at;
	enum rc_access want;
};

static const struct tcase cases[] = {
	/* integer loads */
	{ "mov (%rax),%eax", AT_DATA, RD },
	{ "mov 0x10(%rax),%rcx", AT_DATA, RD },
	{ "mov (%rax,%rbx,4),%r8d", AT_DATA, RD },
	{ "mov 0x12345678(%r12,%r13,8),%r13", AT_DATA, RD },
	{ "mov -8(%rbp),%rax", AT_DATA, RD },
	{ "mov (%r13),%eax", AT_DATA, RD },
	{ "mov (%rsp),%rax", AT_DATA, RD },
	{ "mov 0x10(%rip),%rax", AT_DATA, RD },
	{ "mov %fs:0x28,%rax", AT_DATA, RD },
	{ "mov %gs:(%rax),%rax", AT_DATA, RD },
	{ "mov 0x1000,%eax", AT_DATA, RD },
	{ "movb (%rsi),%al", AT_DATA, RD },
	{ "movw (%rsi),%ax", AT_DATA, RD },
	{ "mov (%eax),%ecx", AT_DATA, RD },
	{ "movabs 0x123456789a,%eax", AT_DATA, RD },
	{ "movabs 0x123456789a,%al", AT_DATA, RD },
	{ "addr32 movabs 0x12345678,%eax", AT_DATA, RD },
	{ "movzbl (%rdi),%eax", AT_DATA, RD },
	{ "movzwl 2(%rdi),%eax", AT_DATA, RD },
	{ "movsbq (%rdi),%rax", AT_DATA, RD },
	{ "movswl (%rdi),%eax", AT_DATA, RD },
	{ "movslq (%rdi),%rax", AT_DATA, RD },
	{ "mov (%rdi),%es", AT_DATA, RD },
	{ "add (%rax),%ecx", AT_DATA, RD },
	{ "sub (%rax),%rcx", AT_DATA, RD },
	{ "and (%rax),%cl", AT_DATA, RD },
	{ "or (%rax),%cx", AT_DATA, RD },
	{ "xor (%rax),%r9", AT_DATA, RD },
	{ "adc (%rax),%ecx", AT_DATA, RD },
	{ "sbb (%rax),%ecx", AT_DATA, RD },
	{ "cmp %eax,(%rdi)", AT_DATA, RD },
	{ "cmp %al,(%rdi)", AT_DATA, RD },
	{ "cmp (%rdi),%rax", AT_DATA, RD },
	{ "cmpb $0,(%rdi)", AT_DATA, RD },
	{ "cmpl $0x1000,(%rdi)", AT_DATA, RD },
	{ "cmpw $0x1000,(%rdi)", AT_DATA, RD },
	{ "cmpq $1,8(%rdi)", AT_DATA, RD },
	{ "cmpl $1,0x10(%rip)", AT_DATA, RD },
	{ "test %eax,(%rdi)", AT_DATA, RD },
	{ "testb $1,(%rdi)", AT_DATA, RD },
	{ "testl $0x100,(%rdi)", AT_DATA, RD },
	{ "testw $0x100,(%rdi)", AT_DATA, RD },
	{ "testq $0x100,0x10(%rip)", AT_DATA, RD },
	{ "mull (%rdi)", AT_DATA, RD },
	{ "imulq (%rdi)", AT_DATA, RD },
	{ "divl (%rdi)", AT_DATA, RD },
	{ "idivq (%rdi)", AT_DATA, RD },
	{ "imul (%rdi),%eax", AT_DATA, RD },
	{ "imul $3,(%rdi),%eax", AT_DATA, RD },
	{ "imul $1000,(%rdi),%eax", AT_DATA, RD },
	{ "imul $1000,(%rdi),%ax", AT_DATA, RD },
	{ "bt %eax,(%rdi)", AT_DATA, RD },
	{ "btl $3,(%rdi)", AT_DATA, RD },
	{ "cmovne (%rdi),%eax", AT_DATA, RD },
	{ "popcnt (%rdi),%eax", AT_DATA, RD },
	{ "tzcnt (%rdi),%eax", AT_DATA, RD },
	{ "lzcnt (%rdi),%rax", AT_DATA, RD },
	{ "bsf (%rdi),%eax", AT_DATA, RD },
	{ "bsr (%rdi),%eax", AT_DATA, RD },
	{ "jmp *(%rax)", AT_DATA, RD },
	{ "jmp *0x10(%rip)", AT_DATA, RD },
	{ "notrack jmp *(%rax,%rcx,8)", AT_DATA, RD },
	{ "ljmp *(%rax)", AT_DATA, RD },
	{ "movbe (%rdi),%eax", AT_DATA, RD },
	{ "crc32b (%rdi),%eax", AT_DATA, RD },
	{ "crc32q (%rdi),%rax", AT_DATA, RD },
	{ "crc32w (%rdi),%eax", AT_DATA, RD },
	{ "adcx (%rdi),%eax", AT_DATA, RD },
	{ "xlat", AT_DATA, RD },
	/* x87 */
	{ "flds (%rdi)", AT_DATA, RD },
	{ "fldl (%rdi)", AT_DATA, RD },
	{ "fldt (%rdi)", AT_DATA, RD },
	{ "fildl (%rdi)", AT_DATA, RD },
	{ "fildll (%rdi)", AT_DATA, RD },
	{ "filds (%rdi)", AT_DATA, RD },
	{ "fadds (%rdi)", AT_DATA, RD },
	{ "fmull (%rdi)", AT_DATA, RD },
	{ "fcompl (%rdi)", AT_DATA, RD },
	{ "fidivl (%rdi)", AT_DATA, RD },
	{ "fldcw (%rdi)", AT_DATA, RD },
	{ "fldenv (%rdi)", AT_DATA, RD },
	{ "frstor (%rdi)", AT_DATA, RD },
	{ "fbld (%rdi)", AT_DATA, RD },
	{ "fxrstor (%rdi)", AT_DATA, RD },
	{ "fxrstor64 (%rdi)", AT_DATA, RD },
	{ "ldmxcsr (%rdi)", AT_DATA, RD },
	{ "xrstor (%rdi)", AT_DATA, RD },
	{ "xrstors (%rdi)", AT_DATA, RD },
	{ "fstps (%rdi)", AT_DATA, WR },
	{ "fstl (%rdi)", AT_DATA, WR },
	{ "fstpt (%rdi)", AT_DATA, WR },
	{ "fistpl (%rdi)", AT_DATA, WR },
	{ "fistpll (%rdi)", AT_DATA, WR },
	{ "fists (%rdi)", AT_DATA, WR },
	{ "fisttpl (%rdi)", AT_DATA, WR },
	{ "fisttpll (%rdi)", AT_DATA, WR },
	{ "fnstcw (%rdi)", AT_DATA, WR },
	{ "fnstsw (%rdi)", AT_DATA, WR },
	{ "fnstenv (%rdi)", AT_DATA, WR },
	{ "fnsave (%rdi)", AT_DATA, WR },
	{ "fbstp (%rdi)", AT_DATA, WR },
	{ "fadd %st(1),%st", AT_DATA, UN },
	/* SSE loads and reading ops */
	{ "movups (%rsi),%xmm0", AT_DATA, RD },
	{ "movupd (%rsi),%xmm0", AT_DATA, RD },
	{ "movss (%rsi),%xmm0", AT_DATA, RD },
	{ "movsd (%rsi),%xmm8", AT_DATA, RD },
	{ "movaps (%rsi),%xmm0", AT_DATA, RD },
	{ "movapd (%rsi),%xmm0", AT_DATA, RD },
	{ "movdqa (%rsi),%xmm0", AT_DATA, RD },
	{ "movdqu 0x10(%rsi),%xmm15", AT_DATA, RD },
	{ "movq (%rsi),%xmm0", AT_DATA, RD },
	{ "movq (%rsi),%mm0", AT_DATA, RD },
	{ "movd (%rsi),%xmm0", AT_DATA, RD },
	{ "movd (%rsi),%mm1", AT_DATA, RD },
	{ "movlps (%rsi),%xmm0", AT_DATA, RD },
	{ "movlpd (%rsi),%xmm0", AT_DATA, RD },
	{ "movhps (%rsi),%xmm0", AT_DATA, RD },
	{ "movhpd (%rsi),%xmm0", AT_DATA, RD },
	{ "movddup (%rsi),%xmm0", AT_DATA, RD },
	{ "movsldup (%rsi),%xmm0", AT_DATA, RD },
	{ "movshdup (%rsi),%xmm0", AT_DATA, RD },
	{ "lddqu (%rsi),%xmm0", AT_DATA, RD },
	{ "movntdqa (%rsi),%xmm0", AT_DATA, RD },
	{ "pcmpeqb (%rdi),%xmm1", AT_DATA, RD },
	{ "pcmpeqw (%rdi),%xmm1", AT_DATA, RD },
	{ "pcmpeqd (%rdi),%xmm1", AT_DATA, RD },
	{ "pcmpeqb (%rdi),%mm1", AT_DATA, RD },
	{ "pminub 0x10(%rdi),%xmm1", AT_DATA, RD },
	{ "pmaxub (%rdi),%xmm1", AT_DATA, RD },
	{ "por (%rdi),%xmm1", AT_DATA, RD },
	{ "pxor (%rdi),%xmm1", AT_DATA, RD },
	{ "pand (%rdi),%xmm1", AT_DATA, RD },
	{ "paddb (%rdi),%xmm1", AT_DATA, RD },
	{ "psubb (%rdi),%xmm1", AT_DATA, RD },
	{ "psadbw (%rdi),%xmm1", AT_DATA, RD },
	{ "punpcklbw (%rdi),%xmm1", AT_DATA, RD },
	{ "ptest (%rdi),%xmm0", AT_DATA, RD },
	{ "pcmpistri $0x1a,(%rdi),%xmm1", AT_DATA, RD },
	{ "pcmpestri $0x1a,(%rdi),%xmm1", AT_DATA, RD },
	{ "pshufb (%rdi),%xmm0", AT_DATA, RD },
	{ "palignr $4,(%rdi),%xmm0", AT_DATA, RD },
	{ "pshufd $0,(%rdi),%xmm0", AT_DATA, RD },
	{ "ucomisd (%rdi),%xmm0", AT_DATA, RD },
	{ "comiss (%rdi),%xmm0", AT_DATA, RD },
	{ "cvtsi2sdl (%rdi),%xmm0", AT_DATA, RD },
	{ "cvttsd2si (%rdi),%eax", AT_DATA, RD },
	{ "sqrtsd (%rdi),%xmm0", AT_DATA, RD },
	{ "addsd (%rdi),%xmm0", AT_DATA, RD },
	{ "mulps (%rdi),%xmm0", AT_DATA, RD },
	{ "andps (%rdi),%xmm0", AT_DATA, RD },
	{ "cmpeqps (%rdi),%xmm0", AT_DATA, RD },
	{ "shufps $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "pinsrw $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "pinsrb $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "pinsrd $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "pinsrq $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "insertps $1,(%rdi),%xmm0", AT_DATA, RD },
	{ "pmovzxbw (%rdi),%xmm0", AT_DATA, RD },
	{ "pmovsxbd (%rdi),%xmm0", AT_DATA, RD },
	{ "aesenc (%rdi),%xmm0", AT_DATA, RD },
	{ "pclmulqdq $0,(%rdi),%xmm0", AT_DATA, RD },
	{ "roundsd $4,(%rdi),%xmm0", AT_DATA, RD },
	/* AVX reads */
	{ "vmovdqu (%rsi),%ymm0", AT_DATA, RD },
	{ "vmovdqu -0x20(%rsi,%rdx,1),%ymm8", AT_DATA, RD },
	{ "vmovdqa (%rsi),%ymm0", AT_DATA, RD },
	{ "vmovdqu (%rsi),%xmm0", AT_DATA, RD },
	{ "vmovups (%rsi),%ymm0", AT_DATA, RD },
	{ "vmovaps (%rsi),%ymm12", AT_DATA, RD },
	{ "vmovss (%rsi),%xmm0", AT_DATA, RD },
	{ "vmovsd (%rsi),%xmm0", AT_DATA, RD },
	{ "vmovq (%rsi),%xmm0", AT_DATA, RD },
	{ "vmovd (%rsi),%xmm0", AT_DATA, RD },
	{ "vmovhps (%rsi),%xmm1,%xmm0", AT_DATA, RD },
	{ "vlddqu (%rsi),%ymm0", AT_DATA, RD },
	{ "vmovntdqa (%rsi),%ymm0", AT_DATA, RD },
	{ "vpcmpeqb (%rdi),%ymm0,%ymm1", AT_DATA, RD },
	{ "vpcmpeqb -0x7f(%rdi),%ymm0,%ymm1", AT_DATA, RD },
	{ "vpminub 0x20(%rdi),%ymm1,%ymm2", AT_DATA, RD },
	{ "vpor (%rdi),%ymm1,%ymm2", AT_DATA, RD },
	{ "vpxor (%rdi),%ymm1,%ymm2", AT_DATA, RD },
	{ "vpand (%rdi),%xmm1,%xmm2", AT_DATA, RD },
	{ "vptest (%rdi),%ymm0", AT_DATA, RD },
	{ "vpbroadcastb (%rdi),%ymm0", AT_DATA, RD },
	{ "vbroadcastss (%rdi),%ymm0", AT_DATA, RD },
	{ "vpmaskmovd (%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "vmaskmovps (%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "vinserti128 $1,(%rdi),%ymm0,%ymm0", AT_DATA, RD },
	{ "vperm2i128 $1,(%rdi),%ymm0,%ymm0", AT_DATA, RD },
	{ "vpermq $1,(%rdi),%ymm0", AT_DATA, RD },
	{ "vpshufb (%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "vpalignr $1,(%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "vpcmpistri $0,(%rdi),%xmm0", AT_DATA, RD },
	{ "vpgatherdd %ymm2,(%rdi,%ymm1,4),%ymm0", AT_DATA, RD },
	{ "vfmadd231ps (%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "vcvtph2ps (%rdi),%ymm0", AT_DATA, RD },
	{ "vpblendvb %ymm3,(%rdi),%ymm1,%ymm0", AT_DATA, RD },
	{ "andn (%rdi),%eax,%ecx", AT_DATA, RD },
	{ "bextr %eax,(%rdi),%ecx", AT_DATA, RD },
	{ "shlx %eax,(%rdi),%ecx", AT_DATA, RD },
	{ "blsr (%rdi),%eax", AT_DATA, RD },
	{ "mulx (%rdi),%eax,%ecx", AT_DATA, RD },
	{ "rorx $1,(%rdi),%eax", AT_DATA, RD },
	{ "pdep (%rdi),%eax,%ecx", AT_DATA, RD },
	{ "vldmxcsr (%rdi)", AT_DATA, RD },
	{ "kmovw (%rdi),%k1", AT_DATA, RD },
	{ "kmovq (%rdi),%k1", AT_DATA, RD },
	/* AVX-512 reads */
	{ "vmovdqu8 (%rsi),%zmm16", AT_DATA, RD },
	{ "vmovdqu16 (%rsi),%zmm0", AT_DATA, RD },
	{ "vmovdqu32 (%rsi),%zmm0", AT_DATA, RD },
	{ "vmovdqu64 (%rsi),%zmm16", AT_DATA, RD },
	{ "vmovdqu64 -0x40(%rsi,%rdx,1),%zmm24", AT_DATA, RD },
	{ "vmovdqa32 (%rsi),%zmm0", AT_DATA, RD },
	{ "vmovdqa64 0x20(%rdi),%ymm17", AT_DATA, RD },
	{ "vmovdqu8 (%rsi),%zmm0{%k1}{z}", AT_DATA, RD },
	{ "vmovups (%rsi),%zmm0", AT_DATA, RD },
	{ "vmovq (%rdi),%xmm16", AT_DATA, RD },
	{ "vmovd (%rdi),%xmm16", AT_DATA, RD },
	{ "vpcmpb $0,(%rdi),%zmm16,%k1", AT_DATA, RD },
	{ "vpcmpneqb (%rdi),%zmm16,%k1", AT_DATA, RD },
	{ "vpcmpub $4,(%rdi),%ymm16,%k1", AT_DATA, RD },
	{ "vpcmpeqb (%rdi),%ymm16,%k0", AT_DATA, RD },
	{ "vpcmpd $1,(%rdi){1to16},%zmm1,%k1", AT_DATA, RD },
	{ "vpminub 0x40(%rdi),%zmm17,%zmm18", AT_DATA, RD },
	{ "vpminud (%rdi),%zmm17,%zmm18", AT_DATA, RD },
	{ "vptestnmb (%rdi),%zmm16,%k0", AT_DATA, RD },
	{ "vptestmb (%rdi),%zmm16,%k0", AT_DATA, RD },
	{ "vpbroadcastd (%rdi),%zmm0", AT_DATA, RD },
	{ "vpternlogd $0xff,(%rdi),%zmm0,%zmm1", AT_DATA, RD },
	{ "vpexpandd (%rdi),%zmm0", AT_DATA, RD },
	{ "vpgatherdd (%rdi,%zmm1,4),%zmm0{%k1}", AT_DATA, RD },
	{ "vpermb (%rdi),%zmm1,%zmm0", AT_DATA, RD },
	{ "vpsrld $1,(%rdi),%zmm0", AT_DATA, RD },
	{ "vinserti32x4 $1,(%rdi),%zmm1,%zmm0", AT_DATA, RD },
	{ "vpmovzxbw (%rdi),%zmm0", AT_DATA, RD },
	{ "vpinsrw $1,(%rdi),%xmm16,%xmm17", AT_DATA, RD },
	/* integer stores and read-modify-writes */
	{ "mov %eax,(%rdi)", AT_DATA, WR },
	{ "mov %al,(%rdi)", AT_DATA, WR },
	{ "mov %sil,-1(%rdi,%rdx,1)", AT_DATA, WR },
	{ "mov %ax,(%rdi)", AT_DATA, WR },
	{ "mov %rax,0x10(%rdi,%rcx,8)", AT_DATA, WR },
	{ "mov %rax,%fs:0x10", AT_DATA, WR },
	{ "mov %es,(%rdi)", AT_DATA, WR },
	{ "movabs %eax,0x123456789a", AT_DATA, WR },
	{ "movabs %al,0x123456789a", AT_DATA, WR },
	{ "movabs %rax,0x123456789a", AT_DATA, WR },
	{ "movb $1,(%rdi)", AT_DATA, WR },
	{ "movl $0x12345678,(%rdi)", AT_DATA, WR },
	{ "movw $0x1234,(%rdi)", AT_DATA, WR },
	{ "movq $-1,0x10(%rip)", AT_DATA, WR },
	{ "movl $0,0x12345678(%rax,%rbx,2)", AT_DATA, WR },
	{ "add %eax,(%rdi)", AT_DATA, WR },
	{ "sub %al,(%rdi)", AT_DATA, WR },
	{ "lock add %eax,(%rdi)", AT_DATA, WR },
	{ "lock xadd %eax,(%rdi)", AT_DATA, WR },
	{ "lock cmpxchg %ecx,(%rdi)", AT_DATA, WR },
	{ "lock cmpxchg16b (%rdi)", AT_DATA, WR },
	{ "cmpxchg8b (%rdi)", AT_DATA, WR },
	{ "xchg %eax,(%rdi)", AT_DATA, WR },
	{ "xchg %al,(%rdi)", AT_DATA, WR },
	{ "addl $1,(%rdi)", AT_DATA, WR },
	{ "orb $1,(%rdi)", AT_DATA, WR },
	{ "andl $0x1000,(%rdi)", AT_DATA, WR },
	{ "subq $0x1000,(%rdi)", AT_DATA, WR },
	{ "orq $0,(%rsp)", AT_DATA, WR },
	{ "lock decl (%rdi)", AT_DATA, WR },
	{ "incl (%rdi)", AT_DATA, WR },
	{ "decq (%rdi)", AT_DATA, WR },
	{ "incb (%rdi)", AT_DATA, WR },
	{ "notl (%rdi)", AT_DATA, WR },
	{ "negq (%rdi)", AT_DATA, WR },
	{ "shll (%rdi)", AT_DATA, WR },
	{ "shlb $3,(%rdi)", AT_DATA, WR },
	{ "sarl %cl,(%rdi)", AT_DATA, WR },
	{ "rolq $5,(%rdi)", AT_DATA, WR },
	{ "setne (%rdi)", AT_DATA, WR },
	{ "bts %eax,(%rdi)", AT_DATA, WR },
	{ "btrl $1,(%rdi)", AT_DATA, WR },
	{ "btcq $1,(%rdi)", AT_DATA, WR },
	{ "shld $3,%eax,(%rdi)", AT_DATA, WR },
	{ "shrd %cl,%eax,(%rdi)", AT_DATA, WR },
	{ "movnti %eax,(%rdi)", AT_DATA, WR },
	{ "movbe %eax,(%rdi)", AT_DATA, WR },
	{ "movdiri %eax,(%rdi)", AT_DATA, WR },
	{ "stmxcsr (%rdi)", AT_DATA, WR },
	{ "fxsave (%rdi)", AT_DATA, WR },
	{ "fxsave64 (%rdi)", AT_DATA, WR },
	{ "xsave (%rdi)", AT_DATA, WR },
	{ "xsavec (%rdi)", AT_DATA, WR },
	{ "xsavec64 0x40(%rsp)", AT_DATA, WR },
	{ "xsaveopt (%rdi)", AT_DATA, WR },
	{ "xsaves (%rdi)", AT_DATA, WR },
	/* SSE stores */
	{ "movups %xmm0,(%rdi)", AT_DATA, WR },
	{ "movupd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movss %xmm0,(%rdi)", AT_DATA, WR },
	{ "movsd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movaps %xmm0,(%rdi)", AT_DATA, WR },
	{ "movapd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movdqa %xmm0,(%rdi)", AT_DATA, WR },
	{ "movdqu %xmm9,-0x10(%rdi,%rdx,1)", AT_DATA, WR },
	{ "movq %xmm0,(%rdi)", AT_DATA, WR },
	{ "movd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movq %mm0,(%rdi)", AT_DATA, WR },
	{ "movd %mm0,(%rdi)", AT_DATA, WR },
	{ "movntps %xmm0,(%rdi)", AT_DATA, WR },
	{ "movntpd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movntdq %xmm0,(%rdi)", AT_DATA, WR },
	{ "movntq %mm0,(%rdi)", AT_DATA, WR },
	{ "movlps %xmm0,(%rdi)", AT_DATA, WR },
	{ "movlpd %xmm0,(%rdi)", AT_DATA, WR },
	{ "movhps %xmm0,(%rdi)", AT_DATA, WR },
	{ "movhpd %xmm0,(%rdi)", AT_DATA, WR },
	{ "pextrb $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "pextrw $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "pextrd $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "pextrq $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "extractps $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "maskmovdqu %xmm1,%xmm0", AT_RDI, WR },
	/* AVX stores */
	{ "vmovdqu %ymm0,(%rdi)", AT_DATA, WR },
	{ "vmovdqu %ymm7,-0x20(%rdi,%rdx,1)", AT_DATA, WR },
	{ "vmovdqu %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovdqa %ymm0,0x20(%rdi)", AT_DATA, WR },
	{ "vmovups %ymm0,(%rdi)", AT_DATA, WR },
	{ "vmovaps %ymm0,(%rdi)", AT_DATA, WR },
	{ "vmovntdq %ymm0,(%rdi)", AT_DATA, WR },
	{ "vmovntdq %ymm15,0x60(%rdi)", AT_DATA, WR },
	{ "vmovntps %ymm0,(%rdi)", AT_DATA, WR },
	{ "vmovss %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovsd %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovq %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovq %xmm0,-8(%rdi,%rdx,1)", AT_DATA, WR },
	{ "vmovd %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovlps %xmm0,(%rdi)", AT_DATA, WR },
	{ "vmovhps %xmm0,(%rdi)", AT_DATA, WR },
	{ "vextracti128 $1,%ymm0,(%rdi)", AT_DATA, WR },
	{ "vextractf128 $1,%ymm0,(%rdi)", AT_DATA, WR },
	{ "vpextrb $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "vextractps $1,%xmm0,(%rdi)", AT_DATA, WR },
	{ "vmaskmovps %ymm0,%ymm1,(%rdi)", AT_DATA, WR },
	{ "vmaskmovpd %ymm0,%ymm1,(%rdi)", AT_DATA, WR },
	{ "vpmaskmovd %ymm0,%ymm1,(%rdi)", AT_DATA, WR },
	{ "vpmaskmovq %xmm0,%xmm1,(%rdi)", AT_DATA, WR },
	{ "vstmxcsr (%rdi)", AT_DATA, WR },
	{ "kmovw %k1,(%rdi)", AT_DATA, WR },
	{ "vcvtps2ph $0,%ymm0,(%rdi)", AT_DATA, WR },
	/* AVX-512 stores */
	{ "vmovdqu8 %zmm16,(%rdi)", AT_DATA, WR },
	{ "vmovdqu16 %zmm16,(%rdi)", AT_DATA, WR },
	{ "vmovdqu32 %zmm0,(%rdi)", AT_DATA, WR },
	{ "vmovdqu64 %zmm16,(%rdi)", AT_DATA, WR },
	{ "vmovdqu64 %zmm23,-0x40(%rdi,%rdx,1)", AT_DATA, WR },
	{ "vmovdqa64 %zmm16,0x40(%rdi)", AT_DATA, WR },
	{ "vmovdqa32 %zmm16,0x1000(%rdi)", AT_DATA, WR },
	{ "vmovdqu8 %ymm16,(%rdi){%k1}", AT_DATA, WR },
	{ "vmovntdq %zmm16,(%rdi)", AT_DATA, WR },
	{ "vmovups %zmm0,(%rdi)", AT_DATA, WR },
	{ "vmovq %xmm16,(%rdi)", AT_DATA, WR },
	{ "vmovd %xmm16,(%rdi)", AT_DATA, WR },
	{ "vextracti32x4 $1,%zmm0,(%rdi)", AT_DATA, WR },
	{ "vextracti64x4 $1,%zmm0,(%rdi)", AT_DATA, WR },
	{ "vextractf32x8 $1,%zmm0,(%rdi)", AT_DATA, WR },
	{ "vpcompressd %zmm0,(%rdi){%k1}", AT_DATA, WR },
	{ "vcompressps %zmm0,(%rdi){%k1}", AT_DATA, WR },
	{ "vpscatterdd %zmm0,(%rdi,%zmm1,4){%k1}", AT_DATA, WR },
	{ "vpmovdb %zmm0,(%rdi)", AT_DATA, WR },
	{ "vpmovqw %zmm0,(%rdi)", AT_DATA, WR },
	{ "vpmovuswb %zmm0,(%rdi)", AT_DATA, WR },
	{ "vpextrq $1,%xmm16,(%rdi)", AT_DATA, WR },
	/* no memory access: unknown */
	{ "lea (%rax),%rbx", AT_DATA, UN },
	{ "lea 0x10(%rip),%rax", AT_DATA, UN },
	{ "lea 0x10(%rax,%rbx,8),%ecx", AT_DATA, UN },
	{ "nop", AT_DATA, UN },
	{ "nopl 0(%rax)", AT_DATA, UN },
	{ "nopw 0(%rax,%rax,1)", AT_DATA, UN },
	{ "cs nopw 0(%rax,%rax,1)", AT_DATA, UN },
	{ "prefetcht0 (%rdi)", AT_DATA, UN },
	{ "prefetcht1 0x40(%rdi)", AT_DATA, UN },
	{ "prefetchnta (%rdi)", AT_DATA, UN },
	{ "prefetchw (%rdi)", AT_DATA, UN },
	{ "clflush (%rdi)", AT_DATA, UN },
	{ "mov %eax,%ebx", AT_DATA, UN },
	{ "add %eax,%ebx", AT_DATA, UN },
	{ "addl $1,%ebx", AT_DATA, UN },
	{ "xor %eax,%eax", AT_DATA, UN },
	{ "movzbl %al,%eax", AT_DATA, UN },
	{ "vmovdqu %ymm0,%ymm1", AT_DATA, UN },
	{ "vmovdqu64 %zmm16,%zmm17", AT_DATA, UN },
	{ "vpcmpeqb %ymm1,%ymm0,%ymm2", AT_DATA, UN },
	{ "vpmovmskb %ymm1,%eax", AT_DATA, UN },
	{ "vzeroupper", AT_DATA, UN },
	{ "ud2", AT_DATA, UN },
	{ "hlt", AT_ZERO, UN },
	{ "in (%dx),%al", AT_ZERO, UN },
	{ "cli", AT_ZERO, UN },
	{ "int3", AT_DATA, UN },
	{ "syscall", AT_DATA, UN },
	{ "endbr64", AT_DATA, UN },
	{ "jmp *%rax", AT_DATA, UN },
	{ "call *%rax", AT_DATA, UN },
	{ "cpuid", AT_DATA, UN },
	{ "rdtsc", AT_DATA, UN },
	{ "pause", AT_DATA, UN },
	{ "bswap %eax", AT_DATA, UN },
	{ "push %rbp", AT_DATA, UN },
	{ "pop %rbp", AT_DATA, UN },
	{ "ret", AT_DATA, UN },
	{ "movsb", AT_FAR, UN },
	{ "movsb", AT_NOREGS, UN },
	/* a general-protection fault (non-canonical address) reports 0 */
	{ "mov (%rax),%eax", AT_ZERO, RD },
	{ "vmovdqu %ymm0,(%rdi)", AT_ZERO, WR },
	/* the stack */
	{ "push %rbp", AT_PUSH, WR },
	{ "push %r12", AT_PUSH, WR },
	{ "pushq $1", AT_PUSH, WR },
	{ "pushq $0x1000", AT_PUSH, WR },
	{ "pushw $0x1000", AT_PUSH, WR },
	{ "pushf", AT_PUSH, WR },
	{ "push %fs", AT_PUSH, WR },
	{ "call .", AT_PUSH, WR },
	{ "call *%rax", AT_PUSH, WR },
	{ "call *(%rax)", AT_PUSH, WR },
	{ "call *(%rax)", AT_DATA, RD },
	{ "call *0x10(%rip)", AT_DATA, RD },
	{ "call *(%rax)", AT_NOREGS, UN },
	{ "popq (%rdi)", AT_NOREGS, UN },
	{ "pushq (%rax)", AT_PUSH, WR },
	{ "pushq (%rax)", AT_DATA, RD },
	{ "pushq -8(%rsp)", AT_PUSH, RD },
	{ "push %rbp", AT_RSP, WR },
	{ "push %rbp", AT_NOREGS, UN },
	{ "pop %rbp", AT_RSP, RD },
	{ "pop %r15", AT_RSP, RD },
	{ "popf", AT_RSP, RD },
	{ "ret", AT_RSP, RD },
	{ "ret $8", AT_RSP, RD },
	{ "leave", AT_RBP, RD },
	{ "popq (%rdi)", AT_RSP, RD },
	{ "popq (%rdi)", AT_DATA, WR },
	{ "popq (%rax)", AT_DATA, WR },
	/* string instructions */
	{ "movsb", AT_RSI, RD },
	{ "movsb", AT_RDI, WR },
	{ "rep movsb", AT_RSI, RD },
	{ "rep movsb", AT_RDI, WR },
	{ "rep movsq", AT_RDI, WR },
	{ "movsl", AT_RSI, RD },
	{ "movsw", AT_RDI, WR },
	{ "addr32 movsb", AT_RSI32, RD },
	{ "fs movsb", AT_FS_RSI, RD },
	{ "stosb", AT_RDI, WR },
	{ "rep stosq", AT_RDI, WR },
	{ "rep stosb", AT_DATA, WR },
	{ "stosl", AT_NOREGS, WR },
	{ "lodsb", AT_RSI, RD },
	{ "lodsq", AT_RSI, RD },
	{ "scasb", AT_RDI, RD },
	{ "repne scasb", AT_RDI, RD },
	{ "cmpsb", AT_RSI, RD },
	{ "repe cmpsq", AT_RDI, RD },
	/* without registers, what needs none still works */
	{ "mov (%rax),%eax", AT_NOREGS, RD },
	{ "vmovdqu64 %zmm16,(%rdi)", AT_NOREGS, WR },
	{ "xchg %eax,(%rdi)", AT_NOREGS, WR },
};

struct assembled {
	unsigned char *code;	/* all of .text */
	size_t size;
	size_t *off;		/* off[i]: case i's first byte; off[ncases]: the end */
};

static struct assembled as_out;

/* Assembles every case, each after its own label; the lengths come from the
 * labels' addresses (nm), the bytes from objcopy. */
static bool assemble(void)
{
	size_t ncases = ARRAY_SIZE(cases);
	struct strbuf path = STRBUF_INIT, cmd = STRBUF_INIT, out = STRBUF_INIT;
	bool ok = false;
	FILE *f;

	strbuf_addf(&path, "%s/cases.s", tmpdir);
	f = fopen(path.buf, "w");
	if (!f)
		goto out;
	fputs("\t.text\n", f);
	for (size_t i = 0; i < ncases; i++)
		fprintf(f, "c%zu:\t%s\n", i, cases[i].insn);
	fprintf(f, "c%zu:\n", ncases);
	fclose(f);
	strbuf_addf(&cmd, "cd %s && as -o cases.o cases.s && objcopy -O binary -j .text cases.o cases.bin", tmpdir);
	if (run(cmd.buf, &out) != 0) {
		print_message("as failed on %s/cases.s\n", tmpdir);
		goto out;
	}
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "nm %s/cases.o", tmpdir);
	if (run(cmd.buf, &out) != 0)
		goto out;
	as_out.off = xcalloc(ncases + 1, sizeof(size_t));
	bool *seen = xcalloc(ncases + 1, sizeof(bool));
	for (char *line = out.buf; line && *line;) {
		char *nl = strchr(line, '\n');
		unsigned long long addr;
		char type;
		size_t idx;
		if (sscanf(line, "%llx %c c%zu", &addr, &type, &idx) == 3 && idx <= ncases) {
			as_out.off[idx] = addr;
			seen[idx] = true;
		}
		line = nl ? nl + 1 : NULL;
	}
	ok = true;
	for (size_t i = 0; i <= ncases; i++)
		ok = ok && seen[i];
	free(seen);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/cases.bin", tmpdir);
	f = fopen(path.buf, "rb");
	if (!f) {
		ok = false;
		goto out;
	}
	as_out.code = xmalloc(as_out.off[ncases] + 1);
	as_out.size = fread(as_out.code, 1, as_out.off[ncases] + 1, f);
	fclose(f);
	ok = ok && as_out.size == as_out.off[ncases];
out:
	strbuf_release(&path);
	strbuf_release(&cmd);
	strbuf_release(&out);
	return ok;
}

static int group_setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	have_binutils = test_in_path("as") && test_in_path("objcopy") && test_in_path("nm") && test_in_path("objdump");
	if (have_binutils && !assemble())
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	static const char *const files[] = { "cases.s", "cases.o", "cases.bin" };
	char path[256];

	(void)state;
	free(as_out.code);
	free(as_out.off);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i]);
		unlink(path);
	}
	return rmdir(tmpdir);
}

static void need_binutils(void)
{
	if (!have_binutils) {
		print_message("# skip: as, objcopy, nm or objdump is not installed\n");
		skip();
	}
}

/* Decodes exactly-sized heap copies of CODE[0..N): ASan catches any read
 * past N.  N may be 0 (and then CODE is a live pointer to nothing). */
static enum rc_access decode_copy(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault,
				  size_t *len)
{
	unsigned char *copy = xmalloc(n ? n : 1);
	enum rc_access a;

	memcpy(copy, code, n);
	a = insn_access_len(copy, n, regs, fault, len);
	free(copy);
	return a;
}

/* Each case: its verdict from exactly its bytes, and from 15 bytes (the
 * next instructions after it), with the assembler's length. */
static void test_assembled(void **state)
{
	int bad = 0;

	(void)state;
	need_binutils();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct tcase *t = &cases[i];
		const unsigned char *code = as_out.code + as_out.off[i];
		size_t n = as_out.off[i + 1] - as_out.off[i], len, len15;
		uint64_t regs[NREGS];
		uint64_t fault = setup_regs(regs, t->at, 0x401000);
		const uint64_t *r = t->at == AT_NOREGS ? NULL : regs;
		unsigned char buf[16];
		size_t avail = as_out.size - as_out.off[i];

		enum rc_access a = decode_copy(code, n, r, fault, &len);
		/* 15 bytes: the rest of the code, padded with int3 */
		memset(buf, 0xcc, sizeof(buf));
		memcpy(buf, code, MIN(avail, (size_t)15));
		enum rc_access a15 = decode_copy(buf, 15, r, fault, &len15);
		if (a != t->want || a15 != t->want) {
			print_message("%-40s fault %#llx: %s (15 bytes: %s), want %s\n", t->insn,
				      (unsigned long long)fault, verb(a), verb(a15), verb(t->want));
			bad++;
		}
		if (len != len15 || (len && len != n) || ((t->want == RD || t->want == WR) && len != n)) {
			print_message("%-40s length %zu (15 bytes: %zu), as says %zu\n", t->insn, len, len15, n);
			bad++;
		}
	}
	print_message("# %zu assembled instructions\n", ARRAY_SIZE(cases));
	assert_int_equal(bad, 0);
}

/* Cut short at every length: the verdict is the whole one or unknown, and
 * a fault just where the bytes end is the fetch faulting (EXEC) whenever
 * the decoder needed those bytes. */
static void test_truncated(void **state)
{
	int bad = 0;

	(void)state;
	need_binutils();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct tcase *t = &cases[i];
		const unsigned char *code = as_out.code + as_out.off[i];
		size_t n = as_out.off[i + 1] - as_out.off[i], len;
		uint64_t regs[NREGS];
		uint64_t rip = 0x401000;

		for (size_t k = 0; k < n; k++) {
			uint64_t fault = setup_regs(regs, t->at, rip);
			const uint64_t *r = t->at == AT_NOREGS ? NULL : regs;
			enum rc_access a = decode_copy(code, k, r, fault, &len);
			if ((a != UN && a != t->want && !(k == 0 && fault == 0 && a == EX)) || len) {
				print_message("%s cut to %zu: %s, len %zu\n", t->insn, k, verb(a), len);
				bad++;
			}
			/* the fetch of byte k faulted */
			a = decode_copy(code, k, regs, rip + k, &len);
			if (k == 0 || t->want == RD || t->want == WR) {
				if (a != EX) {
					print_message("%s cut to %zu, fault at pc+%zu: %s\n", t->insn, k, k, verb(a));
					bad++;
				}
			} else if (a != EX && a != UN) {
				print_message("%s cut to %zu, fault at pc+%zu: %s\n", t->insn, k, k, verb(a));
				bad++;
			}
		}
		/* Whole, but the fault is inside its bytes or at the pc. */
		for (size_t k = 0; k < n; k++) {
			setup_regs(regs, t->at, rip);
			enum rc_access a = decode_copy(code, n, regs, rip + k, &len);
			if (a != EX && (k == 0 || t->want == RD || t->want == WR)) {
				print_message("%s, fault at pc+%zu: %s\n", t->insn, k, verb(a));
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

static void test_exec_and_verbs(void **state)
{
	static const unsigned char mov[] = { 0x8b, 0x00 };	/* mov (%rax),%eax */
	uint64_t regs[NREGS];
	size_t len;

	(void)state;
	setup_regs(regs, AT_DATA, 0);
	/* a call through NULL: the pc is 0 and unreadable */
	assert_int_equal(insn_access(mov, 0, NULL, 0), EX);
	assert_int_equal(insn_access(NULL, 0, NULL, 0), EX);
	assert_int_equal(insn_access(mov, 0, regs, 0), EX);
	/* unreadable pc, fault elsewhere: the code may just be missing from the core */
	assert_int_equal(insn_access(mov, 0, NULL, 0x1234), UN);
	setup_regs(regs, AT_DATA, 0x401000);
	assert_int_equal(insn_access(mov, 0, regs, 0x1234), UN);
	/* a jump into data that cannot be executed: fault == pc, bytes readable */
	assert_int_equal(insn_access(mov, sizeof(mov), regs, 0x401000), EX);
	assert_int_equal(insn_access(mov, 0, regs, 0x401000), EX);
	assert_int_equal(insn_access_len(mov, sizeof(mov), regs, 0x10, &len), RD);
	assert_int_equal(len, 2);
	assert_int_equal(insn_access(NULL, 5, regs, 0x10), UN);

	assert_string_equal(insn_access_verb(RD), "reading");
	assert_string_equal(insn_access_verb(WR), "writing");
	assert_string_equal(insn_access_verb(EX), "executing");
	assert_null(insn_access_verb(UN));
	assert_null(insn_access_verb((enum rc_access)42));
}

/* Hand-made encodings `as` would not produce. */
static void test_odd_encodings(void **state)
{
	static const struct {
		unsigned char b[16];
		size_t n;
		enum rc_access want;
		size_t len;
	} odd[] = {
		/* 16 bytes of prefixes then mov: longer than 15 is #GP */
		{ { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x8b, 0x00 },
		  16, UN, 0 },
		/* 13 prefixes + mov: 15 bytes, fine */
		{ { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x8b, 0x00 },
		  15, RD, 15 },
		/* REX before a legacy prefix is dropped; still a load */
		{ { 0x48, 0x66, 0x8b, 0x00 }, 4, RD, 4 },
		/* REX before VEX: #UD */
		{ { 0x48, 0xc5, 0xfe, 0x6f, 0x06 }, 5, UN, 0 },
		/* 66 before EVEX: #UD */
		{ { 0x66, 0x62, 0xe1, 0xfe, 0x48, 0x6f, 0x06 }, 7, UN, 0 },
		/* 8F /1: AMD XOP, not pop */
		{ { 0x8f, 0x08 }, 2, UN, 0 },
		/* VEX map 4 does not exist */
		{ { 0xc4, 0xe4, 0x7d, 0x6f, 0x06 }, 5, UN, 0 },
		/* C7 /1 is not mov */
		{ { 0xc7, 0x08, 0, 0, 0, 0 }, 6, UN, 0 },
		/* mov with a SIB, no base, disp32: 8b 04 25 disp32 */
		{ { 0x8b, 0x04, 0x25, 0x10, 0, 0, 0 }, 7, RD, 7 },
		/* mod 0 rm 5 with REX.B is still rip-relative: 41 8b 05 disp32 */
		{ { 0x41, 0x8b, 0x05, 0, 0, 0, 0 }, 7, RD, 7 },
	};
	size_t len;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		enum rc_access a = decode_copy(odd[i].b, odd[i].n, NULL, 0x10, &len);
		if (a != odd[i].want || len != odd[i].len)
			fail_msg("odd encoding %zu: %s len %zu, want %s len %zu", i, verb(a), len,
				 verb(odd[i].want), odd[i].len);
	}
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random bytes, and every first two bytes with random tails, at every
 * length: in bounds (ASan), a verdict in range, a length within N, and a
 * decode that does not change when the bytes after it do. */
static void test_garbage(void **state)
{
	static const unsigned char lead[] = { 0x0f, 0x66, 0x67, 0xf2, 0xf3, 0xf0, 0x48, 0x41,
					      0xc4, 0xc5, 0x62, 0x64, 0x8f, 0xff, 0xf7, 0xd9 };
	unsigned char buf[15];
	uint64_t regs[NREGS];
	size_t len, len2;
	long iters = 0;

	(void)state;
	setup_regs(regs, AT_DATA, 0x401000);
	for (long it = 0; it < 400000; it++) {
		for (size_t k = 0; k < sizeof(buf); k++)
			buf[k] = (unsigned char)rng();
		if (it < 65536) {
			buf[0] = (unsigned char)(it >> 8);
			buf[1] = (unsigned char)it;
		} else if (rng() & 1) {
			/* prefix-heavy starts reach VEX, EVEX and the maps */
			for (size_t k = 0; k < 4; k++)
				if (rng() & 1)
					buf[k] = lead[rng() % sizeof(lead)];
		}
		size_t n = (size_t)(rng() % 16);
		uint64_t fault = rng() & 1 ? 0x10 : regs[R_RSP] - 8;
		const uint64_t *r = rng() & 1 ? regs : NULL;
		enum rc_access a = decode_copy(buf, n, r, fault, &len);
		assert_true(a >= UN && a <= EX);
		assert_true(len <= n);
		if (len) {
			/* only its own bytes decide */
			enum rc_access b = decode_copy(buf, len, r, fault, &len2);
			assert_int_equal(a, b);
			assert_int_equal(len, len2);
			b = decode_copy(buf, 15, r, fault, &len2);
			assert_int_equal(a, b);
			assert_int_equal(len, len2);
		}
		iters++;
	}
	print_message("# %ld random decodes\n", iters);
}

/* --- glibc, disassembled with objdump --- */

struct expect {
	int nmem;		/* memory operands (0: the verdict must be unknown) */
	enum rc_access want[2];
	int reg[2];		/* -1: a data fault (0x10); R_RSI/R_RDI: string operand */
	bool sure;		/* the rules below know this mnemonic */
	char mem[64];		/* the first memory operand as objdump wrote it */
};

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool any_prefix(const char *m, const char *const *list)
{
	for (; *list; list++)
		if (starts(m, *list))
			return true;
	return false;
}

/* A string instruction's implicit operand: "%es:(%rdi)", "%ds:(%rsi)". */
static int string_reg(const char *mnem, const char *op)
{
	static const char *const names[] = { "movs", "stos", "lods", "scas", "cmps", "ins", "outs" };
	size_t n = strlen(mnem);
	bool string = false;

	/* movs movsb movsw movsl movsq ... (not movslq, movsd, movsbl) */
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t k = strlen(names[i]);
		if (!strncmp(mnem, names[i], k) && (n == k || (n == k + 1 && strchr("bwlq", mnem[k]))))
			string = true;
	}
	if (!string || op[0] != '%' || op[3] != ':' || op[2] != 's')
		return -1;
	if (!strcmp(op + 4, "(%rsi)") || !strcmp(op + 4, "(%esi)"))
		return R_RSI;
	if (!strcmp(op + 4, "(%rdi)") || !strcmp(op + 4, "(%edi)"))
		return R_RDI;
	return -1;
}

static bool is_mem(const char *mnem, const char *op)
{
	if (*op == '*')
		op++;
	if (!strcmp(op, "(%dx)"))	/* an I/O port */
		return false;
	if (starts(op, "%st"))		/* x87 registers: %st(1) */
		return false;
	if (strchr(op, '('))
		return true;
	/* %fs:0x28 */
	if (op[0] == '%' && op[2] == 's' && op[3] == ':')
		return true;
	/* an absolute address: 0x10 (branch targets have no 0x) */
	if (starts(op, "0x") || starts(op, "-0x"))
		return true;
	return starts(mnem, "movabs") && op[0] != '$' && op[0] != '%';
}

/* Expected verdicts from objdump's AT&T text: the destination is the last
 * operand.  Rules for the exceptions: compares and tests only read; xchg
 * writes; one-operand instructions by name; lea/nop/prefetch access
 * nothing. */
static void oracle(const char *text, struct expect *e)
{
	static const char *const skip_words[] = {
		"rep", "repz", "repnz", "repe", "repne", "lock", "notrack", "bnd", "data16", "addr32",
		"cs", "ds", "es", "fs", "gs", "ss", "xacquire", "xrelease", NULL,
	};
	static const char *const noacc[] = { "lea", "nop", "prefetch", "clflush", "clwb", "cldemote", "bnd", NULL };
	static const char *const read1[] = {
		"push", "call", "jmp", "ljmp", "lcall", "mul", "imul", "div", "idiv", "fld", "fild", "fadd",
		"fiadd", "fsub", "fisub", "fmul", "fimul", "fdiv", "fidiv", "fcom", "ficom", "fbld", "frstor",
		"fxrstor", "xrstor", "ldmxcsr", "vldmxcsr", "ptwrite", NULL,
	};
	static const char *const write1[] = {
		"pop", "inc", "dec", "not", "neg", "set", "shl", "shr", "sal", "sar", "rol", "ror", "rcl",
		"rcr", "fst", "fist", "fnst", "fbstp", "fnsave", "fsave", "fxsave", "xsave", "stmxcsr",
		"vstmxcsr", "cmpxchg8b", "cmpxchg16b", NULL,
	};
	char buf[512], *ops[8], *p, *mnem;
	int nops = 0, depth = 0;

	memset(e, 0, sizeof(*e));
	e->sure = true;
	snprintf(buf, sizeof(buf), "%s", text);
	if ((p = strchr(buf, '#')))
		*p = 0;
	if ((p = strchr(buf, '<')))
		*p = 0;
	mnem = buf;
	for (;;) {
		while (*mnem == ' ')
			mnem++;
		size_t w = strcspn(mnem, " ");
		bool drop = starts(mnem, "rex");
		for (const char *const *s = skip_words; *s && !drop; s++)
			drop = strlen(*s) == w && !strncmp(mnem, *s, w) && mnem[w];
		if (!drop)
			break;
		mnem += w;
	}
	p = mnem + strcspn(mnem, " ");
	if (*p)
		*p++ = 0;
	while (*p == ' ')
		p++;
	/* operands, split at commas outside parentheses */
	if (*p)
		ops[nops++] = p;
	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == ',' && !depth && nops < 8) {
			*p = 0;
			ops[nops++] = p + 1;
		} else if (*p == ' ' && !depth) {
			*p = 0;		/* trailing blanks */
		}
	}

	for (int i = 0; i < nops; i++) {
		if (!is_mem(mnem, ops[i]))
			continue;
		if (e->nmem == 2) {
			e->sure = false;
			return;
		}
		int k = e->nmem++;
		if (!k)
			snprintf(e->mem, sizeof(e->mem), "%s", ops[i]);
		e->reg[k] = string_reg(mnem, ops[i]);
		if (any_prefix(mnem, noacc))
			e->want[k] = UN;
		else if (starts(mnem, "cmps") && e->reg[k] >= 0)
			e->want[k] = RD;
		else if (e->reg[k] >= 0)
			e->want[k] = i == nops - 1 ? WR : RD;
		else if (nops == 1) {
			if (any_prefix(mnem, read1))
				e->want[k] = RD;
			else if (any_prefix(mnem, write1))
				e->want[k] = WR;
			else
				e->sure = false;
		} else if ((starts(mnem, "cmp") && !starts(mnem, "cmpxchg")) || starts(mnem, "test") ||
			   !strcmp(mnem, "bt") || (starts(mnem, "bt") && strlen(mnem) == 3 && mnem[2] != 's' &&
						   mnem[2] != 'r' && mnem[2] != 'c')) {
			e->want[k] = RD;
		} else if (starts(mnem, "xchg")) {
			e->want[k] = WR;
		} else {
			e->want[k] = i == nops - 1 ? WR : RD;
		}
	}
	if (e->nmem == 2 && (e->reg[0] < 0 || e->reg[1] < 0))
		e->sure = false;
}

/* A 64-bit register's name to its user_regs_struct index; -1 otherwise. */
static int reg_index(const char *name, size_t n)
{
	static const struct {
		const char *name;
		int idx;
	} names[] = {
		{ "rax", 10 }, { "rcx", 11 }, { "rdx", 12 }, { "rbx", 5 }, { "rsp", 19 }, { "rbp", 4 },
		{ "rsi", 13 }, { "rdi", 14 }, { "r8", 9 }, { "r9", 8 }, { "r10", 7 }, { "r11", 6 },
		{ "r12", 3 }, { "r13", 2 }, { "r14", 1 }, { "r15", 0 }, { "rip", R_RIP },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == n && !strncmp(name, names[i].name, n))
			return names[i].idx;
	return -1;
}

/* objdump's "disp(%base,%index,scale)" as an address with REGS (and RIP
 * the next instruction's address for %rip); false for what it cannot
 * say simply (absolute, fs/gs, 32-bit or vector registers). */
static bool operand_address(const char *op, const uint64_t *regs, uint64_t next_rip, uint64_t *ea, int *base)
{
	const char *p = op + (*op == '*');
	char *end;

	if (p[0] == '%' && p[3] == ':') {
		if (p[1] == 'f' || p[1] == 'g')
			return false;
		p += 4;
	}
	long long disp = *p == '(' ? 0 : strtoll(p, &end, 0);
	if (*p != '(')
		p = end;
	if (*p++ != '(')
		return false;
	uint64_t a = (uint64_t)disp;
	*base = -1;
	if (*p == '%') {
		size_t n = strcspn(p + 1, ",)");
		if ((*base = reg_index(p + 1, n)) < 0)
			return false;
		a += *base == R_RIP ? next_rip : regs[*base];
		p += 1 + n;
	}
	if (*p == ',') {
		p++;
		size_t n = strcspn(p + 1, ",)");
		if (*p != '%')
			return false;
		if (n == 3 && !strncmp(p + 1, "riz", 3)) {
			p += 1 + n;
		} else {
			int x = reg_index(p + 1, n);
			if (x < 0 || x == R_RIP)
				return false;
			p += 1 + n;
			unsigned long scale = *p == ',' ? strtoul(p + 1, &end, 10) : 1;
			a += regs[x] * scale;
		}
	}
	*ea = a;
	return true;
}

struct sweep {
	long insns, with_mem, recognised, unsure, bad;
	long ea_checked;	/* effective addresses compared with objdump's operand */
	bool strict;		/* every instruction must get the oracle's verdict */
	struct strbuf missed;	/* mnemonics the decoder did not know (not strict) */
};

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One line of `objdump -d -w --insn-width=16`: "  addr:\tbytes\ttext". */
static void sweep_line(struct sweep *s, char *line)
{
	char *t1 = strchr(line, '\t'), *t2;
	unsigned char code[16];
	size_t n = 0, len;
	unsigned long long addr;
	struct expect e;
	uint64_t regs[NREGS];

	if (!t1 || !(t2 = strchr(t1 + 1, '\t')) || sscanf(line, " %llx:", &addr) != 1)
		return;
	for (char *p = t1 + 1; p < t2 && n < sizeof(code);) {
		int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
		if (hi < 0 || lo < 0) {
			p++;
			continue;
		}
		code[n++] = (unsigned char)(hi << 4 | lo);
		p += 2;
	}
	if (!n || n > 15 || strstr(t2, "(bad)"))
		return;
	s->insns++;
	oracle(t2 + 1, &e);
	setup_regs(regs, AT_DATA, addr);
	regs[R_FS_BASE] = 0;
	regs[R_RSI] = 0x10001000;
	regs[R_RDI] = 0x20002000;
	if (!e.sure) {
		s->unsure++;
		if (s->strict) {
			print_message("%llx: no rule for '%s'\n", addr, t2 + 1);
			s->bad++;
		}
	}
	int checks = e.nmem ? e.nmem : 1;
	for (int k = 0; k < checks; k++) {
		uint64_t fault = e.nmem && e.reg[k] >= 0 ? regs[e.reg[k]] : 0x10;
		enum rc_access want = e.nmem ? e.want[k] : UN;
		enum rc_access a = decode_copy(code, n, regs, fault, &len);

		if (len && len != n) {
			print_message("%llx: '%s': length %zu, objdump says %zu\n", addr, t2 + 1, len, n);
			s->bad++;
		}
		if (!e.sure)
			continue;
		/* coverage: instructions that touch memory, and how many the decoder knows */
		if (e.nmem && k == 0 && want != UN) {
			s->with_mem++;
			s->recognised += a != UN;
		}
		if (a == want)
			continue;
		if (!s->strict && a == UN) {
			/* not known to the decoder: fine, but say which */
			char m[32];
			snprintf(m, sizeof(m), "%.*s", (int)strcspn(t2 + 1, " "), t2 + 1);
			if (!strstr(strbuf_str(&s->missed), m) && s->missed.len < 2000)
				strbuf_addf(&s->missed, " %s", m);
			continue;
		}
		print_message("%llx: '%s' (fault %#llx): %s, want %s\n", addr, t2 + 1,
			      (unsigned long long)fault, verb(a), verb(want));
		s->bad++;
	}
	/* The pointer and address insn_mem_operand names are objdump's. */
	uint64_t ea;
	int base;
	struct rc_insn_mem m;
	if (e.sure && e.nmem == 1 && e.reg[0] < 0 && (e.want[0] == RD || e.want[0] == WR) &&
	    operand_address(e.mem, regs, addr + n, &ea, &base) && ea != regs[R_RIP]) {
		bool got = insn_mem_operand(code, n, regs, ea, &m);
		uint64_t bval = base == R_RIP ? addr + n : base >= 0 ? regs[base] : 0;
		if (!got || m.has_base != (base >= 0) || (base >= 0 && m.base != bval) || (m.ea_known && m.ea != ea)) {
			print_message("%llx: '%s': operand %d base %#llx ea %d %#llx, objdump's %#llx %#llx\n", addr,
				      t2 + 1, got, (unsigned long long)m.base, m.ea_known, (unsigned long long)m.ea,
				      (unsigned long long)bval, (unsigned long long)ea);
			s->bad++;
		}
		s->ea_checked += got && m.ea_known;
	}
}

static void sweep_text(struct sweep *s, struct strbuf *dis)
{
	for (char *line = dis->buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		sweep_line(s, line);
		line = nl ? nl + 1 : NULL;
	}
}

static const char *libc_path(void)
{
	static const char *const paths[] = { "/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
					     "/lib64/libc.so.6" };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (access(paths[i], R_OK) == 0)
			return paths[i];
	return NULL;
}

/* nm -S of libc's symbol table: its own .symtab, or libc6-dbg's by build id. */
static bool libc_symbols(const char *libc, struct strbuf *syms)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	bool ok = false;

	strbuf_addf(&cmd, "nm -S --defined-only %s 2>/dev/null", libc);
	if (run(cmd.buf, syms) == 0 && strstr(strbuf_str(syms), " __memmove_avx_unaligned_erms\n")) {
		ok = true;
		goto out;
	}
	strbuf_reset(syms);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "readelf -n %s", libc);
	const char *id;
	if (run(cmd.buf, &out) != 0 || !(id = strstr(strbuf_str(&out), "Build ID: ")))
		goto out;
	id += strlen("Build ID: ");
	size_t idlen = strspn(id, "0123456789abcdef");
	if (idlen < 4)
		goto out;
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "nm -S --defined-only /usr/lib/debug/.build-id/%.2s/%.*s.debug 2>/dev/null", id,
		    (int)idlen - 2, id + 2);
	ok = run(cmd.buf, syms) == 0 && strstr(strbuf_str(syms), " __memmove_avx_unaligned_erms\n");
out:
	strbuf_release(&cmd);
	strbuf_release(&out);
	return ok;
}

static bool find_symbol(const struct strbuf *syms, const char *name, unsigned long long *addr,
			unsigned long long *size)
{
	struct strbuf pat = STRBUF_INIT;
	const char *p;
	bool ok = false;

	strbuf_addf(&pat, " %s\n", name);
	p = strstr(strbuf_str(syms), pat.buf);
	if (p) {
		while (p > syms->buf && p[-1] != '\n')
			p--;
		char type;
		ok = sscanf(p, "%llx %llx %c", addr, size, &type) == 3;
	}
	strbuf_release(&pat);
	return ok;
}

/* The string functions glibc picks on machines like this one: every
 * instruction gets the oracle's verdict, the loads READ and the stores
 * WRITE, and the same length as objdump's. */
static void test_glibc_string_functions(void **state)
{
	static const struct {
		const char *name;
		int min_loads, min_stores;
	} funcs[] = {
		{ "__memmove_avx512_unaligned_erms", 20, 20 },
		{ "__memmove_avx_unaligned_erms", 20, 20 },	/* also __memcpy_avx_unaligned_erms */
		{ "__memset_avx2_unaligned_erms", 0, 10 },
		{ "__strlen_avx2", 8, 0 },
		{ "__strlen_evex", 8, 0 },
		/* their neighbours, picked on other machines */
		{ "__memmove_evex_unaligned_erms", 20, 20 },
		{ "__memmove_sse2_unaligned_erms", 20, 20 },
		{ "__memset_avx512_unaligned_erms", 0, 10 },
		{ "__memset_evex_unaligned_erms", 0, 10 },
		{ "__memset_sse2_unaligned_erms", 0, 10 },
		{ "__strlen_sse2", 4, 0 },
	};
	struct strbuf syms = STRBUF_INIT;
	const char *libc = libc_path();

	(void)state;
	need_binutils();
	if (!libc || !libc_symbols(libc, &syms)) {
		print_message("# skip: no symbols for libc (neither its .symtab nor libc6-dbg's)\n");
		strbuf_release(&syms);
		skip();
	}
	for (size_t i = 0; i < ARRAY_SIZE(funcs); i++) {
		unsigned long long addr, size;
		struct strbuf cmd = STRBUF_INIT, dis = STRBUF_INIT;
		struct sweep s = { .strict = true };
		long loads = 0, stores = 0;

		strbuf_init(&s.missed);
		if (!find_symbol(&syms, funcs[i].name, &addr, &size))
			fail_msg("%s is not in libc's symbols", funcs[i].name);
		strbuf_addf(&cmd, "objdump -d -w --insn-width=16 --start-address=%#llx --stop-address=%#llx %s",
			    addr, addr + size, libc);
		assert_int_equal(run(cmd.buf, &dis), 0);
		/* count loads and stores as the oracle sees them */
		for (char *line = dis.buf; line && *line;) {
			char *nl = strchr(line, '\n'), *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
			struct expect e;
			if (t2 && (!nl || t2 < nl)) {
				char text[512];
				snprintf(text, sizeof(text), "%.*s", (int)((nl ? nl : t2 + strlen(t2)) - t2 - 1), t2 + 1);
				oracle(text, &e);
				for (int k = 0; k < e.nmem; k++) {
					loads += e.want[k] == RD;
					stores += e.want[k] == WR;
				}
			}
			line = nl ? nl + 1 : NULL;
		}
		sweep_text(&s, &dis);
		print_message("# %s: %ld instructions, %ld loads, %ld stores, %ld addresses\n", funcs[i].name,
			      s.insns, loads, stores, s.ea_checked);
		if (s.bad || loads < funcs[i].min_loads || stores < funcs[i].min_stores || s.insns < 40)
			fail_msg("%s: %ld wrong (or too few loads/stores seen)", funcs[i].name, s.bad);
		strbuf_release(&s.missed);
		strbuf_release(&cmd);
		strbuf_release(&dis);
	}
	strbuf_release(&syms);
}

static long sweep_file(const char *path, long *insns)
{
	struct strbuf cmd = STRBUF_INIT, dis = STRBUF_INIT;
	struct sweep s = { .strict = false };

	strbuf_init(&s.missed);
	strbuf_addf(&cmd, "objdump -d -w --insn-width=16 -j .text '%s'", path);
	assert_int_equal(run(cmd.buf, &dis), 0);
	sweep_text(&s, &dis);
	print_message("# %s .text: %ld instructions, %ld that read or write memory, %ld of them recognised "
		      "(%.1f%%), %ld without a rule here, %ld addresses as objdump's\n",
		      path, s.insns, s.with_mem, s.recognised,
		      s.with_mem ? 100.0 * s.recognised / s.with_mem : 0.0, s.unsure, s.ea_checked);
	if (s.missed.len)
		print_message("# not recognised:%s\n", s.missed.buf);
	strbuf_release(&s.missed);
	strbuf_release(&cmd);
	strbuf_release(&dis);
	*insns = s.insns;
	return s.bad;
}

/* All of libc's .text (and of the files in $RC_INSN_SWEEP, blank-separated,
 * when set): no length differs from objdump's, and no verdict contradicts
 * the oracle's (unknown is allowed: coverage is printed). */
static void test_libc_text(void **state)
{
	const char *libc = libc_path(), *more = getenv("RC_INSN_SWEEP");
	long insns, bad;

	(void)state;
	need_binutils();
	if (!libc) {
		print_message("# skip: no libc.so.6 found\n");
		skip();
	}
	bad = sweep_file(libc, &insns);
	assert_true(insns > 10000);
	if (more) {
		char *list = xstrdup(more), *save = NULL;
		for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save))
			bad += sweep_file(f, &insns);
		free(list);
	}
	assert_int_equal(bad, 0);
}

/* Assembles one instruction into BUF (at most MAX bytes); its length, or
 * 0 when `as` refused it. */
static size_t assemble_one(const char *insn, unsigned char *buf, size_t max)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	size_t n = 0;

	strbuf_addf(&cmd, "cd %s && printf '\\t.text\\n\\t%%s\\n' '%s' > one.s && as -o one.o one.s && "
		    "objcopy -O binary -j .text one.o one.bin && cat one.bin; rm -f one.s one.o one.bin",
		    tmpdir, insn);
	if (run(cmd.buf, &out) == 0 && out.len <= max) {
		memcpy(buf, out.buf, out.len);
		n = out.len;
	}
	strbuf_release(&cmd);
	strbuf_release(&out);
	return n;
}

/* Which register a faulting access went through, and the address it made. */
struct mcase {
	const char *insn;
	int base, index;	/* user_regs_struct index, -1 none */
	unsigned scale;
	int64_t disp;		/* what the effective address adds */
	bool ea_known;
};

enum { R_R8 = 9, R_R9 = 8, R_R12 = 3, R_R13 = 2, R_RBX = 5, R_RCX = 11, R_RDX = 12 };

static const struct mcase mcases[] = {
	{ "mov 0x10(%rax),%rcx", R_RAX, -1, 1, 0x10, true },
	{ "mov (%rax,%rbx,4),%r8d", R_RAX, R_RBX, 4, 0, true },
	{ "movzbl (%r13,%r12,1),%eax", R_R13, R_R12, 1, 0, true },
	{ "add %eax,-8(%rcx)", R_RCX, -1, 1, -8, true },
	{ "vmovdqu 0x20(%r9),%ymm0", R_R9, -1, 1, 0x20, true },
	/* EVEX: an 8-bit displacement counts in vectors */
	{ "vmovdqu64 0xc0(%rsi),%zmm17", R_RSI, -1, 1, 0xc0, true },
	{ "vmovdqu64 0x40(%r8),%zmm1", R_R8, -1, 1, 0x40, true },
	{ "vmovdqu64 -0x40(%rsi,%rdx,1),%zmm21", R_RSI, R_RDX, 1, -0x40, true },
	{ "vmovdqu64 %zmm16,0x1000(%rdi)", R_RDI, -1, 1, 0x1000, true },
	{ "vmovdqu8 -0x20(%rsi),%ymm16", R_RSI, -1, 1, -0x20, true },
	{ "vmovss 0x4(%rax),%xmm16", R_RAX, -1, 1, 0, false },
	/* a gather's index is a vector */
	{ "vpgatherdd 0x8(%rax,%zmm1,4),%zmm2{%k1}", R_RAX, -1, 1, 0, false },
	{ "mov 0x10(%rip),%rax", R_RIP, -1, 1, 0x10, true },
	{ "push 0x8(%rax)", R_RAX, -1, 1, 8, true },
	{ "call *(%rbx,%rcx,8)", R_RBX, R_RCX, 8, 0, true },
	{ "rep movsb", R_RSI, -1, 1, 0, true },
	{ "lodsq", R_RSI, -1, 1, 0, true },
	{ "rep stosb", R_RDI, -1, 1, 0, true },
	{ "scasb", R_RDI, -1, 1, 0, true },
};

/* No pointer to name: no memory, the stack's own accesses (pop to memory
 * writes through an rsp-relative address taken after the pop), absolute
 * addresses, lea. */
static const char *const no_pointer[] = {
	"mov %rax,%rbx", "push %rax", "ret", "pop (%rax)", "mov 0x1000,%eax", "movabs 0x123456789a,%eax",
	"mov %fs:0x28,%rax", "lea 0x10(%rax),%rax", "prefetcht0 (%rax)", "xlat",
};

static void test_mem_operand(void **state)
{
	int bad = 0;
	unsigned char code[16];
	uint64_t regs[NREGS];
	struct rc_insn_mem m;

	(void)state;
	need_binutils();
	for (size_t i = 0; i < ARRAY_SIZE(mcases); i++) {
		const struct mcase *t = &mcases[i];
		size_t n = assemble_one(t->insn, code, sizeof(code));
		assert_true(n > 0);
		setup_regs(regs, AT_DATA, 0x401000);
		uint64_t base = t->base == R_RIP ? 0x401000 + n : regs[t->base];
		uint64_t ea = base + (t->index >= 0 ? regs[t->index] * t->scale : 0) + (uint64_t)t->disp;
		/* rep movsb reading: the fault nearer rsi */
		uint64_t fault = t->base == R_RSI && t->index < 0 && !t->disp ? regs[R_RSI] + 4 : ea;
		if (!insn_mem_operand(code, n, regs, fault, &m) || !m.has_base || m.base != base ||
		    m.has_index != (t->index >= 0) || (t->index >= 0 && (m.index != regs[t->index] || m.scale != t->scale)) ||
		    m.ea_known != t->ea_known || (t->ea_known && m.ea != ea)) {
			print_message("%-40s base %d %#llx index %d %#llx x%u ea %d %#llx, want %#llx %#llx\n", t->insn,
				      m.has_base, (unsigned long long)m.base, m.has_index, (unsigned long long)m.index,
				      m.scale, m.ea_known, (unsigned long long)m.ea, (unsigned long long)base,
				      (unsigned long long)ea);
			bad++;
		}
	}
	/* movs writing: the fault nearer rdi names rdi */
	size_t n = assemble_one("movsq", code, sizeof(code));
	setup_regs(regs, AT_DATA, 0x401000);
	assert_true(insn_mem_operand(code, n, regs, regs[R_RDI] + 8, &m));
	assert_int_equal(m.access, RC_ACCESS_WRITE);
	assert_true(m.base == regs[R_RDI]);
	/* no registers, no answer */
	assert_false(insn_mem_operand(code, n, NULL, regs[R_RDI], &m));
	for (size_t i = 0; i < ARRAY_SIZE(no_pointer); i++) {
		n = assemble_one(no_pointer[i], code, sizeof(code));
		assert_true(n > 0);
		setup_regs(regs, AT_DATA, 0x401000);
		if (insn_mem_operand(code, n, regs, regs[R_RAX], &m)) {
			print_message("%-40s named a pointer %#llx\n", no_pointer[i], (unsigned long long)m.base);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_and_verbs),
		cmocka_unit_test(test_odd_encodings),
		cmocka_unit_test(test_assembled),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_glibc_string_functions),
		cmocka_unit_test(test_libc_text),
		cmocka_unit_test(test_mem_operand),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
