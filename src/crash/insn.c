/* The faulting instruction's memory access (insn.h): prefixes, then the
 * opcode looked up in the map it belongs to (one-byte, 0F, 0F 38, 0F 3A;
 * VEX and EVEX name their map), then ModRM/SIB/displacement and the
 * immediate, so that the length is known and checked against the
 * assembler's in the tests.  Opcodes are listed one by one: an opcode that
 * is not listed is UNKNOWN, never a guess from its neighbours.
 *
 * The opcode lists follow the Intel SDM volume 2's opcode maps (appendix A)
 * and the instructions' pages. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "crash/insn.h"
#include "util/util.h"

/* user_regs_struct indices (crash.h's RC_REG_* are the same order). */
enum { R_RBP = 4, R_RSI = 13, R_RDI = 14, R_RIP = 16, R_RSP = 19, R_FS_BASE = 21, R_GS_BASE = 22 };

/* A register number as ModRM/SIB/REX encode it (rax rcx rdx rbx rsp rbp
 * rsi rdi r8..r15) to its user_regs_struct index. */
static const unsigned char gpr_index[16] = { 10, 11, 12, 5, 19, 4, 13, 14, 9, 8, 7, 6, 3, 2, 1, 0 };

enum { INSN_MAX = 15 };

/* How an instruction touches memory. */
enum kind {
	K_NONE,		/* not recognised */
	K_READ,		/* its ModRM (or moffs) memory operand is read */
	K_WRITE,	/* written, or read and written */
	K_NOACC,	/* an operand that is not accessed: lea, nop, prefetch */
	K_IMPL_READ,	/* only implicit reads: cmps, lods, scas, xlat */
	K_IMPL_WRITE,	/* only implicit writes: stos, maskmovq */
	K_MOVS,		/* reads [rsi], writes [rdi] */
	K_PUSH,		/* writes below rsp: push, call */
	K_POP,		/* reads [rsp]: pop, ret */
	K_LEAVE,	/* reads [rbp] */
	K_PUSH_MEM,	/* call/jmp far or push through memory: reads the operand, pushes */
	K_POP_MEM,	/* pop to memory: reads [rsp], writes the operand */
	K_GROUP,	/* decided by ModRM.reg (group()) */
};

enum enc { ENC_LEGACY, ENC_VEX, ENC_EVEX };

struct dec {
	const unsigned char *p;
	size_t n;		/* bytes readable: min(N, 15) */
	size_t i;
	bool cut;		/* needed a byte at or past N */
	bool opsize, adsize, lock;
	unsigned rep;		/* 0xf2 or 0xf3, the last of them, or 0 */
	unsigned seg;		/* 0x64 (fs), 0x65 (gs) or 0: others mean nothing in 64-bit mode */
	unsigned rex;
	enum enc enc;
	unsigned map;		/* 0 one-byte, 1 0F, 2 0F 38, 3 0F 3A (VEX/EVEX: mmm) */
	unsigned evex_p2;	/* EVEX's last payload byte: z, L'L, b, V', aaa */
	unsigned pp;		/* mandatory prefix: 0 none, 1 66, 2 F3, 3 F2 */
	bool w;
	unsigned op;
	/* ModRM and the memory operand it describes */
	unsigned mod, reg, rm;
	int base, index;	/* gpr numbers; -1 none, BASE_RIP */
	unsigned scale;
	int64_t disp;
};

enum { BASE_RIP = -2 };

struct op {
	enum kind kind;
	unsigned imm;		/* immediate bytes after ModRM */
	bool modrm;
};

static bool next(struct dec *d, unsigned *b)
{
	if (d->i >= d->n) {
		d->cut = true;
		return false;
	}
	*b = d->p[d->i++];
	return true;
}

static bool skip(struct dec *d, size_t k)
{
	if (k > d->n - d->i) {
		d->i = d->n;
		d->cut = true;
		return false;
	}
	d->i += k;
	return true;
}

static bool get_disp(struct dec *d, unsigned size)
{
	uint64_t v = 0;
	unsigned b;

	for (unsigned k = 0; k < size; k++) {
		if (!next(d, &b))
			return false;
		v |= (uint64_t)b << (8 * k);
	}
	if (size == 1)
		d->disp = (int8_t)v;
	else
		d->disp = (int32_t)v;
	return true;
}

static bool modrm(struct dec *d)
{
	unsigned m, sib;
	unsigned rexb = d->rex & 1 ? 8 : 0, rexx = d->rex & 2 ? 8 : 0;

	if (!next(d, &m))
		return false;
	d->mod = m >> 6;
	d->reg = (m >> 3) & 7;
	d->rm = m & 7;
	if (d->mod == 3)
		return true;
	d->base = (int)(d->rm | rexb);
	d->index = -1;
	d->scale = 0;
	d->disp = 0;
	if (d->rm == 4) {
		if (!next(d, &sib))
			return false;
		d->scale = sib >> 6;
		if ((((sib >> 3) & 7) | rexx) != 4)
			d->index = (int)(((sib >> 3) & 7) | rexx);
		d->base = (int)((sib & 7) | rexb);
		if ((sib & 7) == 5 && d->mod == 0) {
			d->base = -1;
			return get_disp(d, 4);
		}
	} else if (d->rm == 5 && d->mod == 0) {
		d->base = BASE_RIP;
		return get_disp(d, 4);
	}
	if (d->mod == 1)
		return get_disp(d, 1);
	if (d->mod == 2)
		return get_disp(d, 4);
	return true;
}

