/* gpu-unavailable: no usable NVIDIA GPU.
 *
 * What a machine without one shows: the device nodes (/dev/nvidiactl,
 * /dev/nvidia0, /dev/nvidia-uvm) failing to open -- ENOENT without the
 * driver or in a container started without the GPU, EACCES/EPERM when the
 * user may not use them, ENXIO/ENODEV when the driver is loaded but the
 * device is gone -- and the driver's user-space libraries (libcuda.so.1,
 * libnvidia-ml.so.1 for NVML) or the CUDA runtime (libcudart.so.N) that
 * the loader or dlopen found in no directory.
 *
 * A program that never asked for a GPU leaves none of these traces, and
 * gets no finding: Debian's CPU-only torch touches none of them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "event/syscalls.h"
#include "rules/aggregate.h"
#include "rules/call-kinds.h"
#include "rules/finding.h"
#include "rules/paths.h"
#include "rules/proc-view.h"
#include "rules/rule.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/xlat.h"

#define GPU_MAX_KEYS 256	/* (process, library) pairs and devices tracked */

struct gpu_item {
	bool ok;		/* a later open of it worked */
	bool device;
	char *path;		/* device path, or library name */
	char *line;		/* the first failure */
	char *syscall;
	int err;
	int pid;
	long long count;
	uint64_t seq;
	double ts;
};

struct gpu_state {
	struct hmap items;	/* "dev:/dev/x" or "leader/libname" -> struct gpu_item* */
	struct strbuf key;
	long long dropped;
};

static void item_free(void *p)
{
	struct gpu_item *it = p;

	if (!it)
		return;
	free(it->path);
	free(it->line);
	free(it->syscall);
	free(it);
}

static void gpu_init(void *state)
{
	struct gpu_state *st = state;
	hmap_init(&st->items);
	strbuf_init(&st->key);
}

static void gpu_release(void *state)
{
	struct gpu_state *st = state;
	hmap_release(&st->items, item_free);
	strbuf_release(&st->key);
}

/* Looks at a file by its path: the stats, access, readlink. */
static bool is_lookup(long nr)
{
	return syscall_is(nr, CL_LOOK);
}

static void gpu_on_event(void *state, const struct rc_event *e, const struct rc_ctx *ctx)
{
	struct gpu_state *st = state;
	bool device;

	if (e->kind != RC_EV_SYSCALL || !e->path || !e->path[0])
		return;
	if (!rule_is_open(e->nr) && !is_lookup(e->nr))
		return;
	const char *base = fp_base(e->path);
	if (fp_gpu_device(e->path))
		device = true;
	else if (rule_is_open(e->nr) && fp_gpu_library(base))
		device = false;
	else
		return;

	if (device) {
		strbuf_reset(&st->key);
		strbuf_addf(&st->key, "dev:%s", e->path);
	} else {
		rule_proc_key(&st->key, ctx, e->pid, base, strlen(base));
	}
	void **slot = hmap_get(&st->items, st->key.buf, st->key.len);
	if (e->err == 0) {
		if (slot && e->ret_known)
			((struct gpu_item *)*slot)->ok = true;
		return;
	}
	if (e->interrupted)
		return;
	/* A library is missing only when the loader found it nowhere. */
	if (!device && e->err != ENOENT && e->err != ENOTDIR)
		return;
	if (!slot) {
		if (st->items.count >= GPU_MAX_KEYS) {
			st->dropped++;
			return;
		}
		slot = hmap_put(&st->items, st->key.buf, st->key.len, NULL);
		struct gpu_item *it = xcalloc(1, sizeof(*it));
		it->device = device;
		it->path = xstrdup(device ? e->path : base);
		it->line = rule_line_short(e);
		it->syscall = xstrdup(e->name ? e->name : "?");
		it->err = e->err;
		it->pid = e->pid;
		it->seq = e->seq;
		it->ts = e->ts;
		*slot = it;
	}
	struct gpu_item *it = *slot;
	it->ok = false;
	it->count++;
	/* For a library the last directory searched is the telling line. */
	if (!device && it->count > 1 && e->line) {
		free(it->line);
		it->line = rule_line_short(e);
	}
	it->pid = e->pid;
	it->seq = e->seq;
	it->ts = e->ts;
	/* An open's error says more than a stat's. */
	if (rule_is_open(e->nr) && it->err != e->err) {
		it->err = e->err;
		free(it->syscall);
		it->syscall = xstrdup(e->name ? e->name : "?");
	}
}

static int rank_item(const struct gpu_item *it)
{
	if (it->device)
		return strstr(it->path, "nvidiactl") ? 0 : 1;
	if (strncmp(it->path, "libcuda.", 8) == 0)
		return 2;
	if (strncmp(it->path, "libnvidia-ml", 12) == 0)
		return 3;
	return 4;
}

