/* The core store of `rootcause cores`: kernel.core_pattern pipes every
 * core into `rootcause cores receive`, which keeps it zstd-compressed
 * (mode 0600) under the store's directory with a JSON report beside it,
 * within a per-core size cap and a keep-free disk guard, and prunes old
 * ones by count and age. */
#ifndef RC_CRASH_STORE_H
#define RC_CRASH_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "util/strbuf.h"

#define STORE_DEFAULT_DIR "/var/lib/rootcause/cores"

struct store_config {
	uint64_t max_size;	/* bytes of one core, uncompressed; beyond: cut */
	uint64_t keep_free;	/* bytes the disk keeps free; below: stop */
	unsigned keep;		/* cores kept; 0: no limit */
	unsigned max_age_days;	/* older ones are removed; 0: no limit */
};

void store_config_default(struct store_config *cfg);
/* DIR/config (key=value lines); missing keys keep their defaults. */
int store_config_load(const char *dir, struct store_config *cfg, struct strbuf *err);
int store_config_save(const char *dir, const struct store_config *cfg, struct strbuf *err);

/* The core_pattern that pipes cores to BIN for DIR; -1 when it would be
 * longer than the kernel takes (127 bytes). */
int store_pattern(const char *bin, const char *dir, struct strbuf *out);
/* The store directory named by core_pattern PATTERN, when it is ours. */
bool store_dir_of_pattern(const char *pattern, struct strbuf *dir);

/* Reads /proc/sys/kernel/core_pattern into OUT (no newline). */
int store_read_pattern(struct strbuf *out, struct strbuf *err);
int store_write_pattern(const char *pattern, struct strbuf *err);

/* What the kernel passes the handler (%P %i %s %t %e). */
struct store_crash {
	long pid, tid;
	int signo;
	long long time;
	const char *comm;
};

/* Stores the core read from IN into DIR: "core.TIME.PID.COMM.zst".
 * Sets PATH to the stored file.  A core cut by the size cap or the disk
 * guard is kept, and NOTE says so. */
int store_receive(const char *dir, const struct store_config *cfg, const struct store_crash *sc,
		  FILE *in, struct strbuf *path, struct strbuf *note, struct strbuf *err);

/* watch's incidents, in the same store: one entry per signature,
 * "incident.SIG" (SIG: 16 hex digits), its first report (SIG.json and
 * SIG.txt, mode 0600) and its count (SIG.count: how many times, first
 * and last seen, the last pid), so that a crash loop is one entry that
 * counts, not a hundred copies. */
struct store_incident {
	uint64_t signature;
	long long time;		/* seconds since the epoch */
	long pid;
	const char *json, *text;	/* the report, twice; NUL-ended */
};
struct store_seen {
	char id[32];		/* "incident.SIG" */
	unsigned long long count;
	long long first, last;
	bool stored;		/* the report was written (a new entry) */
};
/* Counts IN under DIR: a new signature's report is written, unless the
 * disk has less than CFG's keep_free left (then -1: nothing is) or the
 * report is larger than its max_size (then only the count is kept, and
 * SEEN->stored says so); a known one's count goes up. Prunes after. */
int store_incident(const char *dir, const struct store_config *cfg, const struct store_incident *in,
		   struct store_seen *seen, struct strbuf *err);
/* ID's count, when ID is an incident's. */
bool store_incident_seen(const char *dir, const char *id, struct store_seen *seen);
/* An incident's count file (TEXT) into SEEN's count, first and last;
 * false when it holds no count above 0. */
bool store_parse_seen(const char *text, struct store_seen *seen);
/* "core." or "incident." ID names a stored entry's kind. */
static inline bool store_is_incident(const char *id)
{
	return strncmp(id, "incident.", 9) == 0;
}

/* Removes stored cores and incidents (with their reports) beyond CFG's
 * count and age, oldest first (an incident dates from when it was last
 * seen). Returns how many were removed. */
int store_prune(const char *dir, const struct store_config *cfg);

/* The stored entries' ids ("core.TIME.PID.COMM", "incident.SIG"),
 * oldest first. */
char **store_list(const char *dir, size_t *n, struct strbuf *err);
void store_list_free(char **ids, size_t n);
/* When entry ID was stored (a core) or last seen (an incident). */
long long store_entry_time(const char *dir, const char *id);

#endif