/* An immediate of the operand size: 2 bytes with 66 (unless REX.W), else 4. */
static unsigned imm_z(const struct dec *d)
{
	return d->opsize && !d->w ? 2 : 4;
}

static void set(struct op *o, enum kind k, bool has_modrm, unsigned imm)
{
	o->kind = k;
	o->modrm = has_modrm;
	o->imm = imm;
}

/* The one-byte map (legacy encoding only). */
static void map0(const struct dec *d, struct op *o)
{
	unsigned b = d->op;

	/* ALU r/m forms: bit 1 is the direction (set: the register is the
	 * destination, memory is read); cmp only reads. */
	if (b < 0x40 && (b & 7) < 4) {
		if (b >= 0x38 || (b & 2))
			set(o, K_READ, true, 0);
		else
			set(o, K_WRITE, true, 0);
		return;
	}
	switch (b) {
	case 0x50 ... 0x57:
	case 0x9c:
		set(o, K_PUSH, false, 0);
		break;
	case 0x58 ... 0x5f:
	case 0x9d:
	case 0xc3:
		set(o, K_POP, false, 0);
		break;
	case 0x63:			/* movsxd */
	case 0x84: case 0x85:		/* test */
	case 0x8a: case 0x8b:		/* mov r, r/m */
	case 0x8e:			/* mov sreg, r/m */
		set(o, K_READ, true, 0);
		break;
	case 0x69:			/* imul r, r/m, imm */
		set(o, K_READ, true, imm_z(d));
		break;
	case 0x6b:
		set(o, K_READ, true, 1);
		break;
	case 0x68:
		set(o, K_PUSH, false, imm_z(d));
		break;
	case 0x6a:
		set(o, K_PUSH, false, 1);
		break;
	case 0x80: case 0x83:
		set(o, K_GROUP, true, 1);
		break;
	case 0x81:
		set(o, K_GROUP, true, imm_z(d));
		break;
	case 0x86: case 0x87:		/* xchg */
	case 0x88: case 0x89:		/* mov r/m, r */
	case 0x8c:			/* mov r/m, sreg */
	case 0xd0 ... 0xd3:		/* shifts by 1 or cl */
		set(o, K_WRITE, true, 0);
		break;
	case 0xc0: case 0xc1:		/* shifts by imm8 */
		set(o, K_WRITE, true, 1);
		break;
	case 0x8d:			/* lea */
		set(o, K_NOACC, true, 0);
		break;
	case 0x8f:			/* pop r/m (/0; others are AMD's XOP) */
	case 0xc6: case 0xc7:		/* mov r/m, imm (/0) */
	case 0xd8 ... 0xdf:		/* x87 */
	case 0xf6: case 0xf7:		/* test/not/neg/mul/div */
	case 0xfe: case 0xff:
		set(o, K_GROUP, true, 0);
		break;
	case 0xa0: case 0xa1:		/* mov al/eax, moffs */
		set(o, K_READ, false, d->adsize ? 4 : 8);
		break;
	case 0xa2: case 0xa3:
		set(o, K_WRITE, false, d->adsize ? 4 : 8);
		break;
	case 0xa4: case 0xa5:
		set(o, K_MOVS, false, 0);
		break;
	case 0xa6: case 0xa7:		/* cmps */
	case 0xac: case 0xad:		/* lods */
	case 0xae: case 0xaf:		/* scas */
	case 0xd7:			/* xlat */
		set(o, K_IMPL_READ, false, 0);
		break;
	case 0xaa: case 0xab:		/* stos */
		set(o, K_IMPL_WRITE, false, 0);
		break;
	case 0xc2:			/* ret imm16 */
		set(o, K_POP, false, 2);
		break;
	case 0xc9:
		set(o, K_LEAVE, false, 0);
		break;
	case 0xe8:			/* call rel32 */
		set(o, K_PUSH, false, 4);
		break;
	}
}

