/* Which way the faulting instruction of a SIGSEGV touched memory: a small
 * x86_64 decoder, so that a crash finding can say "faulted reading 0x10"
 * (what gdb users learn from `x/i $pc`) and not just "faulted at 0x10".
 *
 * It knows what compilers and glibc's string functions emit: legacy
 * prefixes, REX, VEX and EVEX; ModRM/SIB/displacement to tell a memory
 * operand (mod != 3) from a register; the integer moves, ALU forms and
 * groups, push/pop/call/ret, string instructions, x87 loads and stores, the
 * SSE/AVX/AVX-512 moves and the SIMD ops of memcpy/memset/strlen (whose
 * memory operand is read).  What it does not know is UNKNOWN: it never
 * guesses.  Pure: no I/O, no allocation, never reads CODE past N. */
#ifndef RC_CRASH_INSN_H
#define RC_CRASH_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rc_access { RC_ACCESS_UNKNOWN, RC_ACCESS_READ, RC_ACCESS_WRITE, RC_ACCESS_EXEC };

/* CODE: the bytes at the faulting pc, up to 15 (N less when the rest is
 * unreadable, 0 when the pc itself is).  REGS: the thread's registers in
 * user_regs_struct order (as rc_crash's regs; RC_CRASH_NREGS of them), or
 * NULL: then the answers that need them (movs, the stack of push/call/ret,
 * a fetch fault) are UNKNOWN.  FAULT: si_addr.
 *
 * - EXEC: FAULT is the pc, or lies inside the instruction's own bytes (its
 *   fetch crossed into a page that cannot be executed), or N is 0 and
 *   FAULT is 0 (a jump to an unreadable address; a general-protection
 *   fault also reports 0, hence only when the pc is unreadable).
 * - A read-modify-write (add to memory, inc, xchg, cmpxchg, lock'ed ops)
 *   is WRITE, although an unmapped page faults on its read half.
 * - movs: a fault nearer rsi than rdi (within a page) is READ, nearer rdi
 *   WRITE.  The other string instructions touch memory one way only.
 * - push, call: a fault at or up to 8 bytes below rsp is WRITE (the stack
 *   overflowed); pop, ret read [rsp, rsp + 8), leave [rbp, rbp + 8).  A
 *   call or push through memory reads its operand otherwise.
 * - lea, nop and prefetch touch no memory: UNKNOWN, as is any instruction
 *   with no memory operand (e.g. hlt or in/out, whose #GP reports 0).
 * A general-protection fault (a non-canonical address) reports FAULT 0
 * and still gets the instruction's verdict. */
enum rc_access insn_access(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault);

/* The same, and in *LEN the instruction's length when it was recognised
 * and all of it is within N (0 otherwise): what the tests compare with
 * the assembler's. */
enum rc_access insn_access_len(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault,
			       size_t *len);

/* The pointer a faulting data access went through: the memory operand's
 * base and index registers (a string instruction's rsi or rdi), and the
 * effective address they make, for rules that ask which object the access
 * was computed from (bad-file-mapping: a pointer into a file mapping whose
 * access landed past its end). */
struct rc_insn_mem {
	enum rc_access access;		/* READ or WRITE */
	bool has_base, has_index;
	uint64_t base, index;		/* the registers' values; index unscaled */
	unsigned scale;			/* 1, 2, 4 or 8 */
	/* base + index * scale + displacement (+ fs/gs base), when known: not
	 * for EVEX's compressed 8-bit displacements of tuple types other than
	 * full-vector moves. */
	bool ea_known;
	uint64_t ea;
};

/* Fills *OUT for the data access at the faulting pc (arguments as for
 * insn_access, REGS required); false when the access is not a read or a
 * write through registers: unknown, an instruction fetch, the stack's own
 * push/pop/call/ret (a push or call through memory that faulted reading
 * its operand does name the operand's registers), an absolute address. */
bool insn_mem_operand(const unsigned char *code, size_t n, const uint64_t *regs, uint64_t fault,
		      struct rc_insn_mem *out);

/* "reading", "writing", "executing"; NULL for UNKNOWN (and anything else). */
const char *insn_access_verb(enum rc_access a);

#endif
