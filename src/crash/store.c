/* The core store: receive (compress, cap, guard), prune, list, and the
 * core_pattern that points the kernel at us. */
#include "crash/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "util/util.h"

#define PATTERN_FILE "/proc/sys/kernel/core_pattern"
/* The kernel keeps 128 bytes of core_pattern, its NUL included. */
#define PATTERN_MAX 127
/* How much is read between two looks at the disk's free space. */
#define GUARD_EVERY (64ULL << 20)

void store_config_default(struct store_config *cfg)
{
	cfg->max_size = 8ULL << 30;
	cfg->keep_free = 1ULL << 30;
	cfg->keep = 20;
	cfg->max_age_days = 30;
}

int store_config_load(const char *dir, struct store_config *cfg, struct strbuf *err)
{
	char path[4096], line[256];

	store_config_default(cfg);
	snprintf(path, sizeof(path), "%s/config", dir);
	FILE *f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		if (sscanf(line, "max_size=%llu", &v) == 1)
			cfg->max_size = v;
		else if (sscanf(line, "keep_free=%llu", &v) == 1)
			cfg->keep_free = v;
		else if (sscanf(line, "keep=%llu", &v) == 1)
			cfg->keep = (unsigned)MIN(v, 1000000ULL);
		else if (sscanf(line, "max_age_days=%llu", &v) == 1)
			cfg->max_age_days = (unsigned)MIN(v, 1000000ULL);
	}
	fclose(f);
	return 0;
}

int store_config_save(const char *dir, const struct store_config *cfg, struct strbuf *err)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/config", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fprintf(f, "# rootcause cores: written by 'rootcause cores install'\n"
		"max_size=%llu\nkeep_free=%llu\nkeep=%u\nmax_age_days=%u\n",
		(unsigned long long)cfg->max_size, (unsigned long long)cfg->keep_free, cfg->keep,
		cfg->max_age_days);
	if (fclose(f) != 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int store_pattern(const char *bin, const char *dir, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "|%s cores receive %s %%P %%i %%s %%t %%e", bin, dir);
	return out->len <= PATTERN_MAX ? 0 : -1;
}

bool store_dir_of_pattern(const char *pattern, struct strbuf *dir)
{
	const char *p = strstr(pattern, " cores receive ");

	if (pattern[0] != '|' || !p)
		return false;
	p += strlen(" cores receive ");
	size_t n = strcspn(p, " ");
	if (!n || p[0] != '/')
		return false;
	strbuf_reset(dir);
	strbuf_add(dir, p, n);
	return true;
}

int store_read_pattern(struct strbuf *out, struct strbuf *err)
{
	char buf[512];
	int fd = open(PATTERN_FILE, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0) {
		strbuf_addf(err, "cannot read '%s': %s", PATTERN_FILE, strerror(errno));
		return -1;
	}
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	strbuf_reset(out);
	strbuf_add(out, buf, (size_t)n);
	return 0;
}