/* 0F xx, legacy encoding. */
static void map1(const struct dec *d, struct op *o)
{
	switch (d->op) {
	case 0x0d:			/* prefetch/prefetchw */
	case 0x18:			/* prefetch*, hint nops */
	case 0x19: case 0x1c ... 0x1f:	/* hint nops, nop r/m */
		set(o, K_NOACC, true, 0);
		break;
	case 0x10: case 0x12: case 0x14: case 0x15: case 0x16:
	case 0x28: case 0x2a: case 0x2c ... 0x2f:
	case 0x40 ... 0x4f:		/* cmovcc */
	case 0x51 ... 0x6f:
	case 0x74 ... 0x76: case 0x7c: case 0x7d:
	case 0xa3:			/* bt */
	case 0xaf:			/* imul */
	case 0xb2: case 0xb4: case 0xb5: /* lss/lfs/lgs */
	case 0xb6: case 0xb7: case 0xbe: case 0xbf: /* movzx/movsx */
	case 0xbc: case 0xbd:		/* bsf/bsr/tzcnt/lzcnt */
	case 0xd0 ... 0xd5: case 0xd8 ... 0xe6: case 0xe8 ... 0xf6: case 0xf8 ... 0xfe:
		set(o, K_READ, true, 0);
		break;
	case 0x70:			/* pshuf* imm8 */
	case 0xc2: case 0xc4: case 0xc6:
		set(o, K_READ, true, 1);
		break;
	case 0x11: case 0x13: case 0x17: case 0x29:
	case 0x2b:			/* movntps/pd, AMD movntss/sd */
	case 0x7f:
	case 0x90 ... 0x9f:		/* setcc */
	case 0xa5: case 0xad:		/* shld/shrd by cl */
	case 0xab: case 0xb3: case 0xbb: /* bts/btr/btc */
	case 0xb0: case 0xb1:		/* cmpxchg */
	case 0xc0: case 0xc1:		/* xadd */
	case 0xc3:			/* movnti */
	case 0xe7:			/* movntq/movntdq */
		set(o, K_WRITE, true, 0);
		break;
	case 0xa4: case 0xac:		/* shld/shrd imm8 */
		set(o, K_WRITE, true, 1);
		break;
	case 0x7e:			/* F3: movq xmm, m64; else movd/movq r/m, (x)mm */
		set(o, d->pp == 2 ? K_READ : K_WRITE, true, 0);
		break;
	case 0xd6:			/* 66: movq xmm/m64, xmm (F2/F3 forms are register-only) */
		if (d->pp == 1)
			set(o, K_WRITE, true, 0);
		break;
	case 0xb8:			/* F3: popcnt */
		if (d->pp == 2)
			set(o, K_READ, true, 0);
		break;
	case 0xf7:			/* maskmovq/maskmovdqu: a masked store to [rdi] */
		set(o, K_IMPL_WRITE, true, 0);
		break;
	case 0xa0: case 0xa8:		/* push fs/gs */
		set(o, K_PUSH, false, 0);
		break;
	case 0xa1: case 0xa9:
		set(o, K_POP, false, 0);
		break;
	case 0xae: case 0xc7:		/* fxsave..clflush; cmpxchg8b, xsavec.. */
		set(o, K_GROUP, true, 0);
		break;
	case 0xba:			/* bt/bts/btr/btc imm8 */
		set(o, K_GROUP, true, 1);
		break;
	}
}

/* 0F 38 xx, legacy encoding. */
static void map2(const struct dec *d, struct op *o)
{
	switch (d->op) {
	case 0x00 ... 0x0b: case 0x10: case 0x14: case 0x15: case 0x17:
	case 0x1c ... 0x1e: case 0x20 ... 0x25: case 0x28 ... 0x2b:
	case 0x30 ... 0x35: case 0x37 ... 0x41:
	case 0xc8 ... 0xcd: case 0xcf: case 0xdb ... 0xdf:
		set(o, K_READ, true, 0);
		break;
	case 0xf0:			/* movbe r, m; F2: crc32 */
		set(o, K_READ, true, 0);
		break;
	case 0xf1:			/* movbe m, r; F2: crc32 */
		set(o, d->rep == 0xf2 ? K_READ : K_WRITE, true, 0);
		break;
	case 0xf6:			/* 66: adcx, F3: adox (none: wrss) */
		if (d->pp == 1 || d->pp == 2)
			set(o, K_READ, true, 0);
		break;
	case 0xf9:			/* movdiri */
		if (d->pp == 0)
			set(o, K_WRITE, true, 0);
		break;
	}
}

/* 0F 3A xx ib, legacy encoding. */
static void map3(const struct dec *d, struct op *o)
{
	switch (d->op) {
	case 0x08 ... 0x0f: case 0x20 ... 0x22: case 0x40 ... 0x42: case 0x44:
	case 0x60 ... 0x63: case 0xcc: case 0xce: case 0xcf: case 0xdf:
		set(o, K_READ, true, 1);
		break;
	case 0x14 ... 0x17:		/* pextrb/w/d/q, extractps */
		set(o, K_WRITE, true, 1);
		break;
	}
}

