/* A C++ exception nobody catches, thrown a few calls deep while the
 * workers wait: libstdc++'s terminate handler prints the type and what()
 * to stderr and calls abort(), and glibc's __abort_msg stays empty.  The
 * exception object is still in the core, and rootcause reads it there.
 *
 * expect: rule=abort module=crash-cxx signal=SIGABRT si_code=SI_TKILL threads=3 crashed=main
 * frames: std::terminate() __cxa_throw Header::check load_model main
 * exception: uncaught C++ exception std::out_of_range: model header: 0 layers
 */
#include <stdexcept>

#include "crashprog.h"

struct Header {
	int layers;
	NOIPA void check() const;
};

/* Throws unconditionally, so that -O2 keeps it whole (a conditional throw
 * goes into a ".cold" part, which gdb names with spaces). */
NOIPA void Header::check() const
{
	throw std::out_of_range("model header: " + std::to_string(layers) + " layers");
}

NOIPA static int load_model(void)
{
	Header h = { 0 };

	h.check();
	KEEP_FRAME();
	return h.layers;
}

int main(void)
{
	start_workers();
	printf("%d\n", load_model());
	KEEP_FRAME();
	return 0;
}
