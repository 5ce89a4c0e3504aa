/* A file's mappings in a live process, found from one address in them
 * without reading /proc/PID/maps.
 *
 * A stack that runs through a library loaded since the unwinder last read
 * the process's modules makes it read them again. libdwfl's
 * dwfl_linux_proc_report reads the whole of /proc/PID/maps for that (a
 * PyTorch program has 1,700 mappings: 3 ms, twenty times at start-up),
 * when only the new library is wanted. The kernel's PROCMAP_QUERY (Linux
 * 6.11) answers for one address at a time. What is found here is the
 * module dwfl_linux_proc_report would have reported for that library: a
 * run of mappings of one file, from its mapping of file offset 0 to the
 * last before another file's. */
#ifndef RC_CRASH_PROCMAP_H
#define RC_CRASH_PROCMAP_H

#include <stdint.h>

/* The run of mappings of the file mapped at ADDR, in the process whose
 * /proc/PID/maps is open as MAPS_FD: [*LOW, *HIGH), its path in *NAME
 * (malloc'd). Returns 1 when found; 0 when ADDR is in no file's mapping
 * (memory of no file, or none), where the maps would show no module
 * either; CRASH_PROCMAP_UNSURE when this cannot tell what the maps would
 * show (a deleted file, a run that does not start at offset 0 where its
 * mappings say it should: the caller reads the maps); -1 when the kernel
 * has no PROCMAP_QUERY. */
#define CRASH_PROCMAP_UNSURE 2
int crash_procmap_file_run(int maps_fd, uint64_t addr, uint64_t *low, uint64_t *high, char **name);

#endif