/* VEX-encoded, maps 1-3. */
static void vex(const struct dec *d, struct op *o)
{
	unsigned b = d->op;

	if (d->map == 1) {
		switch (b) {
		case 0x10: case 0x12: case 0x14 ... 0x16:
		case 0x28: case 0x2a: case 0x2c ... 0x2f:
		case 0x51 ... 0x6f: case 0x74 ... 0x76: case 0x7c: case 0x7d:
		case 0x90:		/* kmov k, m */
		case 0xd0 ... 0xd5: case 0xd8 ... 0xe6: case 0xe8 ... 0xf6: case 0xf8 ... 0xfe:
			set(o, K_READ, true, 0);
			break;
		case 0x70: case 0xc2: case 0xc4: case 0xc6:
			set(o, K_READ, true, 1);
			break;
		case 0x11: case 0x13: case 0x17: case 0x29: case 0x2b: case 0x7f: case 0xe7:
		case 0x91:		/* kmov m, k */
			set(o, K_WRITE, true, 0);
			break;
		case 0x7e:
			set(o, d->pp == 2 ? K_READ : K_WRITE, true, 0);
			break;
		case 0xd6:
			if (d->pp == 1)
				set(o, K_WRITE, true, 0);
			break;
		case 0xf7:		/* vmaskmovdqu */
			set(o, K_IMPL_WRITE, true, 0);
			break;
		case 0xae:		/* vldmxcsr, vstmxcsr */
			set(o, K_GROUP, true, 0);
			break;
		}
	} else if (d->map == 2) {
		switch (b) {
		case 0x00 ... 0x0f: case 0x13: case 0x16 ... 0x1a: case 0x1c ... 0x1e:
		case 0x20 ... 0x25: case 0x28 ... 0x2d: case 0x30 ... 0x41:
		case 0x45 ... 0x47: case 0x50 ... 0x53: case 0x58 ... 0x5a:
		case 0x78: case 0x79: case 0x8c:
		case 0x90 ... 0x93: case 0x96 ... 0x9f: case 0xa6 ... 0xaf:
		case 0xb0: case 0xb1: case 0xb4 ... 0xbf:
		case 0xcf: case 0xdb ... 0xdf: case 0xf2: case 0xf5 ... 0xf7:
			set(o, K_READ, true, 0);
			break;
		case 0x2e: case 0x2f:	/* vmaskmovps/pd m, mask, v */
		case 0x8e:		/* vpmaskmovd/q m, mask, v */
			set(o, K_WRITE, true, 0);
			break;
		case 0xf3:		/* blsr/blsmsk/blsi */
			set(o, K_GROUP, true, 0);
			break;
		}
	} else if (d->map == 3) {
		switch (b) {
		case 0x00 ... 0x02: case 0x04 ... 0x06: case 0x08 ... 0x0f:
		case 0x18: case 0x20 ... 0x22: case 0x38: case 0x40 ... 0x42:
		case 0x44: case 0x46: case 0x48 ... 0x4c: case 0x60 ... 0x63:
		case 0x5c ... 0x5f: case 0x68 ... 0x6f: case 0x78 ... 0x7f:	/* AMD FMA4 */
		case 0xce: case 0xcf: case 0xdf: case 0xf0:
			set(o, K_READ, true, 1);
			break;
		case 0x14 ... 0x17:	/* vpextr*, vextractps */
		case 0x19: case 0x39:	/* vextractf128, vextracti128 */
		case 0x1d:		/* vcvtps2ph */
			set(o, K_WRITE, true, 1);
			break;
		}
	}
}

/* EVEX-encoded (AVX-512), maps 1-3. */
static void evex(const struct dec *d, struct op *o)
{
	unsigned b = d->op;

	if (d->map == 1) {
		switch (b) {
		case 0x10: case 0x12: case 0x14 ... 0x16:
		case 0x28: case 0x2a: case 0x2c ... 0x2f:
		case 0x51 ... 0x6f: case 0x74 ... 0x76: case 0x78 ... 0x7b:
		case 0xd1 ... 0xd5: case 0xd8 ... 0xe6: case 0xe8 ... 0xef:
		case 0xf1 ... 0xf6: case 0xf8 ... 0xfe:
			set(o, K_READ, true, 0);
			break;
		case 0x70 ... 0x73:	/* EVEX allows a memory source for shifts by imm8 */
		case 0xc2: case 0xc4: case 0xc6:
			set(o, K_READ, true, 1);
			break;
		case 0x11: case 0x13: case 0x17: case 0x29: case 0x2b: case 0x7f: case 0xe7:
			set(o, K_WRITE, true, 0);
			break;
		case 0x7e:
			set(o, d->pp == 2 ? K_READ : K_WRITE, true, 0);
			break;
		case 0xd6:
			if (d->pp == 1)
				set(o, K_WRITE, true, 0);
			break;
		}
	} else if (d->map == 2) {
		/* F3 10-15, 20-25, 30-35: vpmov* narrowing to memory. */
		if (d->pp == 2 && ((b >= 0x10 && b <= 0x15) || (b >= 0x20 && b <= 0x25) ||
				   (b >= 0x30 && b <= 0x35))) {
			set(o, K_WRITE, true, 0);
			return;
		}
		switch (b) {
		case 0x00 ... 0x2f: case 0x30 ... 0x47: case 0x4c ... 0x4f:
		case 0x50 ... 0x55: case 0x58 ... 0x5b: case 0x62: case 0x64 ... 0x66:
		case 0x70 ... 0x73: case 0x75 ... 0x7f: case 0x83: case 0x88: case 0x89: case 0x8d:
		case 0x90 ... 0x93: case 0x96 ... 0x9f: case 0xa6 ... 0xaf:
		case 0xb4 ... 0xbf: case 0xc4: case 0xc8 ... 0xcd: case 0xcf: case 0xdc ... 0xdf:
			set(o, K_READ, true, 0);
			break;
		case 0x63:		/* vpcompressb/w */
		case 0x8a: case 0x8b:	/* vcompressps/pd, vpcompressd/q */
		case 0xa0 ... 0xa3:	/* scatters */
			set(o, K_WRITE, true, 0);
			break;
		}
	} else if (d->map == 3) {
		switch (b) {
		case 0x00 ... 0x06: case 0x08 ... 0x0f: case 0x18: case 0x1a: case 0x1e: case 0x1f:
		case 0x20 ... 0x27: case 0x38: case 0x3a: case 0x3e: case 0x3f: case 0x42 ... 0x44:
		case 0x50: case 0x51: case 0x54 ... 0x57: case 0x66: case 0x67:
		case 0x70 ... 0x73: case 0xce: case 0xcf:
			set(o, K_READ, true, 1);
			break;
		case 0x14 ... 0x17: case 0x19: case 0x1b: case 0x1d: case 0x39: case 0x3b:
			set(o, K_WRITE, true, 1);
			break;
		}
	}
}