int store_write_pattern(const char *pattern, struct strbuf *err)
{
	int fd = open(PATTERN_FILE, O_WRONLY | O_CLOEXEC);
	size_t n = strlen(pattern);

	if (fd < 0 || write(fd, pattern, n) != (ssize_t)n) {
		strbuf_addf(err, "cannot set '%s': %s%s", PATTERN_FILE, strerror(errno),
			    errno == EACCES || errno == EPERM || errno == EROFS ?
			    " (it needs root, and a writable /proc/sys)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* The file-name-safe form of the kernel's %e (the comm may hold '/'). */
static void safe_name(const char *s, struct strbuf *out)
{
	for (; s && *s && out->len < 64; s++)
		strbuf_addc(out, (*s == '/' || *s == '.' || *s == ' ' || (unsigned char)*s < 0x20) ? '_' : *s);
	if (!out->len)
		strbuf_adds(out, "unknown");
}

int store_receive(const char *dir, const struct store_config *cfg, const struct store_crash *sc,
		  FILE *in, struct strbuf *path, struct strbuf *note, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, tmp = STRBUF_INIT;

	safe_name(sc->comm, &name);
	strbuf_reset(path);
	strbuf_addf(path, "%s/core.%lld.%ld.%s.zst", dir, sc->time, sc->pid, name.buf);
	strbuf_addf(&tmp, "%s.part", path->buf);
	strbuf_release(&name);

	int fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		strbuf_addf(err, "cannot write '%s': %s", tmp.buf, strerror(errno));
		strbuf_release(&tmp);
		return -1;
	}
	ZSTD_CCtx *z = ZSTD_createCCtx();
	size_t isz = ZSTD_CStreamInSize(), osz = ZSTD_CStreamOutSize();
	unsigned char *ibuf = xmalloc(isz), *obuf = xmalloc(osz);
	uint64_t total = 0, next_guard = 0;
	bool ok = z != NULL, cut = false, guarded = false;

	if (z) {
		ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, 3);
		ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 1);
	}
	while (ok) {
		size_t want = isz;
		if (total + want > cfg->max_size)
			want = (size_t)(cfg->max_size - total);
		if (total >= next_guard) {
			struct statvfs vfs;
			if (statvfs(dir, &vfs) == 0 &&
			    (uint64_t)vfs.f_bavail * vfs.f_frsize < cfg->keep_free + GUARD_EVERY) {
				guarded = true;
				break;
			}
			next_guard = total + GUARD_EVERY;
		}
		size_t n = want ? fread(ibuf, 1, want, in) : 0;
		bool last = n == 0;
		if (!want && !feof(in)) {
			/* The cap: what is left of the core is read and dropped,
			 * so that the kernel is not kept waiting on the pipe. */
			cut = true;
			while (fread(ibuf, 1, isz, in) > 0)
				;
		}
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
		size_t left;
		do {
			ZSTD_outBuffer ob = { obuf, osz, 0 };
			left = ZSTD_compressStream2(z, &ob, &ib, mode);
			if (ZSTD_isError(left) || !write_all(fd, obuf, ob.pos)) {
				ok = false;
				break;
			}
		} while (last ? left != 0 : ib.pos < ib.size);
		total += n;
		if (last)
			break;
	}
	if (guarded) {
		/* Finish the frame with what came; the rest is dropped. */
		ZSTD_inBuffer ib = { ibuf, 0, 0 };
		size_t left;
		do {
			ZSTD_outBuffer ob = { obuf, osz, 0 };
			left = ZSTD_compressStream2(z, &ob, &ib, ZSTD_e_end);
			if (ZSTD_isError(left) || !write_all(fd, obuf, ob.pos))
				break;
		} while (left != 0);
		while (fread(ibuf, 1, isz, in) > 0)
			;
	}
	ZSTD_freeCCtx(z);
	free(ibuf);
	free(obuf);
	if (close(fd) != 0)
		ok = false;
	if (!ok || total == 0 || rename(tmp.buf, path->buf) != 0) {
		if (guarded && total == 0)
			strbuf_addf(err, "not stored: the disk under '%s' has less than keep_free (%llu MiB) left",
				    dir, (unsigned long long)(cfg->keep_free >> 20));
		else if (total == 0)
			strbuf_addf(err, "no core came on standard input");
		else
			strbuf_addf(err, "cannot write '%s': %s", tmp.buf, strerror(errno ? errno : EIO));
		unlink(tmp.buf);
		strbuf_release(&tmp);
		return -1;
	}
	strbuf_release(&tmp);
	if (cut)
		strbuf_addf(note, "the core was cut at the size cap (%llu MiB; max_size in %s/config)",
			    (unsigned long long)(cfg->max_size >> 20), dir);
	if (guarded)
		strbuf_addf(note, "the core was cut after %llu MiB: the disk has less than keep_free "
			    "(%llu MiB) left", (unsigned long long)(total >> 20),
			    (unsigned long long)(cfg->keep_free >> 20));
	return 0;
}

/* Writes N bytes of P to PATH through PATH.part (mode 0600). */
static int write_file(const char *path, const char *p, size_t n, struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT;
	int r = 0;

	strbuf_addf(&tmp, "%s.part", path);
	int fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !write_all(fd, p, n) || close(fd) != 0 || rename(tmp.buf, path) != 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0)
			unlink(tmp.buf);
		r = -1;
	}
	strbuf_release(&tmp);
	return r;
}

bool store_incident_seen(const char *dir, const char *id, struct store_seen *seen)
{
	char path[4096], text[1024];

	memset(seen, 0, sizeof(*seen));
	if (!store_is_incident(id) || strlen(id) >= sizeof(seen->id))
		return false;
	snprintf(seen->id, sizeof(seen->id), "%s", id);
	snprintf(path, sizeof(path), "%s/%s.count", dir, id);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	return store_parse_seen(text, seen);
}

/* The number after KEY at the start of one of TEXT's lines (signed
 * with SIGN), into *OUT; false when there is none, or it is no
 * number that fits. */
static bool count_field(const char *text, const char *key, bool sign, long long *out)
{
	size_t n = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, n) != 0)
			continue;
		const char *p = l + n;
		char *end;
		errno = 0;
		long long v = sign ? strtoll(p, &end, 10) : (long long)strtoull(p, &end, 10);
		if (errno || end == p || (!sign && (*p == '-' || v < 0)) || (*end && *end != '\n'))
			return false;
		*out = v;
		return true;
	}
	return false;
}

bool store_parse_seen(const char *text, struct store_seen *seen)
{
	long long count = 0;

	seen->first = seen->last = 0;
	if (!count_field(text, "count=", false, &count) || count <= 0)
		return false;
	seen->count = (unsigned long long)count;
	if (!count_field(text, "first=", true, &seen->first))
		seen->first = 0;
	if (!count_field(text, "last=", true, &seen->last))
		seen->last = seen->first;
	return true;
}

int store_incident(const char *dir, const struct store_config *cfg, const struct store_incident *in,
		   struct store_seen *seen, struct strbuf *err)
{
	char id[32], path[4096];
	struct store_seen old;
	struct strbuf count = STRBUF_INIT;

