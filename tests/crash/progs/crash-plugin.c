/* A crash inside a shared library of ours (libplugin.so, from plugin.c):
 * the culprit module is the plugin, not the executable nor libc.
 *
 * expect: rule=native-crash module=libplugin.so signal=SIGSEGV si_code=SEGV_MAPERR threads=3 crashed=main
 * frames: reduce_tensor plugin_launch run_plugin main
 * link: plugin
 */
#include "crashprog.h"

float plugin_launch(size_t n);

NOIPA static float run_plugin(void)
{
	float r = plugin_launch(1024);

	KEEP_FRAME();
	return r;
}

int main(void)
{
	start_workers();
	printf("%f\n", run_plugin());
	KEEP_FRAME();
	return 0;
}
