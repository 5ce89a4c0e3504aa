/* libFuzzer entry for what rootcause parses of a process's /proc files
 * that tell its container (lookup/container.h): a cgroup file and a mount
 * table, from any bytes (a hostile container writes neither, but a
 * kernel's or a namespace's may hold anything a path can). The input's
 * first byte picks the search the mount table gets. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lookup/container.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';

	struct container c;
	struct strbuf sb = STRBUF_INIT, root = STRBUF_INIT, point = STRBUF_INIT;
	if (container_from_cgroup(text, &c)) {
		container_describe(&c, &sb);
		if (strlen(c.cgroup) >= sizeof(c.cgroup) || strlen(c.id) > CONTAINER_ID_MAX ||
		    strlen(c.pod) >= sizeof(c.pod) || strlen(c.unit) >= sizeof(c.unit))
			__builtin_trap();
	}
	long id = data[0] & 1 ? (long)(data[0] >> 1) : -1;
	if (mountinfo_find(text, id, data[0] >> 4, data[0] & 15, "/srv/models/x.pt", &root, &point) &&
	    (!root.buf || !point.buf))
		__builtin_trap();
	strbuf_release(&sb);
	strbuf_release(&root);
	strbuf_release(&point);
	free(text);
	return 0;
}