	snprintf(id, sizeof(id), "incident.%016llx", (unsigned long long)in->signature);
	bool known = store_incident_seen(dir, id, &old);
	memset(seen, 0, sizeof(*seen));
	snprintf(seen->id, sizeof(seen->id), "%s", id);
	seen->count = known ? old.count + 1 : 1;
	seen->first = known ? old.first : in->time;
	seen->last = in->time;
	struct statvfs vfs;
	if (!known && statvfs(dir, &vfs) == 0 && (uint64_t)vfs.f_bavail * vfs.f_frsize < cfg->keep_free) {
		strbuf_addf(err, "incident %s not stored: the disk under '%s' has less than keep_free (%llu MiB) "
			    "left", id + 9, dir, (unsigned long long)(cfg->keep_free >> 20));
		return -1;
	}
	size_t jl = strlen(in->json), tl = strlen(in->text);
	if (!known && jl + tl <= cfg->max_size) {
		snprintf(path, sizeof(path), "%s/%s.json", dir, id);
		if (write_file(path, in->json, jl, err) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/%s.txt", dir, id);
		if (write_file(path, in->text, tl, err) < 0)
			return -1;
		seen->stored = true;
	}
	strbuf_addf(&count, "# rootcause watch: one incident's repeats\ncount=%llu\nfirst=%lld\nlast=%lld\n"
		    "last_pid=%ld\n", seen->count, seen->first, seen->last, in->pid);
	snprintf(path, sizeof(path), "%s/%s.count", dir, id);
	int r = write_file(path, count.buf, count.len, err);
	strbuf_release(&count);
	if (r == 0)
		store_prune(dir, cfg);
	return r;
}

/* An entry's file that names it: a core's, or an incident's count.
 * Returns the length of its id; 0 when it names none. */
static size_t entry_name(const char *n)
{
	size_t len = strlen(n);
	if (strncmp(n, "core.", 5) == 0 && len > 9 && strcmp(n + len - 4, ".zst") == 0)
		return len - 4;
	if (store_is_incident(n) && len == 9 + 16 + 6 && strcmp(n + len - 6, ".count") == 0)
		return len - 6;
	return 0;
}

long long store_entry_time(const char *dir, const char *id)
{
	struct store_seen seen;

	if (store_is_incident(id))
		return store_incident_seen(dir, id, &seen) ? seen.last : 0;
	return strtoll(id + 5, NULL, 10);	/* "core.TIME." */
}

struct dated {
	char *id;
	double time;
};

/* For the order of the entries: an incident's count is rewritten at each
 * repeat, and its time of change tells apart two in one second. */
static double entry_order(const char *dir, const char *id)
{
	char path[4096];
	struct stat st;

	if (!store_is_incident(id))
		return (double)store_entry_time(dir, id);
	snprintf(path, sizeof(path), "%s/%s.count", dir, id);
	if (stat(path, &st) < 0)
		return 0;
	return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9;
}

static int cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;
	return x->time < y->time ? -1 : x->time > y->time ? 1 : strcmp(x->id, y->id);
}

char **store_list(const char *dir, size_t *n, struct strbuf *err)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t alloc = 0;

	*n = 0;
	if (!d) {
		strbuf_addf(err, "cannot read store '%s': %s", dir, strerror(errno));
		return NULL;
	}
	struct dirent *de;
	struct dated *dv = NULL;
	while ((de = readdir(d))) {
		size_t len = entry_name(de->d_name);
		if (!len)
			continue;
		if (*n == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			dv = xrealloc(dv, alloc * sizeof(*dv));
		}
		dv[*n].id = xstrndup(de->d_name, len);
		dv[*n].time = entry_order(dir, dv[*n].id);
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(dv, *n, sizeof(*dv), cmp_dated);
	v = xcalloc(*n + 1, sizeof(*v));
	for (size_t i = 0; i < *n; i++)
		v[i] = dv[i].id;
	free(dv);
	return v;
}

void store_list_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

static void remove_id(const char *dir, const char *id)
{
	char path[4096];

	static const char *const ext[] = { "zst", "json", "txt", "count" };

	for (size_t i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
		snprintf(path, sizeof(path), "%s/%s.%s", dir, id, ext[i]);
		unlink(path);
	}
}

int store_prune(const char *dir, const struct store_config *cfg)
{
	struct strbuf err = STRBUF_INIT;
	size_t n;
	char **ids = store_list(dir, &n, &err);
	int removed = 0;
	long long now = (long long)time(NULL);

	strbuf_release(&err);
	if (!ids)
		return 0;
	for (size_t i = 0; i < n; i++) {
		long long t = store_entry_time(dir, ids[i]);
		bool old = cfg->max_age_days && now - t > (long long)cfg->max_age_days * 86400;
		bool many = cfg->keep && n - (size_t)removed > cfg->keep;
		if (old || many) {
			remove_id(dir, ids[i]);
			removed++;
		}
	}
	store_list_free(ids, n);
	return removed;
}
