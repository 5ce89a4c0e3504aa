/* A failed assert(): the model claims no layers, check_model's assertion
 * fails and glibc aborts with "... Assertion `model->n_layers > 0' failed."
 * (the message also lands in glibc's __abort_msg, which the core keeps).
 *
 * expect: rule=abort module=crash-assert signal=SIGABRT si_code=SI_TKILL threads=3 crashed=main
 * message: model->n_layers > 0
 * frames: check_model load_model main
 */
#undef NDEBUG
#include "crashprog.h"
#include <assert.h>

struct model {
	const char *name;
	int n_layers;
};

NOIPA static void check_model(const struct model *model)
{
	assert(model->n_layers > 0);
	KEEP_FRAME();
}

NOIPA static int load_model(const char *name)
{
	struct model *m = hide(calloc(1, sizeof(*m)));

	m->name = name;
	check_model(m);
	KEEP_FRAME();
	return m->n_layers;
}

int main(void)
{
	start_workers();
	printf("%d\n", load_model("tiny"));
	KEEP_FRAME();
	return 0;
}