/* x87 with a memory operand: the stores (fst, fstp, fist*, fisttp,
 * fnstenv, fnstcw, fnsave, fnstsw, fbstp) by opcode and ModRM.reg as a
 * bitmask of reg values; everything else with memory loads. */
static enum kind x87(unsigned op, unsigned reg)
{
	static const unsigned char stores[8] = {
		[0x1] = 0xcc,	/* D9: /2 /3 /6 /7 */
		[0x3] = 0x8e,	/* DB: /1 /2 /3 /7 */
		[0x5] = 0xce,	/* DD: /1 /2 /3 /6 /7 */
		[0x7] = 0xce,	/* DF: /1 /2 /3 /6 /7 */
	};
	static const unsigned char invalid[8] = {
		[0x1] = 0x02,	/* D9 /1 */
		[0x3] = 0x50,	/* DB /4 /6 */
		[0x5] = 0x20,	/* DD /5 */
	};

	if (invalid[op & 7] & (1u << reg))
		return K_NONE;
	return stores[op & 7] & (1u << reg) ? K_WRITE : K_READ;
}

/* Groups, by ModRM.reg. */
static void group(const struct dec *d, struct op *o)
{
	unsigned r = d->reg;
	enum kind k = K_NONE;

	if (d->enc == ENC_LEGACY && d->map == 0) {
		switch (d->op) {
		case 0x80: case 0x81: case 0x83:	/* /7 cmp */
			k = r == 7 ? K_READ : K_WRITE;
			break;
		case 0x8f:
			k = r == 0 ? K_POP_MEM : K_NONE;
			break;
		case 0xc6:
			if (r == 0) {
				k = K_WRITE;
				o->imm = 1;
			}
			break;
		case 0xc7:
			if (r == 0) {
				k = K_WRITE;
				o->imm = imm_z(d);
			}
			break;
		case 0xd8 ... 0xdf:
			k = x87(d->op, r);
			break;
		case 0xf6: case 0xf7:
			if (r <= 1)
				o->imm = d->op == 0xf6 ? 1 : imm_z(d);
			/* /0 /1 test, /4-/7 mul/imul/div/idiv read; /2 not, /3 neg write */
			k = r == 2 || r == 3 ? K_WRITE : K_READ;
			break;
		case 0xfe:
			k = r <= 1 ? K_WRITE : K_NONE;
			break;
		case 0xff:
			if (r <= 1)
				k = K_WRITE;		/* inc, dec */
			else if (r == 2 || r == 3 || r == 6)
				k = K_PUSH_MEM;	/* call, call far, push */
			else if (r == 4 || r == 5)
				k = K_READ;		/* jmp, jmp far */
			break;
		}
	} else if (d->enc == ENC_LEGACY && d->map == 1) {
		switch (d->op) {
		case 0xae:
			if (d->mod == 3)
				break;
			if (d->pp == 0) {
				static const enum kind g15[8] = {
					K_WRITE, K_READ, K_READ, K_WRITE,	/* fxsave fxrstor ldmxcsr stmxcsr */
					K_WRITE, K_READ, K_WRITE, K_NOACC,	/* xsave xrstor xsaveopt clflush */
				};
				k = g15[r];
			} else if (d->pp == 1 && r >= 6) {
				k = K_NOACC;		/* clwb, clflushopt */
			} else if (d->pp == 2 && r == 4) {
				k = K_READ;		/* ptwrite */
			}
			break;
		case 0xc7:
			if (d->mod == 3 || d->pp != 0)
				break;
			if (r == 1 || r == 4 || r == 5)
				k = K_WRITE;		/* cmpxchg8b/16b, xsavec, xsaves */
			else if (r == 3)
				k = K_READ;		/* xrstors */
			break;
		case 0xba:
			if (r == 4)
				k = K_READ;
			else if (r > 4)
				k = K_WRITE;
			break;
		}
	} else if (d->enc == ENC_VEX && d->map == 1 && d->op == 0xae) {
		if (r == 2)
			k = K_READ;
		else if (r == 3)
			k = K_WRITE;
	} else if (d->enc == ENC_VEX && d->map == 2 && d->op == 0xf3) {
		if (r >= 1 && r <= 3)
			k = K_READ;
	}
	o->kind = k;
}

