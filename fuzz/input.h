/* The fuzz targets' input, read as little-endian numbers.  Past its end
 * it reads as zeros, so that every input, however short, is a whole one
 * and the fuzzer's mutations of length never make a case unreachable. */
#ifndef RC_FUZZ_INPUT_H
#define RC_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
	const uint8_t *p;
	size_t left;
};

/* The next n (at most 8) bytes. */
static inline uint64_t fuzz_take(struct fuzz_input *in, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && in->left; i++) {
		v |= (uint64_t)in->p[0] << (8 * i);
		in->p++;
		in->left--;
	}
	return v;
}

#endif
