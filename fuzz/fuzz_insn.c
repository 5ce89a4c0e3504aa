/* libFuzzer entry for the faulting-instruction decoder (crash/insn.c).
 * Input: one byte of selectors, then the code bytes (up to 15 are used).
 * The selectors pick the registers (none, or a fixed set) and the fault
 * (0, a data address, the pc, below rsp, rsi, rdi, or just past the code).
 *
 * Beyond no crash and no sanitizer report (the code is copied to a buffer
 * of exactly N bytes, so a read past N is caught), the answer must be in
 * range, a length within N, and a decode that depends only on the
 * instruction's own bytes: the same verdict and length from exactly those
 * bytes and from all 15.  No seeds are needed: any bytes are
 * instructions.  Run it as:
 *   fuzz_insn -max_len=16 -timeout=10 CORPUS_DIR */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash/insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NREGS = 27, R_RSI = 13, R_RDI = 14, R_RIP = 16, R_RSP = 19 };

static enum rc_access decode(const uint8_t *code, size_t n, const uint64_t *regs, uint64_t fault, size_t *len)
{
	uint8_t *copy = malloc(n ? n : 1);
	enum rc_access a;

	if (!copy)
		__builtin_trap();
	memcpy(copy, code, n);
	a = insn_access_len(copy, n, regs, fault, len);
	free(copy);
	return a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[NREGS];
	uint64_t fault;
	const uint64_t *r;
	size_t n, len, len2;
	enum rc_access a, b;
	uint8_t full[15];

	if (size < 1)
		return 0;
	unsigned sel = data[0];
	data++;
	size--;
	n = size < 15 ? size : 15;

	for (int i = 0; i < NREGS; i++)
		regs[i] = 0x7f0000000000 + (uint64_t)i * 0x10000;
	regs[R_RIP] = 0x401000;
	r = sel & 0x80 ? NULL : regs;
	switch (sel & 7) {
	case 0: fault = 0; break;
	case 1: fault = 0x10; break;
	case 2: fault = regs[R_RIP]; break;
	case 3: fault = regs[R_RSP] - 8; break;
	case 4: fault = regs[R_RSI]; break;
	case 5: fault = regs[R_RDI]; break;
	case 6: fault = regs[R_RIP] + n; break;
	default: fault = regs[R_RSP]; break;
	}

	a = decode(data, n, r, fault, &len);
	if (a != RC_ACCESS_UNKNOWN && a != RC_ACCESS_READ && a != RC_ACCESS_WRITE && a != RC_ACCESS_EXEC)
		__builtin_trap();
	if (len > n)
		__builtin_trap();
	if ((insn_access_verb(a) == NULL) != (a == RC_ACCESS_UNKNOWN))
		__builtin_trap();
	if (insn_access(data, n, r, fault) != a)
		__builtin_trap();
	if (r && fault == regs[R_RIP] && a != RC_ACCESS_EXEC)
		__builtin_trap();
	if (len) {
		/* Decoded whole: its own bytes decide, not what follows.  (A
		 * fault past them but within 15 bytes of the pc reads
		 * differently once they are cut: skip those.) */
		if (!(r && fault > regs[R_RIP] && fault - regs[R_RIP] < 15 && fault - regs[R_RIP] >= len)) {
			b = decode(data, len, r, fault, &len2);
			if (b != a || len2 != len)
				__builtin_trap();
		}
		memset(full, 0xcc, sizeof(full));
		memcpy(full, data, len);
		b = decode(full, sizeof(full), r, fault, &len2);
		if (b != a || len2 != len)
			__builtin_trap();
	}
	return 0;
}
