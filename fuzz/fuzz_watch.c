/* libFuzzer entry for what `rootcause watch` parses from files it does
 * not write itself as it runs, from any bytes: a thread's
 * /proc/TID/syscall and /proc/TID/schedstat lines (watch/stall.h), its
 * /proc/TID/status (watch/recorder.h), and an incident's count file in
 * the store (crash/store.h), which anyone who can write the store may
 * have changed. The input's first byte picks the parser; for the stall's
 * two lines, the first NUL in the rest parts them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash/store.h"
#include "watch/recorder.h"
#include "watch/stall.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	text[size] = '\0';

	switch (data[0] % 3) {
	case 0: {
		/* The second line starts after the first's NUL (or is ""). */
		const char *sched = text + strlen(text) + (strlen(text) < size - 1 ? 1 : 0);
		uint64_t call;
		unsigned long long cpu;
		if (stall_parse(text, sched, &call, &cpu) && (text[0] < '0' || text[0] > '9'))
			__builtin_trap();
		break;
	}
	case 1: {
		pid_t tgid = 0, ppid = 0;
		if (recorder_parse_status(text, &tgid, &ppid) && (tgid <= 0 || ppid < 0))
			__builtin_trap();
		break;
	}
	default: {
		struct store_seen seen;
		memset(&seen, 0, sizeof(seen));
		if (store_parse_seen(text, &seen) && seen.count == 0)
			__builtin_trap();
		break;
	}
	}
	free(text);
	return 0;
}
