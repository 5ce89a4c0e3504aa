/* A plugin of ours, built twice: as libplugin_cuda.so (a stand-in for a
 * CUDA kernel launcher, so the gpu-crash rule sees frames in a *_cuda*
 * module) and as libplugin.so (an ordinary native plugin).  It reads a
 * tensor through a stale pointer: the pages were unmapped, so the read
 * faults with SEGV_MAPERR at an ordinary (not near-NULL) address, inside
 * the plugin, not in libc. */
#include <stddef.h>
#include <sys/mman.h>

#define NOIPA __attribute__((noipa))
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

NOIPA static float reduce_tensor(const float *t, size_t n)
{
	float s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += ((const volatile float *)t)[i];
	KEEP_FRAME();
	return s;
}

NOIPA float plugin_launch(size_t n)
{
	float *t = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	float r;

	if (t == MAP_FAILED)
		return -1;
	t[0] = 1;
	munmap(t, 1 << 16);	/* the bug: the tensor is freed before use */
	r = reduce_tensor(t, n);
	KEEP_FRAME();
	return r;
}
