/* A core file in memory: mapped as it is, or decompressed when
 * systemd-coredump stored it compressed (.zst, .xz, .lz4; recognised by
 * their magic bytes, not the name). */
#ifndef RC_CRASH_DECOMPRESS_H
#define RC_CRASH_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* A decompressed core larger than this is refused: the input is
 * untrusted, and a few bytes of zstd can claim terabytes. */
#define RC_CORE_MAX_BYTES (64ULL << 30)

struct core_image {
	unsigned char *data;
	size_t size;
	bool mapped;		/* mmap'ed (plain file), else malloc'ed */
	bool borrowed;		/* the caller's bytes (core_image_decode, plain) */
	const char *format;	/* "zstd", "xz", "lz4", or NULL when plain */
};

/* Loads PATH; returns 0, or -1 with one line in ERR. */
int core_image_load(struct core_image *im, const char *path, struct strbuf *err);
/* The same for bytes in memory [IN, IN+N) named NAME in messages: a
 * plain core is used in place (borrowed), a compressed one decoded. */
int core_image_decode(struct core_image *im, const unsigned char *in, size_t n, const char *name,
		      struct strbuf *err);
void core_image_release(struct core_image *im);
/* The compressed cores read, with their libraries, for --version:
 * "zstd 1.5.4, xz 5.4.1, lz4 1.9.4". */
void core_image_formats(struct strbuf *out);

#endif
