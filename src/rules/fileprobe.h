/* Small path predicates shared by the file rules (missing-file,
 * permission-denied, exec-failed, missing-library, gpu-unavailable) and the
 * noise classifier, so that each kind of path has exactly one owner:
 * shared objects belong to missing-library, NVIDIA devices and driver
 * libraries to gpu-unavailable. */
#ifndef RC_RULES_FILEPROBE_H
#define RC_RULES_FILEPROBE_H

#include <stdbool.h>
#include <string.h>

/* The last component of PATH ("" for "dir/"). */
static inline const char *fp_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* "libfoo.so", "libfoo.so.1.2", "_C.cpython-311-x86_64-linux-gnu.so". */
static inline bool fp_is_shared_object(const char *base)
{
	const char *p = base;

	while ((p = strstr(p, ".so")) != NULL) {
		const char *q = p + 3;
		if (*q == '.') {
			while (*q == '.' || (*q >= '0' && *q <= '9'))
				q++;
		}
		if (*q == '\0')
			return true;
		p += 3;
	}
	return false;
}

/* The NVIDIA driver's and CUDA's libraries: libcuda.so.1, libcudart.so.12,
 * libnvidia-ml.so.1 (NVML), libnvcuvid... */
static inline bool fp_gpu_library(const char *base)
{
	return fp_is_shared_object(base) &&
	       (strncmp(base, "libcuda", 7) == 0 || strncmp(base, "libnvidia-", 10) == 0 ||
		strncmp(base, "libnvcuvid", 10) == 0);
}

/* /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-caps/... and
 * the driver's /proc entries. */
static inline bool fp_gpu_device(const char *path)
{
	return strncmp(path, "/dev/nvidia", 11) == 0 || strncmp(path, "/proc/driver/nvidia", 19) == 0;
}

#endif