static int cmp_items(const void *a, const void *b)
{
	const struct gpu_item *x = *(void *const *)a, *y = *(void *const *)b;
	int rx = rank_item(x), ry = rank_item(y);
	if (rx != ry)
		return rx - ry;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static const char *what_library(const char *name)
{
	if (strncmp(name, "libcudart", 9) == 0)
		return "CUDA runtime";
	if (strncmp(name, "libcuda.", 8) == 0)
		return "NVIDIA driver library";
	if (strncmp(name, "libnvidia-ml", 12) == 0)
		return "NVIDIA management library (NVML)";
	return "NVIDIA library";
}

/* What still failed at the end. */
static bool failing(const void *value, const void *arg)
{
	return !((const struct gpu_item *)value)->ok;
}

static void gpu_finish(void *state, const struct rc_ctx *ctx, struct rc_findings *out)
{
	struct gpu_state *st = state;
	size_t n;
	void **v = rule_values(&st->items, failing, NULL, &n);
	long long total = 0;
	const struct gpu_item *latest = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct gpu_item *it = v[i];
		total += it->count;
		if (!latest || it->seq > latest->seq)
			latest = it;
	}
	if (n == 0) {
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), cmp_items);
	const struct gpu_item *lead = v[0];
	bool only_runtime = true;
	for (size_t i = 0; i < n; i++) {
		const struct gpu_item *it = v[i];
		if (it->device || strncmp(it->path, "libcudart", 9) != 0)
			only_runtime = false;
	}

	struct rc_finding *f;
	if (lead->device && (lead->err == EACCES || lead->err == EPERM))
		f = finding_add(out, "gpu-unavailable", RC_SEV_ERROR, RC_SEV_WARNING,
				"NVIDIA GPU device '%s' may not be opened (%s)", lead->path,
				lead->err == EACCES ? "permission denied" : "operation not permitted");
	else if (lead->device && lead->err == ENOENT)
		f = finding_add(out, "gpu-unavailable", RC_SEV_ERROR, RC_SEV_WARNING,
				"no NVIDIA GPU: '%s' does not exist (no driver loaded, or no GPU passed through)",
				lead->path);
	else if (lead->device)
		f = finding_add(out, "gpu-unavailable", RC_SEV_ERROR, RC_SEV_WARNING,
				"no usable NVIDIA GPU: opening '%s' failed with %s", lead->path,
				xlat_errno_name(lead->err) ? xlat_errno_name(lead->err) : "an error");
	else
		f = finding_add(out, "gpu-unavailable", RC_SEV_ERROR, RC_SEV_WARNING,
				"no usable NVIDIA GPU: %s '%s' not found", what_library(lead->path), lead->path);

	/* A container's own /dev, against this machine's: what it was not
	 * given (live traces only: a log's machine is not this one). */
	bool in_container = lookup_in_own_root(ctx->lookup, latest->pid);
	struct stat host_st;
	int host_has = in_container && lead->device ? lookup_stat(ctx->lookup, 0, lead->path, &host_st) : -1;
	if (in_container && host_has == 1)
		finding_now(f, lead->path);
	f->pid = latest->pid;
	finding_set(&f->syscall, lead->syscall);
	f->err = lead->err;
	finding_set(&f->path, lead->path);
	f->count = total;
	f->seq = latest->seq;
	f->ts = latest->ts;
	f->unrecovered = true;
	finding_echo_word(f, "cuda");
	finding_echo_word(f, "nvidia");
	finding_echo_word(f, "gpu");
	for (size_t i = 0; i < n && f->nevidence < RC_EVIDENCE_MAX; i++)
		rule_evidence(f, ((const struct gpu_item *)v[i])->line);

	if (lead->device && (lead->err == EACCES || lead->err == EPERM))
		finding_setf(&f->advice, "let the user open the NVIDIA devices: add it to the group that owns "
			     "/dev/nvidia* (ls -l /dev/nvidia*, often 'video'), or in a container pass the GPU "
			     "through (docker run --gpus all with the NVIDIA container toolkit)");
	else if (only_runtime)
		finding_setf(&f->advice, "install the CUDA runtime the program was built against (the CUDA toolkit, "
			     "or the nvidia-cuda-runtime wheel for pip builds) and make it visible to the loader "
			     "(LD_LIBRARY_PATH or ldconfig)");
	else if (lead->device && lead->err == ENOENT && in_container && host_has == 1)
		finding_setf(&f->advice, "this machine has '%s' but the container does not: start the container "
			     "with the GPU (docker run --gpus all, or podman run --device nvidia.com/gpu=all with "
			     "the NVIDIA Container Toolkit's CDI spec, nvidia-ctk cdi generate)", lead->path);
	else if (lead->device && lead->err == ENOENT && in_container && host_has == 0)
		finding_setf(&f->advice, "neither the container nor this machine has '%s': the NVIDIA driver is not "
			     "loaded here (nvidia-smi on the host must work) before a container can be given the "
			     "GPU; otherwise run the program on the CPU (e.g. CUDA_VISIBLE_DEVICES= or the "
			     "program's device option)", lead->path);
	else
		finding_setf(&f->advice, "this machine shows no working NVIDIA driver: install it (nvidia-smi must "
			     "work), or in a container start it with the GPU (docker run --gpus all, NVIDIA "
			     "container toolkit); otherwise run the program on the CPU (e.g. CUDA_VISIBLE_DEVICES= "
			     "or the program's device option)");
	if (st->dropped > 0)
		finding_setf(&f->message, "%lld more GPU-related failures not tracked", st->dropped);
	free(v);
}

const struct rc_rule_ops rc_rule_gpu_unavailable_ops = {
	.state_size = sizeof(struct gpu_state),
	.init = gpu_init,
	.on_event = gpu_on_event,
	.reads = { .classes = CL_OPEN, .call = is_lookup },
	.finish = gpu_finish,
	.release = gpu_release,
};