static bool legacy_prefix(unsigned b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return true;
	}
	return false;
}

/* Decodes D's bytes into O; false when the opcode is not recognised (or
 * the bytes ran out before it was). */
static bool decode(struct dec *d, struct op *o)
{
	unsigned b;

	o->kind = K_NONE;
	for (;;) {
		if (d->i >= d->n) {
			d->cut = true;
			return false;
		}
		b = d->p[d->i];
		if (b >= 0x40 && b <= 0x4f) {
			d->rex = b;
		} else if (legacy_prefix(b)) {
			/* A REX that is not last is ignored. */
			d->rex = 0;
			if (b == 0x66)
				d->opsize = true;
			else if (b == 0x67)
				d->adsize = true;
			else if (b == 0xf0)
				d->lock = true;
			else if (b == 0xf2 || b == 0xf3)
				d->rep = b;
			else if (b == 0x64 || b == 0x65)
				d->seg = b;
			else
				d->seg = 0;
		} else {
			break;
		}
		d->i++;
	}
	d->i++;
	if (b == 0xc4 || b == 0xc5 || b == 0x62) {
		unsigned p0, p1;

		/* In 64-bit mode these are always VEX/EVEX; 66, F2, F3, lock
		 * or REX before them is #UD (SIGILL, not ours). */
		if (d->opsize || d->rep || d->lock || d->rex)
			return false;
		if (!next(d, &p0))
			return false;
		if (b == 0xc5) {
			d->enc = ENC_VEX;
			d->map = 1;
			d->pp = p0 & 3;
		} else {
			if (!next(d, &p1))
				return false;
			d->enc = b == 0xc4 ? ENC_VEX : ENC_EVEX;
			d->map = b == 0xc4 ? p0 & 0x1f : p0 & 7;
			d->w = p1 >> 7;
			d->pp = p1 & 3;
			/* X and B extend the index and base registers as REX's
			 * do, stored inverted. */
			d->rex = 0x40 | (p0 & 0x40 ? 0 : 2) | (p0 & 0x20 ? 0 : 1);
			if (b == 0x62 && !next(d, &d->evex_p2))
				return false;
		}
		if (!next(d, &d->op))
			return false;
		if (d->enc == ENC_VEX)
			vex(d, o);
		else
			evex(d, o);
	} else {
		d->enc = ENC_LEGACY;
		d->w = d->rex & 8;
		d->op = b;
		if (b == 0x0f) {
			if (!next(d, &d->op))
				return false;
			d->map = 1;
			if (d->op == 0x38 || d->op == 0x3a) {
				d->map = d->op == 0x38 ? 2 : 3;
				if (!next(d, &d->op))
					return false;
			}
		}
		d->pp = d->rep == 0xf3 ? 2 : d->rep == 0xf2 ? 3 : d->opsize ? 1 : 0;
		switch (d->map) {
		case 0: map0(d, o); break;
		case 1: map1(d, o); break;
		case 2: map2(d, o); break;
		case 3: map3(d, o); break;
		}
	}
	if (o->kind == K_NONE)
		return false;
	d->mod = 3;
	if (o->modrm) {
		size_t at = d->i;

		/* Cut short after the ModRM byte, the verdict is still known;
		 * without it, nothing is. */
		if (!modrm(d) && d->i == at)
			return false;
	}
	if (o->kind == K_GROUP) {
		group(d, o);
		if (o->kind == K_NONE)
			return false;
	}
	skip(d, o->imm);
	return true;
}

/* The memory operand's address, for the stack instructions that also have
 * one (legacy encoding: no EVEX disp8 scaling).  LEN: the whole length,
 * for rip-relative operands. */
