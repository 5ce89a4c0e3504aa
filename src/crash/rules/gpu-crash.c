/* gpu-crash: the crashed thread is in CUDA or GPU driver code.  The
 * driver is rarely the culprit, but what the user must check changes: the
 * driver and runtime versions, the device, the kernel's launch arguments. */
#include <string.h>

#include "crash/rules.h"

static bool gpu_module(const char *path)
{
	static const char *const prefixes[] = {
		"libcuda.", "libcudart", "libnvidia-", "libcublas", "libcudnn", "libnvrtc", "libcufft",
		"libcurand", "libcusparse", "libnccl",
	};
	const char *b = crash_basename(path);

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(b, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return strstr(b, "_cuda") != NULL;
}

void crash_rule_gpu_crash(const struct rc_crash *c, struct rc_findings *out)
{
	const struct rc_thread *t = crash_thread(c);

	for (size_t i = 0; t && i < t->nframes; i++) {
		const struct rc_frame *fr = &t->frames[i];
		if (!fr->module || !gpu_module(fr->module->name))
			continue;
		struct strbuf sig = STRBUF_INIT;
		crash_signal_str(c, &sig);
		struct rc_finding *f = crash_finding(c, out, "gpu-crash", "%s in GPU code: %s (frame #%zu%s%s)",
			sig.buf, crash_basename(fr->module->name), i, fr->function ? ", " : "",
			fr->function ? fr->function : "");
		finding_set(&f->path, fr->module->name);
		finding_setf(&f->advice, "check that the CUDA runtime, the driver (nvidia-smi) and the "
			     "framework were built for each other, and that the device has memory; run "
			     "with CUDA_LAUNCH_BLOCKING=1 to stop at the failing launch.");
		strbuf_release(&sig);
		return;
	}
}
