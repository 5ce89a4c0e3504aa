/* A crash inside a GPU plugin (libplugin_cuda.so, from plugin.c), on a
 * worker thread of its own, while main waits for it in pthread_join: the
 * crashed thread is not the main one, and its stack ends in start_thread
 * and clone3 rather than main.
 *
 * expect: rule=gpu-crash module=libplugin_cuda.so signal=SIGSEGV si_code=SEGV_MAPERR threads=4 crashed=worker
 * frames: reduce_tensor plugin_launch gpu_worker start_thread clone3
 * link: plugin_cuda
 */
#include "crashprog.h"

float plugin_launch(size_t n);

static float result;

static void *gpu_worker(void *arg)
{
	/* Crash only once main sleeps in pthread_join: a known stack. */
	wait_parked((pid_t)getpid(), SYS_futex);
	result = plugin_launch((size_t)arg);
	KEEP_FRAME();
	return NULL;
}

NOIPA static void run_inference(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, gpu_worker, (void *)(size_t)1024) != 0) {
		perror("pthread_create");
		exit(2);
	}
	pthread_setname_np(t, "gpu");
	pthread_join(t, NULL);
	KEEP_FRAME();
}

int main(void)
{
	start_workers();
	run_inference();
	printf("%f\n", result);
	return 0;
}