static bool effective_address(const struct dec *d, const uint64_t *regs, size_t len, uint64_t *ea)
{
	uint64_t a = (uint64_t)d->disp;

	if (!regs || d->mod == 3 || d->enc != ENC_LEGACY || d->cut)
		return false;
	if (d->base == BASE_RIP) {
		if (!len)
			return false;
		a += regs[R_RIP] + len;
	} else if (d->base >= 0) {
		a += regs[gpr_index[d->base]];
	}
	if (d->index >= 0)
		a += regs[gpr_index[d->index]] << d->scale;
	if (d->adsize)
		a = (uint32_t)a;
	if (d->seg == 0x64)
		a += regs[R_FS_BASE];
	else if (d->seg == 0x65)
		a += regs[R_GS_BASE];
	*ea = a;
	return true;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* push and call write the 8 bytes below rsp; "at rsp" too, for callers
 * whose rsp was taken a little late. */
static bool pushes_to(const uint64_t *regs, uint64_t fault)
{
	return regs && fault <= regs[R_RSP] && regs[R_RSP] - fault <= 8;
}

static bool in8(uint64_t fault, uint64_t at)
{
	return fault - at < 8;
}

enum rc_access insn_access_len(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault,
			       size_t *len)
{
	struct dec d = { .p = code, .n = MIN(n, (size_t)INSN_MAX) };
	struct op o = { K_NONE, 0, false };
	bool known;
	size_t whole = 0;
	uint64_t ea;

	*len = 0;
	if (!code)
		d.n = 0;
	if (regs && fault == regs[R_RIP])
		return RC_ACCESS_EXEC;
	if (d.n == 0)
		return fault == 0 ? RC_ACCESS_EXEC : RC_ACCESS_UNKNOWN;

	known = decode(&d, &o);
	if (known && !d.cut)
		*len = whole = d.i;
	/* Longer than 15 bytes: #GP, which reports no address. */
	if (d.cut && n >= INSN_MAX)
		return RC_ACCESS_UNKNOWN;

	/* The fetch itself faulted: inside the instruction's bytes (a page
	 * that cannot be executed), or just where the readable bytes end
	 * while the decoder needed more. */
	if (regs && fault > regs[R_RIP] && fault - regs[R_RIP] < INSN_MAX) {
		uint64_t off = fault - regs[R_RIP];
		if ((whole && off < whole) || (d.cut && n < INSN_MAX && off == n))
			return RC_ACCESS_EXEC;
	}
	if (!known)
		return RC_ACCESS_UNKNOWN;

	switch (o.kind) {
	case K_READ:
	case K_WRITE:
		if (o.modrm && d.mod == 3)
			return RC_ACCESS_UNKNOWN;
		return o.kind == K_READ ? RC_ACCESS_READ : RC_ACCESS_WRITE;
	case K_IMPL_READ:
		return RC_ACCESS_READ;
	case K_IMPL_WRITE:
		return RC_ACCESS_WRITE;
	case K_MOVS: {
		if (!regs)
			return RC_ACCESS_UNKNOWN;
		uint64_t src = regs[R_RSI], dst = regs[R_RDI];
		if (d.adsize) {
			src = (uint32_t)src;
			dst = (uint32_t)dst;
		}
		if (d.seg == 0x64)
			src += regs[R_FS_BASE];
		else if (d.seg == 0x65)
			src += regs[R_GS_BASE];
		/* The element that faulted is at the register, or (fast
		 * strings copy ahead) a little past it: the nearer of the
		 * two, within a page, and never a tie. */
		uint64_t ds = distance(fault, src), dd = distance(fault, dst);
		if (ds < dd && ds <= 4096)
			return RC_ACCESS_READ;
		if (dd < ds && dd <= 4096)
			return RC_ACCESS_WRITE;
		return RC_ACCESS_UNKNOWN;
	}
	case K_PUSH:
		return pushes_to(regs, fault) ? RC_ACCESS_WRITE : RC_ACCESS_UNKNOWN;
	case K_POP:
		return regs && in8(fault, regs[R_RSP]) ? RC_ACCESS_READ : RC_ACCESS_UNKNOWN;
	case K_LEAVE:
		return regs && in8(fault, regs[R_RBP]) ? RC_ACCESS_READ : RC_ACCESS_UNKNOWN;
	case K_PUSH_MEM:
		/* Two accesses: without rsp, which one faulted is not known.
		 * The operand is read before anything is pushed (a far
		 * pointer is 10 bytes). */
		if (!regs)
			return RC_ACCESS_UNKNOWN;
		if (d.mod != 3) {
			bool known_ea = effective_address(&d, regs, whole, &ea);
			if (known_ea && fault - ea < 16)
				return RC_ACCESS_READ;
			if (pushes_to(regs, fault))
				return known_ea ? RC_ACCESS_WRITE : RC_ACCESS_UNKNOWN;
			return RC_ACCESS_READ;
		}
		return pushes_to(regs, fault) ? RC_ACCESS_WRITE : RC_ACCESS_UNKNOWN;
	case K_POP_MEM:
		/* Reads [rsp], then writes the operand, whose rsp-based
		 * address is computed after the increment. */
		if (!regs)
			return RC_ACCESS_UNKNOWN;
		if (d.mod == 3)
			return in8(fault, regs[R_RSP]) ? RC_ACCESS_READ : RC_ACCESS_UNKNOWN;
		if (in8(fault, regs[R_RSP])) {
			if (!effective_address(&d, regs, whole, &ea))
				return RC_ACCESS_UNKNOWN;
			if (!in8(fault, ea + (d.base == 4 ? 8 : 0)))
				return RC_ACCESS_READ;
		}
		return RC_ACCESS_WRITE;
	case K_NOACC:
	case K_NONE:
	case K_GROUP:
		break;
	}
	return RC_ACCESS_UNKNOWN;
}

enum rc_access insn_access(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault)
{
	size_t len;

	return insn_access_len(code, n, regs, fault, &len);
}

/* EVEX scales an 8-bit displacement by the memory operand's size (Intel
 * SDM 2.7.5).  For the full-vector moves that is the vector length; the
 * other tuple types are not worked out here. */
static bool evex_disp8_scale(const struct dec *d, unsigned *n)
{
	bool bcast = d->evex_p2 & 0x10;
	unsigned op = d->op;

	if (d->map != 1 || bcast)
		return false;
	if (((op == 0x10 || op == 0x11) && d->pp <= 1) || op == 0x28 || op == 0x29 || op == 0x6f ||
	    op == 0x7f || op == 0xe7 || op == 0x2b) {
		*n = 16u << ((d->evex_p2 >> 5) & 3);
		return true;
	}
	return false;
}

static uint64_t seg_base(const struct dec *d, const uint64_t *regs)
{
	return d->seg == 0x64 ? regs[R_FS_BASE] : d->seg == 0x65 ? regs[R_GS_BASE] : 0;
}

bool insn_mem_operand(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault,
		      struct rc_insn_mem *out)
{
	struct dec d = { .p = code, .n = MIN(n, (size_t)INSN_MAX) };
	struct op o = { K_NONE, 0, false };
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!regs || !code)
		return false;
	out->access = insn_access_len(code, n, regs, fault, &len);
	if (out->access != RC_ACCESS_READ && out->access != RC_ACCESS_WRITE)
		return false;
	if (!decode(&d, &o) || d.cut)
		return false;
	out->scale = 1;
	switch (o.kind) {
	case K_MOVS:
	case K_IMPL_READ:
	case K_IMPL_WRITE: {
		/* cmps reads both: the one nearer the fault, as movs. */
		uint64_t src = regs[R_RSI], dst = regs[R_RDI];
		unsigned op = d.enc == ENC_LEGACY && d.map == 0 ? d.op : 0;
		bool via_rsi;
		if (op == 0xd7)
			return false;	/* xlat: rbx + al */
		if (op == 0xa6 || op == 0xa7)
			via_rsi = distance(fault, src) <= distance(fault, dst);
		else if (op == 0xa4 || op == 0xa5)
			via_rsi = out->access == RC_ACCESS_READ;
		else
			via_rsi = op == 0xac || op == 0xad;
		uint64_t v = via_rsi ? src : dst;
		if (d.adsize)
			v = (uint32_t)v;
		out->has_base = true;
		out->base = v;
		out->ea_known = true;
		/* Only the source may take a segment override. */
		out->ea = v + (via_rsi ? seg_base(&d, regs) : 0);
		return true;
	}
	case K_READ:
	case K_WRITE:
		break;
	case K_PUSH_MEM:
		/* push or call through memory: its operand, when that is what
		 * faulted, not the push */
		if (out->access != RC_ACCESS_READ)
			return false;
		break;
	default:
		return false;
	}
	if (!o.modrm || d.mod == 3)
		return false;	/* moffs: an absolute address, no pointer */
	uint64_t a;
	bool known = true;
	if (d.enc == ENC_EVEX && d.mod == 1) {
		unsigned scale;
		known = evex_disp8_scale(&d, &scale);
		a = known ? (uint64_t)(d.disp * (int64_t)scale) : 0;
	} else {
		a = (uint64_t)d.disp;
	}
	if (d.base == BASE_RIP) {
		out->has_base = true;
		out->base = regs[R_RIP] + len;
	} else if (d.base >= 0) {
		out->has_base = true;
		out->base = regs[gpr_index[d.base]];
	}
	/* A gather's or scatter's index is a vector register. */
	bool vsib = d.enc != ENC_LEGACY && d.map == 2 &&
		    ((d.op >= 0x90 && d.op <= 0x93) || (d.op >= 0xa0 && d.op <= 0xa3));
	if (vsib) {
		known = false;
	} else if (d.index >= 0) {
		out->has_index = true;
		out->index = regs[gpr_index[d.index]];
		out->scale = 1u << d.scale;
	}
	if (!out->has_base && !out->has_index)
		return false;
	a += out->base + out->index * out->scale;
	if (d.adsize)
		a = (uint32_t)a;
	out->ea = a + seg_base(&d, regs);
	out->ea_known = known;
	return true;
}

const char *insn_access_verb(enum rc_access a)
{
	switch (a) {
	case RC_ACCESS_READ:
		return "reading";
	case RC_ACCESS_WRITE:
		return "writing";
	case RC_ACCESS_EXEC:
		return "executing";
	case RC_ACCESS_UNKNOWN:
		break;
	}
	return NULL;
}
