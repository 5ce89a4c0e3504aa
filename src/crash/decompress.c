/* Loading a core: mmap a plain file; decompress systemd-coredump's zstd,
 * xz and lz4 files into memory, bounded by RC_CORE_MAX_BYTES. */
#include "crash/decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "util/util.h"

/* Output grows by doubling from the input's size times this. */
#define GROWTH_START 8

struct out {
	unsigned char *buf;
	size_t len, cap;
};

/* Room for WANT more bytes, or false with ERR saying the cap was hit. */
static bool out_room(struct out *o, size_t want, struct strbuf *err)
{
	if (o->cap - o->len >= want)
		return true;
	size_t cap = o->cap ? o->cap : 1 << 20;
	while (cap - o->len < want) {
		if (cap >= RC_CORE_MAX_BYTES) {
			strbuf_addf(err, "decompresses to more than %llu GiB", RC_CORE_MAX_BYTES >> 30);
			return false;
		}
		cap *= 2;
	}
	o->buf = xrealloc(o->buf, cap);
	o->cap = cap;
	return true;
}

static int unzstd(const unsigned char *in, size_t n, struct out *o, struct strbuf *err)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t r = 0;

	if (!z) {
		strbuf_adds(err, "out of memory");
		return -1;
	}
	ZSTD_initDStream(z);
	while (ib.pos < ib.size) {
		if (!out_room(o, ZSTD_DStreamOutSize(), err)) {
			ZSTD_freeDStream(z);
			return -1;
		}
		ZSTD_outBuffer ob = { o->buf + o->len, o->cap - o->len, 0 };
		r = ZSTD_decompressStream(z, &ob, &ib);
		o->len += ob.pos;
		if (ZSTD_isError(r)) {
			ZSTD_freeDStream(z);
			strbuf_addf(err, "bad zstd data: %s", ZSTD_getErrorName(r));
			return -1;
		}
		if (r == 0 && ib.pos == ib.size)
			break;
	}
	ZSTD_freeDStream(z);
	/* A cut-off stream still gives what it held: a truncated core is
	 * read for what it has. */
	return 0;
}

static int unxz(const unsigned char *in, size_t n, struct out *o, struct strbuf *err)
{
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_ret r = lzma_stream_decoder(&z, UINT64_MAX, 0);

	if (r != LZMA_OK) {
		strbuf_adds(err, "cannot start the xz decoder");
		return -1;
	}
	z.next_in = in;
	z.avail_in = n;
	for (;;) {
		if (!out_room(o, 1 << 20, err)) {
			lzma_end(&z);
			return -1;
		}
		z.next_out = o->buf + o->len;
		z.avail_out = o->cap - o->len;
		size_t before = z.avail_out;
		r = lzma_code(&z, z.avail_in ? LZMA_RUN : LZMA_FINISH);
		o->len += before - z.avail_out;
		if (r == LZMA_STREAM_END)
			break;
		if (r == LZMA_BUF_ERROR)
			break;	/* truncated input: keep what came out */
		if (r != LZMA_OK) {
			lzma_end(&z);
			strbuf_addf(err, "bad xz data (error %d)", (int)r);
			return -1;
		}
	}
	lzma_end(&z);
	return 0;
}

static int unlz4(const unsigned char *in, size_t n, struct out *o, struct strbuf *err)
{
	LZ4F_dctx *z;
	size_t pos = 0;

	if (LZ4F_isError(LZ4F_createDecompressionContext(&z, LZ4F_VERSION))) {
		strbuf_adds(err, "cannot start the lz4 decoder");
		return -1;
	}
	while (pos < n) {
		if (!out_room(o, 1 << 20, err)) {
			LZ4F_freeDecompressionContext(z);
			return -1;
		}
		size_t src = n - pos, dst = o->cap - o->len;
		size_t r = LZ4F_decompress(z, o->buf + o->len, &dst, in + pos, &src, NULL);
		if (LZ4F_isError(r)) {
			LZ4F_freeDecompressionContext(z);
			strbuf_addf(err, "bad lz4 data: %s", LZ4F_getErrorName(r));
			return -1;
		}
		o->len += dst;
		pos += src;
		if (r == 0 || (src == 0 && dst == 0))
			break;
	}
	LZ4F_freeDecompressionContext(z);
	return 0;
}

int core_image_load(struct core_image *im, const char *path, struct strbuf *err)
{
	struct stat st;

	memset(im, 0, sizeof(*im));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		strbuf_addf(err, "cannot open core '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		strbuf_addf(err, "cannot read core '%s': %s", path,
			    S_ISREG(st.st_mode) ? "the file is empty" : "not a regular file");
		close(fd);
		return -1;
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		strbuf_addf(err, "cannot read core '%s': %s", path, strerror(errno));
		return -1;
	}
	int r = core_image_decode(im, p, (size_t)st.st_size, path, err);
	if (r < 0 || !im->format) {
		if (r < 0)
			munmap(p, (size_t)st.st_size);
		else
			im->mapped = true, im->borrowed = false;	/* plain: the mapping is the image */
		return r;
	}
	munmap(p, (size_t)st.st_size);
	return 0;
}

int core_image_decode(struct core_image *im, const unsigned char *in, size_t n, const char *name,
		      struct strbuf *err)
{
	static const unsigned char zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const unsigned char xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char lz4_magic[] = { 0x04, 0x22, 0x4d, 0x18 };
	int (*decode)(const unsigned char *, size_t, struct out *, struct strbuf *) = NULL;

	memset(im, 0, sizeof(*im));
	if (n >= sizeof(zstd_magic) && memcmp(in, zstd_magic, sizeof(zstd_magic)) == 0)
		decode = unzstd, im->format = "zstd";
	else if (n >= sizeof(xz_magic) && memcmp(in, xz_magic, sizeof(xz_magic)) == 0)
		decode = unxz, im->format = "xz";
	else if (n >= sizeof(lz4_magic) && memcmp(in, lz4_magic, sizeof(lz4_magic)) == 0)
		decode = unlz4, im->format = "lz4";
	if (!decode) {
		im->data = (unsigned char *)in;
		im->size = n;
		im->borrowed = true;
		return 0;
	}
	struct out o = { NULL, 0, 0 };
	struct strbuf why = STRBUF_INIT;
	int r = decode(in, n, &o, &why);
	if (r < 0 || o.len == 0) {
		strbuf_addf(err, "cannot read core '%s': %s", name,
			    r < 0 ? why.buf : "the compressed file holds nothing");
		strbuf_release(&why);
		free(o.buf);
		im->format = NULL;
		return -1;
	}
	strbuf_release(&why);
	im->data = o.buf;
	im->size = o.len;
	return 0;
}

void core_image_release(struct core_image *im)
{
	if (im->mapped)
		munmap(im->data, im->size);
	else if (!im->borrowed)
		free(im->data);
	memset(im, 0, sizeof(*im));
}

void core_image_formats(struct strbuf *out)
{
	strbuf_addf(out, "zstd %s, xz %s, lz4 %s", ZSTD_versionString(), lzma_version_string(), LZ4_versionString());
}
