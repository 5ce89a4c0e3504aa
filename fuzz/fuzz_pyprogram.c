/* libFuzzer entry for the reader of a Python's walk from its files
 * (crash/pyprogram.c, crash_python_program): any bytes, as the program
 * file rootcause is about to run. The file is handed over as a memfd
 * (/proc/self/fd/N), read as the program is: its ELF headers, segments,
 * symbol tables and dynamic section, then _PyRuntime's initial bytes
 * through the Python reader's layouts.
 *
 * Beyond no crash and no sanitizer report: an answer of 1, 0 or -1; a
 * walk whose offsets fit a kernel's 16-bit fields as they are given
 * (-1 or a small offset); one line of error. fuzz/run seeds it with
 * small shared objects that define _PyRuntime as 3.11 and 3.13 do. Run it as:
 *   fuzz_pyprogram -max_len=65536 -timeout=10 CORPUS_DIR */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "crash/python.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct rc_py_program p;
	struct strbuf err = STRBUF_INIT;

	if (fd < 0 && (fd = memfd_create("fuzz_pyprogram", 0)) < 0)
		__builtin_trap();
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int r = crash_python_program(path, &p, &err);
	if (r < -1 || r > 1)
		__builtin_trap();
	if (r < 0 && (!err.len || strchr(strbuf_str(&err), '\n')))
		__builtin_trap();
	if (r == 1 && (p.walk.interp_head < 0 || p.walk.first_hop < 0 || p.walk.frame_code < 0 ||
		       p.walk.frame_back < 0 || (p.walk.instr_size != 4 && p.walk.instr_size != 8)))
		__builtin_trap();
	strbuf_release(&err);
	return 0;
}
